import Foundation
import GGTrackerCore
import GRDB
import GRDBSQLite

extension CatalogRecords {
    /// Loads games into an empty catalog in one transaction, several times faster than one upsert per game: the
    /// secondary indexes are dropped first and built once at the end, games get their ids from the loader and go in
    /// many rows to a statement, facets go in key order, values are bound straight to SQLite, and foreign keys
    /// (which the loader's own ids satisfy) are not looked up row by row. `batches` is called until it returns nil.
    /// Returns what it stored, or nil, without calling `batches`, when the catalog is not empty: then games must
    /// be upserted.
    /// `alone`: no other program is meant to use the database meanwhile (an import from the command line). Runs
    /// apart from its caller: the batches it is lent go to the write's transaction.
    @concurrent package func loadIntoEmptyCatalog(
        alone: Bool = false, _ batches: () throws -> [CatalogRecord]?
    ) async throws -> UpsertCounts? {
        if isPostgres {
            // The write is awaited here, so the batches are read only while this call lasts.
            return try await withoutActuallyEscaping(batches) { batches in
                let lent = LentBatches(batches: batches)
                return try await write { db in
                    let counts = try await CatalogBulkLoad.postgresBulkLoad(lent.batches, in: db)
                    if counts != nil { try await Self.moveCatalogGeneration(db) }
                    return counts
                }
            }
        }
        return try CatalogBulkLoad.sqliteBulkLoad(batches, into: executor.sqliteWriter, alone: alone)
    }
}

