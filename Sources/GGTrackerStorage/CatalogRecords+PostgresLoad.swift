import Foundation
import GGTrackerCore

extension CatalogBulkLoad {
    /// Games inserted by one statement of a PostgreSQL bulk load (24 values each, well under its 65,535).
    static let postgresGamesPerInsert = 500

    /// The bulk load into an empty PostgreSQL catalog, in one transaction: games in statements of hundreds of
    /// rows with ids given here, each statement's facets as number pairs. Nil when the catalog is not empty.
    static func postgresBulkLoad(
        _ batches: () throws -> [CatalogRecord]?, in db: any SQLSession
    ) async throws -> UpsertCounts? {
        guard try await db.value("SELECT EXISTS (SELECT 1 FROM games)") == false else { return nil }
        // Ids continue the column's sequence: ids of games deleted earlier are never reused.
        var nextID: Int64 = try await db.value("SELECT nextval(pg_get_serial_sequence('games', 'id'))") ?? 1
        var pending: [(id: Int64, record: CatalogRecord)] = []
        var facetIDs: [String: Int64] = [:]
        func flush() async throws {
            guard !pending.isEmpty else { return }
            var arguments = SQLArguments()
            arguments.values = pending.flatMap {
                [.integer($0.id)] + GameRows.storedValues($0.record).map { $0?.sqlValue ?? .null }
            }
            try await db.execute(
                GameRows.insertSQL(columns: ["id"] + GameRows.storedColumns, rows: pending.count),
                arguments)
            try await CatalogRecords.fileFacets(of: pending.map { ($0.id, $0.record.game) }, in: db, known: &facetIDs)
            pending.removeAll(keepingCapacity: true)
        }
        var counts = UpsertCounts()
        var copies = FirstCopies()
        while let batch = try batches() {
            for record in batch where copies.isFirst(record) {
                pending.append((nextID, record))
                nextID += 1
                counts.added += 1
                if pending.count == postgresGamesPerInsert { try await flush() }
            }
        }
        try await flush()
        try await db.execute("SELECT setval(pg_get_serial_sequence('games', 'id'), ?)", [nextID - 1])
        let rest = try await CatalogRecords.upsertGames(copies.again, in: db)
        counts.added += rest.added
        counts.updated += rest.updated
        return counts
    }
}
