import Foundation
import GGTrackerCore

extension SocialRecords: SocialStore {
    static func recordEvent(
        _ db: any SQLSession, community: String, player: PlayerID, kind: EventKind, game: Int64?, amount: Double?,
        detail: String? = nil, at now: Date
    ) async throws {
        // Nothing waits for the event's insertion: it goes out with the transaction's next statement.
        try await db.send(
            """
            INSERT INTO events (community_id, player_id, kind, game_id, amount, detail, created_at)
            VALUES (?, ?, ?, ?, ?, ?, ?)
            """, [community, player.rawValue, kind.rawValue, game, amount, detail, now.timeIntervalSince1970])
    }

    /// Hours lowered on an entry (a correction) are taken back from the hours counted for that game, the latest
    /// first, so a period, a challenge or a recap counts what the entry now holds, and never less than none.
    static func takeBackHours(
        _ hours: Double, of game: Int64, player: PlayerID, in db: any SQLSession
    ) async throws {
        var left = hours
        let counted = try await db.fetchAll(
            """
            SELECT id, amount FROM events WHERE player_id = ? AND kind = 'hours' AND game_id = ? AND amount > 0
            ORDER BY created_at DESC, id DESC
            """, [player.rawValue, game])
        for row in counted where left > 0 {
            let (id, amount): (Int64, Double) = (row[0], row[1])
            if amount <= left {
                try await db.send("DELETE FROM events WHERE id = ?", [id])
            } else {
                try await db.send("UPDATE events SET amount = ? WHERE id = ?", [amount - left, id])
            }
            left -= min(amount, left)
        }
    }

    package func activity(
        in community: String, of player: PlayerID?, friendsOf viewer: PlayerID, limit: Int
    ) async throws -> [ActivityEvent] {
        try await read { db in
            var sql = """
                SELECT e.kind, e.amount, e.detail, e.created_at AS event_at, e.game_id,
                    p.id AS p_id, p.display_name, p.nickname, p.avatar_url, p.bio, p.created_at AS p_created,
                    EXISTS (SELECT 1 FROM friends f WHERE f.player_id = ? AND f.friend_id = e.player_id) AS is_friend
                FROM events e JOIN players p ON p.id = e.player_id
                WHERE e.community_id IN (
                    SELECT ? UNION ALL
                    SELECT d.community_id FROM memberships m JOIN memberships d ON d.player_id = m.player_id
                    WHERE m.community_id = ? AND d.community_id LIKE ?)
                AND e.kind != 'hours'
                """
            // A member's news made in a direct message with the bot is theirs to show in each of their servers.
            var arguments: [(any SQLBindable)?] = [
                viewer.rawValue, community, community, Invoker.directMessageCommunities,
            ]
            if let player {
                sql += " AND e.player_id = ?"
                arguments.append(player.rawValue)
            }
            sql += " ORDER BY is_friend DESC, e.created_at DESC, e.id DESC LIMIT ?"
            arguments.append(limit)
            let rows = try await db.fetchAll(sql, SQLArguments(arguments))
            let gameIDs = Set(rows.compactMap { $0["game_id"] as Int64? })
            var games: [Int64: Game] = [:]
            if !gameIDs.isEmpty {
                let placeholders = Array(repeating: "?", count: gameIDs.count).joined(separator: ",")
                for row in try await db.fetchAll(
                    "SELECT \(GameRows.columns) FROM games g WHERE g.id IN (\(placeholders))",
                    SQLArguments(Array(gameIDs)))
                {
                    let game = GameRows.game(from: row)
                    games[game.id] = game
                }
            }
            return rows.map { row in
                ActivityEvent(
                    player: Player(
                        id: PlayerID(row["p_id"] as String), displayName: row["display_name"],
                        nickname: row["nickname"],
                        avatarURL: row["avatar_url"], bio: row["bio"],
                        createdAt: Date(timeIntervalSince1970: row["p_created"])),
                    kind: EventKind(rawValue: row["kind"]) ?? .added,
                    game: (row["game_id"] as Int64?).flatMap { games[$0] }, amount: row["amount"],
                    detail: row["detail"],
                    at: Date(timeIntervalSince1970: row["event_at"]))
            }
        }
    }