/// The loader of an empty catalog, on SQLite and on PostgreSQL (`CatalogRecords.loadIntoEmptyCatalog`).
enum CatalogBulkLoad {
    static func sqliteBulkLoad(
        _ batches: () throws -> [CatalogRecord]?, into writer: any DatabaseWriter, alone: Bool
    ) throws -> UpsertCounts? {
        try writer.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA foreign_keys = OFF")
            defer { try? db.execute(sql: "PRAGMA foreign_keys = ON") }
            // A page cache large enough for the whole load: otherwise changed pages spill to the log mid-way and
            // are written again and again.
            let cacheSize = try Int.fetchOne(db, sql: "PRAGMA cache_size") ?? -2000
            try db.execute(sql: "PRAGMA cache_size = -65536")
            defer { try? db.execute(sql: "PRAGMA cache_size = \(cacheSize)") }
            // Alone on the database, the load writes its pages once, to the database file, under a rollback journal
            // (which keeps only the few pages that were there before); in WAL mode they would go to the log and be
            // copied again at the checkpoint. SQLite refuses the change while another connection has the database
            // open, and the load then goes through the log.
            if alone, (try? String.fetchOne(db, sql: "PRAGMA journal_mode = DELETE")) == "delete" {
                let synchronous = try Int.fetchOne(db, sql: "PRAGMA synchronous") ?? 2
                try db.execute(sql: "PRAGMA synchronous = FULL")
                defer {
                    try? db.execute(sql: "PRAGMA synchronous = \(synchronous)")
                    _ = try? String.fetchOne(db, sql: "PRAGMA journal_mode = WAL")
                }
                return try Self.bulkLoadTransaction(batches, in: db)
            }
            return try Self.bulkLoadTransaction(batches, in: db)
        }
    }

    static func bulkLoadTransaction(_ batches: () throws -> [CatalogRecord]?, in db: Database) throws -> UpsertCounts? {
        var counts: UpsertCounts?
        try db.inTransaction {
            counts = try Self.bulkLoad(batches, in: db)
            return .commit
        }
        return counts
    }

    static let rowsPerInsert = 32

    static func bulkLoad(_ batches: () throws -> [CatalogRecord]?, in db: Database) throws -> UpsertCounts? {
        guard try Int.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM games)") == 0 else { return nil }
        try db.execute(
            sql: """
                DROP INDEX games_rating;
                DROP INDEX games_popularity;
                DROP INDEX game_facets_game;
                """)
        // Ids continue where the catalog's last game was: ids of games deleted earlier are never reused.
        var nextID = (try Int64.fetchOne(db, sql: "SELECT seq FROM sqlite_sequence WHERE name = 'games'") ?? 0) + 1
        func insertStatement(rows: Int) throws -> Statement {
            try db.makeStatement(
                sql: GameRows.insertSQL(columns: ["id"] + GameRows.storedColumns, rows: rows))
        }
        var many = Binder(try insertStatement(rows: rowsPerInsert))
        var one = Binder(try insertStatement(rows: 1))
        // Each facet's games, in the order they came (their ids ascending), by facet number: numbers for the few
        // hundred distinct (kind, name) pairs.
        var facetGames: [[Int64]] = []
        var facetNumbers = [[String: Int]](repeating: [:], count: CatalogRecords.facetKinds.count)
        var facetKeys: [(kind: Int, name: String)] = []
        var counts = UpsertCounts()
        func file(_ names: [String], kind: Int, game id: Int64) {
            for name in names {
                if let number = facetNumbers[kind][name] {
                    facetGames[number].append(id)
                } else {
                    facetNumbers[kind][name] = facetKeys.count
                    facetKeys.append((kind, name))
                    facetGames.append([id])
                }
            }
        }
        // A game is read where its batch holds it, not passed by value: a copy would retain and release some
        // twenty values.
        func add(_ records: UnsafeBufferPointer<CatalogRecord>, _ index: Int, to binder: inout Binder) {
            bindGame(records[index], id: nextID, to: &binder)
            file(records[index].game.genres, kind: 0, game: nextID)
            file(records[index].game.platforms, kind: 1, game: nextID)
            file(records[index].game.modes, kind: 2, game: nextID)
            file(records[index].game.engines, kind: 3, game: nextID)
            nextID += 1
            counts.added += 1
        }
        // A batch's first copies go in 32 at a time, the few left at its end one by one.
        var copies = FirstCopies()
        var firsts: [Int] = []
        while let batch = try batches() {
            try batch.withUnsafeBufferPointer { records in
                firsts.removeAll(keepingCapacity: true)
                // Only its reference is read to check a game: the whole game is copied only to be kept aside.
                for index in records.indices {
                    if copies.isNew(records[index].game.ref) {
                        firsts.append(index)
                    } else {
                        copies.again.append(records[index])
                    }
                }
                var start = 0
                while firsts.count - start >= rowsPerInsert {
                    many.reset()
                    for index in firsts[start..<(start + rowsPerInsert)] { add(records, index, to: &many) }
                    try many.step(in: db)
                    start += rowsPerInsert
                }
                for index in firsts[start...] {
                    one.reset()
                    add(records, index, to: &one)
                    try one.step(in: db)
                }
            }
        }
        let again = copies.again
        if nextID > 1 {
            try db.execute(
                sql: """
                    INSERT INTO sqlite_sequence (name, seq) SELECT 'games', ?
                    WHERE NOT EXISTS (SELECT 1 FROM sqlite_sequence WHERE name = 'games');
                    UPDATE sqlite_sequence SET seq = max(seq, ?) WHERE name = 'games';
                    """, arguments: [nextID - 1, nextID - 1])
        }
        let addName = try db.makeStatement(sql: "INSERT INTO facets (kind, name) VALUES (?, ?) ON CONFLICT DO NOTHING")
        let findName = try db.makeStatement(sql: "SELECT id FROM facets WHERE kind = ? AND name = ?")
        var facetIDs: [Int64] = []
        for (kind, name) in facetKeys {
            let arguments: StatementArguments = [CatalogRecords.facetKinds[kind].rawValue, name]
            try addName.execute(arguments: arguments)
            facetIDs.append(try Int64.fetchOne(findName, arguments: arguments)!)
        }
        // A facet's games in one statement, facets in the order of their ids and each one's games ascending: each row
        // goes in after the last without a search from the top of the tree, which a statement per row costs. Names
        // that differ only in case share a facet, whose games then come in two runs.
        let addFacet = try db.makeStatement(
            sql: "INSERT OR IGNORE INTO game_facets (facet_id, game_id) SELECT ?, value FROM json_each(?)")
        var games: [UInt8] = []
        for number in facetKeys.indices.sorted(by: { (facetIDs[$0], $0) < (facetIDs[$1], $1) }) {
            games.removeAll(keepingCapacity: true)
            games.append(UInt8(ascii: "["))
            for (index, game) in facetGames[number].enumerated() {
                if index > 0 { games.append(UInt8(ascii: ",")) }
                games += String(game).utf8
            }
            games.append(UInt8(ascii: "]"))
            try addFacet.execute(arguments: [facetIDs[number], String(decoding: games, as: UTF8.self)])
        }
        let rest = try SQLiteTransaction.run { try await CatalogRecords.upsertGames(again, in: SQLiteSession(db)) }
        counts.added += rest.added
        counts.updated += rest.updated
        try db.execute(
            sql: """
                CREATE INDEX games_rating ON games(critic_rating DESC) WHERE critic_rating IS NOT NULL;
                CREATE INDEX games_popularity ON games(popularity DESC);
                CREATE INDEX game_facets_game ON game_facets(game_id);
                """)
        try SQLiteTransaction.run { try await CatalogRecords.moveCatalogGeneration(SQLiteSession(db)) }
        return counts
    }

    /// Binds a game's id, then its `GameRows.storedColumns` in order.
    static func bindGame(_ record: CatalogRecord, id: Int64, to binder: inout Binder) {
        let g = record.game
        binder.bind(id)
        binder.bind(g.ref.provider)
        binder.bind(g.ref.id)
        binder.bind(g.slug)
        binder.bind(g.name)
        binder.bind(record.keywords)
        binder.bind(g.summary)
        binder.bind(g.releaseDate?.timeIntervalSince1970)
        binder.bind(g.releaseYearOnly)
        binder.bindJSON(g.platforms)
        binder.bindJSON(g.genres)
        binder.bindJSON(g.modes)
        binder.bindJSON(g.engines)
        binder.bindJSON(g.developers)
        binder.bindJSON(g.publishers)
        binder.bind(g.criticRating)
        binder.bind(g.ratingCount)
        binder.bind(g.coverImageID)
        binder.bind(g.ageRating)
        binder.bind(g.isMature)
        binder.bind(g.url)
        binder.bind(g.gameType)
        binder.bind(record.popularity)
        binder.bind(record.updatedAt?.timeIntervalSince1970)
        binder.bindJSON(g.themes)
        binder.bind(g.timeToBeat?.hastily)
        binder.bind(g.timeToBeat?.normally)
        binder.bind(g.timeToBeat?.completely)
    }
}

