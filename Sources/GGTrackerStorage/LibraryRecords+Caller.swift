import Foundation
import GGTrackerCore

extension LibraryRecords {
    /// The player behind a command, recorded with their server membership. A player seen in the same server
    /// under the same name within `RecentlySeen.interval` is only read: a command that changes nothing
    /// writes nothing, so last-seen times are accurate to that interval.
    @discardableResult
    package func recordPlayer(_ invoker: Invoker, at now: Date) async throws -> Player {
        try await caller(invoker, at: now, naming: nil).player
    }

    /// The player and their server's settings in one transaction: a read while the player was recorded in the
    /// last ten minutes with this name on this server, else a write that records them. On behalf of a delivery
    /// already answered, throws `DeliveryAnswered` with that answer. The game named by `named`, and the page of the
    /// player's library `listing` asks for, are read with them on the read.
    package func caller(
        _ invoker: Invoker, at now: Date, naming named: GameRef?, listing: LibraryListing?
    ) async throws -> Caller {
        let key = "\(invoker.player.rawValue)\u{1F}\(invoker.community)\u{1F}\(invoker.displayName)"
        if recentlySeen.isFresh(key, at: now), let listing, named == nil, isPostgres {
            // On PostgreSQL the caller and the page are one statement (see `callerListing`).
            if let found = try await callerListing(invoker, listing) {
                try answeredBefore(found.answered)
                return found.caller
            }
        } else if recentlySeen.isFresh(key, at: now) {
            // The player and their server's settings in one statement: one round trip on PostgreSQL.
            let found = try await read { db -> (Caller, Data?)? in
                var game: SQLPending?
                var own: OwnCopy.Pending?
                if let named {
                    game = try await CatalogRecords.prefetchGame(named, in: db)
                    // In a command that may change the entry, what the change starts from comes with the caller.
                    if claim != nil && dialect == .postgres {
                        own = try await OwnCopy.prefetch(of: invoker.player, named, in: db)
                    }
                }
                guard
                    let row = try await db.fetchOne(
                        """
                        SELECT p.*, c.age_gate, c.announce_channel, d.response AS answered FROM players p
                        LEFT JOIN communities c ON c.id = ? LEFT JOIN processed_interactions d ON d.id = ?
                        WHERE p.id = ?
                        """, [invoker.community, claim?.id, invoker.player.rawValue])
                else { return nil }
                let gate: String? = row["age_gate"]
                let settings = CommunitySettings(
                    announceChannel: row["announce_channel"], ageGate: gate.flatMap(AgeGate.init) ?? .strict)
                let namedGame = try await game?.rows().first.map(GameRows.game(from:))
                if let own, let namedGame { try await own.remember(for: invoker.player, game: namedGame.id, in: db) }
                let player = LibraryRows.player(from: row)
                // On SQLite the page is read in the same transaction.
                var listed: LibraryPage?
                if let listing {
                    listed = try await Self.library(
                        of: player.id, listing, includeMature: settings.showsMature(to: invoker), in: db)
                }
                return (
                    Caller(player: player, settings: settings, namedGame: namedGame, listed: listed),
                    row["answered"]
                )
            }
            if let found {
                try answeredBefore(found.1)
                return found.0
            }
        }
        let found = try await write { db in
            let t = now.timeIntervalSince1970
            try await db.execute(
                """
                INSERT INTO players (id, display_name, created_at, last_seen_at) VALUES (?, ?, ?, ?)
                ON CONFLICT(id) DO UPDATE SET display_name = excluded.display_name, last_seen_at = excluded.last_seen_at
                """, [invoker.player.rawValue, invoker.displayName, t, t])
            try await db.execute(
                "INSERT INTO communities (id, created_at) VALUES (?, ?) ON CONFLICT DO NOTHING", [invoker.community, t])
            try await db.execute(
                """
                INSERT INTO memberships (community_id, player_id, last_seen_at) VALUES (?, ?, ?)
                ON CONFLICT (community_id, player_id) DO UPDATE SET last_seen_at = excluded.last_seen_at
                """, [invoker.community, invoker.player.rawValue, t])
            let row = try await db.fetchOne(
                """
                SELECT p.*, (SELECT response FROM processed_interactions WHERE id = ?) AS answered FROM players p
                WHERE p.id = ?
                """, [claim?.id, invoker.player.rawValue])!
            return (
                LibraryRows.player(from: row), try await LibraryRows.settings(of: invoker.community, in: db),
                row["answered"] as Data?
            )
        }
        recentlySeen.saw(key, at: now)
        try answeredBefore(found.2)
        return Caller(player: found.0, settings: found.1)
    }

    /// A command always reads its caller first; for a delivery retried after its answer was stored, the same read
    /// finds that answer, and the command stops there to give it again.
    private func answeredBefore(_ response: Data?) throws {
        if let claim, let response, !response.isEmpty {
            throw DeliveryAnswered(id: claim.id, response: response)
        }
    }
}

