import Foundation
import GGTrackerCatalog
import GGTrackerCore
import GGTrackerStorage
import Testing

struct Refused: Error {}

/// A database with two catalog games, on one backend.
struct LibraryFixture {
    let database: AppDatabase
    let celeste: Game
    let hades: Game
    let now = Date(timeIntervalSince1970: 1_760_000_000)

    init(_ backend: Backend) async throws {
        database = try await backend.open()
        let lines = """
            {"id":26226,"name":"Celeste","first_release_date":1516838400,"genres":[{"name":"Platform"}],"aggregated_rating":92,"aggregated_rating_count":30}
            {"id":113112,"name":"Hades","genres":[{"name":"Role-playing (RPG)"},{"name":"Indie"}],"age_ratings":[{"organization":1,"rating_category":5}]}
            """
        _ = try await CatalogImporter(database: database).importData(Data(lines.utf8))
        celeste = try await #require(try database.catalog.game(GameRef(provider: "igdb", id: "26226")))
        hades = try await #require(try database.catalog.game(GameRef(provider: "igdb", id: "113112")))
    }

    func invoker(_ id: String, community: String = "discord:1") -> Invoker {
        Invoker(platform: .discord, userID: id, displayName: id, community: community)
    }
}

@Suite("Library storage, on SQLite and PostgreSQL")
struct StorageTests {
    @Test func writesArrivingTogetherShareCommitsAndFailAlone() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("group-\(UUID().uuidString).sqlite")
        let database = try await AppDatabase.open(path.path)
        let before = database.sqliteCommits
        let results = try await withThrowingTaskGroup(of: (Int, Bool).self) { group in
            for n in 0..<64 {
                group.addTask {
                    do {
                        try await database.write { db in
                            try await db.execute(
                                "INSERT INTO pending_commands (id, command, created_at) VALUES (?, ?, ?)",
                                ["k\(n)", "/list", 0])
                            // Every seventh write fails after its insert: only its own change is undone.
                            if n % 7 == 3 { throw Refused() }
                        }
                        return (n, true)
                    } catch is Refused {
                        return (n, false)
                    }
                }
            }
            return try await group.reduce(into: [Int: Bool]()) { $0[$1.0] = $1.1 }
        }
        #expect(results.count == 64)
        #expect(results.allSatisfy { $0.value == ($0.key % 7 != 3) })
        let stored = try await database.read { db in
            try await db.fetchAll("SELECT id FROM pending_commands", []).map { $0["id"] as String }
        }
        #expect(Set(stored) == Set((0..<64).filter { $0 % 7 != 3 }.map { "k\($0)" }))
        // Committed together, and each committed write is on disk: a new connection to the file sees them all.
        #expect(database.sqliteCommits - before < 64, "\(database.sqliteCommits - before) commits for 64 writes")
        let reopened = try await AppDatabase.open(path.path)
        let count = try await reopened.read { db in
            try await db.value("SELECT count(*) FROM pending_commands", []) as Int?
        }
        #expect(count == stored.count)
    }

    @Test(.enabled(if: Backend.all.contains(.postgres)))
    func aTransactionGivenNoConnectionInTimeFailsAsTheDatabaseNotAnswering() async throws {
        let base = try #require(Backend.postgresURL, "GGTRACKER_TEST_POSTGRES is not set")
        let schema = "t_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(16).lowercased()
        let database = try await AppDatabase.open(
            base + (base.contains("?") ? "&" : "?") + "schema=\(schema)", connections: 1,
            connectionWait: .milliseconds(500))
        // One transaction holds the pool's only connection for two seconds.
        let holding = Task {
            try await database.read { db in
                try await Task.sleep(for: .seconds(2))
                return try await db.value("SELECT 7", []) as Int?
            }
        }
        try await Task.sleep(for: .milliseconds(300))
        let start = ContinuousClock.now
        let refused = await #expect(throws: PostgresUnavailable.self) {
            try await database.read { db in try await db.value("SELECT 1", []) as Int? }
        }
        let waited = ContinuousClock.now - start
        #expect(
            refused?.description.contains("no connection to the database") == true, "\(String(describing: refused))")
        #expect(waited >= .milliseconds(400) && waited < .milliseconds(1_500), "gave up after \(waited)")
        // The transaction holding the connection was not disturbed, and the pool serves the next one.
        #expect(try await holding.value == 7)
        #expect(try await database.read { db in try await db.value("SELECT 2", []) as Int? } == 2)
    }

    @Test(arguments: Backend.all)
    func valuesAreBoundAsThemselves(_ backend: Backend) async throws {
        let database = try await backend.open()
        let row = try #require(
            try await database.read { db in
                try await db.fetchOne(
                    """
                    SELECT ? AS empty_text, ? IS NULL AS text_is_null, ? AS empty_blob, ? IS NULL AS blob_is_null,
                        ? AS accented, ? AS big, ? AS fraction
                    """,
                    ["", "", Data(), Data(), "Pokémon 🎮", Int64.max, 0.25])
            })
        #expect(row["empty_text"] as String? == "")
        #expect(row["text_is_null"] as Bool == false)
        #expect(row["empty_blob"] as Data? == Data())
        #expect(row["blob_is_null"] as Bool == false)
        #expect(row["accented"] as String? == "Pokémon 🎮")
        #expect(row["big"] as Int64 == Int64.max)
        #expect(row["fraction"] as Double == 0.25)
        // A statement given fewer arguments than it has placeholders is refused, not run with NULLs.
        await #expect(throws: (any Error).self) {
            try await database.read { db in try await db.fetchAll("SELECT ?, ?", [1]) }
        }
    }

    @Test(arguments: Backend.all)
    func anErrorInsideAnUpdateChangesNothing(_ backend: Backend) async throws {
        let f = try await LibraryFixture(backend)
        let (database, celeste, now) = (f.database, f.celeste, f.now)
        let alice = try await database.library.recordPlayer(f.invoker("alice"), at: now)
        try await database.library.updateEntry(of: alice.id, game: celeste) {
            $0 = LibraryEntry(game: celeste, status: .playing, at: now)
        }
        await #expect(throws: Refused.self) {
            try await database.library.updateEntry(of: alice.id, game: celeste) { entry in
                entry?.score = 3
                throw Refused()
            }
        }
        let entry = try await database.library.entry(of: alice.id, game: celeste.id)
        #expect(entry?.status == .playing && entry?.score == nil)
    }

    @Test(arguments: Backend.all)
    func addingAGameTakesItOffTheWishlist(_ backend: Backend) async throws {
        let f = try await LibraryFixture(backend)
        let (database, celeste, hades, now) = (f.database, f.celeste, f.hades, f.now)
        let alice = try await database.library.recordPlayer(f.invoker("alice"), at: now)
        guard case .added = try await database.library.addToWishlist(alice.id, game: hades, at: now) else {
            Issue.record("not added")
            return
        }
        #expect(try await database.library.isWishlisted(alice.id, game: hades.id))
        try await database.library.updateEntry(of: alice.id, game: hades) {
            $0 = LibraryEntry(game: hades, status: .backlog, at: now)
        }
        #expect(try await database.library.isWishlisted(alice.id, game: hades.id) == false)
        guard case .inLibrary(.backlog) = try await database.library.addToWishlist(alice.id, game: hades, at: now)
        else {
            Issue.record("a game in the library was wishlisted")
            return
        }
    }

    @Test(arguments: Backend.all)
    func ownersAreScopedToTheServer(_ backend: Backend) async throws {
        let f = try await LibraryFixture(backend)
        let (database, celeste, hades, now) = (f.database, f.celeste, f.hades, f.now)
        let alice = try await database.library.recordPlayer(f.invoker("alice", community: "discord:1"), at: now)
        let bob = try await database.library.recordPlayer(f.invoker("bob", community: "discord:2"), at: now)
        for player in [alice, bob] {
            try await database.library.updateEntry(of: player.id, game: celeste) { entry in
                var e = LibraryEntry(game: celeste, status: .completed, at: now)
                e.score = 8
                entry = e
            }
        }
        let here = try await database.library.owners(of: celeste.id, in: "discord:1")
        #expect(here.map(\.player.id) == [alice.id])
    }

    @Test(arguments: Backend.all)
    func libraryCountsAndSorting(_ backend: Backend) async throws {
        let f = try await LibraryFixture(backend)
        let (database, celeste, hades, now) = (f.database, f.celeste, f.hades, f.now)
        let alice = try await database.library.recordPlayer(f.invoker("alice"), at: now)
        try await database.library.updateEntry(of: alice.id, game: celeste) { entry in
            var e = LibraryEntry(game: celeste, status: .completed, at: now)
            e.score = 9
            entry = e
        }
        try await database.library.updateEntry(of: alice.id, game: hades) { entry in
            var e = LibraryEntry(game: hades, status: .playing, at: now)
            e.score = 6
            entry = e
        }
        let page = try await database.library.library(
            of: alice.id, status: nil, sort: .score, includeMature: true, page: 1, pageSize: 10)
        #expect(page.page.items.map(\.game.name) == ["Celeste", "Hades"])
        #expect(page.statusCounts == [.completed: 1, .playing: 1])
        let stats = try await database.library.stats(of: alice.id)
        #expect(stats.scoreCounts == [9: 1, 6: 1])
        #expect(stats.genreCounts.map(\.0).contains("Platform"))
    }

    @Test(arguments: Backend.all)
    func deletingAnAccountErasesEverything(_ backend: Backend) async throws {
        let f = try await LibraryFixture(backend)
        let (database, celeste, hades, now) = (f.database, f.celeste, f.hades, f.now)
        let alice = try await database.library.recordPlayer(f.invoker("alice"), at: now)
        try await database.library.updateEntry(of: alice.id, game: celeste) {
            $0 = LibraryEntry(game: celeste, status: .playing, at: now)
        }
        _ = try await database.library.addToWishlist(alice.id, game: hades, at: now)
        let erased = try await database.library.deleteAccount(alice.id)
        #expect(erased == 7)  // entry, wishlist item, membership, three events (added, started, wishlisted), player
        #expect(try await database.library.player(alice.id) == nil)
    }
}

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
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: try #require(LocalCatalog.bundledCatalogPath))))
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

