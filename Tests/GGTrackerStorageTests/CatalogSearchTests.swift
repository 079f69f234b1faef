import Foundation
import GGTrackerCatalog
import GGTrackerCore
import GGTrackerStorage
import Testing

/// The bundled catalog, loaded once per backend for every search test (it takes a few seconds).
enum LoadedBundledCatalog {
    static let sqlite = Task { await load(.sqlite) }
    static let postgres = Task { await load(.postgres) }

    static func on(_ backend: Backend) async -> LocalCatalog { await (backend == .sqlite ? sqlite : postgres).value }

    static func load(_ backend: Backend) async -> LocalCatalog {
        let catalog = try! await LocalCatalog(database: try! backend.open())
        try! await catalog.loadBundledIfEmpty()
        return catalog
    }
}

@Suite("Searching the bundled catalog, on SQLite and PostgreSQL")
struct CatalogSearchTests {

    @Test(arguments: Backend.all)
    func bundledCatalogHoldsOver20000Games(_ backend: Backend) async throws {
        let catalog = await LoadedBundledCatalog.on(backend)
        let status = try await catalog.status()
        #expect(status.games >= 20_000)
        #expect(status.provider == "offline")
    }

    @Test(
        arguments: [
            ("witcher3", "The Witcher 3: Wild Hunt"),
            ("zelda breth", "The Legend of Zelda: Breath of the Wild"),
            ("hollow night", "Hollow Knight"),
            ("hollow knight", "Hollow Knight"),
            ("zeldda ocarina", "The Legend of Zelda: Ocarina of Time"),
            ("skyrm", "The Elder Scrolls V: Skyrim"),
            ("mincraft", "Minecraft: Java Edition"),
            ("final fantasy 7", "Final Fantasy VII"),
            ("baldurs gate 3", "Baldur's Gate III"),
            ("super mario odyssey", "Super Mario Odyssey"),
            // Initials of well-known games.
            ("rdr2", "Red Dead Redemption 2"),
            ("botw", "The Legend of Zelda: Breath of the Wild"),
            ("totk", "The Legend of Zelda: Tears of the Kingdom"),
            ("bg3", "Baldur's Gate III"),
            ("kotor", "Star Wars: Knights of the Old Republic"),
            ("ac valhalla", "Assassin's Creed Valhalla"),
        ] as [(String, String)], Backend.all)
    func findsTheIntendedGame(_ intended: (query: String, expected: String), on backend: Backend) async throws {
        let (query, expected) = intended
        let catalog = await LoadedBundledCatalog.on(backend)
        let hits = try await catalog.search(query, filter: CatalogFilter(), limit: 10)
        let top = try #require(hits.first, "no result for \(query)")
        #expect(top.game.name == expected, "\(query) → \(hits.prefix(3).map(\.game.displayName))")
    }

