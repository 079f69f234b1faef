import Foundation
import GGTrackerCore

/// The events a recap counts: the games played, and for how long.
private let recapKinds = "('started', 'completed', 'rated', 'reviewed', 'hours')"

extension LibraryRecords {
    /// The year of one player: the events logged that year, grouped by game and kind, say which games were played
    /// and for how long; the entries of those games, and of the games finished that year, follow; then the medals.
    package func recap(of player: PlayerID, year: Int) async throws -> YearRecap {
        let (start, end) = YearRecap.bounds(of: year)
        let p = player.rawValue
        let from = start.timeIntervalSince1970
        let to = end.timeIntervalSince1970
        return try await read { db in
            var recap = YearRecap(year: year)
            var played: Set<Int64> = []
            var reviewed: Set<Int64> = []
            for row in try await db.fetchAll(
                """
                SELECT game_id, kind, coalesce(sum(amount), 0) FROM events
                WHERE player_id = ? AND created_at >= ? AND created_at < ?
                    AND kind IN \(recapKinds)
                GROUP BY game_id, kind
                """, [p, from, to])
            {
                guard let game: Int64 = row[0] else { continue }
                let kind: String = row[1]
                played.insert(game)
                if kind == EventKind.hours.rawValue {
                    let hours: Double = row[2]
                    recap.hours += hours
                    recap.hoursByGame[game, default: 0] += hours
                }
                if kind == EventKind.reviewed.rawValue { reviewed.insert(game) }
            }
            recap.reviewsWritten = reviewed.count
            let entries = try await db.fetchAll(
                """
                \(LibraryRows.entrySelect) WHERE e.player_id = ? AND (e.finished_at >= ? AND e.finished_at < ?
                    OR e.started_at >= ? AND e.started_at < ?)
                """, [p, from, to, from, to]
            ).map(LibraryRows.entry(from:))
            let found = Set(entries.map(\.game.id))
            let rest = played.subtracting(found).sorted()
            recap.entries = entries
            if !rest.isEmpty {
                let marks = Array(repeating: "?", count: rest.count).joined(separator: ", ")
                recap.entries += try await db.fetchAll(
                    "\(LibraryRows.entrySelect) WHERE e.player_id = ? AND e.game_id IN (\(marks))",
                    SQLArguments([p as (any SQLBindable)?] + rest.map { $0 as (any SQLBindable)? })
                ).map(LibraryRows.entry(from:))
            }
            recap.entries.sort { $0.game.id < $1.game.id }
            recap.medals = try await db.fetchAll(
                """
                SELECT c.name, cp.medal_at FROM challenge_participants cp JOIN challenges c ON c.id = cp.challenge_id
                WHERE cp.player_id = ? AND cp.medal_at >= ? AND cp.medal_at < ? ORDER BY cp.medal_at
                """, [p, from, to]
            ).map { Medal(challenge: $0["name"], at: Date(timeIntervalSince1970: $0["medal_at"])) }
            recap.yearsRecorded = try await yearsRecorded(of: player, in: db)
            return recap
        }
    }
}

/// The years (UTC) in which anything a recap counts was recorded for the player, first first: the events it
/// sums, the days games were started and finished (imports' included), the medals.
private func yearsRecorded(of player: PlayerID, in db: any SQLSession) async throws -> [Int] {
    let year = { (column: String) in
        db.dialect == .postgres
            ? "CAST(extract(year FROM to_timestamp(\(column)) AT TIME ZONE 'UTC') AS INTEGER)"
            : "CAST(strftime('%Y', \(column), 'unixepoch') AS INTEGER)"
    }
    let p = player.rawValue
    return try await db.fetchAll(
        """
        SELECT \(year("created_at")) AS y FROM events WHERE player_id = ? AND kind IN \(recapKinds)
        UNION SELECT \(year("finished_at")) FROM library_entries WHERE player_id = ? AND finished_at IS NOT NULL
        UNION SELECT \(year("started_at")) FROM library_entries WHERE player_id = ? AND started_at IS NOT NULL
        UNION SELECT \(year("medal_at")) FROM challenge_participants WHERE player_id = ? AND medal_at IS NOT NULL
        ORDER BY y
        """, [p, p, p, p]
    ).compactMap { $0[0] as Int? }
}
