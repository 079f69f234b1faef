import Foundation
import GGTrackerCore

extension LibraryRecords: LibraryStore {
    package func player(_ id: PlayerID) async throws -> Player? {
        try await read { db in
            try await db.fetchOne("SELECT * FROM players WHERE id = ?", [id.rawValue])
                .map(
                    LibraryRows.player(from:))
        }
    }

    package func entry(of player: PlayerID, game: Int64) async throws -> LibraryEntry? {
        try await read { db in try await LibraryRows.fetchEntry(db, player: player, game: game) }
    }

    package func updateEntry(
        of player: PlayerID, game: Game, community: String, at now: Date,
        _ change: @Sendable (inout LibraryEntry?) throws -> Void
    ) async throws -> EntryChange {
        try await effect { db in
            // The challenges that might award a medal are read with the entry as it was: one round trip, or none
            // where they were read with the caller in this transaction.
            let known = OwnCopy.recalled(player, game.id, in: db)
            let candidates =
                if let known {
                    SQLPending(read: { ChallengeRows.running(known.challenges, at: now) })
                } else {
                    try await ChallengeRows.medalCandidates(db, player: player, at: now)
                }
            let before = try await LibraryRows.fetchEntry(db, player: player, game: game.id)
            var after = before
            try change(&after)
            guard let entry = after else {
                if before != nil {
                    try await db.send(
                        "DELETE FROM library_entries WHERE player_id = ? AND game_id = ?", [player.rawValue, game.id])
                }
                return EntryChange(before: before, after: nil)
            }
            // Nothing waits for the upsert, the wishlist's clean-up or the events: they go out with the commit.
            // The entry as saved is the one written (an existing row keeps its `added_at`, which the change kept
            // too), so it is not read back.
            var arguments = SQLArguments()
            arguments.values = LibraryRows.entryValues(player, entry)
            try await db.send(LibraryRows.upsertEntriesSQL(rows: 1), arguments)
            var leftWishlist = false
            if before == nil {
                // A game in the library is no longer wished for; the reply says so when it was. Where the wishlist
                // was read with the entry, the removal goes out with the commit; else its count says.
                let sql = "DELETE FROM wishlist WHERE player_id = ? AND game_id = ?"
                if let known {
                    leftWishlist = known.wishlisted
                    try await db.send(sql, [player.rawValue, game.id])
                } else {
                    leftWishlist = try await db.execute(sql, [player.rawValue, game.id]) > 0
                }
            }
            var events = NewEvent.derive(before: before, after: entry)
            var medalsTakenBack: [String] = []
            if let lowered = events.first(where: \.takesBackHours), let hours = lowered.amount {
                try await SocialRecords.takeBackHours(-hours, of: game.id, player: player, in: db)
                medalsTakenBack = try await ChallengeRows.takeBackMedals(db, player: player, at: now)
                events.removeAll(where: \.takesBackHours)
            }
            for event in events {
                try await SocialRecords.recordEvent(
                    db, community: community, player: player, kind: event.kind, game: game.id, amount: event.amount,
                    at: now)
            }
            var result = EntryChange(before: before, after: entry, leftWishlist: leftWishlist)
            result.medalsTakenBack = medalsTakenBack
            guard !events.isEmpty else { return result }
            let challenges = try await ChallengeRows.checkChallenges(
                db, player: player, at: now, candidates: candidates, counting: events.map(\.kind))
            result.medals = challenges.won.map(\.name)
            result.medalServers = challenges.won.map(\.community)
            result.counted = challenges.counted
            return result
        }
    }

    package func addToWishlist(
        _ player: PlayerID, game: Game, community: String, at now: Date
    ) async throws -> WishlistAddResult {
        try await effect { db in
            if let status = try await
                (db.value(
                    "SELECT status FROM library_entries WHERE player_id = ? AND game_id = ?",
                    [player.rawValue, game.id]) as String?)
            {
                return .inLibrary(GameStatus(rawValue: status) ?? .backlog)
            }
            try await db.execute(
                "INSERT INTO wishlist (player_id, game_id, added_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
                [player.rawValue, game.id, now.timeIntervalSince1970])
            guard db.changesCount > 0 else { return .alreadyWishlisted }
            try await SocialRecords.recordEvent(
                db, community: community, player: player, kind: .wishlisted, game: game.id, amount: nil, at: now)
            return .added
        }
    }

    package func isWishlisted(_ player: PlayerID, game: Int64) async throws -> Bool {
        try await read { db in
            try await
                (db.value(
                    "SELECT EXISTS (SELECT 1 FROM wishlist WHERE player_id = ? AND game_id = ?)",
                    [player.rawValue, game]) as Bool?) ?? false
        }
    }

    package func isMember(_ player: PlayerID, of community: String) async throws -> Bool {
        try await read { db in
            try await
                (db.value(
                    "SELECT EXISTS (SELECT 1 FROM memberships WHERE player_id = ? AND community_id = ?)",
                    [player.rawValue, community]) as Bool?) ?? false
        }
    }