    /// A name with a word no game has with the others ("deluxe edition", a version number, "remastered") is
    /// answered with the games that have its rarest words, first, not those sharing its commonest ones: no game
    /// here is "Hades Deluxe Edition", and Distraint: Deluxe Edition is no suggestion for it.
    @Test(
        arguments: [
            ("hades deluxe edition", "Hades"), ("celeste 2.5", "Celeste"),
            ("stardew valley remastered", "Stardew Valley"), ("hollow knight goty", "Hollow Knight"),
        ] as [(String, String)])
    func wordsNoGameHasTogetherSuggestTheRarestFirst(_ intended: (query: String, expected: String)) async throws {
        let catalog = await LoadedBundledCatalog.on(.sqlite)
        let hits = try await catalog.search(intended.query, filter: CatalogFilter(), limit: 10)
        #expect(hits.allSatisfy { !$0.coversQuery }, "\(hits.prefix(3).map(\.game.displayName))")
        #expect(
            hits.first?.game.name == intended.expected, "\(intended.query) → \(hits.prefix(3).map(\.game.displayName))")
    }

    /// A name matched only by correcting a word that is itself some name's word, beside a number, is a guess
    /// ("portal 3" is no more Postal III for its 3), and so is one matched by a number alone ("0": Yakuza 0), where
    /// a misspelt word is not ("portl 2" is Portal 2).
    @Test func aRealWordCorrectedBesideANumberIsAGuess() async throws {
        let catalog = await LoadedBundledCatalog.on(.sqlite)
        let postal = try await catalog.search("portal 3", filter: CatalogFilter(), limit: 10)
            .first { $0.game.name == "Postal III" }
        #expect(postal?.coversQuery == true && postal?.isGuess == true, "\(String(describing: postal))")
        // A number alone is a guess too, but for a game of that very name.
        let zero = try await catalog.search("0", filter: CatalogFilter(), limit: 10).first {
            $0.game.name == "Yakuza 0"
        }
        #expect(zero?.coversQuery == true && zero?.isGuess == true, "\(String(describing: zero))")
        let portal = try await catalog.search("portl 2", filter: CatalogFilter(), limit: 10).first
        #expect(portal?.game.name == "Portal 2" && portal?.isGuess == false, "\(String(describing: portal))")
    }

    /// A word rarer than one name in 10,000 weighs no more than such a word: a typo may be some obscure game's
    /// word (of 333,128 games, "lfe" is only After L!fe's), and the words of the game meant outweigh it. Among
    /// 100,000 games, "qst" is one game's word and "zorblax" fifty-one's: without that bound, Qst outranked
    /// Zorblax 2 for "zorblax qst 2".
    @Test func aTypoThatIsAnObscureGamesWordDoesNotWin() async throws {
        let catalog = try await FlatCatalog.loaded.value
        let hits = try await catalog.search("zorblax qst 2", filter: CatalogFilter(), limit: 10)
        #expect(hits.first?.game.name == "Zorblax 2", "\(hits.prefix(3).map(\.game.displayName))")
        #expect(hits.contains { $0.game.name == "Qst" }, "\(hits.map(\.game.displayName))")
    }

    /// Words naming a release ("complete edition", "goty") weigh little where no game has every word: the game is
    /// what the other words name. Without that, Dirt 3: Complete Edition outranked The Witcher 3: Wild Hunt for
    /// "the witcher 3 complete edition" in the 333,128 games (as Dirt 3 does Gorgon 3 here).
    @Test func wordsNamingAReleaseWeighLittle() async throws {
        let catalog = try await FlatCatalog.loaded.value
        let hits = try await catalog.search("gorgon 3 complete edition", filter: CatalogFilter(), limit: 10)
        #expect(hits.first?.game.name == "Gorgon 3: Wild Hunt", "\(hits.prefix(3).map(\.game.displayName))")
        #expect(hits.contains { $0.game.name == "Dirt 3: Complete Edition" }, "\(hits.map(\.game.displayName))")
    }

    /// An edition, remake or expansion of a mature game with no age rating of its own takes its game's, and so
    /// does a later namesake (the Resident Evil 4 of 2011, the Dead Spaces of 2011 and 2023): the age gate hides them
    /// with it.
    @Test func releasesOfAMatureGameAreHiddenWithIt() async throws {
        let catalog = await LoadedBundledCatalog.on(.sqlite)
        for (query, name, releases) in [
            ("witcher 3", "The Witcher 3: Wild Hunt - Game of the Year Edition", 1),
            ("resident evil 4", "Resident Evil 4", 3), ("last of us part", "The Last of Us Part I", 1),
            ("opposing force", "Half-Life: Opposing Force", 1), ("dead space", "Dead Space", 3),
            ("witcher 2 enhanced", "The Witcher 2: Assassins of Kings (Enhanced Edition)", 1),
        ] {
            let all = try await catalog.search(query, filter: CatalogFilter(), limit: 10)
            let named = all.filter { $0.game.name == name }
            #expect(named.count == releases && named.allSatisfy(\.game.isMature), "\(named.map(\.game.displayName))")
            let shown = try await catalog.search(query, filter: CatalogFilter(includeMature: false), limit: 10)
            #expect(!shown.contains { $0.game.name == name }, "\(query) → \(shown.map(\.game.displayName))")
        }
    }

    /// Every game the age gate hides is counted; for a word as common as "the" the search stops counting, and the
    /// count says it is a lower bound.
    @Test func hiddenGamesAreCountedOrSaidToBeAtLeast() async throws {
        let catalog = await LoadedBundledCatalog.on(.sqlite)
        let gated = CatalogFilter(includeMature: false)
        let gta = try await catalog.lookup("grand theft auto", filter: gated, limit: 10)
        #expect(gta.ageRestricted > 5 && !gta.ageRestrictedIsPartial, "\(gta.ageRestricted)")
        let common = try await catalog.lookup("the", filter: gated, limit: 10)
        #expect(common.ageRestricted >= 100 && common.ageRestrictedIsPartial, "\(common.ageRestricted)")
        let shown = try await catalog.lookup("the", filter: CatalogFilter(), limit: 10)
        #expect(shown.ageRestricted == 0 && !shown.ageRestrictedIsPartial)
    }

    /// A search checks each candidate for the query's other words by game rank when a word lists few games and by
    /// the game's words when it lists many: whichever way, the same games in the same order.
    @Test func wordsCheckedByRankOrByTermsFindTheSameGames() async throws {
        let catalog = await LoadedBundledCatalog.on(.sqlite)
        var byTerms = catalog
        byTerms.index.rankSetLimit = 0
        var byRanks = catalog
        byRanks.index.rankSetLimit = .max
        for query in [
            "super mario", "zelda breath wild", "final fantasy 7", "call of duty", "hollow knigt",
            "star wars battlefront",
            "the witcher", "grand theft auto", "zeldda ocarina", "dark souls",
        ] {
            let terms = try await byTerms.search(query, filter: CatalogFilter(), limit: 10).map(\.game.id)
            let ranks = try await byRanks.search(query, filter: CatalogFilter(), limit: 10).map(\.game.id)
            #expect(!terms.isEmpty, "\(query)")
            #expect(terms == ranks, "\(query)")
        }
    }

    /// Corrections come from words sharing the typo's first letter or, failing that, its last one; the closest
    /// and most used first, the typo itself never.
    @Test func typoCorrectionsComeFromWordsSharingTheFirstOrTheLastLetter() async throws {
        let vocabulary = await LoadedBundledCatalog.on(.sqlite).index.vocabulary
        #expect(vocabulary.corrections(for: "zeldda").first == "zelda")
        #expect(vocabulary.corrections(for: "xelda").contains("zelda"), "first letter wrong")
        #expect(vocabulary.corrections(for: "zeldx").contains("zelda"), "last letter wrong")
        #expect(vocabulary.corrections(for: "mincraft").contains("minecraft"))
        #expect(vocabulary.corrections(for: "witcherr").first == "witcher")
        #expect(!vocabulary.corrections(for: "zelda").contains("zelda"))
        #expect(vocabulary.corrections(for: "qqqqqqq").isEmpty)
        for typo in ["zeldda", "xelda", "mincraft", "hollw", "fantasi"] {
            let found = vocabulary.corrections(for: typo)
            #expect(found.count <= 6)
            let limit = typo.count >= 8 ? 2 : 1
            #expect(
                found.allSatisfy { boundedLevenshtein(Array(typo.utf8), Array($0.utf8), limit: limit) != nil },
                "\(typo) → \(found)")
        }
    }

    @Test(arguments: Backend.all)
    func namesakesAreToldApartByYear(_ backend: Backend) async throws {
        let catalog = await LoadedBundledCatalog.on(backend)
        let hits = try await catalog.search("doom", filter: CatalogFilter(), limit: 10)
        let dooms = hits.filter { $0.exactName }.map(\.game.displayName)
        #expect(dooms.contains("Doom (1993)"))
        #expect(dooms.contains("Doom (2016)"))
    }

    @Test(arguments: Backend.all)
    func matureGamesCanBeFilteredOut(_ backend: Backend) async throws {
        let catalog = await LoadedBundledCatalog.on(backend)
        let all = try await catalog.search("grand theft auto v", filter: CatalogFilter(), limit: 5)
        let gta = try #require(all.first { $0.game.name == "Grand Theft Auto V" })
        #expect(gta.game.isMature)
        let safe = try await catalog.search(
            "grand theft auto v", filter: CatalogFilter(includeMature: false), limit: 20)
        #expect(!safe.contains { $0.game.isMature })
    }

    @Test(arguments: Backend.all)
    func autocompleteOffersPrefixMatchesFirst(_ backend: Backend) async throws {
        let catalog = await LoadedBundledCatalog.on(backend)
        let games = try await catalog.autocomplete("hollow kn", includeMature: true, limit: 25)
        #expect(games.first?.name == "Hollow Knight")
        #expect(games.count <= 25)
    }

    @Test(arguments: Backend.all)
    func autocompleteSuggestionsCarryWhatAChoiceShows(_ backend: Backend) async throws {
        let catalog = await LoadedBundledCatalog.on(backend)
        let suggested = try #require(try await catalog.autocomplete("hollow kn", includeMature: true, limit: 25).first)
        let full = try #require(
            try await catalog.search("hollow knight", filter: CatalogFilter(), limit: 10).first {
                $0.game.id == suggested.id
            }?.game)
        // The name, release, platforms and reference a choice shows, as the full game has them…
        #expect(suggested.ref == full.ref)
        #expect(suggested.displayName == full.displayName && suggested.displayName == "Hollow Knight (2017)")
        #expect(suggested.releaseYearOnly == full.releaseYearOnly)
        #expect(suggested.platforms == full.platforms && suggested.platforms.count > 1)
        #expect(suggested.isMature == full.isMature)
        // …and nothing a choice does not show.
        #expect(full.summary != nil && suggested.summary == nil)
        #expect(!full.genres.isEmpty && suggested.genres.isEmpty)
    }

    /// Words longer than any known word (up to 40 bytes) once crashed the typo correction, and the server with it.
    @Test(arguments: [41, 42, 43, 60, 500])
    func aWordLongerThanAnyKnownFindsNothingAndStillAnswers(_ length: Int) async throws {
        let catalog = await LoadedBundledCatalog.on(.sqlite)
        let word = String(repeating: "x", count: length)
        // The other words still count, so autocomplete answers (within its limit) rather than failing.
        let offered = try await catalog.autocomplete("hollow " + word, includeMature: true, limit: 25)
        #expect(offered.count <= 25)
        #expect(try await catalog.search(word, filter: CatalogFilter(), limit: 10).isEmpty)
        let near = String(repeating: "knight", count: 7) + "s"  // 43 letters, close to nothing known
        #expect(try await catalog.search(near, filter: CatalogFilter(), limit: 10).isEmpty)
    }

    @Test(arguments: Backend.all)
    func platformFilterKeepsOnlyThatPlatform(_ backend: Backend) async throws {
        let catalog = await LoadedBundledCatalog.on(backend)
        let hits = try await catalog.search("mario", filter: CatalogFilter(platform: "Nintendo Switch"), limit: 10)
        #expect(!hits.isEmpty)
        #expect(hits.allSatisfy { $0.game.platforms.contains("Nintendo Switch") })
    }

    @Test(arguments: Backend.all)
    func yearAndGenreFiltersApplyToCorrectedWordsToo(_ backend: Backend) async throws {
        let catalog = await LoadedBundledCatalog.on(backend)
        let hits = try await catalog.search("zeldda", filter: CatalogFilter(year: 1998), limit: 10)
        #expect(hits.first?.game.name == "The Legend of Zelda: Ocarina of Time")
        #expect(
            hits.allSatisfy { hit in
                hit.game.releaseDate.map { Calendar.utc.component(.year, from: $0) } == 1998
            })
        let shooters = try await catalog.search("doom", filter: CatalogFilter(genre: "Shooter"), limit: 10)
        #expect(!shooters.isEmpty)
        #expect(shooters.allSatisfy { $0.game.genres.contains("Shooter") })
        #expect(try await catalog.search("doom", filter: CatalogFilter(genre: "Puzzle", year: 1993), limit: 10).isEmpty)
    }
}

