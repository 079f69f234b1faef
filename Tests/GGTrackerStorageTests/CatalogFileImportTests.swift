import Foundation
import GGTrackerCatalog
import GGTrackerCore
import GGTrackerStorage
import GRDB
import Testing

@Suite("Importing IGDB-shaped catalog files")
struct ImportTests {
    @Test func malformedLinesAreReportedWithTheirNumberAndSkipped() async throws {
        let database = try AppDatabase.inMemory()
        let text = """
            {"id":1,"name":"One"}
            {"id":2,"name":
            {"id":3}

            {"slug":"local-game","name":"Local Game","platforms":[{"name":"PC (Microsoft Windows)","abbreviation":"PC"}]}
            """
        let report = try await CatalogImporter(database: database).importData(Data(text.utf8))
        #expect(report.added == 2)
        #expect(report.problems.map(\.line) == [2, 3])
        #expect(report.problems[1].message.contains("needs a `name`"))
        await #expect(try database.catalog.gameCount() == 2)
    }

    @Test func theFlattenedExportShapeIsReadToo() async throws {
        let database = try AppDatabase.inMemory()
        let line = """
            {"igdb_id":5,"name":"Baldur's Gate","release_date":914198400,"genres":["Role-playing (RPG)"],"platforms":["Linux","Mac"],"developers":["BioWare"],"publishers":["Interplay Entertainment"],"aggregated_rating":null,"cover_url":"//images.igdb.com/igdb/image/upload/t_thumb/co20gb.jpg"}
            """
        let report = try await CatalogImporter(database: database).importData(Data(line.utf8))
        #expect(report.added == 1 && report.problems.isEmpty)
        let game = try await #require(try database.catalog.game(GameRef(provider: "igdb", id: "5")))
        #expect(game.genres == ["Role-playing (RPG)"] && game.platforms == ["Linux", "Mac"])
        #expect(game.developers == ["BioWare"] && game.publishers == ["Interplay Entertainment"])
        #expect(game.coverImageID == "co20gb" && game.releaseYear == 1998)
    }

