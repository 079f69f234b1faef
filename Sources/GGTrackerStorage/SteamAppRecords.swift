import Foundation
import GGTrackerCore

/// Steam's app ids of catalog games, which Steam imports match by.
package struct SteamAppRecords: SQLStore {
    let executor: DatabaseExecutor
}

extension SteamAppRecords {
    /// Files the records' Steam app ids under their games (by provider reference); an id filed before under
    /// another game moves to this one.
    static func store(of records: some Collection<CatalogRecord>, in db: any SQLSession) async throws {
        try await store(records.flatMap { record in record.steamAppIDs.map { ($0, record.game.ref) } }, in: db)
    }

    static func store(_ given: [(Int64, GameRef)], in db: any SQLSession) async throws {
        // One row per app id (the last game named wins): a statement may not update a row twice.
        var last: [Int64: Int] = [:]
        for (index, pair) in given.enumerated() { last[pair.0] = index }
        let pairs = given.enumerated().filter { last[$0.element.0] == $0.offset }.map(\.element)
        for chunk in pairs.chunked(300) {
            var arguments = SQLArguments()
            arguments.values = chunk.flatMap { [SQLValue.integer($0.0), .text($0.1.provider), .text($0.1.id)] }
            try await db.send(
                """
                INSERT INTO steam_apps (app_id, provider, provider_id) VALUES \
                \(Array(repeating: "(?, ?, ?)", count: chunk.count).joined(separator: ", "))
                ON CONFLICT (app_id) DO UPDATE SET provider = excluded.provider, provider_id = excluded.provider_id
                """, arguments)
        }
    }

    /// Files Steam app ids (with the game each belongs to) of games loaded in bulk.
    package func store(_ pairs: [(Int64, GameRef)]) async throws {
        guard !pairs.isEmpty else { return }
        try await write { db in try await Self.store(pairs, in: db) }
    }

    /// The catalog's games for these Steam app ids, by app id; ids the catalog does not know are left out.
    package func games(_ ids: [Int64]) async throws -> [Int64: Game] {
        var found: [Int64: Game] = [:]
        try await read { db in
            for chunk in ids.chunked(500) {
                for row in try await db.fetchAll(
                    """
                    SELECT s.app_id, \(GameRows.columns) FROM steam_apps s
                    JOIN games g ON g.provider = s.provider AND g.provider_id = s.provider_id
                    WHERE s.app_id IN (\(Array(repeating: "?", count: chunk.count).joined(separator: ",")))
                    """, SQLArguments(Array(chunk)))
                {
                    found[row[0]] = GameRows.game(from: row)
                }
            }
        }
        return found
    }
}

extension SteamAppRecords {
    /// Some Steam app ids the catalog knows, with their game's name (for benchmarks).
    package func sample(limit: Int) async throws -> [(Int64, String)] {
        try await read { db in
            try await db.fetchAll(
                """
                SELECT s.app_id, g.name FROM steam_apps s
                JOIN games g ON g.provider = s.provider AND g.provider_id = s.provider_id ORDER BY s.app_id LIMIT ?
                """, [limit]
            ).map { ($0[0], $0[1]) }
        }
    }

    /// Names of catalog games without a Steam app id, most popular first (for benchmarks).
    package func namesWithoutSteamApp(limit: Int) async throws -> [String] {
        try await read { db in
            try await db.values(
                """
                SELECT g.name FROM games g WHERE NOT EXISTS
                    (SELECT 1 FROM steam_apps s WHERE s.provider = g.provider AND s.provider_id = g.provider_id)
                ORDER BY g.popularity DESC LIMIT ?
                """, [limit])
        }
    }
}