@Suite("Text normalisation")
struct TextNormalizerTests {
    @Test func theASCIIPathSplitsExactlyLikeTheFoldingOne() {
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array("abcXYZ019 -:&'!.,/()é")
        for _ in 0..<5_000 {
            let length = Int.random(in: 0...24, using: &generator)
            let text = String((0..<length).map { _ in alphabet.randomElement(using: &generator)! })
            guard let fast = TextNormalizer.asciiWords(text) else {
                #expect(text.unicodeScalars.contains { !$0.isASCII })
                continue
            }
            #expect(fast == TextNormalizer.foldedWords(text), "“\(text)”")
        }
        #expect(TextNormalizer.words("The Witcher 3: Wild Hunt") == ["the", "witcher", "3", "wild", "hunt"])
        #expect(TextNormalizer.words("Baldur's Gate & Friends") == ["baldurs", "gate", "and", "friends"])
        #expect(TextNormalizer.words("Pokémon") == ["pokemon"])
    }

    @Test func keywordsAreTheWordsTwinsAndJoinedPairs() {
        #expect(TextNormalizer.keywords(for: "Final Fantasy VII") == "7 finalfantasy fantasyvii")
        #expect(TextNormalizer.keywords(for: "Half-Life 2") == "ii halflife life2")
        #expect(TextNormalizer.keywords(for: "Pokémon Red & Blue") == "pokemonred redand andblue")
        #expect(
            TextNormalizer.keywords(for: "Agent 007 vs. 99999999999999999999")
                == "vii agent007 007vs vs99999999999999999999")
        #expect(TextNormalizer.keywords(for: "Tetris").isEmpty)
    }

    @Test func typoDistanceAgreesWithTheTextbookDefinition() {
        /// Optimal string alignment distance, the whole table, no cut-off.
        func reference(_ a: [UInt8], _ b: [UInt8]) -> Int {
            var d = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
            for i in 0...a.count { d[i][0] = i }
            for j in 0...b.count { d[0][j] = j }
            for i in stride(from: 1, through: a.count, by: 1) {
                for j in stride(from: 1, through: b.count, by: 1) {
                    let cost = a[i - 1] == b[j - 1] ? 0 : 1
                    d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
                    if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                        d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1)
                    }
                }
            }
            return d[a.count][b.count]
        }
        var generator = SystemRandomNumberGenerator()
        let letters = Array("abcd".utf8)
        // Words up to 12 letters: long enough that only a band of each row is computed.
        for _ in 0..<6_000 {
            let a = (0..<Int.random(in: 0...12, using: &generator)).map { _ in letters.randomElement(using: &generator)!
            }
            let b = (0..<Int.random(in: 0...12, using: &generator)).map { _ in letters.randomElement(using: &generator)!
            }
            let limit = Int.random(in: 0...3, using: &generator)
            let distance = reference(a, b)
            let bounded = boundedLevenshtein(a, b, limit: limit)
            #expect(bounded == (distance <= limit ? distance : nil), "\(a) \(b) limit \(limit)")
        }
        #expect(boundedLevenshtein(Array("mincraft".utf8), Array("minecraft".utf8), limit: 2) == 1)
        #expect(boundedLevenshtein(Array("zeldda".utf8), Array("zelda".utf8), limit: 1) == 1)
        #expect(boundedLevenshtein(Array("hlaf".utf8), Array("half".utf8), limit: 1) == 1)
        #expect(boundedLevenshtein(Array("skyrm".utf8), Array("portal".utf8), limit: 2) == nil)
    }

    @Test func sequelNumeralsAreOneNameWhicheverWayTheyAreWritten() {
        #expect(TextNormalizer.canonicalCore(["the", "witcher", "iii"]) == ["witcher", "3"])
        #expect(TextNormalizer.canonicalCore(["final", "fantasy", "xvi"]) == ["final", "fantasy", "16"])
        #expect(TextNormalizer.canonicalCore(["final", "fantasy", "16"]) == ["final", "fantasy", "16"])
        // "I" is a word, and letters that only look like numerals stay words.
        #expect(
            TextNormalizer.canonicalCore(["i", "mix", "vixx", "xvii", "iiii", "xi2", "Ⅻ"])
                == ["i", "mix", "vixx", "xvii", "iiii", "xi2", "Ⅻ"])
        #expect(TextNormalizer.numeralTwin("vii") == "7")
        #expect(TextNormalizer.numeralTwin("7") == "vii")
        #expect(TextNormalizer.numeralTwin("i") == nil)
        #expect(TextNormalizer.numeralTwin("1") == nil)
        #expect(TextNormalizer.numeralTwin("17") == nil)
        #expect(TextNormalizer.isStopWord("the") && TextNormalizer.isStopWord("of"))
        #expect(
            !TextNormalizer.isStopWord("then") && !TextNormalizer.isStopWord("The") && !TextNormalizer.isStopWord(""))
    }
}