extension CatalogBulkLoad {
    /// Runs a statement whose values are bound; throws what SQLite says when it fails.
    static func step(_ handle: OpaquePointer, in db: Database) throws {
        let code = sqlite3_step(handle)
        guard code == SQLITE_DONE else { throw SQLiteSession.failure(code, in: db) }
    }
}

/// A number bound straight to an SQLite statement.
protocol DirectValue {
    func bindDirect(to statement: OpaquePointer, at index: Int32)
}

extension Double: DirectValue {
    func bindDirect(to statement: OpaquePointer, at index: Int32) { sqlite3_bind_double(statement, index, self) }
}

extension Int: DirectValue {
    func bindDirect(to statement: OpaquePointer, at index: Int32) { sqlite3_bind_int64(statement, index, Int64(self)) }
}

extension Int64: DirectValue {
    func bindDirect(to statement: OpaquePointer, at index: Int32) { sqlite3_bind_int64(statement, index, self) }
}

extension Bool: DirectValue {
    func bindDirect(to statement: OpaquePointer, at index: Int32) { sqlite3_bind_int64(statement, index, self ? 1 : 0) }
}

/// Binds values in order to a statement, then runs it. Numbers are bound at once; texts are gathered in one
/// buffer and bound from it, without a copy each, just before the statement runs.
struct Binder {
    /// Held so the statement cannot be finalized while its handle is in use.
    let statement: Statement
    let handle: OpaquePointer
    var index: Int32 = 0
    /// The texts' bytes, and where each one is, by parameter.
    var text: [UInt8] = []
    var spans: [(parameter: Int32, start: Int, count: Int)] = []

