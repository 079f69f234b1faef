import Foundation
import GGTrackerCatalog
import GGTrackerCore
import GGTrackerStorage
import GRDB
import Testing

@Suite("Backups and restores")
struct BackupTests {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("gg-backup-\(UUID().uuidString)")
    func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    func seeded(_ name: String) async throws -> (AppDatabase, Game) {
        let database = try AppDatabase.open(path: path(name))
        let line = #"{"id":26226,"name":"Celeste","first_release_date":1516838400}"#
        _ = try await CatalogImporter(database: database).importData(Data(line.utf8))
        return await (database, try #require(try database.catalog.game(GameRef(provider: "igdb", id: "26226"))))
    }

    func entries(_ database: AppDatabase) async throws -> Int {
        try await database.writer.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM library_entries") ?? 0 }
    }

    @Test func anOnlineBackupIsConsistentAndRestoresIntoAnotherDatabase() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let (live, celeste) = try await seeded("live.sqlite")
        let now = Date()
        // Writers keep going while the copy is taken.
        let writers = Task {
            for n in 0..<200 {
                let player = try await live.library.recordPlayer(
                    Invoker(platform: .discord, userID: "p\(n)", displayName: "p\(n)", community: "discord:1"), at: now)
                _ = try await live.library.updateEntry(of: player.id, game: celeste, community: "discord:1", at: now) {
                    $0 = LibraryEntry(game: celeste, status: .playing, at: now)
                }
            }
        }
        while try await entries(live) < 10 { try await Task.sleep(for: .milliseconds(5)) }
        try live.backup(to: path("copy.sqlite"))
        try await writers.value
        #expect(throws: (any Error).self) { try live.backup(to: path("copy.sqlite")) }

        let (other, _) = try await seeded("other.sqlite")
        try other.restore(from: path("copy.sqlite"))
        let restored = try await entries(other)
        let playerCount = try await other.writer.read { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM players")
        }
        // A copy of one moment: players are written one transaction before their entry, so at most the last
        // player can lack it; and the copy passes SQLite's own check.
        let players = try #require(playerCount)
        #expect(restored == players || restored == players - 1)
        #expect(restored >= 10)
        let check = try await other.writer.read { db in try String.fetchOne(db, sql: "PRAGMA integrity_check") }
        #expect(check == "ok")
        #expect(try await other.isReady())
        #expect(try await entries(live) == 200)
    }

    @Test func aFileThatIsNotABackupIsRefusedAndNothingChanges() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let (database, celeste) = try await seeded("live.sqlite")
        let alice = try await database.library.recordPlayer(
            Invoker(platform: .discord, userID: "alice", displayName: "alice", community: "discord:1"), at: Date())
        _ = try await database.library.updateEntry(of: alice.id, game: celeste, community: "discord:1", at: Date()) {
            $0 = LibraryEntry(game: celeste, status: .playing, at: Date())
        }
        try "not a database".write(toFile: path("junk.sqlite"), atomically: true, encoding: .utf8)
        #expect(throws: AppDatabase.RestoreError.self) { try database.restore(from: path("junk.sqlite")) }
        let foreign = try DatabaseQueue(path: path("foreign.sqlite"))
        try await foreign.write { db in try db.execute(sql: "CREATE TABLE notes (text TEXT)") }
        try foreign.close()
        #expect(throws: AppDatabase.RestoreError.self) { try database.restore(from: path("foreign.sqlite")) }
        #expect(throws: AppDatabase.RestoreError.self) { try database.restore(from: path("missing.sqlite")) }
        #expect(try await entries(database) == 1)
    }
}
