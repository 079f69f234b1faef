import Foundation
import GGTrackerCore

extension LibraryRecords {
    /// Brings matched games into the player's library and wishlist in one transaction: new games are added, games
    /// already there get only what they lack (`ImportItem.merged`), a game wished for moves to the library when it
    /// comes in as owned. Nothing is announced and no activity is recorded: an import is not news of this week.
    /// The player is recorded under `displayName` when never seen.
    package func importItems(
        _ items: [(item: ImportItem, game: Game)], for player: PlayerID, displayName: String, at now: Date
    ) async throws -> ImportCounts {
        try await effect { db in
            let t = now.timeIntervalSince1970
            try await db.execute(
                """
                INSERT INTO players (id, display_name, created_at, last_seen_at) VALUES (?, ?, ?, ?)
                ON CONFLICT(id) DO NOTHING
                """, [player.rawValue, displayName, t, t])
            var entries: [Int64: LibraryEntry] = [:]
            var wished: Set<Int64> = []
            for chunk in Array(Set(items.map(\.game.id))).chunked(500) {
                let marks = Array(repeating: "?", count: chunk.count).joined(separator: ",")
                for row in try await db.fetchAll(
                    "\(LibraryRows.entrySelect) WHERE e.player_id = ? AND e.game_id IN (\(marks))",
                    LibraryRows.arguments(player, chunk))
                {
                    let entry = LibraryRows.entry(from: row)
                    entries[entry.game.id] = entry
                }
                wished.formUnion(
                    try await db.values(
                        "SELECT game_id FROM wishlist WHERE player_id = ? AND game_id IN (\(marks))",
                        LibraryRows.arguments(player, chunk)) as [Int64])
            }
            var counts = ImportCounts()
            var changed: [Int64: LibraryEntry] = [:]
            var newWishes: [(Int64, Date)] = []
            for (item, game) in items {
                if item.shelf == .wishlist {
                    if entries[game.id] != nil || wished.contains(game.id) {
                        counts.already += 1
                    } else {
                        wished.insert(game.id)
                        newWishes.append((game.id, item.addedAt ?? now))
                        counts.added += 1
                    }
                    continue
                }
                let (entry, outcome) = item.merged(into: entries[game.id], game: game, at: now)
                switch outcome {
                case .added: counts.added += 1
                case .updated: counts.updated += 1
                case .already: counts.already += 1
                }
                if outcome != .already {
                    entries[game.id] = entry
                    changed[game.id] = entry
                }
            }
            for chunk in Array(changed.values).chunked(100) {
                var arguments = SQLArguments()
                arguments.values = chunk.flatMap { LibraryRows.entryValues(player, $0) }
                try await db.send(LibraryRows.upsertEntriesSQL(rows: chunk.count), arguments)
                // A game now owned is no longer wished for.
                let owned = chunk.map(\.game.id).filter { wished.contains($0) }
                if !owned.isEmpty {
                    try await db.send(
                        """
                        DELETE FROM wishlist WHERE player_id = ? AND game_id IN \
                        (\(Array(repeating: "?", count: owned.count).joined(separator: ",")))
                        """, LibraryRows.arguments(player, owned))
                }
            }
            // A wish for a game the same import brought into the library is not kept.
            let wishes = newWishes.count
            newWishes.removeAll { entries[$0.0] != nil }
            counts.added -= wishes - newWishes.count
            for chunk in newWishes.chunked(300) {
                var arguments = SQLArguments()
                arguments.values = chunk.flatMap { wish -> [SQLValue] in
                    [.text(player.rawValue), .integer(wish.0), .real(wish.1.timeIntervalSince1970)]
                }
                try await db.send(
                    """
                    INSERT INTO wishlist (player_id, game_id, added_at) VALUES \
                    \(Array(repeating: "(?, ?, ?)", count: chunk.count).joined(separator: ", ")) ON CONFLICT DO NOTHING
                    """, arguments)
            }
            return counts
        }
    }
}
