import Foundation
import GGTrackerStorage
import Testing

@Suite("The schema, declared once for both databases")
struct MigrationTests {
    /// Every table and column the migrations leave, by name, on one backend.
    static func columns(_ database: AppDatabase) async throws -> Set<String> {
        try await database.read { db in
            let sql =
                db.dialect == .sqlite
                ? """
                SELECT m.name || '.' || p.name FROM sqlite_master m JOIN pragma_table_info(m.name) p
                WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite_%' AND m.name <> 'grdb_migrations'
                """
                : """
                SELECT table_name || '.' || column_name FROM information_schema.columns
                WHERE table_schema = current_schema() AND table_name <> 'ggtracker_migrations'
                """
            return await Set(try db.values(sql) as [String])
        }
    }

    /// A PostgreSQL schema that lost the table of its migrations (emptied, or a new database at the same address)
    /// is not ready: the check says so instead of failing as if the database did not answer.
    @Test func aPostgresSchemaWithoutItsMigrationsTableIsNotReady() async throws {
        guard Backend.all.contains(.postgres) else { return }
        let database = try await Backend.postgres.open()
        #expect(try await database.isReady())
        try await database.write { db in try await db.execute("DROP TABLE ggtracker_migrations", []) }
        #expect(try await database.isReady() == false)
    }

    @Test func bothDatabasesEndWithTheSameTablesAndColumns() async throws {
        guard Backend.all.contains(.postgres) else { return }
        let sqlite = try await Self.columns(try Backend.sqlite.open())
        let postgres = try await Self.columns(try Backend.postgres.open())
        #expect(sqlite.contains("library_entries.player_id") && sqlite.contains("games.themes"))
        #expect(sqlite.subtracting(postgres).isEmpty, "only on SQLite: \(sqlite.subtracting(postgres).sorted())")
        #expect(postgres.subtracting(sqlite).isEmpty, "only on PostgreSQL: \(postgres.subtracting(sqlite).sorted())")
    }
}
