import Foundation
import GRDB

/// One step of the schema, declared once with its text for each database, side by side. PostgreSQL's integers are
/// `BIGINT`, times `DOUBLE PRECISION` seconds, flags `BIGINT` 0 or 1, lists JSON text: the values SQLite stores,
/// so the same statements read and write both. A database records the identifiers of the steps it has run.
struct Migration: Sendable {
    let identifier: String
    let sqlite: String
    let postgres: String

    init(_ identifier: String, sqlite: String, postgres: String) {
        self.identifier = identifier
        self.sqlite = sqlite
        self.postgres = postgres
    }

    /// A step both databases take in the same words.
    init(_ identifier: String, both sql: String) {
        self.init(identifier, sqlite: sql, postgres: sql)
    }

    /// Every step, in order.
    static let all: [Migration] = [.v1, .v2, .v3, .v4, .v5, .v6, .v7, .v8, .v9, .v10, .v11, .v12, .v13, .v14, .v15]
}

extension Migration {
    /// The steps as GRDB runs them on SQLite (recorded in `grdb_migrations`).
    static var sqliteMigrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        for step in all {
            migrator.registerMigration(step.identifier) { db in try db.execute(sql: step.sqlite) }
        }
        return migrator
    }

    /// A number every GGTracker process locks with while it migrates PostgreSQL, so replicas starting together
    /// take turns and the later ones find the work done.
    static let postgresLockKey: Int64 = 0x6767_7472_6163_6b72

    /// Runs the steps PostgreSQL has not run yet, in one transaction (recorded in `ggtracker_migrations`).
    static func migrate(_ session: PostgresSession, schema: String?) async throws {
        // Locked before the transaction starts, so its snapshot includes what the previous holder committed.
        // The lock is the connection's: it is let go when the connection closes, whatever happens here.
        try await session.execute("SELECT pg_advisory_lock(?)", [postgresLockKey])
        if let schema { try await session.execute("CREATE SCHEMA IF NOT EXISTS \(schema)") }
        try await session.transaction(readOnly: false) { db in
            try await db.execute("CREATE TABLE IF NOT EXISTS ggtracker_migrations (identifier TEXT PRIMARY KEY)")
            let applied = Set(try await db.values("SELECT identifier FROM ggtracker_migrations") as [String])
            let known = Set(all.map(\.identifier))
            if let unknown = applied.subtracting(known).first {
                throw PostgresUnavailable(
                    description: "the database was migrated by a newer GGTracker (“\(unknown)”); upgrade first")
            }
            for step in all where !applied.contains(step.identifier) {
                for statement in step.postgres.components(separatedBy: ";\n") {
                    try await db.execute(statement)
                }
                try await db.execute("INSERT INTO ggtracker_migrations (identifier) VALUES (?)", [step.identifier])
            }
        }
    }

    /// Whether PostgreSQL has run every step.
    static func postgresIsComplete(_ executor: DatabaseExecutor) async throws -> Bool {
        // A schema without the table (emptied, or a new database at the same address) has run none. Each read is a
        // statement of its own: the table may go between the two (or under a statement the connection prepared
        // while it was there), and its absence is then the answer, not a failure.
        let table: String? = try await executor.readStatement { db in
            try await db.value("SELECT CAST(to_regclass('ggtracker_migrations') AS text)")
        }
        guard table != nil else { return false }
        do {
            let applied = try await executor.readStatement { db in
                Set(try await db.values("SELECT identifier FROM ggtracker_migrations") as [String])
            }
            return all.allSatisfy { applied.contains($0.identifier) }
        } catch let error as PostgresServerError where error.state == "42P01" {
            return false
        }
    }
}
