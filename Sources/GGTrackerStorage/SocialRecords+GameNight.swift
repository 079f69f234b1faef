import Foundation
import GGTrackerCore

extension SocialRecords {
    /// Opens a night in the channel with its host in, closing any night still open there, in one transaction.
    package func openGameNight(
        in community: String, channel: String, host: PlayerID, mode: GameNightMode, maxHours: Double?, at now: Date
    ) async throws -> GameNight {
        try await effect { db in
            try await db.execute(
                "UPDATE game_nights SET closed = 1 WHERE community_id = ? AND channel_id = ? AND closed = 0",
                [community, channel])
            let id: Int64 = try await db.value(
                """
                INSERT INTO game_nights (community_id, channel_id, host_id, mode, max_hours, created_at, expires_at)
                VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id
                """,
                [
                    community, channel, host.rawValue, mode.rawValue, maxHours, now.timeIntervalSince1970,
                    now.addingTimeInterval(GameNight.lifetime).timeIntervalSince1970,
                ])!
            try await db.execute(
                "INSERT INTO game_night_players (night_id, player_id, joined_at) VALUES (?, ?, ?)",
                [id, host.rawValue, now.timeIntervalSince1970])
            return try await Self.gameNight(id, in: db)!
        }
    }

    /// The night by id when given (in this server), or else the latest opened in the channel; nil when none.
    package func gameNight(id: Int64?, in community: String, channel: String) async throws -> GameNight? {
        try await read { db in
            let found: Int64? =
                if let id {
                    try await db.value(
                        "SELECT id FROM game_nights WHERE id = ? AND community_id = ?", [id, community])
                } else {
                    try await db.value(
                        """
                        SELECT id FROM game_nights WHERE community_id = ? AND channel_id = ?
                        ORDER BY id DESC LIMIT 1
                        """, [community, channel])
                }
            guard let found else { return nil }
            return try await Self.gameNight(found, in: db)
        }
    }

    /// Adds the player to the night; `changed` is false when they were in already.
    package func joinGameNight(
        _ id: Int64, player: PlayerID, at now: Date
    ) async throws -> (night: GameNight, changed: Bool) {
        try await effect { db in
            try await db.execute(
                "INSERT INTO game_night_players (night_id, player_id, joined_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
                [id, player.rawValue, now.timeIntervalSince1970])
            let changed = db.changesCount > 0
            return (try await Self.gameNight(id, in: db)!, changed)
        }
    }

    /// Takes the player out of the night; `changed` is false when they were not in.
    package func leaveGameNight(_ id: Int64, player: PlayerID) async throws -> (night: GameNight, changed: Bool) {
        try await effect { db in
            try await db.execute(
                "DELETE FROM game_night_players WHERE night_id = ? AND player_id = ?", [id, player.rawValue])
            let changed = db.changesCount > 0
            return (try await Self.gameNight(id, in: db)!, changed)
        }
    }

    /// Moves the night to its first round of proposals (`first`) or to the next one, sets the mode and length it
    /// looks for when given, and reads it back with every game on its players' shelves, in one transaction: two
    /// presses at once show two different rounds.
    package func advanceGameNight(
        _ id: Int64, first: Bool, mode: GameNightMode?, maxHours: Double?
    ) async throws -> (night: GameNight, shelves: [ShelfMark]) {
        try await effect { db in
            try await db.execute(
                """
                UPDATE game_nights SET round = \(first ? "1" : "round + 1"), mode = coalesce(?, mode),
                    max_hours = coalesce(?, max_hours) WHERE id = ?
                """, [mode?.rawValue, maxHours, id])
            let night = try await Self.gameNight(id, in: db)!
            let rows = try await db.fetchAll(
                """
                SELECT e.player_id AS mark_player, e.status AS mark_status, \(GameRows.columns)
                FROM library_entries e JOIN games g ON g.id = e.game_id
                WHERE e.player_id IN (SELECT player_id FROM game_night_players WHERE night_id = ?)
                UNION ALL
                SELECT w.player_id, NULL, \(GameRows.columns)
                FROM wishlist w JOIN games g ON g.id = w.game_id
                WHERE w.player_id IN (SELECT player_id FROM game_night_players WHERE night_id = ?)
                """, [id, id])
            let shelves = rows.map { row in
                let status: String? = row[1]
                return ShelfMark(
                    player: PlayerID(row[0] as String), game: GameRows.game(from: row),
                    status: status.flatMap(GameStatus.init(rawValue:)))
            }
            return (night, shelves)
        }
    }

    static func gameNight(_ id: Int64, in db: any SQLSession) async throws -> GameNight? {
        guard let row = try await db.fetchOne("SELECT * FROM game_nights WHERE id = ?", [id]) else { return nil }
        let players = try await db.fetchAll(
            """
            SELECT p.* FROM game_night_players n JOIN players p ON p.id = n.player_id
            WHERE n.night_id = ? ORDER BY n.joined_at, p.id
            """, [id]
        ).map(LibraryRows.player(from:))
        var night = GameNight(
            id: row["id"], community: row["community_id"], channel: row["channel_id"],
            host: PlayerID(row["host_id"] as String), mode: GameNightMode(rawValue: row["mode"]) ?? .any,
            maxHours: row["max_hours"], round: row["round"], createdAt: Date(timeIntervalSince1970: row["created_at"]),
            expiresAt: Date(timeIntervalSince1970: row["expires_at"]), players: players)
        night.isClosed = (row["closed"] as Int) != 0
        return night
    }
}
