import Foundation
import GGTrackerCatalog
import GGTrackerCore
import GGTrackerStorage
import Testing

@Suite("Copying an installation between SQLite and PostgreSQL")
struct CopyTests {
    @Test(.enabled(if: Backend.all.contains(.postgres)))
    func aCopyToPostgreSQLAndBackKeepsEveryRow() async throws {
        let f = try await LibraryFixture(.sqlite)
        let source = f.database
        let alice = try await source.library.recordPlayer(f.invoker("alice"), at: f.now)
        let bob = try await source.library.recordPlayer(f.invoker("bob"), at: f.now)
        let now = f.now
        let celeste = f.celeste
        _ = try await source.library.updateEntry(of: alice.id, game: celeste, community: "discord:1", at: now) {
            var entry = LibraryEntry(game: celeste, status: .completed, at: now)
            entry.hours = 31.5
            entry.tags = ["speedrun", "pixel \"art\""]
            entry.favorite = true
            $0 = entry
        }
        _ = try await source.library.addToWishlist(bob.id, game: f.hades, at: now)
        _ = try await source.social.addFriend(bob.id, alice.id, at: now)
        try await source.social.setShareToken("token-1", for: alice.id, at: now)
        try await source.deliveries.recordProcessed("interaction-1", response: Data([0, 1, 2, 255]))

        let postgres = try await Backend.postgres.open()
        let copied = try await postgres.copy(from: source)
        #expect(try await copied.map(\.rows) == source.tableCounts().map(\.rows))
        #expect(copied.first { $0.table == "games" }?.rows == 2)
        let entry = try #require(try await postgres.library.entry(of: alice.id, game: celeste.id))
        #expect(entry.hours == 31.5 && entry.tags == ["speedrun", "pixel \"art\""] && entry.favorite)
        #expect(try await postgres.social.sharedLibrary(token: "token-1")?.player.id == alice.id)
        #expect(try await postgres.deliveries.processedResponse("interaction-1") == Data([0, 1, 2, 255]))
        #expect(try await postgres.social.friends(of: bob.id).map(\.id) == [alice.id])
        // Ids handed out after the copy continue after the copied ones.
        _ = try await CatalogImporter(database: postgres).importData(
            Data(#"{"id":1942,"name":"The Witcher 3: Wild Hunt"}"#.utf8))
        let witcher = try await #require(try postgres.catalog.game(GameRef(provider: "igdb", id: "1942")))
        #expect(witcher.id > max(celeste.id, f.hades.id))

        // A second copy into a database that holds data is refused and changes nothing.
        await #expect(throws: CopyError.self) { try await postgres.copy(from: source) }

        let back = try AppDatabase.inMemory()
        let returned = try await back.copy(from: postgres)
        #expect(try await returned.map(\.rows) == postgres.tableCounts().map(\.rows))
        #expect(try await back.library.entry(of: alice.id, game: celeste.id)?.hours == 31.5)
    }
}

@Suite("Copying refuses what cannot be copied")
struct CopyRefusalTests {
    @Test func aSourceFileThatDoesNotExistIsRefusedAndNotCreated() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("missing-\(UUID().uuidString).sqlite")
            .path
        await #expect(throws: InvalidDatabaseLocation.self) {
            try await AppDatabase.open(DatabaseLocation("sqlite:\(path)"), creating: false)
        }
        #expect(!FileManager.default.fileExists(atPath: path))
        #expect(throws: InvalidDatabaseLocation.self) { try DatabaseLocation("postgresql:/no-host") }
    }

    @Test(arguments: Backend.all)
    func anEmptySourceIsRefusedAndTheTargetKeepsNothing(_ target: Backend) async throws {
        let empty = try AppDatabase.inMemory()
        let database = try await target.open()
        await #expect(throws: CopyError.self) { try await database.copy(from: empty) }
        await #expect(try database.tableCounts().allSatisfy { $0.rows == 0 })
    }
}
