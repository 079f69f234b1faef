import Foundation
import GGTrackerCore

extension AppDatabase {
    /// Games inserted by one statement of a PostgreSQL bulk load (24 values each, well under its 65,535).
    static let postgresGamesPerInsert = 500
    /// Facet pairs inserted by one statement.
    static let postgresFacetsPerInsert = 4_000

    /// The bulk load into an empty PostgreSQL catalog, in one transaction: games in statements of hundreds of
    /// rows with ids given here, then their facets as number pairs. Nil when the catalog is not empty.
    static func postgresBulkLoad(
        _ batches: () throws -> [CatalogRecord]?, in db: any SQLSession
    ) throws -> UpsertCounts? {
        guard try db.value("SELECT EXISTS (SELECT 1 FROM games)") == false else { return nil }
        // Ids continue the column's sequence: ids of games deleted earlier are never reused.
        var nextID: Int64 = try db.value("SELECT nextval(pg_get_serial_sequence('games', 'id'))") ?? 1
        var pending: [SQLValue] = []
        var pendingRows = 0
        func flush() throws {
            guard pendingRows > 0 else { return }
            var arguments = SQLArguments()
            arguments.values = pending
            try db.execute(insertGamesSQL(columns: ["id"] + storedGameColumns, rows: pendingRows), arguments)
            pending.removeAll(keepingCapacity: true)
            pendingRows = 0
        }
        var facetIDs: [String: Int64] = [:]
        var facets: [(facet: Int64, game: Int64)] = []
        var counts = UpsertCounts()
        let again = try firstCopies(batches) { record in
            let id = nextID
            nextID += 1
            counts.added += 1
            pending.append(.integer(id))
            pending += storedValues(record).map { $0?.sqlValue ?? .null }
            pendingRows += 1
            if pendingRows == postgresGamesPerInsert { try flush() }
            for (kind, names) in facetLists(of: record.game) {
                let kind = facetKinds[Int(kind)].rawValue
                for name in names {
                    let key = kind + "\u{1F}" + name.lowercased()
                    if facetIDs[key] == nil {
                        try db.execute(
                            "INSERT INTO facets (kind, name) VALUES (?, ?) ON CONFLICT DO NOTHING", [kind, name])
                        facetIDs[key] = try db.value(
                            "SELECT id FROM facets WHERE kind = ? AND lower(name) = lower(?)", [kind, name])
                    }
                    if let facet = facetIDs[key] { facets.append((facet, id)) }
                }
            }
        }
        try flush()
        try db.execute("SELECT setval(pg_get_serial_sequence('games', 'id'), ?)", [nextID - 1])
        for start in stride(from: 0, to: facets.count, by: postgresFacetsPerInsert) {
            let slice = facets[start..<min(start + postgresFacetsPerInsert, facets.count)]
            var arguments = SQLArguments()
            arguments.values = slice.flatMap { [SQLValue.integer($0.facet), .integer($0.game)] }
            try db.execute(
                "INSERT INTO game_facets (facet_id, game_id) VALUES "
                    + Array(repeating: "(?, ?)", count: slice.count).joined(separator: ", ")
                    + " ON CONFLICT DO NOTHING",
                arguments)
        }
        for record in again {
            let upserted = try upsertGames([record], in: db)
            counts.added += upserted.added
            counts.updated += upserted.updated
        }
        return counts
    }
}