/// The caller's own entry of a game, and the challenges a change to it could award a medal in, as read in the
/// command's transaction with the caller (the game a command names) or with their shelves (a title given as text):
/// what `updateEntry` and `entry(of:game:)` then use instead of reading them again, until the transaction writes.
struct OwnCopy: Sendable {
    var entry: LibraryEntry?
    /// The player's challenges without a medal yet, whatever their dates (`ChallengeRows.unfinishedChallenges`).
    var challenges: [SQLRow]
    /// Whether the game is on the player's wishlist.
    var wishlisted: Bool

    static func key(_ player: PlayerID, _ game: Int64) -> String { "own-copy:\(player.rawValue):\(game)" }

    /// What was kept for the player's entry of the game in this transaction, if anything.
    static func recalled(_ player: PlayerID, _ game: Int64, in db: any SQLSession) -> OwnCopy? {
        // SQLite keeps nothing: no key is made for it.
        guard db.dialect == .postgres else { return nil }
        return db.recall(key(player, game)) as? OwnCopy
    }

    /// The two reads, sent.
    struct Pending {
        let entry: SQLPending
        let candidates: SQLPending

        func remember(for player: PlayerID, game: Int64, in db: any SQLSession) async throws {
            // The game's row, with the entry's columns empty when it is in no library of the player's.
            let row = try await entry.rows().first
            let copy = OwnCopy(
                entry: row.flatMap { ($0[0] as String?) == nil ? nil : LibraryRows.entry(from: $0) },
                challenges: try await candidates.rows(), wishlisted: row.map { $0["wished"] } ?? false)
            // The entry read is of the game the ref names; the ref named the game read with it.
            guard copy.entry == nil || copy.entry?.game.id == game else { return }
            db.remember(OwnCopy.key(player, game), copy)
        }
    }

    /// Sends the reads of the player's entry of the game `ref` names, with whether the game is on their wishlist
    /// (one statement: the game's row, the entry's columns first and empty when there is none, the game's last, as
    /// `LibraryRows.entry(from:)` and `GameRows.game(from:)` read them), and of their unfinished challenges.
    static func prefetch(of player: PlayerID, _ ref: GameRef, in db: any SQLSession) async throws -> Pending {
        let game: (where: String, arguments: SQLArguments)
        if ref.provider == "local", let id = Int64(ref.id) {
            game = ("g.id = ? AND g.provider = 'local'", [id])
        } else {
            game = ("g.provider = ? AND g.provider_id = ?", [ref.provider, ref.id])
        }
        let entry = try await db.prefetch(
            """
            SELECT e.*, EXISTS (SELECT 1 FROM wishlist w WHERE w.player_id = ? AND w.game_id = g.id) AS wished,
                \(GameRows.columns)
            FROM games g LEFT JOIN library_entries e ON e.game_id = g.id AND e.player_id = ?
            WHERE \(game.where)
            """, [player.rawValue, player.rawValue] + game.arguments)
        return Pending(entry: entry, candidates: try await ChallengeRows.unfinishedChallenges(db, player: player))
    }

    /// The games on the player's shelves, read with the entries themselves and the player's unfinished challenges
    /// (one round trip), each kept as the player's own copy: the change a command then makes to the one it picks
    /// reads nothing more.
    static func shelves(of player: PlayerID, in db: any SQLSession) async throws -> [ShelfGame] {
        let p = player.rawValue
        let entries = try await db.prefetch("\(LibraryRows.entrySelect) WHERE e.player_id = ?", [p])
        let wished = try await db.prefetch(
            """
            SELECT w.added_at, \(GameRows.columns) FROM wishlist w JOIN games g ON g.id = w.game_id
            WHERE w.player_id = ? AND w.game_id NOT IN (SELECT game_id FROM library_entries WHERE player_id = ?)
            """, [p, p])
        let challenges = try await ChallengeRows.unfinishedChallenges(db, player: player).rows()
        let owned = try await entries.rows().map(LibraryRows.entry(from:))
        let wishedOnly = try await wished.rows().map {
            ShelfGame(game: GameRows.game(from: $0), status: nil, touchedAt: Date(timeIntervalSince1970: $0[0]))
        }
        for entry in owned {
            db.remember(key(player, entry.game.id), OwnCopy(entry: entry, challenges: challenges, wishlisted: false))
        }
        for wish in wishedOnly {
            db.remember(key(player, wish.game.id), OwnCopy(entry: nil, challenges: challenges, wishlisted: true))
        }
        let shelves =
            owned.map { ShelfGame(game: $0.game, status: $0.status, touchedAt: $0.updatedAt, favorite: $0.favorite) }
            + wishedOnly
        return shelves.sorted { $0.touchedAt > $1.touchedAt }
    }
}
