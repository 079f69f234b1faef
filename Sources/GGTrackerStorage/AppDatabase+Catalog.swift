import Foundation
import GGTrackerCore
import GRDB

/// A catalog game as written by imports and providers: the domain `Game` plus what only the index needs.
package struct CatalogRecord: Sendable {
    package var game: Game
    /// Extra searchable words: numerals for roman numerals, joined word pairs ("hollowknight").
    package var keywords: String
    /// Ranks namesakes and broad searches; from rating counts and critic ratings.
    package var popularity: Double
    package var updatedAt: Date?

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

extension AppDatabase {
    package static let gameColumns = """
        g.id, g.provider, g.provider_id, g.slug, g.name, g.summary, g.release_date, g.release_year_only, g.platforms,
        g.genres, g.modes, g.engines, g.developers, g.publishers, g.critic_rating, g.rating_count, g.cover_image_id,
        g.age_rating, g.mature, g.url, g.game_type
        """

    /// Reads a `Game` from a row selected with `gameColumns`.
    package static func game(from row: Row) -> Game {
        let id: Int64 = row["id"]
        let provider: String = row["provider"]
        // Local games (no provider id) are referenced by their row id.
        let ref =
            provider == "local"
            ? GameRef(provider: provider, id: String(id)) : GameRef(provider: provider, id: row["provider_id"])
        return Game(
            id: id, ref: ref, name: row["name"],
            slug: row["slug"], summary: row["summary"],
            releaseDate: (row["release_date"] as Double?).map(Date.init(timeIntervalSince1970:)),
            releaseYearOnly: row["release_year_only"], platforms: list(row["platforms"]), genres: list(row["genres"]),
            modes: list(row["modes"]), engines: list(row["engines"]), developers: list(row["developers"]),
            publishers: list(row["publishers"]), criticRating: row["critic_rating"], ratingCount: row["rating_count"],
            coverImageID: row["cover_image_id"], ageRating: row["age_rating"], isMature: row["mature"], url: row["url"],
            gameType: row["game_type"])
    }

    static func list(_ json: String?) -> [String] {
        guard let json, json != "[]", let data = json.data(using: .utf8) else { return [] }
        return (try? JSONDecoder().decode([String].self, from: data)) ?? []
    }

    static func json(_ list: [String]) -> String {
        guard !list.isEmpty, let data = try? JSONEncoder().encode(list) else { return "[]" }
        return String(decoding: data, as: UTF8.self)
    }

    /// Inserts or updates catalog games by (provider, provider id), in one transaction; local ids stay stable.
    @discardableResult
    package func upsertGames(_ records: [CatalogRecord]) throws -> UpsertCounts {
        try writer.write { db in try Self.upsertGames(records, in: db) }
    }

    /// Upserts a batch and records catalog state (a refresh checkpoint) in the same transaction, so the state never
    /// runs ahead of what is stored.
    @discardableResult
    package func upsertGames(
        _ records: [CatalogRecord], settingMeta meta: (UpsertCounts) -> [String: String]
    ) throws -> UpsertCounts {
        try writer.write { db in
            let counts = try Self.upsertGames(records, in: db)
            for (key, value) in meta(counts) {
                try db.execute(
                    sql:
                        "INSERT INTO catalog_meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                    arguments: [key, value])
            }
            return counts
        }
    }

    package func deleteCatalogMeta(prefix: String) throws {
        try writer.write { db in
            try db.execute(
                sql: "DELETE FROM catalog_meta WHERE key LIKE ? ESCAPE '\\'",
                arguments: [prefix.replacingOccurrences(of: "_", with: "\\_") + "%"])
        }
    }

    package static func upsertGames(_ records: [CatalogRecord], in db: Database) throws -> UpsertCounts {
        var counts = UpsertCounts()
        let find = try db.cachedStatement(sql: "SELECT id FROM games WHERE provider = ? AND provider_id = ?")
        let insert = try db.cachedStatement(
            sql: """
                INSERT INTO games (provider, provider_id, slug, name, keywords, summary, release_date, release_year_only,
                    platforms, genres, modes, engines, developers, publishers, critic_rating, rating_count, cover_image_id,
                    age_rating, mature, url, game_type, popularity, updated_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """)
        let update = try db.cachedStatement(
            sql: """
                UPDATE games SET slug = ?, name = ?, keywords = ?, summary = ?, release_date = ?, release_year_only = ?,
                    platforms = ?, genres = ?, modes = ?, engines = ?, developers = ?, publishers = ?, critic_rating = ?,
                    rating_count = ?, cover_image_id = ?, age_rating = ?, mature = ?, url = ?, game_type = ?,
                    popularity = ?, updated_at = ?
                WHERE id = ?
                """)
        let clearFacets = try db.cachedStatement(sql: "DELETE FROM game_facets WHERE game_id = ?")
        let addFacet = try db.cachedStatement(
            sql: "INSERT OR IGNORE INTO game_facets (kind, name, game_id) VALUES (?, ?, ?)")
        for record in records {
            let g = record.game
            let values: [(any DatabaseValueConvertible)?] = [
                g.slug, g.name, record.keywords, g.summary, g.releaseDate?.timeIntervalSince1970, g.releaseYearOnly,
                json(g.platforms), json(g.genres), json(g.modes), json(g.engines), json(g.developers),
                json(g.publishers), g.criticRating, g.ratingCount, g.coverImageID, g.ageRating, g.isMature, g.url,
                g.gameType, record.popularity, record.updatedAt?.timeIntervalSince1970,
            ]
            let id: Int64
            if let existing = try Int64.fetchOne(find, arguments: [g.ref.provider, g.ref.id]) {
                try update.execute(arguments: StatementArguments(values + [existing]))
                try clearFacets.execute(arguments: [existing])
                id = existing
                counts.updated += 1
            } else {
                try insert.execute(arguments: StatementArguments([g.ref.provider, g.ref.id] + values))
                id = db.lastInsertedRowID
                counts.added += 1
            }
            for (kind, names) in [
                (FacetKind.genre, g.genres), (.platform, g.platforms), (.mode, g.modes), (.engine, g.engines),
            ] {
                for name in names { try addFacet.execute(arguments: [kind.rawValue, name, id]) }
            }
        }
        return counts
    }

    package func game(_ ref: GameRef) throws -> Game? {
        try reader.read { db in
            if ref.provider == "local", let id = Int64(ref.id) {
                if let row = try Row.fetchOne(
                    db, sql: "SELECT \(Self.gameColumns) FROM games g WHERE g.id = ? AND g.provider = 'local'",
                    arguments: [id])
                {
                    return Self.game(from: row)
                }
            }
            return try Row.fetchOne(
                db, sql: "SELECT \(Self.gameColumns) FROM games g WHERE g.provider = ? AND g.provider_id = ?",
                arguments: [ref.provider, ref.id]
            ).map(Self.game(from:))
        }
    }

    package func gameCount() throws -> Int {
        try reader.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM games") ?? 0 }
    }

    package func catalogMeta(_ key: String) throws -> String? {
        try reader.read { db in
            try String.fetchOne(db, sql: "SELECT value FROM catalog_meta WHERE key = ?", arguments: [key])
        }
    }

    package func setCatalogMeta(_ key: String, _ value: String) throws {
        try writer.write { db in
            try db.execute(
                sql:
                    "INSERT INTO catalog_meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                arguments: [key, value])
        }
    }
}

extension AppDatabase {
    /// When the provider was last asked this query, so a repeated search is answered locally.
    package func providerLookup(provider: String, query: String) throws -> Date? {
        try reader.read { db in
            try Double.fetchOne(
                db, sql: "SELECT looked_up_at FROM provider_lookups WHERE provider = ? AND query = ?",
                arguments: [provider, query]
            ).map(Date.init(timeIntervalSince1970:))
        }
    }

    /// Stores what a provider answered and remembers the lookup, in one transaction.
    package func recordProviderLookup(provider: String, query: String, records: [CatalogRecord], at now: Date) throws {
        try writer.write { db in
            _ = try Self.upsertGames(records, in: db)
            try db.execute(
                sql: """
                    INSERT INTO provider_lookups (provider, query, looked_up_at) VALUES (?, ?, ?)
                    ON CONFLICT DO UPDATE SET looked_up_at = excluded.looked_up_at
                    """, arguments: [provider, query, now.timeIntervalSince1970])
        }
    }
}

extension AppDatabase {
    /// Adds one to a request counter kept with the catalog's state.
    package func countCatalogRequest(_ key: String) throws {
        try writer.write { db in
            try db.execute(
                sql: """
                    INSERT INTO catalog_meta (key, value) VALUES (?, '1')
                    ON CONFLICT(key) DO UPDATE SET value = CAST(value AS INTEGER) + 1
                    """, arguments: [key])
        }
    }
}