    package func addFriend(_ player: PlayerID, _ friend: PlayerID, at now: Date) async throws -> Bool {
        try await effect { db in
            try await db.execute(
                "INSERT INTO friends (player_id, friend_id, created_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
                [player.rawValue, friend.rawValue, now.timeIntervalSince1970])
            return db.changesCount > 0
        }
    }

    package func removeFriend(_ player: PlayerID, _ friend: PlayerID) async throws -> Bool {
        try await effect { db in
            try await db.execute(
                "DELETE FROM friends WHERE player_id = ? AND friend_id = ?", [player.rawValue, friend.rawValue])
            return db.changesCount > 0
        }
    }

    package func friends(of player: PlayerID) async throws -> [Player] {
        try await read { db in
            try await db.fetchAll(
                """
                SELECT p.* FROM friends f JOIN players p ON p.id = f.friend_id
                WHERE f.player_id = ? ORDER BY coalesce(p.nickname, p.display_name)
                """, [player.rawValue]
            ).map(LibraryRows.player(from:))
        }
    }

    package func compare(_ left: PlayerID, _ right: PlayerID) async throws -> LibraryComparison {
        try await read { db in
            func entries(_ player: PlayerID) async throws -> [Int64: LibraryEntry] {
                let rows = try await db.fetchAll(
                    "\(LibraryRows.entrySelect) WHERE e.player_id = ?", [player.rawValue])
                return Dictionary(
                    uniqueKeysWithValues: rows.map { row in
                        let entry = LibraryRows.entry(from: row)
                        return (entry.game.id, entry)
                    })
            }
            func finishedButWished(_ finisher: PlayerID, _ wisher: PlayerID) async throws -> [Game] {
                try await db.fetchAll(
                    """
                    SELECT \(GameRows.columns) FROM library_entries e
                    JOIN wishlist w ON w.game_id = e.game_id AND w.player_id = ?
                    JOIN games g ON g.id = e.game_id
                    WHERE e.player_id = ? AND e.status = 'completed' ORDER BY e.score IS NULL, e.score DESC, g.name
                    """, [wisher.rawValue, finisher.rawValue]
                ).map(GameRows.game(from:))
            }
            let l = try await entries(left)
            let r = try await entries(right)
            let shared = l.compactMap { id, entry in r[id].map { (game: entry.game, left: entry, right: $0) } }
                .sorted { $0.game.name < $1.game.name }
            return LibraryComparison(
                shared: shared, leftFinishedRightWants: try await finishedButWished(left, right),
                rightFinishedLeftWants: try await finishedButWished(right, left), leftCount: l.count,
                rightCount: r.count)
        }
    }

    package func recentMembers(of community: String, except player: PlayerID, limit: Int) async throws -> [Player] {
        try await read { db in
            try await db.fetchAll(
                """
                SELECT p.* FROM memberships m JOIN players p ON p.id = m.player_id
                WHERE m.community_id = ? AND m.player_id <> ? ORDER BY m.last_seen_at DESC, p.id LIMIT ?
                """, [community, player.rawValue, limit]
            ).map(LibraryRows.player(from:))
        }
    }

    package func leaderboard(
        in community: String, metric: LeaderboardMetric, since: Date?
    ) async throws -> [(Player, Double)] {
        try await read { db in
            let value: String
            var arguments: [(any SQLBindable)?] = []
            if let since {
                let (kind, measure) =
                    switch metric {
                    case .completed: ("completed", "count(DISTINCT e.game_id)")
                    case .hours: ("hours", "coalesce(sum(e.amount), 0)")
                    case .reviews: ("reviewed", "count(DISTINCT e.game_id)")
                    case .scoreCount: ("rated", "count(DISTINCT e.game_id)")
                    }
                value =
                    "(SELECT \(measure) FROM events e WHERE e.player_id = p.id AND e.kind = ? AND e.created_at >= ?)"
                arguments += [kind, since.timeIntervalSince1970]
            } else {
                let measure =
                    switch metric {
                    case .completed: "count(*) FILTER (WHERE l.status = 'completed')"
                    case .hours: "coalesce(sum(l.hours), 0)"
                    case .reviews: "count(l.review)"
                    case .scoreCount: "count(l.score)"
                    }
                value = "(SELECT \(measure) FROM library_entries l WHERE l.player_id = p.id)"
            }
            arguments.append(community)
            return try await db.fetchAll(
                """
                SELECT p.*, \(value) AS metric_value FROM memberships m JOIN players p ON p.id = m.player_id
                WHERE m.community_id = ?
                """, SQLArguments(arguments)
            ).map { (LibraryRows.player(from: $0), $0["metric_value"] as Double? ?? 0) }
        }
    }

