import Foundation
import GGTrackerCatalog
import GGTrackerCore
import GGTrackerStorage
import Testing

@Suite("Imports and Steam app ids, on SQLite and PostgreSQL")
struct ImportStorageTests {
    @Test(arguments: Backend.all)
    func anImportFillsOnlyWhatIsEmptyAndMovesWishesToTheLibrary(_ backend: Backend) async throws {
        let f = try await LibraryFixture(backend)
        let database = f.database
        let ada = PlayerID("discord:ada")
        // Ada wished for Hades and rated Celeste before importing.
        _ = try await database.library.recordPlayer(f.invoker("ada"), at: f.now)
        _ = try await database.library.addToWishlist(ada, game: f.hades, community: "discord:1", at: f.now)
        _ = try await database.library.updateEntry(of: ada, game: f.celeste, community: "discord:1", at: f.now) {
            var entry = LibraryEntry(game: f.celeste, status: .completed, at: f.now)
            entry.score = 9
            $0 = entry
        }
        var celeste = ImportItem(line: 2, name: "Celeste")
        celeste.status = .dropped
        celeste.score = 3
        celeste.hours = 14
        celeste.tags = ["platformer"]
        var hades = ImportItem(line: 3, name: "Hades")
        hades.hours = 2
        var wish = ImportItem(line: 4, name: "Hades")
        wish.shelf = .wishlist
        let later = f.now.addingTimeInterval(3600)
        let counts = try await database.library.importItems(
            [(celeste, f.celeste), (hades, f.hades), (wish, f.hades)], for: ada, displayName: "Ada", at: later)
        #expect(counts.added == 1 && counts.updated == 1 && counts.already == 1)
        let export = try #require(try await database.library.export(of: ada, at: later))
        let entries = Dictionary(uniqueKeysWithValues: export.entries.map { ($0.game.name, $0) })
        #expect(entries["Celeste"]?.status == .completed && entries["Celeste"]?.score == 9)
        #expect(entries["Celeste"]?.hours == 14 && entries["Celeste"]?.tags == ["platformer"])
        #expect(entries["Hades"]?.status == .playing && entries["Hades"]?.hours == 2)
        #expect(export.wishlist.isEmpty, "Hades is owned now")
        // A player never seen is recorded; the same import again changes nothing.
        let bo = PlayerID("discord:bo")
        let first = try await database.library.importItems([(wish, f.hades)], for: bo, displayName: "Bo", at: later)
        let again = try await database.library.importItems([(wish, f.hades)], for: bo, displayName: "Bo", at: later)
        #expect(first.added == 1 && again.already == 1 && again.added == 0)
        #expect(try await database.library.player(bo)?.displayName == "Bo")
        #expect(try await database.library.export(of: bo, at: later)?.wishlist.map(\.game.name) == ["Hades"])
    }

    @Test(arguments: Backend.all)
    func steamAppIDsFindTheirGames(_ backend: Backend) async throws {
        let database = try await backend.open()
        let lines = """
            {"id":72,"name":"Portal 2","external_games":[{"external_game_source":1,"uid":"620"}]}
            {"id":73,"name":"Portal 2 (copy)","external_games":[{"external_game_source":1,"uid":"620"}]}
            {"id":1942,"name":"The Witcher 3: Wild Hunt","external_games":[{"category":1,"uid":"292030"}]}
            """
        _ = try await CatalogImporter(database: database).importData(Data(lines.utf8))
        // Again, as upserts: an app id two games claim goes to the last.
        _ = try await CatalogImporter(database: database).importData(Data(lines.utf8))
        let found = try await database.steamApps.games([620, 292030, 1])
        #expect(found.mapValues(\.name) == [620: "Portal 2 (copy)", 292030: "The Witcher 3: Wild Hunt"])
    }
}
