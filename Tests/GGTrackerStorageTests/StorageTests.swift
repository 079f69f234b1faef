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

    /// The player of that id, recorded now.
    func player(_ id: String) async throws -> Player {
        try await database.library.recordPlayer(invoker(id), at: now)
    }
}

@Suite("Library storage, on SQLite and PostgreSQL")
struct StorageTests {
    @Test func writesArrivingTogetherShareCommitsAndFailAlone() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("group-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("group.sqlite")
        let database = try await AppDatabase.open(path.path)
        let before = database.counters.sqliteCommits
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
        #expect(
            database.counters.sqliteCommits - before < 64,
            "\(database.counters.sqliteCommits - before) commits for 64 writes")
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

    /// The shelves as title suggestions order them: the last changed (or wished for) first, each game once, with
    /// its status or none for the wishlist, and its favorite mark.
    @Test(arguments: Backend.all)
    func shelvesComeTheLastChangedFirst(_ backend: Backend) async throws {
        let f = try await LibraryFixture(backend)
        let alice = try await f.player("alice")
        try await f.database.library.updateEntry(of: alice.id, game: f.celeste, community: "", at: f.now) {
            $0 = LibraryEntry(game: f.celeste, status: .playing, at: f.now)
        }
        _ = try await f.database.library.addToWishlist(alice.id, game: f.hades, at: f.now.addingTimeInterval(60))
        var shelves = try await f.database.library.recentShelves(of: alice.id)
        #expect(shelves.map(\.game.name) == ["Hades", "Celeste"] && shelves.map(\.status) == [nil, .playing])
        #expect(shelves.first?.touchedAt == f.now.addingTimeInterval(60) && shelves.map(\.favorite) == [false, false])
        // Both in the library: each once; the older change now last changed.
        let later = f.now.addingTimeInterval(120)
        try await f.database.library.updateEntry(of: alice.id, game: f.hades, community: "", at: later) {
            $0 = LibraryEntry(game: f.hades, status: .backlog, at: later)
        }
        try await f.database.library.updateEntry(of: alice.id, game: f.celeste, community: "", at: later + 60) {
            $0?.hours = 3
            $0?.favorite = true
            $0?.updatedAt = later + 60
        }
        shelves = try await f.database.library.recentShelves(of: alice.id)
        #expect(shelves.map(\.game.name) == ["Celeste", "Hades"] && shelves.map(\.status) == [.playing, .backlog])
        #expect(shelves.map(\.favorite) == [true, false])
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
        let (database, hades, now) = (f.database, f.hades, f.now)
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
        let (database, celeste, now) = (f.database, f.celeste, f.now)
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
        // A mature game is counted apart when mature games are hidden.
        let rated = #"{"id":1020,"name":"Grand Theft Auto V","age_ratings":[{"organization":1,"rating_category":6}]}"#
        _ = try await CatalogImporter(database: database).importData(Data(rated.utf8))
        let gta = try #require(try await database.catalog.game(GameRef(provider: "igdb", id: "1020")))
        try await database.library.updateEntry(of: alice.id, game: gta) {
            $0 = LibraryEntry(game: gta, status: .playing, at: now)
            $0?.hours = 50
            $0?.favorite = true
        }
        let hiding = try await database.library.library(
            of: alice.id, status: nil, sort: .score, includeMature: false, page: 1, pageSize: 10)
        #expect(hiding.page.items.map(\.game.name) == ["Celeste", "Hades"])
        #expect(hiding.statusCounts == [.completed: 1, .playing: 1])
        #expect(hiding.hiddenMature == 1)
        // A page with nothing on it still says what the library holds.
        for (status, number) in [(GameStatus.dropped, 1), (nil, 5)] {
            let empty = try await database.library.library(
                of: alice.id, status: status, sort: .score, includeMature: true, page: number, pageSize: 10)
            #expect(empty.page.items.isEmpty)
            #expect(empty.statusCounts == [.completed: 1, .playing: 2])
            #expect(empty.page.total == (status == nil ? 3 : 0))
        }
        try await database.library.updateEntry(of: alice.id, game: celeste) {
            $0?.hours = 10
            $0?.favorite = true
        }
        let stats = try await database.library.stats(of: alice.id, includeMature: true)
        #expect(stats.scoreCounts == [9: 1, 6: 1])
        #expect(stats.genreCounts.map(\.0).contains("Platform"))
        #expect(stats.mostPlayed?.name == "Grand Theft Auto V" && stats.favorites == ["Celeste", "Grand Theft Auto V"])
        // Where mature games are not shown, none is named; the numbers count them all.
        let named = try await database.library.stats(of: alice.id, includeMature: false)
        #expect(named.mostPlayed?.name == "Celeste" && named.favorites == ["Celeste"])
        #expect(named.totalHours == 60 && named.libraryCount == 3)
    }

    /// A page's entries carry what a line of `/list` shows, each in its place, and leave the rest out.
    @Test(arguments: Backend.all)
    func libraryPageEntriesCarryWhatALineShows(_ backend: Backend) async throws {
        let f = try await LibraryFixture(backend)
        let (database, celeste, now) = (f.database, f.celeste, f.now)
        let alice = try await database.library.recordPlayer(f.invoker("alice"), at: now)
        try await database.library.updateEntry(of: alice.id, game: celeste) { entry in
            var e = LibraryEntry(game: celeste, status: .playing, at: now.addingTimeInterval(-3_600))
            (e.hours, e.percent, e.score, e.favorite) = (12.5, 40, 7, true)
            (e.review, e.note, e.tags) = ("Tight.", "Chapter 7 next", ["platformer"])
            e.updatedAt = now
            entry = e
        }
        let page = try await database.library.library(
            of: alice.id, status: nil, sort: .recent, includeMature: true, page: 1, pageSize: 10)
        let entry = try #require(page.page.items.first)
        #expect(entry.status == .playing)
        #expect(entry.hours == 12.5 && entry.percent == 40 && entry.score == 7 && entry.favorite)
        #expect(entry.addedAt == now.addingTimeInterval(-3_600) && entry.updatedAt == now)
        #expect(entry.game.id == celeste.id && entry.game.ref == celeste.ref)
        #expect(entry.game.displayName == celeste.displayName && entry.game.isMature == celeste.isMature)
        #expect(entry.review == nil && entry.note == nil && entry.tags.isEmpty && entry.game.genres.isEmpty)
        // The whole entry is still there for whoever reads it.
        let whole = try #require(try await database.library.entry(of: alice.id, game: celeste.id))
        #expect(whole.note == "Chapter 7 next" && whole.tags == ["platformer"] && whole.review == "Tight.")
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
        // Another process sharing the database is refreshing (its lease outlasts this test on a loaded machine).
        await #expect(try database.leases.acquireLease("catalog.refresh", holder: "elsewhere", for: 600, at: Date()))
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
