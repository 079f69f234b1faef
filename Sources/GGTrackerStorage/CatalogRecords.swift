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
            arguments.values = chunk.flatMap { GameRows.storedValues($0).map { $0?.sqlValue ?? .null } }
            var ids: [GameRef: Int64] = [:]
            for row in try await db.fetchAll(GameRows.upsertSQL(rows: chunk.count), arguments) {
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

    static let localGameSQL = "SELECT \(GameRows.columns) FROM games g WHERE g.id = ? AND g.provider = 'local'"
    static let providerGameSQL = "SELECT \(GameRows.columns) FROM games g WHERE g.provider = ? AND g.provider_id = ?"

    /// Sends the read of the game with this id without waiting for it. A local game is found by its row id;
    /// `game(_:)` also tries a local id as a provider's.
    static func prefetchGame(_ ref: GameRef, in db: any SQLSession) async throws -> SQLPending {
        if ref.provider == "local", let id = Int64(ref.id) { return try await db.prefetch(localGameSQL, [id]) }
        return try await db.prefetch(providerGameSQL, [ref.provider, ref.id])
    }

    package func game(_ ref: GameRef) async throws -> Game? {
        try await read { db in
            if let game = try await Self.prefetchGame(ref, in: db).rows().first.map(GameRows.game(from:)) {
                return game
            }
            // A local id that is no row's may still be a provider's id.
            guard ref.provider == "local", Int64(ref.id) != nil else { return nil }
            return try await db.fetchOne(Self.providerGameSQL, [ref.provider, ref.id]).map(GameRows.game(from:))
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
