import Foundation
import GGTrackerCore

/// A release alert due in one server: a game its members wishlisted before its release date, now out.
package struct DueReleaseAlert: Sendable, Equatable {
    package var community: String
    /// The server's announce channel; for a Matrix room, the room.
    package var channel: String
    package var game: Game
    /// The members who wished for it, earliest wish first.
    package var wishers: [PlayerID]
}

extension SocialRecords {
    /// The alerts due at `now`: games released after `since` and by `now` (an exact date, not only a year) that
    /// members of a server with an announce channel (or of a Matrix room, which is its own) wishlisted before that date, and for which no alert was sent
    /// for that server, game and release date yet. A release date moved by a refresh is a new alert. A mature game
    /// is announced only where the server's age gate is off, as the rest of its news.
    package func dueReleaseAlerts(at now: Date, since: Date) async throws -> [DueReleaseAlert] {
        let rows = try await read { db in
            try await db.fetchAll(
                """
                SELECT c.id AS alert_community, w.player_id AS alert_wisher,
                    CASE WHEN c.id LIKE 'matrix:%' THEN substr(c.id, 8) ELSE c.announce_channel END AS alert_channel,
                    \(GameRows.columns)
                FROM wishlist w
                JOIN memberships m ON m.player_id = w.player_id
                JOIN communities c ON c.id = m.community_id
                JOIN games g ON g.id = w.game_id
                WHERE (c.announce_channel IS NOT NULL OR c.id LIKE 'matrix:%') AND g.release_year_only = 0
                    AND (g.mature = 0 OR c.age_gate = 'off')
                    AND g.release_date > ? AND g.release_date <= ? AND w.added_at < g.release_date
                    AND NOT EXISTS (
                        SELECT 1 FROM release_alerts a
                        WHERE a.community_id = c.id AND a.game_id = g.id AND a.release_date = g.release_date)
                ORDER BY c.id, g.release_date, g.id, w.added_at
                """, [since.timeIntervalSince1970, now.timeIntervalSince1970])
        }
        var due: [DueReleaseAlert] = []
        for row in rows {
            let community: String = row["alert_community"]
            let game = GameRows.game(from: row)
            let wisher = PlayerID(row["alert_wisher"] as String)
            if let last = due.last, last.community == community, last.game.id == game.id {
                due[due.count - 1].wishers.append(wisher)
            } else {
                due.append(
                    DueReleaseAlert(
                        community: community, channel: row["alert_channel"], game: game, wishers: [wisher]))
            }
        }
        return due
    }

    /// Claims an alert before it is sent: true for the one process (of all sharing the database) that inserted
    /// its row, false when it was claimed already.
    package func claimReleaseAlert(_ alert: DueReleaseAlert, at now: Date) async throws -> Bool {
        try await write { db in
            try await db.execute(
                """
                INSERT INTO release_alerts (community_id, game_id, release_date, sent_at) VALUES (?, ?, ?, ?)
                ON CONFLICT DO NOTHING
                """,
                [
                    alert.community, alert.game.id, alert.game.releaseDate?.timeIntervalSince1970 ?? 0,
                    now.timeIntervalSince1970,
                ])
            return db.changesCount > 0
        }
    }

    /// Gives a claim back when its alert could not be posted, so a later check sends it.
    package func unclaimReleaseAlert(_ alert: DueReleaseAlert) async throws {
        try await write { db in
            try await db.execute(
                "DELETE FROM release_alerts WHERE community_id = ? AND game_id = ? AND release_date = ?",
                [alert.community, alert.game.id, alert.game.releaseDate?.timeIntervalSince1970 ?? 0])
        }
    }
}
