import Foundation
import GGTrackerCore

/// How library entries are written: one statement for `/add`, `/progress`… and for an import's many rows.
extension LibraryRecords {
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
