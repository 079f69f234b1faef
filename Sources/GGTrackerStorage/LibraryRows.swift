import Foundation
import GGTrackerCore

/// How a player's rows are read and written, apart from the store's operations: the columns a statement selects,
/// the values read back from a row (players, library entries, wishlist items, a server's settings) and the one
/// statement that writes entries, for `/add`, `/progress`… and for an import's many rows.
enum LibraryRows {
    static func date(_ value: Double?) -> Date? { value.map(Date.init(timeIntervalSince1970:)) }

    static func player(from row: SQLRow) -> Player {
        Player(
            id: PlayerID(row["id"] as String), displayName: row["display_name"], nickname: row["nickname"],
            avatarURL: row["avatar_url"], bio: row["bio"], createdAt: Date(timeIntervalSince1970: row["created_at"]))
    }

    static let entrySelect =
        "SELECT e.*, \(GameRows.columns) FROM library_entries e JOIN games g ON g.id = e.game_id"

    /// What a line of `/list` shows of an entry and its game, read by `listedEntry(from:)`: a library page reads
    /// these and nothing else (every column is a cell to convert, ten rows a page; on PostgreSQL one to send too).
    static let listedColumns = """
        e.status, e.hours, e.percent, e.score, e.favorite, e.added_at, e.updated_at,
        g.id, g.provider, g.provider_id, g.name, g.release_date, g.release_year_only, g.mature
        """

    /// Reads an entry from a row that begins with `listedColumns`: its status, hours, percent, score, favorite mark
    /// and dates, and its game's id, name, release and age restriction; nothing else of either.
    static func listedEntry(from row: SQLRow) -> LibraryEntry {
        let (id, ref) = GameRows.reference(in: row, at: 7)
        let game = Game(
            id: id, ref: ref, name: row[10],
            releaseDate: date(row[11]), releaseYearOnly: row[12], isMature: row[13])
        var entry = LibraryEntry(
            game: game, status: GameStatus(rawValue: row[0]) ?? .backlog, at: Date(timeIntervalSince1970: row[5]))
        entry.hours = row[1]
        entry.percent = row[2]
        entry.score = row[3]
        entry.favorite = row[4]
        entry.updatedAt = Date(timeIntervalSince1970: row[6])
        return entry
    }

    /// Reads an entry from a row of `entrySelect`: the entry's columns first, in table order (by position, as
    /// `GameRows.game(from:)` explains), the game's last.
    static func entry(from row: SQLRow) -> LibraryEntry {
        // player_id, game_id, status, hours, percent, score, review, reviewed_at, favorite, tags, note, added_at,
        // started_at, finished_at, updated_at, review_spoiler
        var entry = LibraryEntry(
            game: GameRows.game(from: row), status: GameStatus(rawValue: row[2]) ?? .backlog,
            at: Date(timeIntervalSince1970: row[11]))
        entry.hours = row[3]
        entry.percent = row[4]
        entry.score = row[5]
        entry.review = row[6]
        entry.reviewedAt = date(row[7])
        entry.favorite = row[8]
        entry.tags = NameList.decode(row[9])
        entry.note = row[10]
        entry.startedAt = date(row[12])
        entry.finishedAt = date(row[13])
        entry.updatedAt = Date(timeIntervalSince1970: row[14])
        entry.reviewIsSpoiler = row[15]
        return entry
    }

    static func fetchEntry(_ db: any SQLSession, player: PlayerID, game: Int64) async throws -> LibraryEntry? {
        if let known = OwnCopy.recalled(player, game, in: db) { return known.entry }
        return try await db.fetchOne("\(entrySelect) WHERE e.player_id = ? AND e.game_id = ?", [player.rawValue, game])
            .map(
                entry(from:))
    }

    /// Wishlisted games with the moment of each wish (`wishlistItem(from:)` reads its rows).
    static let wishlistSelect =
        "SELECT w.added_at AS wished_at, \(GameRows.columns) FROM wishlist w JOIN games g ON g.id = w.game_id"

    /// A wishlist row: the game's columns and `wished_at`.
    static func wishlistItem(from row: SQLRow) -> WishlistItem {
        WishlistItem(game: GameRows.game(from: row), addedAt: Date(timeIntervalSince1970: row["wished_at"]))
    }

    static func settings(of community: String, in db: any SQLSession) async throws -> CommunitySettings {
        guard
            let row = try await db.fetchOne(
                "SELECT age_gate, announce_channel, announce_failure, announce_failed_at FROM communities WHERE id = ?",
                [community])
        else { return CommunitySettings() }
        let failure: String? = row["announce_failure"]
        let failedAt: Double? = row["announce_failed_at"]
        return CommunitySettings(
            announceChannel: row["announce_channel"], ageGate: AgeGate(rawValue: row["age_gate"]) ?? .strict,
            announceFailure: failure.map { AnnounceFailure(reason: $0, at: Date(timeIntervalSince1970: failedAt ?? 0)) }
        )
    }

    // MARK: Writing entries

    /// Inserts `rows` entries, or replaces what an entry already stored holds (its `added_at` stays).
    static func upsertEntriesSQL(rows: Int) -> String {
        let row = "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
        return """
            INSERT INTO library_entries (player_id, game_id, status, hours, percent, score, review, reviewed_at,
                favorite, tags, note, added_at, started_at, finished_at, updated_at, review_spoiler)
            VALUES \(Array(repeating: row, count: rows).joined(separator: ", "))
            ON CONFLICT(player_id, game_id) DO UPDATE SET status = excluded.status, hours = excluded.hours,
                percent = excluded.percent, score = excluded.score, review = excluded.review,
                reviewed_at = excluded.reviewed_at, favorite = excluded.favorite, tags = excluded.tags,
                note = excluded.note, started_at = excluded.started_at, finished_at = excluded.finished_at,
                updated_at = excluded.updated_at, review_spoiler = excluded.review_spoiler
            """
    }

    /// An entry's values for `upsertEntriesSQL`, in order.
    static func entryValues(_ player: PlayerID, _ entry: LibraryEntry) -> [SQLValue] {
        let values: [(any SQLBindable)?] = [
            player.rawValue, entry.game.id, entry.status.rawValue, entry.hours, entry.percent, entry.score,
            entry.review, entry.reviewedAt?.timeIntervalSince1970, entry.favorite, NameList.encode(entry.tags),
            entry.note, entry.addedAt.timeIntervalSince1970, entry.startedAt?.timeIntervalSince1970,
            entry.finishedAt?.timeIntervalSince1970, entry.updatedAt.timeIntervalSince1970, entry.reviewIsSpoiler,
        ]
        return values.map { $0?.sqlValue ?? .null }
    }

    /// A player's id, then game ids.
    static func arguments(_ player: PlayerID, _ games: some Sequence<Int64>) -> SQLArguments {
        var arguments = SQLArguments()
        arguments.values = [.text(player.rawValue)] + games.map { .integer($0) }
        return arguments
    }
}
