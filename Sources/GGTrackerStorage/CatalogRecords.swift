import Foundation
import GGTrackerCore

/// A catalog game as written by imports and providers: the domain `Game` plus what only the index needs.
package struct CatalogRecord: Sendable {
    package var game: Game
    /// Extra searchable words: numerals for roman numerals, joined word pairs ("hollowknight").
    package var keywords: String
    /// Ranks namesakes and broad searches; from rating counts and critic ratings.
    package var popularity: Double
    package var updatedAt: Date?
    /// Steam's app ids for the game (IGDB's external ids), which a Steam import matches by.
    package var steamAppIDs: [Int64] = []

    package init(game: Game, keywords: String, popularity: Double, updatedAt: Date?) {
        self.game = game
        self.keywords = keywords
        self.popularity = popularity
        self.updatedAt = updatedAt
    }
}

/// What an upsert did.
package struct UpsertCounts: Sendable, Equatable {
    package var added = 0
    package var updated = 0
    package init(added: Int = 0, updated: Int = 0) {
        self.added = added
        self.updated = updated
    }
}

extension CatalogRecords {
    package static let gameColumns = """
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

    /// How many columns `gameColumns` selects.
    static let gameColumnCount = gameColumns.split(separator: ",").count

    /// Reads a `Game` from a row that ends with `gameColumns`. Columns are read by position: GRDB finds a column
    /// by name with a case-insensitive scan of the row, which costs more than the rest of a `/list` together.
    package static func game(from row: SQLRow) -> Game {
        let base = row.count - gameColumnCount
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

    /// Inserts or updates catalog games by (provider, provider id), in one transaction; local ids stay stable.
    @discardableResult
    package func upsertGames(_ records: [CatalogRecord]) async throws -> UpsertCounts {
        try await write { db in try await Self.upsertGames(records, in: db) }
    }

    /// Upserts a batch and records catalog state (a refresh checkpoint) in the same transaction, so the state never
    /// runs ahead of what is stored.
    @discardableResult
    package func upsertGames(
        _ records: [CatalogRecord], settingMeta meta: @Sendable (UpsertCounts) -> [String: String]
    ) async throws -> UpsertCounts {
        try await write { db in
            let counts = try await Self.upsertGames(records, in: db)
            for (key, value) in meta(counts) {
                try await db.execute(
                    "INSERT INTO catalog_meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                    [key, value])
            }
            return counts
        }
    }

    /// The columns a catalog write stores, in the order of the values `upsertGames` and the bulk load bind.
    static let storedGameColumns = [
        "provider", "provider_id", "slug", "name", "keywords", "summary", "release_date", "release_year_only",
        "platforms", "genres", "modes", "engines", "developers", "publishers", "critic_rating", "rating_count",
        "cover_image_id", "age_rating", "mature", "url", "game_type", "popularity", "updated_at", "themes",
        "ttb_hastily", "ttb_normally", "ttb_completely",
    ]

    /// A record's values for `storedGameColumns`, in order.
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
    static func insertGamesSQL(columns: [String], rows: Int) -> String {
        let row = "(" + Array(repeating: "?", count: columns.count).joined(separator: ", ") + ")"
        return "INSERT INTO games (\(columns.joined(separator: ", "))) VALUES "
            + Array(repeating: row, count: rows).joined(separator: ", ")
    }

    /// Any process that changes the catalog moves its generation on, so in-memory indexes know to rebuild.
    static func moveCatalogGeneration(_ db: any SQLSession) async throws {
        try await db.execute(
            """
            INSERT INTO catalog_meta (key, value) VALUES ('catalog.generation', '1')
            ON CONFLICT(key) DO UPDATE SET value = CAST(CAST(catalog_meta.value AS BIGINT) + 1 AS TEXT)
            """)
    }

    /// Games written by one statement of an upsert.
    static let upsertChunk = 200

    /// Inserts or updates the games a few hundred to a statement: one query finds which exist (for the counts and
    /// to clear their facets), one upsert writes them all, and their facets are filed together. A game that comes
    /// twice in `records` is written again after the rest, the later copy winning.
    package static func upsertGames(_ records: [CatalogRecord], in db: any SQLSession) async throws -> UpsertCounts {
        var counts = UpsertCounts()
        guard !records.isEmpty else { return counts }
        try await moveCatalogGeneration(db)
        var once: [CatalogRecord] = []
        var batches = [records].makeIterator()
        let again = try firstCopies({ batches.next() }) { once.append($0) }
        var facetIDs: [String: Int64] = [:]
        for start in stride(from: 0, to: once.count, by: upsertChunk) {
            let chunk = once[start..<min(start + upsertChunk, once.count)]
            var stored: [GameRef: Int64] = [:]
            for (provider, games) in Dictionary(grouping: chunk, by: \.game.ref.provider) {
                let marks = Array(repeating: "?", count: games.count).joined(separator: ", ")
                for row in try await db.fetchAll(
                    "SELECT id, provider_id FROM games WHERE provider = ? AND provider_id IN (\(marks))",
                    SQLArguments([provider] + games.map(\.game.ref.id)))
                {
                    stored[GameRef(provider: provider, id: row[1])] = row[0]
                }
            }
            if !stored.isEmpty {
                // Their genres and platforms are filed again below, as the records now say.
                let marks = Array(repeating: "?", count: stored.count).joined(separator: ", ")
                try await db.execute(
                    "DELETE FROM game_facets WHERE game_id IN (\(marks))", SQLArguments(Array(stored.values)))
            }
            var arguments = SQLArguments()
            arguments.values = chunk.flatMap { storedValues($0).map { $0?.sqlValue ?? .null } }
            var ids: [GameRef: Int64] = [:]
            for row in try await db.fetchAll(upsertGamesSQL(rows: chunk.count), arguments) {
                ids[GameRef(provider: row[1], id: row[2])] = row[0]
            }
            var written: [(id: Int64, game: Game)] = []
            for record in chunk {
                guard let id = ids[record.game.ref] else { throw GameNotStored(ref: record.game.ref) }
                written.append((id, record.game))
            }
            counts.updated += stored.count
            counts.added += chunk.count - stored.count
            try await fileFacets(of: written, in: db, known: &facetIDs)
        }
        try await SteamAppRecords.store(of: once, in: db)
        if !again.isEmpty {
            let rest = try await upsertGames(again, in: db)
            counts.added += rest.added
            counts.updated += rest.updated
        }
        return counts
    }

    /// The database did not return the id of a game it was asked to store.
    struct GameNotStored: Error, CustomStringConvertible {
        let ref: GameRef
        var description: String { "the database did not return an id for \(ref)" }
    }

    /// Inserts `rows` games, or updates those already stored (by provider and provider id); returns each one's
    /// id, provider and provider id. Both databases take this form.
    static func upsertGamesSQL(rows: Int) -> String {
        insertGamesSQL(columns: storedGameColumns, rows: rows) + " ON CONFLICT (provider, provider_id) DO UPDATE SET "
            + storedGameColumns.dropFirst(2).map { "\($0) = excluded.\($0)" }.joined(separator: ", ")
            + " RETURNING id, provider, provider_id"
    }

    /// Files the games under their genres, platforms, modes and engines (whose facets are created when new).
    /// `known` keeps facet ids found so far, by kind and name as written.
    static func fileFacets(
        of games: [(id: Int64, game: Game)], in db: any SQLSession, known: inout [String: Int64]
    ) async throws {
        var pairs: [SQLValue] = []
        for (id, game) in games {
            for (kind, names) in facetLists(of: game) {
                let kind = facetKinds[Int(kind)].rawValue
                for name in names {
                    let key = kind + "\u{1F}" + name
                    if known[key] == nil {
                        try await db.execute(
                            "INSERT INTO facets (kind, name) VALUES (?, ?) ON CONFLICT DO NOTHING", [kind, name])
                        known[key] = try await db.value(
                            "SELECT id FROM facets WHERE kind = ? AND \(db.dialect.equalsIgnoringCase("name"))",
                            [kind, name])
                    }
                    if let facet = known[key] { pairs += [.integer(facet), .integer(id)] }
                }
            }
        }
        let perStatement = 1_000
        for start in stride(from: 0, to: pairs.count, by: perStatement * 2) {
            var arguments = SQLArguments()
            arguments.values = Array(pairs[start..<min(start + perStatement * 2, pairs.count)])
            try await db.execute(
                "INSERT INTO game_facets (facet_id, game_id) VALUES "
                    + Array(repeating: "(?, ?)", count: arguments.values.count / 2).joined(separator: ", ")
                    + " ON CONFLICT DO NOTHING", arguments)
        }
    }

    static let localGameSQL = "SELECT \(gameColumns) FROM games g WHERE g.id = ? AND g.provider = 'local'"
    static let providerGameSQL = "SELECT \(gameColumns) FROM games g WHERE g.provider = ? AND g.provider_id = ?"

    /// Sends the read of the game with this id without waiting for it. A local game is found by its row id;
    /// `game(_:)` also tries a local id as a provider's.
    static func prefetchGame(_ ref: GameRef, in db: any SQLSession) async throws -> SQLPending {
        if ref.provider == "local", let id = Int64(ref.id) { return try await db.prefetch(localGameSQL, [id]) }
        return try await db.prefetch(providerGameSQL, [ref.provider, ref.id])
    }

    package func game(_ ref: GameRef) async throws -> Game? {
        try await read { db in
            if let game = try await Self.prefetchGame(ref, in: db).rows().first.map(Self.game(from:)) { return game }
            // A local id that is no row's may still be a provider's id.
            guard ref.provider == "local", Int64(ref.id) != nil else { return nil }
            return try await db.fetchOne(Self.providerGameSQL, [ref.provider, ref.id]).map(Self.game(from:))
        }
    }

    package func gameCount() async throws -> Int {
        try await read { db in try await (db.value("SELECT count(*) FROM games") as Int?) ?? 0 }
    }

    static let generationKey = "catalog.generation"
}

extension CatalogRecords {
    /// Hands `body` each game of the batches the first time it comes; returns the later copies of games that came
    /// twice, to be stored once the load is done (the later one winning).
    static func firstCopies(
        _ batches: () throws -> [CatalogRecord]?, _ body: (CatalogRecord) throws -> Void
    ) throws -> [CatalogRecord] {
        var copies = FirstCopies()
        while let batch = try batches() {
            for record in batch where copies.isFirst(record) { try body(record) }
        }
        return copies.again
    }

    /// The kinds of facets a game is filed under, in the order of `facetLists`.
    static let facetKinds: [FacetKind] = [.genre, .platform, .mode, .engine]

    static func facetLists(of game: Game) -> [(UInt8, [String])] {
        [(0, game.genres), (1, game.platforms), (2, game.modes), (3, game.engines)]
    }
}