    package func recentShelves(of player: PlayerID) async throws -> [ShelfGame] {
        try await read { db in
            // In a command that may change one of them, what the change starts from comes with them.
            if claim != nil && dialect == .postgres { return try await OwnCopy.shelves(of: player, in: db) }
            return try await db.fetchAll(
                """
                SELECT e.status, e.updated_at, e.favorite, \(GameRows.columns)
                FROM library_entries e JOIN games g ON g.id = e.game_id WHERE e.player_id = ?
                UNION ALL
                SELECT NULL, w.added_at, 0, \(GameRows.columns)
                FROM wishlist w JOIN games g ON g.id = w.game_id WHERE w.player_id = ?
                    AND w.game_id NOT IN (SELECT game_id FROM library_entries WHERE player_id = ?)
                ORDER BY 2 DESC
                """, [player.rawValue, player.rawValue, player.rawValue]
            ).map { row in
                ShelfGame(
                    game: GameRows.game(from: row), status: (row[0] as String?).flatMap(GameStatus.init(rawValue:)),
                    touchedAt: Date(timeIntervalSince1970: row[1]), favorite: row[2])
            }
        }
    }

    package func removeFromWishlist(_ player: PlayerID, game: Int64) async throws -> Bool {
        try await effect { db in
            try await db.execute("DELETE FROM wishlist WHERE player_id = ? AND game_id = ?", [player.rawValue, game])
            return db.changesCount > 0
        }
    }

    static func pageCount(_ total: Int, _ size: Int) -> Int { max(1, (total + size - 1) / size) }

    package func wishlist(
        of player: PlayerID, includeMature: Bool, page: Int, pageSize: Int
    ) async throws -> Page<WishlistItem> {
        try await read { db in
            let mature = includeMature ? "" : " AND g.mature = 0"
            let total =
                try await
                (db.value(
                    "SELECT count(*) FROM wishlist w JOIN games g ON g.id = w.game_id WHERE w.player_id = ?\(mature)",
                    [player.rawValue]) as Int?) ?? 0
            let rows = try await db.fetchAll(
                "\(LibraryRows.wishlistSelect) WHERE w.player_id = ?\(mature) ORDER BY w.added_at DESC, g.name LIMIT ? OFFSET ?",
                [player.rawValue, pageSize, (page - 1) * pageSize])
            let items = rows.map(LibraryRows.wishlistItem(from:))
            return Page(items: items, page: page, pageCount: Self.pageCount(total, pageSize), total: total)
        }
    }

    package func removeEverywhere(_ player: PlayerID, game: Int64, at now: Date) async throws -> Removal {
        try await effect { db in
            try await db.execute(
                "DELETE FROM library_entries WHERE player_id = ? AND game_id = ?", [player.rawValue, game])
            var removal = Removal(library: db.changesCount > 0, wishlist: false)
            try await db.execute("DELETE FROM wishlist WHERE player_id = ? AND game_id = ?", [player.rawValue, game])
            removal.wishlist = db.changesCount > 0
            if removal.library || removal.wishlist {
                // A week's leaderboard would otherwise count hours and completions the all-time one no longer has.
                try await db.execute("DELETE FROM events WHERE player_id = ? AND game_id = ?", [player.rawValue, game])
            }
            if removal.library {
                removal.medalsTakenBack = try await ChallengeRows.takeBackMedals(db, player: player, at: now)
            }
            return removal
        }
    }

    package func stats(of player: PlayerID, includeMature: Bool) async throws -> PlayerStats {
        try await read { db in
            var stats = PlayerStats()
            let p = player.rawValue
            let named = includeMature ? "" : " AND g.mature = 0"
            for row in try await db.fetchAll(
                "SELECT status, count(*) AS n FROM library_entries WHERE player_id = ? GROUP BY status", [p])
            {
                if let s = GameStatus(rawValue: row["status"]) { stats.statusCounts[s] = row["n"] }
            }
            stats.genreCounts = try await db.fetchAll(
                """
                SELECT f.name, count(*) AS n FROM library_entries e
                JOIN game_facets gf ON gf.game_id = e.game_id JOIN facets f ON f.id = gf.facet_id AND f.kind = 'genre'
                WHERE e.player_id = ? GROUP BY f.name ORDER BY n DESC, f.name LIMIT 10
                """, [p]
            ).map { ($0["name"], $0["n"]) }
            for row in try await db.fetchAll(
                "SELECT score, count(*) AS n FROM library_entries WHERE player_id = ? AND score IS NOT NULL GROUP BY score",
                [p])
            {
                stats.scoreCounts[row["score"]] = row["n"]
            }
            stats.totalHours =
                try await
                (db.value("SELECT coalesce(sum(hours), 0) FROM library_entries WHERE player_id = ?", [p]) as Double?)
                ?? 0
            if let row = try await db.fetchOne(
                """
                SELECT g.name, e.hours FROM library_entries e JOIN games g ON g.id = e.game_id
                WHERE e.player_id = ? AND e.hours > 0\(named) ORDER BY e.hours DESC LIMIT 1
                """, [p])
            {
                stats.mostPlayed = (row["name"], row["hours"])
            }
            stats.reviews =
                try await
                (db.value("SELECT count(*) FROM library_entries WHERE player_id = ? AND review IS NOT NULL", [p])
                as Int?) ?? 0
            stats.favorites =
                try await
                (db.values(
                    """
                    SELECT g.name FROM library_entries e JOIN games g ON g.id = e.game_id
                    WHERE e.player_id = ? AND e.favorite <> 0\(named)
                    ORDER BY e.score IS NULL, e.score DESC, e.updated_at DESC LIMIT 10
                    """, [p]) as [String])
            stats.wishlist =
                try await (db.value("SELECT count(*) FROM wishlist WHERE player_id = ?", [p]) as Int?) ?? 0
            return stats
        }
    }

