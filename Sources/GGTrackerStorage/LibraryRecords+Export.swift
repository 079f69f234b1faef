import Foundation
import GGTrackerCore

extension LibraryRecords {
    /// Everything a player keeps, in one snapshot: the library (most recently changed first) and the wishlist
    /// (most recent wish first); nil for a player never seen.
    package func export(of player: PlayerID, at now: Date) async throws -> LibraryExport? {
        try await read { db in
            guard let row = try await db.fetchOne("SELECT * FROM players WHERE id = ?", [player.rawValue]) else {
                return nil
            }
            let entries = try await db.fetchAll(
                "\(LibraryRows.entrySelect) WHERE e.player_id = ? ORDER BY e.updated_at DESC, g.name", [player.rawValue]
            ).map(LibraryRows.entry(from:))
            let wishes = try await db.fetchAll(
                """
                SELECT w.added_at, \(GameRows.columns) FROM wishlist w JOIN games g ON g.id = w.game_id
                WHERE w.player_id = ? ORDER BY w.added_at DESC, g.name
                """, [player.rawValue]
            ).map { WishlistItem(game: GameRows.game(from: $0), addedAt: Date(timeIntervalSince1970: $0[0])) }
            return LibraryExport(
                player: LibraryRows.player(from: row), entries: entries, wishlist: wishes, exportedAt: now)
        }
    }
}

extension SocialRecords {
    /// Stores a one-download link to the player's export, valid until `expiresAt`.
    package func createExportLink(
        _ token: String, for player: PlayerID, format: LibraryExport.Format, at now: Date, expiresAt: Date
    ) async throws {
        _ = try await effect { db in
            try await db.execute(
                "INSERT INTO export_links (token, player_id, format, created_at, expires_at) VALUES (?, ?, ?, ?, ?)",
                [token, player.rawValue, format.rawValue, now.timeIntervalSince1970, expiresAt.timeIntervalSince1970])
        }
    }

    /// Uses a link: the player whose export it opens, once, while it is valid; nil for a link used, expired,
    /// unknown or of another format. Two downloads at once: one gets it.
    package func useExportLink(_ token: String, format: LibraryExport.Format, at now: Date) async throws -> PlayerID? {
        try await write { db in
            let player: String? = try await db.value(
                """
                UPDATE export_links SET used_at = ?
                WHERE token = ? AND format = ? AND used_at IS NULL AND expires_at > ? RETURNING player_id
                """, [now.timeIntervalSince1970, token, format.rawValue, now.timeIntervalSince1970])
            return player.map(PlayerID.init)
        }
    }
}
