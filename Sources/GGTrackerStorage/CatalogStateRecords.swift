import Foundation

/// The catalog's own state: its generation, a refresh's checkpoints and request counters, a provider's token, and
/// which queries were already asked of a provider.
package struct CatalogStateRecords: SQLStore {
    let executor: DatabaseExecutor

    /// How many times the catalog was changed, by any process.
    package func generation() async throws -> Int {
        try await value(CatalogRecords.generationKey).flatMap(Int.init) ?? 0
    }

    package func value(_ key: String) async throws -> String? {
        try await read { db in
            try await (db.value("SELECT value FROM catalog_meta WHERE key = ?", [key]) as String?)
        }
    }

    package func set(_ key: String, _ value: String) async throws {
        try await write { db in
            try await db.execute(
                "INSERT INTO catalog_meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                [key, value])
        }
    }

    /// Forgets every value whose key starts with `prefix`.
    package func delete(prefix: String) async throws {
        try await write { db in
            try await db.execute(
                "DELETE FROM catalog_meta WHERE key LIKE ? ESCAPE '\\'",
                [prefix.replacingOccurrences(of: "_", with: "\\_") + "%"])
        }
    }

    /// Adds one to a request counter.
    package func countRequest(_ key: String) async throws {
        try await write { db in
            try await db.execute(
                """
                INSERT INTO catalog_meta (key, value) VALUES (?, '1')
                ON CONFLICT(key) DO UPDATE SET value = CAST(CAST(catalog_meta.value AS BIGINT) + 1 AS TEXT)
                """, [key])
        }
    }

    /// When the provider was last asked this query, so a repeated search is answered locally.
    package func providerLookup(provider: String, query: String) async throws -> Date? {
        try await read { db in
            try await
                (db.value(
                    "SELECT looked_up_at FROM provider_lookups WHERE provider = ? AND query = ?", [provider, query])
                as Double?).map(Date.init(timeIntervalSince1970:))
        }
    }

    /// Stores what a provider answered and remembers the lookup, in one transaction.
    package func recordProviderLookup(
        provider: String, query: String, records: [CatalogRecord], at now: Date
    ) async throws {
        try await write { db in
            _ = try await CatalogRecords.upsertGames(records, in: db)
            try await db.execute(
                """
                INSERT INTO provider_lookups (provider, query, looked_up_at) VALUES (?, ?, ?)
                ON CONFLICT (provider, query) DO UPDATE SET looked_up_at = excluded.looked_up_at
                """, [provider, query, now.timeIntervalSince1970])
        }
    }
}