    package func createChallenge(
        in community: String, name: String, goal: Double, unit: ChallengeUnit, startsAt: Date, endsAt: Date,
        createdBy: PlayerID
    ) async throws -> ChallengeCreation {
        try await effect { db in
            let inserted: Int64? = try await db.value(
                """
                INSERT INTO challenges (community_id, name, name_key, goal, unit, starts_at, ends_at, created_by, created_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING RETURNING id
                """,
                [
                    community, name, name.lowercased(), goal, unit.rawValue, startsAt.timeIntervalSince1970,
                    endsAt.timeIntervalSince1970, createdBy.rawValue, startsAt.timeIntervalSince1970,
                ])
            guard let id = inserted else { return .duplicateName }
            // The creator takes part from the start, in the same transaction as the challenge.
            try await db.execute(
                "INSERT INTO challenge_participants (challenge_id, player_id, joined_at) VALUES (?, ?, ?)",
                [id, createdBy.rawValue, startsAt.timeIntervalSince1970])
            try await ChallengeRows.awardMedals(db, player: createdBy, at: startsAt)
            let row = try await db.fetchOne("SELECT * FROM challenges WHERE id = ?", [id])!
            return .created(ChallengeRows.challenge(from: row))
        }
    }

    package func challenge(in community: String, named name: String) async throws -> Challenge? {
        try await read { db in
            try await db.fetchOne(
                "SELECT * FROM challenges WHERE community_id = ? AND name_key = ?", [community, name.lowercased()]
            ).map(ChallengeRows.challenge(from:))
        }
    }

    package func challenges(in community: String, joinedBy player: PlayerID?) async throws -> [Challenge] {
        try await read { db in
            guard let player else {
                return try await db.fetchAll(
                    "SELECT * FROM challenges WHERE community_id = ? ORDER BY ends_at DESC, name", [community]
                )
                .map(ChallengeRows.challenge(from:))
            }
            return try await db.fetchAll(
                """
                SELECT c.* FROM challenges c JOIN challenge_participants p ON p.challenge_id = c.id
                WHERE c.community_id = ? AND p.player_id = ? ORDER BY c.ends_at DESC, c.name
                """, [community, player.rawValue]
            )
            .map(ChallengeRows.challenge(from:))
        }
    }

    package func join(_ challenge: Challenge, _ player: PlayerID, at now: Date) async throws -> Bool {
        try await effect { db in
            try await db.execute(
                "INSERT INTO challenge_participants (challenge_id, player_id, joined_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
                [challenge.id, player.rawValue, now.timeIntervalSince1970])
            let joined = db.changesCount > 0
            // Progress made earlier in the window counts, so joining may already reach the goal.
            if joined { try await ChallengeRows.awardMedals(db, player: player, at: now) }
            return joined
        }
    }

    package func leave(_ challenge: Challenge, _ player: PlayerID) async throws -> ChallengeLeaving {
        try await effect { db in
            // A medal won is kept: its row, which holds it, stays.
            try await db.execute(
                "DELETE FROM challenge_participants WHERE challenge_id = ? AND player_id = ? AND medal_at IS NULL",
                [challenge.id, player.rawValue])
            if db.changesCount > 0 { return .left }
            let stays =
                try await db.value(
                    "SELECT 1 FROM challenge_participants WHERE challenge_id = ? AND player_id = ?",
                    [challenge.id, player.rawValue]) as Int?
            return stays == nil ? .wasNotIn : .keepsMedal
        }
    }

