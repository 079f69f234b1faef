import Foundation
import GGTrackerStorage
import GRDB
import Testing

/// A read on a SQLite file is one transaction: its statements see the database as it was at its first statement,
/// whatever another connection commits meanwhile, and a read that fails leaves its connection ready for the next.
@Suite("Read transactions on a SQLite file")
struct ReadTransactionTests {
    /// The test's own folder, removed with the database and its log and shared-memory files.
    let folder: URL
    let path: String
    let database: AppDatabase

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("reads-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        path = folder.appendingPathComponent("reads.sqlite").path
        database = try AppDatabase.open(path: path)
    }

    /// Commits a player from a connection of its own, as another process would.
    func commitPlayer(_ id: String) throws {
        let other = try DatabaseQueue(path: path)
        try other.write { db in
            try db.execute(
                sql: "INSERT INTO players (id, display_name, created_at, last_seen_at) VALUES (?, ?, 0, 0)",
                arguments: [id, id])
        }
        try other.close()
    }

    /// Creates a table with two rows from a connection of its own.
    func createTableLater() throws {
        let other = try DatabaseQueue(path: path)
        try other.write { db in
            try db.execute(sql: "CREATE TABLE later (id INTEGER PRIMARY KEY)")
            try db.execute(sql: "INSERT INTO later (id) VALUES (1), (2)")
        }
        try other.close()
    }

    func players() async throws -> Int {
        try await database.read { db in try await db.value("SELECT COUNT(*) FROM players") ?? -1 }
    }

    @Test func aReadSeesOneSnapshotWhileAnotherConnectionCommits() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try commitPlayer("ann")
        let (first, second) = try await database.read { db -> (Int, Int) in
            let first: Int = try await db.value("SELECT COUNT(*) FROM players") ?? -1
            try commitPlayer("bob")
            let second: Int = try await db.value("SELECT COUNT(*) FROM players") ?? -1
            return (first, second)
        }
        #expect(first == 1 && second == 1, "the read saw \(first) then \(second) players")
        // The next read begins after the commit and sees it.
        #expect(try await players() == 2)
    }

    @Test func aFailedReadLeavesItsConnectionReady() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try commitPlayer("ann")
        for _ in 0..<4 {
            await #expect(throws: (any Error).self) {
                try await database.read { db in
                    _ = try await db.fetchAll("SELECT * FROM players", [])
                    _ = try await db.fetchAll("SELECT * FROM no_such_table", [])
                }
            }
        }
        // Had a failed read left its transaction open, this read would still see the snapshot without Bob.
        try commitPlayer("bob")
        for _ in 0..<4 { #expect(try await players() == 2) }
    }

    /// Reads on one thread go to that thread's own connection, one at a time: a read made inside another gets a
    /// connection of the pool, and both see the database.
    @Test func aReadInsideAReadHasAConnectionOfItsOwn() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try commitPlayer("ann")
        let (outer, inner) = try await database.read { db -> (Int, Int) in
            let inner = try await players()
            let outer: Int = try await db.value("SELECT COUNT(*) FROM players") ?? -1
            return (outer, inner)
        }
        #expect(outer == 1 && inner == 1)
        for _ in 0..<20 { #expect(try await players() == 1) }
        let opened = database.counters.sqliteReadConnections
        #expect(opened >= 1 && opened <= ProcessInfo.processInfo.activeProcessorCount + 1)
    }

    /// A table another connection creates after a read (a newer version's migration) is seen by the next read on
    /// the same connection.
    @Test func aReadSeesATableCreatedSinceTheLastOne() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(try await players() == 0)
        try createTableLater()
        let rows: Int? = try await database.read { db in try await db.value("SELECT COUNT(*) FROM later") }
        #expect(rows == 2)
    }

    /// Once the database is closed, a read fails rather than using a connection left open.
    @Test func aReadAfterCloseFails() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(try await players() == 0)
        try database.close()
        #expect(database.counters.sqliteReadConnections == 0)
        await #expect(throws: (any Error).self) { _ = try await players() }
    }

    /// Reads from many tasks at once, while players are added one commit at a time, never see fewer players
    /// than a read of theirs that ended before, and the threads' connections stay within their number.
    @Test func readsAtOnceFromManyTasksSeeEveryCommit() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = database
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                for i in 0..<40 {
                    try await database.write { db in
                        try await db.execute(
                            "INSERT INTO players (id, display_name, created_at, last_seen_at) VALUES (?, ?, 0, 0)",
                            ["p\(i)", "p\(i)"])
                    }
                }
            }
            for _ in 0..<6 {
                group.addTask {
                    var seen = 0
                    for _ in 0..<150 {
                        let count: Int = try await database.read { db in
                            try await db.value("SELECT COUNT(*) FROM players") ?? -1
                        }
                        #expect(count >= seen && count <= 40, "saw \(count) players after \(seen)")
                        seen = count
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(try await players() == 40)
        #expect(database.counters.sqliteReadConnections <= ProcessInfo.processInfo.activeProcessorCount + 1)
    }
}