    init(_ statement: Statement) {
        self.statement = statement
        handle = statement.sqliteStatement
    }

    /// Readies the statement for a new row or rows.
    mutating func reset() {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
        index = 0
        text.removeAll(keepingCapacity: true)
        spans.removeAll(keepingCapacity: true)
    }

    mutating func bind<Value: DirectValue>(_ value: Value?) {
        index += 1
        value?.bindDirect(to: handle, at: index)
    }

    mutating func bind(_ value: String?) {
        index += 1
        guard let value else { return }
        let start = text.count
        if value.utf8.withContiguousStorageIfAvailable({ text.append(contentsOf: $0) }) == nil { text += value.utf8 }
        spans.append((index, start, text.count - start))
    }

    /// A list of names, as a JSON array.
    mutating func bindJSON(_ list: [String]) {
        index += 1
        let start = text.count
        NameList.append(list, to: &text)
        spans.append((index, start, text.count - start))
    }

    func step(in db: Database) throws {
        try withExtendedLifetime(statement) {
            try text.withUnsafeBufferPointer { bytes in
                // SQLite reads each text where it is (no destructor): the buffer stays as it is until the statement
                // has run. With no bytes at all, every text is empty.
                let characters = UnsafeRawPointer(bytes.baseAddress)?.assumingMemoryBound(to: CChar.self)
                for span in spans {
                    if let characters {
                        _ = sqlite3_bind_text(handle, span.parameter, characters + span.start, Int32(span.count), nil)
                    } else {
                        _ = sqlite3_bind_text(handle, span.parameter, "", 0, transientDestructor)
                    }
                }
                try CatalogBulkLoad.step(handle, in: db)
            }
        }
    }
}
/// SQLite copies a value bound with this destructor before the call returns.
private let transientDestructor = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

/// A function lent to a transaction that is awaited while it runs.
struct LentBatches: @unchecked Sendable {
    let batches: () throws -> [CatalogRecord]?
}

/// Which games of a load came before, by provider and provider id; the later copies are kept aside.
struct FirstCopies {
    /// The providers seen (one or two in a load), and the ids seen of each: ids written as plain numbers, nearly
    /// all of them, as numbers, which hash faster than text; others as text.
    var providers: [String] = []
    var numbers: [Set<Int64>] = []
    var texts: [Set<String>] = []
    var again: [CatalogRecord] = []

    mutating func isFirst(_ record: CatalogRecord) -> Bool {
        if isNew(record.game.ref) { return true }
        again.append(record)
        return false
    }

    /// Whether the game with this reference is the first of its provider and id; remembers it.
    mutating func isNew(_ ref: GameRef) -> Bool {
        let slot: Int
        if let known = providers.firstIndex(of: ref.provider) {
            slot = known
        } else {
            slot = providers.count
            providers.append(ref.provider)
            numbers.append([])
            texts.append([])
        }
        if let number = Self.plainNumber(ref.id) { return numbers[slot].insert(number).inserted }
        return texts[slot].insert(ref.id).inserted
    }

    /// The id as a number when it is written as one: ASCII digits only, at most 18, no leading zero (so that "042"
    /// and "42", two different ids, never meet).
    static func plainNumber(_ id: String) -> Int64? {
        var value: Int64 = 0
        var count = 0
        for byte in id.utf8 {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9"), count < 18 else { return nil }
            if count == 1, value == 0 { return nil }
            value = value * 10 + Int64(byte - UInt8(ascii: "0"))
            count += 1
        }
        return count > 0 ? value : nil
    }
}
