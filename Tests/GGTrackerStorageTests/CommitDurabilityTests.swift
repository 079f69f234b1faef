import Foundation
import GGTrackerCatalog
import GGTrackerStorage
import GRDB
import Testing

/// A change the bot acknowledged is on the disk: the serving database's writer flushes the log at every commit
/// (`synchronous = FULL`), not only at checkpoints, which is what WAL mode's `NORMAL` would do.
@Suite("Commits flushed to disk")
struct CommitDurabilityTests {
    let folder: URL

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("flush-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    /// The journal mode and the `synchronous` level of the connection that commits.
    func writerSettings(_ database: AppDatabase) throws -> (String?, Int?) {
        try database.writer.writeWithoutTransaction { db in
            (try String.fetchOne(db, sql: "PRAGMA journal_mode"), try Int.fetchOne(db, sql: "PRAGMA synchronous"))
        }
    }

    @Test func theWriterFlushesTheLogAtEveryCommit() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = try AppDatabase.open(path: folder.appendingPathComponent("a.sqlite").path)
        let (mode, synchronous) = try writerSettings(database)
        #expect(mode == "wal")
        #expect(synchronous == 2, "synchronous is \(synchronous.map(String.init) ?? "unknown"), not FULL (2)")
    }

    @Test func anImportAloneLeavesTheWriterAsItFoundIt() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("games.jsonl").path
        let lines = (1...50).map { "{\"id\":\($0),\"name\":\"Game \($0)\"}" }.joined(separator: "\n")
        try Data(lines.utf8).write(to: URL(fileURLWithPath: file))
        let database = try AppDatabase.open(path: folder.appendingPathComponent("b.sqlite").path)
        var importer = CatalogImporter(database: database)
        importer.alone = true
        #expect(try await importer.importFile(file).added == 50)
        let (mode, synchronous) = try writerSettings(database)
        #expect(mode == "wal")
        #expect(synchronous == 2)
    }
}