@Suite("The in-memory name index")
struct NameIndexFreshnessTests {
    @Test func gamesImportedBehindTheCatalogsBackAreFoundAfterARebuild() async throws {
        let database = try AppDatabase.inMemory()
        _ = try await CatalogImporter(database: database).importData(Data(#"{"id":1,"name":"Celeste"}"#.utf8))
        let catalog = try await LocalCatalog(database: database)
        #expect(try await catalog.search("outer wilds", filter: CatalogFilter(), limit: 5).isEmpty)
        // Another process (`ggtracker catalog import`) adds a game to the same database.
        _ = try await CatalogImporter(database: database).importData(Data(#"{"id":2,"name":"Outer Wilds"}"#.utf8))
        var found: [String] = []
        for _ in 0..<100 where found.isEmpty {
            found = try await catalog.search("outer wilds", filter: CatalogFilter(), limit: 5).map(\.game.name)
            if found.isEmpty { try await Task.sleep(for: .milliseconds(20)) }
        }
        #expect(found == ["Outer Wilds"])
        let typo = try await catalog.search("outer wilsd", filter: CatalogFilter(), limit: 5).map(\.game.name)
        #expect(typo.first == "Outer Wilds", "the typo vocabulary was rebuilt too")
    }
}

@Suite("The bundled catalog tells the truth")
struct BundledCatalogQualityTests {
    var catalog: LocalCatalog { get async { await LoadedBundledCatalog.sqlite.value } }

    @Test func matureGamesAndTheirAddOnsCarryTheirAgeRating() async throws {
        for id in ["25076", "7351", "112916", "1942", "12503", "13166", "472", "19457", "1020"] {
            let game = try #require(try await catalog.game(GameRef(provider: "igdb", id: id)))
            #expect(game.isMature, "\(game.displayName) should be age-restricted")
        }
    }

    @Test func everyScoreComesWithItsOwnCriticCount() async throws {
        let gForce = try #require(try await catalog.game(GameRef(provider: "igdb", id: "4876")))
        let score = try #require(gForce.criticScore)
        #expect(score.score < 80 && score.critics >= 30, "G-Force: \(score)")
        let unscored = try await catalog.database.read { db in
            try await db.value("SELECT count(*) FROM games WHERE critic_rating IS NOT NULL AND rating_count IS NULL")
                as Int?
        }
        #expect(unscored == 0)
        let top = try await catalog.top(filter: CatalogFilter(), minimumRatings: 5, page: 1, pageSize: 50)
        #expect(top.items.count == 50 && top.items.allSatisfy { ($0.ratingCount ?? 0) >= 5 })
    }

    @Test func genresArIGDBsAndEnginesAreNotInventedAndKindsAreKnown() async throws {
        let genres = try await catalog.facetNames(.genre, matching: "", limit: 100)
        #expect(genres.contains("Role-playing (RPG)"))
        for tag in ["RPG", "Gore", "Violent", "Nudity", "Early Access", "Free to Play", "Action", "Casual"] {
            #expect(!genres.contains(tag), "\(tag) is not a genre")
        }
        #expect(try await catalog.facetNames(.engine, matching: "", limit: 1).isEmpty)
        let expansion = try #require(try await catalog.game(GameRef(provider: "igdb", id: "12503")))
        #expect(!expansion.isMainGame)
        let witcher = try #require(try await catalog.game(GameRef(provider: "igdb", id: "1942")))
        #expect(witcher.isMainGame)
    }
}

@Suite("The bundled catalog after an upgrade")
struct BundledCatalogUpgradeTests {
    @Test func aDifferentBundledFileIsLoadedAgainOnceAndOtherCatalogsAreLeftAlone() async throws {
        let database = try AppDatabase.inMemory()
        let catalog = try await LocalCatalog(database: database)
        await #expect(try catalog.loadBundledIfEmpty() > 30_000)
        await #expect(try catalog.loadBundledIfEmpty() == 0, "the same file is not loaded twice")
        // As an older version left it: a bundled catalog without the file's mark, and a wrong score on a game.
        try await database.write { db in
            try await db.execute("DELETE FROM catalog_meta WHERE key = 'bundled.fingerprint'")
            try await db.execute("UPDATE games SET critic_rating = 100, rating_count = 33 WHERE name = 'G-Force'")
        }
        await #expect(try catalog.loadBundledIfEmpty() > 30_000)
        let gForce = try await #require(try database.catalog.game(GameRef(provider: "igdb", id: "4876")))
        #expect(
            gForce.criticScore.map { $0.critics >= 33 && $0.score < 80 } == true,
            "\(String(describing: gForce.criticScore))")
        await #expect(try catalog.loadBundledIfEmpty() == 0)

        // A catalog imported from a file of the operator's own carries neither mark: it is not replaced.
        let own = try AppDatabase.inMemory()
        try await own.write { db in
            try await db.execute(
                "INSERT INTO games (provider, provider_id, name) VALUES ('igdb', '1', 'Only Game')")
        }
        await #expect(try LocalCatalog(database: own).loadBundledIfEmpty() == 0)
        await #expect(try own.catalog.gameCount() == 1)
    }
}

/// 100,000 games with no ratings, so that no game is more popular than another, and words as common as in the
/// 333,128-game dump: "2" in one name in ten, "3" in one in 44, "edition" in one in 33, "complete" in one in 460.
enum FlatCatalog {
    static let loaded = Task { try await load() }

    static func load() async throws -> LocalCatalog {
        let database = try AppDatabase.inMemory()
        let catalog = try await LocalCatalog(database: database)
        let letters = Array("abcdefghijklmnopqrstuvwxyz")
        func word(_ number: Int) -> String {
            (0..<4).map { String(letters[number / [17_576, 676, 26, 1][$0] % 26]) }.joined()
        }
        var names = ["Qst", "Zorblax 2", "Gorgon 3: Wild Hunt", "Dirt 3: Complete Edition"]
        names += (0..<50).map { "Zorblax \(word($0))" } + (0..<4).map { "Gorgon \(word($0))" }
        names += (names.count..<100_000).map { number in
            "Filler \(word(number))" + (number % 10 == 0 ? " 2" : "") + (number % 44 == 1 ? " 3" : "")
                + (number % 460 == 2 ? " Complete" : "") + (number % 33 == 3 ? " Edition" : "")
        }
        let lines = names.enumerated().map { #"{"id":\#(1 + $0.offset),"name":"\#($0.element)"}"# }
        let report = try await CatalogImporter(database: database).importData(Data(lines.joined(separator: "\n").utf8))
        precondition(report.added == 100_000, "\(report)")
        try await catalog.reloadVocabulary()
        return catalog
    }
}
