import Foundation
import GGTrackerCatalog
import GGTrackerCore
import GGTrackerStorage
import Testing

@Suite("Time to beat in the catalog, on SQLite and PostgreSQL")
struct TimeToBeatStorageTests {
    static let lines = """
        {"id":990031,"name":"Short Trip","time_to_beat":{"hastily":7200,"normally":10800,"completely":0}}
        {"id":990032,"name":"No Idea"}
        """

    @Test(arguments: Backend.all)
    func anImportKeepsTimeToBeatIntoAnEmptyCatalogAndOverAFullOne(_ backend: Backend) async throws {
        // An empty catalog is bulk-loaded; a catalog with games is updated row by row.
        for database in [try await backend.open(), try await LibraryFixture(backend).database] {
            _ = try await CatalogImporter(database: database).importData(Data(Self.lines.utf8))
            let short = try await database.catalog.game(GameRef(provider: "igdb", id: "990031"))
            #expect(short?.timeToBeat == TimeToBeat(hastily: 7_200, normally: 10_800, completely: nil))
            let none = try await database.catalog.game(GameRef(provider: "igdb", id: "990032"))
            #expect(none != nil && none?.timeToBeat == nil)
        }
        #expect(
            Format.timeToBeat(TimeToBeat(hastily: 7_200, normally: 10_800, completely: nil)!)
                == "about 3 h to beat (rushed 2 h)")
        #expect(Format.timeToBeat(TimeToBeat(hastily: nil, normally: nil, completely: 900)!) == "everything 0.5 h")
    }
}
