import Foundation

/// Why a copy between databases did not happen or did not check out.
package struct CopyError: Error, CustomStringConvertible {
    package var description: String
}

extension AppDatabase {
    /// Every table, parents before the tables that refer to them.
    static let copiedTables = [
        "players", "communities", "memberships", "games", "facets", "game_facets", "catalog_meta", "provider_lookups",
        "library_entries", "wishlist", "events", "friends", "challenges", "challenge_participants", "share_tokens",
        "processed_interactions", "pending_commands", "leases", "request_budget",
    ]
    /// Tables whose ids the database hands out, so the next id continues after the copied ones.
    static let numberedTables = ["games", "facets", "events", "challenges"]

    /// Rows per INSERT statement of a copy.
    static let copyRowsPerInsert = 200

    /// How many rows each table holds.
    package func tableCounts() throws -> [(table: String, rows: Int)] {
        try readNow(Self.tableCounts)
    }

    static func tableCounts(_ db: any SQLSession) throws -> [(table: String, rows: Int)] {
        try copiedTables.map { table in (table, try db.value("SELECT count(*) FROM \(table)") ?? 0) }
    }

    /// Copies every row of `source` into this database, which must be empty, in one transaction, then checks that
    /// every table holds as many rows as the source's. Returns the counts.
    package func copy(from source: AppDatabase) throws -> [(table: String, rows: Int)] {
        let occupied = try tableCounts().filter { ["players", "games", "events"].contains($0.table) && $0.rows > 0 }
        if let table = occupied.first {
            throw CopyError(
                description:
                    "the target already holds data (\(table.rows) rows in \(table.table)); copy into an empty database")
        }
        // Counted in the snapshot that is copied, so rows written to the source meanwhile are not a mismatch.
        let expected = try source.readNow { from in
            let expected = try Self.tableCounts(from)
            guard expected.contains(where: { ["players", "games"].contains($0.table) && $0.rows > 0 }) else {
                throw CopyError(description: "the source holds no players and no games: nothing to copy")
            }
            try writeNow { to in
                for table in Self.copiedTables {
                    // Rows written by migrations (none today) give way to the source's.
                    try to.execute("DELETE FROM \(table)")
                    var batch: [SQLRow] = []
                    func flush() throws {
                        guard let first = batch.first else { return }
                        let columns = first.columns.names
                        let row = "(" + Array(repeating: "?", count: columns.count).joined(separator: ", ") + ")"
                        var arguments = SQLArguments()
                        arguments.values = batch.flatMap(\.values)
                        try to.execute(
                            "INSERT INTO \(table) (\(columns.joined(separator: ", "))) VALUES "
                                + Array(repeating: row, count: batch.count).joined(separator: ", "), arguments)
                        batch.removeAll(keepingCapacity: true)
                    }
                    try from.forEach("SELECT * FROM \(table)", []) { row in
                        batch.append(row)
                        if batch.count == Self.copyRowsPerInsert { try flush() }
                    }
                    try flush()
                }
                if to.dialect == .postgres {
                    for table in Self.numberedTables {
                        try to.execute(
                            """
                            SELECT setval(pg_get_serial_sequence('\(table)', 'id'), coalesce(max(id), 0) + 1, false)
                            FROM \(table)
                            """)
                    }
                }
            }
            return expected
        }
        let copied = try tableCounts()
        for (before, after) in zip(expected, copied) where before.rows != after.rows {
            throw CopyError(
                description: "\(after.table) holds \(after.rows) rows after the copy, the source \(before.rows)")
        }
        return copied
    }
}
