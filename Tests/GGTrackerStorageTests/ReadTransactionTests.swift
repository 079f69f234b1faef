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
}