    package func updateProfile(_ player: PlayerID, _ changes: [ProfileField: String?]) async throws -> Player {
        let fields = ProfileField.allCases.filter { changes[$0] != nil }
        let set = fields.map { field in
            switch field {
            case .nickname: "nickname = ?"
            case .avatar: "avatar_url = ?"
            case .bio: "bio = ?"
            }
        }
        let arguments = SQLArguments(fields.map { field -> (any SQLBindable)? in changes[field]! } + [player.rawValue])
        return try await effect { db in
            if !fields.isEmpty {
                try await db.execute("UPDATE players SET \(set.joined(separator: ", ")) WHERE id = ?", arguments)
            }
            let row = try await db.fetchOne("SELECT * FROM players WHERE id = ?", [player.rawValue])!
            return LibraryRows.player(from: row)
        }
    }

    package func deleteAccount(_ player: PlayerID) async throws -> Int {
        try await effect { db in
            var erased = 0
            for table in [
                "library_entries", "wishlist", "memberships", "events", "challenge_participants", "share_tokens",
                "game_night_players", "export_links",
            ] {
                try await db.execute("DELETE FROM \(table) WHERE player_id = ?", [player.rawValue])
                erased += db.changesCount
            }
            try await db.execute(
                "DELETE FROM friends WHERE player_id = ? OR friend_id = ?", [player.rawValue, player.rawValue])
            erased += db.changesCount
            try await db.execute("DELETE FROM game_nights WHERE host_id = ?", [player.rawValue])
            erased += db.changesCount
            try await db.execute("DELETE FROM players WHERE id = ?", [player.rawValue])
            return erased + db.changesCount
        }
    }

    package func settings(of community: String) async throws -> CommunitySettings {
        try await read { db in try await LibraryRows.settings(of: community, in: db) }
    }

    package func updateSettings(
        of community: String, announceChannel: String?, stopAnnouncing: Bool, ageGate: AgeGate?
    ) async throws -> CommunitySettings {
        // A channel set anew was just posted to (or none is left): a failure in the channel before is past.
        let resetsFailure = announceChannel != nil || stopAnnouncing ? 1 : 0
        return try await effect { db in
            try await db.execute(
                """
                INSERT INTO communities (id, age_gate, announce_channel, created_at) VALUES (?, coalesce(?, 'strict'), ?, ?)
                ON CONFLICT(id) DO UPDATE SET age_gate = coalesce(?, communities.age_gate),
                    announce_channel = CASE WHEN ? = 1 THEN NULL ELSE coalesce(?, communities.announce_channel) END,
                    announce_failure = CASE WHEN ? = 1 THEN NULL ELSE communities.announce_failure END,
                    announce_failed_at = CASE WHEN ? = 1 THEN NULL ELSE communities.announce_failed_at END
                """,
                [
                    community, ageGate?.rawValue, announceChannel, Date().timeIntervalSince1970, ageGate?.rawValue,
                    stopAnnouncing ? 1 : 0, announceChannel, resetsFailure, resetsFailure,
                ])
            return try await LibraryRows.settings(of: community, in: db)
        }
    }

    package func owners(of game: Int64, in community: String) async throws -> [GameOwner] {
        try await read { db in
            try await db.fetchAll(
                """
                SELECT p.*, e.status AS entry_status, e.score AS entry_score FROM library_entries e
                JOIN memberships m ON m.player_id = e.player_id AND m.community_id = ?
                JOIN players p ON p.id = e.player_id
                WHERE e.game_id = ? ORDER BY e.score IS NULL, e.score DESC, p.display_name
                """, [community, game]
            ).map {
                GameOwner(
                    player: LibraryRows.player(from: $0), status: GameStatus(rawValue: $0["entry_status"]) ?? .backlog,
                    score: $0["entry_score"])
            }
        }
    }
}