    package func addProgress(
        _ challenge: Challenge, _ player: PlayerID, amount: Double, community: String, at now: Date
    ) async throws -> (standing: ChallengeStanding, medalTakenBack: Bool)? {
        try await effect { db in
            try await db.execute(
                """
                UPDATE challenge_participants
                SET custom_progress = CASE WHEN custom_progress + ? < 0 THEN 0 ELSE custom_progress + ? END
                WHERE challenge_id = ? AND player_id = ?
                """, [amount, amount, challenge.id, player.rawValue])
            guard db.changesCount > 0 else { return nil }
            // Progress added may win the medal; progress taken back may lose it, and wins nothing.
            var lost: [String] = []
            if amount < 0 {
                lost = try await ChallengeRows.takeBackMedals(db, player: player, at: now, only: challenge)
            } else {
                try await ChallengeRows.awardMedals(db, player: player, at: now)
            }
            // Only this player's row is read: writers of other players' progress are not held up by this one.
            return try await ChallengeRows.standings(db, challenge, of: player).first.map { ($0, !lost.isEmpty) }
        }
    }

    package func standings(_ challenge: Challenge) async throws -> [ChallengeStanding] {
        try await read { db in try await ChallengeRows.standings(db, challenge) }
    }

    package func medals(of player: PlayerID) async throws -> [Medal] {
        try await read { db in
            try await db.fetchAll(
                """
                SELECT c.name, cp.medal_at FROM challenge_participants cp JOIN challenges c ON c.id = cp.challenge_id
                WHERE cp.player_id = ? AND cp.medal_at IS NOT NULL ORDER BY cp.medal_at
                """, [player.rawValue]
            ).map { Medal(challenge: $0["name"], at: Date(timeIntervalSince1970: $0["medal_at"])) }
        }
    }

    package func shareToken(of player: PlayerID) async throws -> String? {
        try await read { db in
            try await (db.value("SELECT token FROM share_tokens WHERE player_id = ?", [player.rawValue]) as String?)
        }
    }

    package func setShareToken(_ token: String, for player: PlayerID, at now: Date) async throws {
        try await effect { db in
            try await db.execute("DELETE FROM share_tokens WHERE player_id = ?", [player.rawValue])
            try await db.execute(
                "INSERT INTO share_tokens (token, player_id, created_at) VALUES (?, ?, ?)",
                [token, player.rawValue, now.timeIntervalSince1970])
        }
    }

    package func revokeShareToken(of player: PlayerID) async throws -> Bool {
        try await effect { db in
            try await db.execute("DELETE FROM share_tokens WHERE player_id = ?", [player.rawValue])
            return db.changesCount > 0
        }
    }

    /// The player a share link belongs to, and their whole library, for the shared page: two queries.
    package func sharedPlayer(token: String) async throws -> Player? {
        try await read { db in
            try await db.fetchOne(
                "SELECT p.* FROM share_tokens s JOIN players p ON p.id = s.player_id WHERE s.token = ?", [token]
            ).map(LibraryRows.player(from:))
        }
    }

    /// The player a share link belongs to, their whole library and their wishlist (newest wish first).
    package func sharedLibrary(
        token: String
    ) async throws -> (player: Player, entries: [LibraryEntry], wishlist: [WishlistItem])? {
        try await read { db -> (player: Player, entries: [LibraryEntry], wishlist: [WishlistItem])? in
            guard
                let row = try await db.fetchOne(
                    "SELECT p.* FROM share_tokens s JOIN players p ON p.id = s.player_id WHERE s.token = ?", [token])
            else { return nil }
            let player = LibraryRows.player(from: row)
            let entries = try await db.fetchAll(
                "\(LibraryRows.entrySelect) WHERE e.player_id = ? ORDER BY e.updated_at DESC", [player.id.rawValue]
            ).map(LibraryRows.entry(from:))
            let wishlist = try await db.fetchAll(
                "\(LibraryRows.wishlistSelect) WHERE w.player_id = ? ORDER BY w.added_at DESC, g.name",
                [player.id.rawValue]
            ).map(LibraryRows.wishlistItem(from:))
            return (player, entries, wishlist)
        }
    }
}
