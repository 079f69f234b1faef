import Foundation
import GGTrackerCore

/// How a catalog game is laid out in a row, apart from the stores that read and write it: the columns a statement
/// selects (every store that shows a game joins `games g`), the `Game` read back from them, and the columns and
/// values an upsert or a bulk load writes.
enum GameRows {
    static let columns = """
        g.id, g.provider, g.provider_id, g.slug, g.name, g.summary, g.release_date, g.release_year_only, g.platforms,
        g.genres, g.modes, g.engines, g.developers, g.publishers, g.critic_rating, g.rating_count, g.cover_image_id,
        g.age_rating, g.mature, g.url, g.game_type, g.themes, g.ttb_hastily, g.ttb_normally, g.ttb_completely
        """

    /// A game's row id and reference, from its `g.id, g.provider, g.provider_id` columns starting at `index`. Local
    /// games (no provider id) are referenced by their row id.
    static func reference(in row: SQLRow, at index: Int) -> (id: Int64, ref: GameRef) {
        let id: Int64 = row[index]
        let provider: String = row[index + 1]
        return (id, GameRef(provider: provider, id: provider == "local" ? String(id) : row[index + 2]))
    }

    /// How many columns `columns` selects.
    static let columnCount = columns.split(separator: ",").count

    /// Reads a `Game` from a row that ends with `columns`. Columns are read by position: GRDB finds a column
    /// by name with a case-insensitive scan of the row, which costs more than the rest of a `/list` together.
    static func game(from row: SQLRow) -> Game {
        let base = row.count - columnCount
        let (id, ref) = reference(in: row, at: base)
        var game = Game(
            id: id, ref: ref, name: row[base + 4],
            slug: row[base + 3], summary: row[base + 5],
            releaseDate: (row[base + 6] as Double?).map(Date.init(timeIntervalSince1970:)),
            releaseYearOnly: row[base + 7], platforms: NameList.decode(row[base + 8]),
            genres: NameList.decode(row[base + 9]),
            modes: NameList.decode(row[base + 10]), engines: NameList.decode(row[base + 11]),
            developers: NameList.decode(row[base + 12]),
            publishers: NameList.decode(row[base + 13]), criticRating: row[base + 14], ratingCount: row[base + 15],
            coverImageID: row[base + 16], ageRating: row[base + 17], isMature: row[base + 18], url: row[base + 19],
            gameType: row[base + 20], themes: NameList.decode(row[base + 21]))
        game.timeToBeat = TimeToBeat(hastily: row[base + 22], normally: row[base + 23], completely: row[base + 24])
        return game
    }

    /// The columns a catalog write stores, in the order of the values `upsertGames` and the bulk load bind.
    static let storedColumns = [
        "provider", "provider_id", "slug", "name", "keywords", "summary", "release_date", "release_year_only",
        "platforms", "genres", "modes", "engines", "developers", "publishers", "critic_rating", "rating_count",
        "cover_image_id", "age_rating", "mature", "url", "game_type", "popularity", "updated_at", "themes",
        "ttb_hastily", "ttb_normally", "ttb_completely",
    ]

    /// A record's values for `storedColumns`, in order.
    static func storedValues(_ record: CatalogRecord) -> [(any SQLBindable)?] {
        let g = record.game
        return [
            g.ref.provider, g.ref.id, g.slug, g.name, record.keywords, g.summary, g.releaseDate?.timeIntervalSince1970,
            g.releaseYearOnly, NameList.encode(g.platforms), NameList.encode(g.genres), NameList.encode(g.modes),
            NameList.encode(g.engines), NameList.encode(g.developers),
            NameList.encode(g.publishers), g.criticRating, g.ratingCount, g.coverImageID, g.ageRating, g.isMature,
            g.url,
            g.gameType, record.popularity, record.updatedAt?.timeIntervalSince1970, NameList.encode(g.themes),
            g.timeToBeat?.hastily, g.timeToBeat?.normally, g.timeToBeat?.completely,
        ]
    }

    /// `INSERT INTO games (columns) VALUES (?, …), …` for `rows` rows.
    static func insertSQL(columns: [String], rows: Int) -> String {
        let row = "(" + Array(repeating: "?", count: columns.count).joined(separator: ", ") + ")"
        return "INSERT INTO games (\(columns.joined(separator: ", "))) VALUES "
            + Array(repeating: row, count: rows).joined(separator: ", ")
    }

    /// Inserts `rows` games, or updates those already stored (by provider and provider id); returns each one's
    /// id, provider and provider id. Both databases take this form.
    static func upsertSQL(rows: Int) -> String {
        insertSQL(columns: storedColumns, rows: rows) + " ON CONFLICT (provider, provider_id) DO UPDATE SET "
            + storedColumns.dropFirst(2).map { "\($0) = excluded.\($0)" }.joined(separator: ", ")
            + " RETURNING id, provider, provider_id"
    }
}