    @Test func steamAppIDsAreKeptFromIGDBsExternalGamesAndTheDumpsExternalIDs() async throws {
        let database = try AppDatabase.inMemory()
        let lines = """
            {"id":72,"name":"Portal 2","external_games":[{"external_game_source":1,"uid":"620"},{"category":5,"uid":"portal-2"}]}
            {"igdb_id":14593,"name":"Hollow Knight","external_ids":[{"category":null,"store":"store_None","uid":"367520","url":"https://store.steampowered.com/app/367520"},{"category":null,"store":"store_None","uid":"55","url":"https://www.twitch.tv/directory/game/Hollow"}]}
            {"id":1942,"name":"The Witcher 3: Wild Hunt","external_games":[{"category":1,"uid":"292030"}]}
            """
        // Into an empty catalog (one bulk load), then again (upserts): the same ids, filed once.
        for _ in 0..<2 {
            _ = try await CatalogImporter(database: database).importData(Data(lines.utf8))
            let found = try await database.steamApps.games([620, 367520, 292030, 55, 999])
            #expect(
                found.mapValues(\.name) == [
                    620: "Portal 2", 367520: "Hollow Knight", 292030: "The Witcher 3: Wild Hunt",
                ])
        }
    }

    @Test func aLargeFileIsReadInPiecesAndProblemsKeepTheirLineNumbers() async throws {
        let padding = String(repeating: "x", count: 200)
        var text = ""
        for id in 1...30_000 {
            text +=
                id == 25_000
                ? "{\"id\": oops}\n" : "{\"id\":\(id),\"name\":\"Game \(id)\",\"summary\":\"\(padding)\"}\n"
        }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("import-\(UUID()).jsonl").path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let database = try AppDatabase.inMemory()
        let report = try await CatalogImporter(database: database).importFile(path)
        #expect(report.added == 29_999)
        #expect(report.problems.map(\.line) == [25_000])
        await #expect(try database.catalog.game(GameRef(provider: "igdb", id: "30000"))?.name == "Game 30000")
    }

    @Test func aCompressedFileCorruptMidWayIsRefusedAndNothingIsStored() async throws {
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: try #require(BundledCatalog.path))))
        // Past the first pieces of lines, the compressed stream is damaged.
        for offset in stride(from: bytes.count / 2, to: bytes.count / 2 + 4_096, by: 7) { bytes[offset] ^= 0x5A }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("corrupt-\(UUID()).jsonl.gz").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let database = try AppDatabase.inMemory()
        await #expect {
            try await CatalogImporter(database: database).importFile(path)
        } throws: { error in
            "\(error)".contains("is not readable (corrupt compressed data?)")
        }
        #expect(try await database.catalog.gameCount() == 0)
    }

    @Test func aBulkLoadKeepsTheLastCopyOfAGameAndFilesItsFacets() async throws {
        let database = try AppDatabase.inMemory()
        let lines = """
            {"id":1,"name":"First Try","genres":["Puzzle"],"platforms":["PC (Microsoft Windows)"]}
            {"id":2,"name":"Second","genres":["Puzzle","Shooter"],"platforms":["Linux"]}
            {"id":1,"name":"First","genres":["Shooter"],"platforms":["Linux"]}
            {"slug":"homebrew","name":"Homebrew","genres":["puzzle"]}
            {"id":3,"name":"Twice","genres":["Shooter","SHOOTER"]}
            """
        let report = try await CatalogImporter(database: database).importData(Data(lines.utf8))
        #expect(report.added == 4 && report.updated == 1 && report.problems.isEmpty)
        await #expect(try database.catalog.gameCount() == 4)
        await #expect(try database.catalog.game(GameRef(provider: "igdb", id: "1"))?.name == "First")
        let catalog = try await LocalCatalog(database: database)
        let puzzles = try await catalog.browse(.genre, name: "Puzzle", includeMature: true, page: 1, pageSize: 10)
        #expect(Set(puzzles.items.map(\.name)) == ["Second", "Homebrew"])
        let linux = try await catalog.browse(.platform, name: "linux", includeMature: true, page: 1, pageSize: 10)
        #expect(Set(linux.items.map(\.name)) == ["First", "Second"])
        // Names that differ only in case are one facet, filed once per game.
        let shooters = try await catalog.browse(.genre, name: "shooter", includeMature: true, page: 1, pageSize: 10)
        #expect(shooters.items.map(\.name).sorted() == ["First", "Second", "Twice"])
        #expect(try await catalog.facetNames(.genre, matching: "xyz", limit: 5).isEmpty)
        #expect(try await catalog.facetNames(.genre, matching: "puz", limit: 5) == ["Puzzle"])
        // Ids of deleted games are not reused by a later load.
        let highest = try #require(
            try await database.writer.read { db in try Int64.fetchOne(db, sql: "SELECT max(id) FROM games") })
        try await database.writer.write { db in try db.execute(sql: "DELETE FROM games") }
        _ = try await CatalogImporter(database: database).importData(Data(#"{"id":5,"name":"Later"}"#.utf8))
        await #expect(try database.catalog.game(GameRef(provider: "igdb", id: "5"))!.id > highest)
    }

    @Test func anImportAloneOnItsFileWritesItOnceAndLeavesItSharable() async throws {
        var text = ""
        for id in 1...5_000 {
            text += "{\"id\":\(id),\"name\":\"Game \(id)\",\"genres\":[\"Puzzle\"],\"summary\":\"\(id) \(id)\"}\n"
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("alone-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("games.jsonl").path
        try Data(text.utf8).write(to: URL(fileURLWithPath: file))
        func walSize(_ path: String) -> Int {
            ((try? FileManager.default.attributesOfItem(atPath: path + "-wal"))?[.size] as? Int) ?? 0
        }
        // Alone: the pages go to the database file, not through the log, and the file is left in WAL mode.
        let alonePath = folder.appendingPathComponent("alone.sqlite").path
        var importer = CatalogImporter(database: try AppDatabase.open(path: alonePath))
        importer.alone = true
        #expect(try await importer.importFile(file).added == 5_000)
        #expect(walSize(alonePath) < 64 * 1024, "the log holds \(walSize(alonePath)) bytes")
        let reader = try DatabaseQueue(path: alonePath)
        #expect(try await reader.read { db in try String.fetchOne(db, sql: "PRAGMA journal_mode") } == "wal")
        #expect(try await reader.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM game_facets") } == 5_000)
        try reader.close()
        // Another connection has the file open: the load goes through the log and is complete all the same.
        let sharedPath = folder.appendingPathComponent("shared.sqlite").path
        let shared = try AppDatabase.open(path: sharedPath)
        let other = try DatabasePool(path: sharedPath)
        #expect(try await other.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM games") } == 0)
        importer = CatalogImporter(database: shared)
        importer.alone = true
        #expect(try await importer.importFile(file).added == 5_000)
        #expect(walSize(sharedPath) > 64 * 1024)
        #expect(try await other.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM games") } == 5_000)
        try other.close()
    }

    @Test func aGameListedTwiceInALoadIsAddedOnceAndTakesItsLaterCopy() async throws {
        let database = try AppDatabase.inMemory()
        // Into an empty catalog (one bulk load): "42" and "042" are two different ids of one provider, and games
        // are numbered in the order they first come.
        let text = """
            {"id":7,"name":"Seven"}
            {"slug":"42","name":"Forty-two"}
            {"slug":"042","name":"Oh forty-two"}
            {"id":8,"name":"Eight"}
            {"id":7,"name":"Seven, renamed"}
            {"slug":"42","name":"Forty-two, renamed"}
            """
        let report = try await CatalogImporter(database: database).importData(Data(text.utf8))
        #expect(report.added == 4)
        #expect(report.updated == 2)
        #expect(try await database.catalog.gameCount() == 4)
        let seven = try await database.catalog.game(GameRef(provider: "igdb", id: "7"))
        let fortyTwo = try await database.catalog.game(GameRef(provider: "local", id: "42"))
        let ohFortyTwo = try await database.catalog.game(GameRef(provider: "local", id: "042"))
        let eight = try await database.catalog.game(GameRef(provider: "igdb", id: "8"))
        #expect(seven?.name == "Seven, renamed")
        #expect(fortyTwo?.name == "Forty-two, renamed")
        #expect(ohFortyTwo?.name == "Oh forty-two")
        #expect([seven?.id, fortyTwo?.id, ohFortyTwo?.id, eight?.id] == [1, 2, 3, 4])
    }

    @Test func reRunningAnImportUpdatesInsteadOfDuplicating() async throws {
        let database = try AppDatabase.inMemory()
        let importer = CatalogImporter(database: database)
        _ = try await importer.importData(Data(#"[{"id":7,"name":"Old Name"}]"#.utf8))
        let report = try await importer.importData(Data(#"[{"id":7,"name":"New Name","total_rating":80}]"#.utf8))
        #expect(report.updated == 1 && report.added == 0)
        await #expect(try database.catalog.gameCount() == 1)
        await #expect(try database.catalog.game(GameRef(provider: "igdb", id: "7"))?.name == "New Name")
    }

    @Test(arguments: [
        (#"[{"category":1,"rating":11}]"#, "ESRB M", true),
        (#"[{"category":2,"rating":5}]"#, "PEGI 18", true),
        (#"[{"category":1,"rating":10}]"#, "ESRB T", false),
        (#"[{"organization":1,"rating_category":6}]"#, "ESRB M", true),
        (#"[{"organization":{"name":"PEGI"},"rating_category":{"rating":"18"}}]"#, "PEGI 18", true),
    ])
    func ageRatingsInBothShapes(json: String, label: String, mature: Bool) throws {
        let object =
            try JSONSerialization.jsonObject(with: Data("{\"id\":1,\"name\":\"X\",\"age_ratings\":\(json)}".utf8))
            as! [String: Any]
        let record = try IGDBGameMapping.record(from: object)
        #expect(record.game.ageRating == label)
        #expect(record.game.isMature == mature)
    }

    /// A release with no age rating of its own, in a file, is rated as its game (`version_parent` of an edition,
    /// `parent_game` of a DLC), as JSON Lines or as an array.
    @Test(arguments: [false, true])
    func aReleaseWithoutItsOwnAgeRatingIsRatedAsItsGame(asArray: Bool) async throws {
        let lines = [
            #"{"id":22439,"name":"Edition","version_parent":{"id":1942,"age_ratings":[{"category":1,"rating":11}]}}"#,
            #"{"id":12503,"name":"DLC","parent_game":{"id":1942,"age_ratings":[{"organization":2,"rating_category":12}]}}"#,
            #"{"id":5,"name":"Own","age_ratings":[{"category":1,"rating":8}],"version_parent":{"id":1942,"age_ratings":[{"category":1,"rating":11}]}}"#,
            // A parent given by its id alone (not expanded) rates nothing, and the game is still read.
            #"{"id":6,"name":"Bare","version_parent":1942,"parent_game":null}"#,
        ]
        let database = try AppDatabase.inMemory()
        let text = asArray ? "[" + lines.joined(separator: ",") + "]" : lines.joined(separator: "\n")
        _ = try await CatalogImporter(database: database).importData(Data(text.utf8))
        func game(_ id: Int) async throws -> Game? {
            try await database.catalog.game(GameRef(provider: "igdb", id: String(id)))
        }
        let edition = try await game(22439)
        #expect(edition?.ageRating == "ESRB M" && edition?.isMature == true)
        let dlc = try await game(12503)
        #expect(dlc?.ageRating == "PEGI 18" && dlc?.isMature == true)
        let own = try await game(5)
        #expect(own?.ageRating == "ESRB E" && own?.isMature == false)
        let bare = try await game(6)
        #expect(bare?.name == "Bare" && bare?.ageRating == nil && bare?.isMature == false)
    }

    @Test func expandedFieldsAreMapped() throws {
        let json = """
            {"id":1942,"name":"The Witcher 3: Wild Hunt","slug":"the-witcher-3-wild-hunt","first_release_date":1431993600,
             "cover":{"image_id":"co1wyy"},"genres":[{"name":"Role-playing (RPG)"}],"platforms":[{"name":"PC (Microsoft Windows)","abbreviation":"PC"}],
             "game_modes":[{"name":"Single player"}],"game_engines":[{"name":"REDengine 3"}],
             "involved_companies":[{"company":{"name":"CD Projekt RED"},"developer":true,"publisher":false},
                                   {"company":{"name":"CD Projekt"},"developer":false,"publisher":true}],
             "aggregated_rating":92.4,"aggregated_rating_count":60,"url":"https://www.igdb.com/games/the-witcher-3-wild-hunt","updated_at":1700000000}
            """
        let object = try JSONSerialization.jsonObject(with: Data(json.utf8)) as! [String: Any]
        let game = try IGDBGameMapping.record(from: object).game
        #expect(game.ref.description == "igdb:1942")
        #expect(game.engines == ["REDengine 3"] && game.modes == ["Single player"])
        #expect(game.developers == ["CD Projekt RED"] && game.publishers == ["CD Projekt"])
        #expect(game.coverURL == "https://images.igdb.com/igdb/image/upload/t_cover_big/co1wyy.jpg")
        #expect(game.releaseYear == 2015 && game.ratingCount == 60)
    }
}