@Suite("One catalog refresh across processes")
struct RefreshLeaseTests {
    @Test(arguments: Backend.all)
    func aLeaseIsHeldByOneHolderUntilItExpiresOrIsReleased(_ backend: Backend) async throws {
        let database = try await backend.open()
        let now = Date()
        await #expect(try database.leases.acquireLease("job", holder: "a", for: 60, at: now))
        await #expect(try !database.leases.acquireLease("job", holder: "b", for: 60, at: now.addingTimeInterval(30)))
        await #expect(
            try database.leases.acquireLease("job", holder: "a", for: 60, at: now.addingTimeInterval(30)), "renewed")
        await #expect(try !database.leases.acquireLease("job", holder: "b", for: 60, at: now.addingTimeInterval(80)))
        // A holder that stops renewing loses the lease when it expires.
        await #expect(try database.leases.acquireLease("job", holder: "b", for: 60, at: now.addingTimeInterval(91)))
        await #expect(try !database.leases.acquireLease("job", holder: "a", for: 60, at: now.addingTimeInterval(92)))
        await #expect(try database.leases.leaseHolder("job", at: now.addingTimeInterval(92)) == "b")
        try await database.leases.releaseLease("job", holder: "a")
        await #expect(
            try database.leases.leaseHolder("job", at: now.addingTimeInterval(92)) == "b", "only the holder releases")
        try await database.leases.releaseLease("job", holder: "b")
        await #expect(try database.leases.leaseHolder("job", at: now.addingTimeInterval(92)) == nil)
    }

    @Test(arguments: Backend.all)
    func aRefreshDoesNotStartWhileAnotherProcessHoldsTheLease(_ backend: Backend) async throws {
        let database = try await backend.open()
        let catalog = try await LocalCatalog(database: database)
        // Another process sharing the database is refreshing.
        await #expect(try database.leases.acquireLease("catalog.refresh", holder: "elsewhere", for: 60, at: Date()))
        let started = try await catalog.startRefresh(full: false, progress: { _ in }, finished: { _ in })
        #expect(!started)
        await #expect(throws: (any Error).self) { try await catalog.refresh(full: false) }
        #expect(try await catalog.status().refreshing)
        await #expect(try database.catalog.gameCount() == 0, "nothing was loaded")
        // That process died: its lease expires and a refresh here runs, then gives the lease back.
        await #expect(try database.leases.acquireLease("catalog.refresh", holder: "elsewhere", for: -1, at: Date()))
        let summary = try await catalog.refresh(full: false)
        #expect(summary.added >= 20_000)
        await #expect(try database.leases.leaseHolder("catalog.refresh", at: Date()) == nil)
        #expect(try await !catalog.status().refreshing)
    }
}
