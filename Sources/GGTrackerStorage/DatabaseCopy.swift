import Foundation

/// Why a copy between databases did not happen or did not check out.
package struct CopyError: Error, CustomStringConvertible {
    package var description: String
}

extension AppDatabase {
    /// How many rows each table holds.
    package func tableCounts() async throws -> [(table: String, rows: Int)] {
        try await read(DatabaseCopy.tableCounts)
    }

    /// Copies every row of `source` (a stopped server's database) into this database, which must be empty, then
    /// checks that every table holds as many rows as the source's. Returns the counts. Into PostgreSQL the copy is
    /// one transaction; into SQLite, which cannot wait on another database inside a transaction, one transaction
    /// a table, and the tables are emptied again when a step fails. Each table is read whole, one at a time.
    package func copy(from source: AppDatabase) async throws -> [(table: String, rows: Int)] {
        let occupied = try await tableCounts().filter {
            ["players", "games", "events"].contains($0.table) && $0.rows > 0
        }
        if let table = occupied.first {
            throw CopyError(
                description:
                    "the target already holds data (\(table.rows) rows in \(table.table)); copy into an empty database")
        }
        let expected = try await source.tableCounts()
        guard expected.contains(where: { ["players", "games"].contains($0.table) && $0.rows > 0 }) else {
            throw CopyError(description: "the source holds no players and no games: nothing to copy")
        }
        if isPostgres {
            try await write { to in
                for table in DatabaseCopy.copiedTables {
                    let rows = try await source.read { from in try await from.fetchAll("SELECT * FROM \(table)") }
                    try await DatabaseCopy.insert(rows, into: table, in: to)
                }
                try await DatabaseCopy.continueNumbering(in: to)
            }
        } else {
            do {
                for table in DatabaseCopy.copiedTables {
                    let rows = try await source.read { from in try await from.fetchAll("SELECT * FROM \(table)") }
                    try await write { to in try await DatabaseCopy.insert(rows, into: table, in: to) }
                }
            } catch {
                try? await write { to in
                    for table in DatabaseCopy.copiedTables.reversed() { try await to.execute("DELETE FROM \(table)") }
                }
                throw error
            }
        }
        let copied = try await tableCounts()
        for (before, after) in zip(expected, copied) where before.rows != after.rows {
            throw CopyError(
                description: "\(after.table) holds \(after.rows) rows after the copy, the source \(before.rows)")
        }
        return copied
    }
}

/// The tables a copy moves and how it writes them.
enum DatabaseCopy {
    /// Every table, parents before the tables that refer to them.
    static let copiedTables = [
        "players", "communities", "memberships", "games", "facets", "game_facets", "catalog_meta", "provider_lookups",
        "library_entries", "wishlist", "events", "friends", "challenges", "challenge_participants", "share_tokens",
        "processed_interactions", "pending_commands", "leases", "request_budget", "release_alerts",
        "game_nights", "game_night_players", "export_links",
    ]
    /// Tables whose ids the database hands out, so the next id continues after the copied ones.
    static let numberedTables = ["games", "facets", "events", "challenges", "game_nights"]

    /// Rows per INSERT statement of a copy.
    static let copyRowsPerInsert = 200

    static func tableCounts(_ db: any SQLSession) async throws -> [(table: String, rows: Int)] {
        var counts: [(table: String, rows: Int)] = []
        for table in copiedTables { counts.append((table, try await db.value("SELECT count(*) FROM \(table)") ?? 0)) }
        return counts
    }

    /// Replaces a table's rows (rows written by migrations, none today, give way to the source's).
    static func insert(_ rows: [SQLRow], into table: String, in to: any SQLSession) async throws {
        try await to.execute("DELETE FROM \(table)")
        var start = 0
        while start < rows.count {
            let batch = rows[start..<min(rows.count, start + copyRowsPerInsert)]
            start += batch.count
            let columns = batch.first!.columns.names
            let row = "(" + Array(repeating: "?", count: columns.count).joined(separator: ", ") + ")"
            var arguments = SQLArguments()
            arguments.values = batch.flatMap(\.values)
            try await to.execute(
                "INSERT INTO \(table) (\(columns.joined(separator: ", "))) VALUES "
                    + Array(repeating: row, count: batch.count).joined(separator: ", "), arguments)
        }
    }

    /// PostgreSQL's ids go on after the copied ones.
    static func continueNumbering(in to: any SQLSession) async throws {
        for table in numberedTables {
            try await to.execute(
                """
                SELECT setval(pg_get_serial_sequence('\(table)', 'id'), coalesce(max(id), 0) + 1, false)
                FROM \(table)
                """)
        }
    }
}
