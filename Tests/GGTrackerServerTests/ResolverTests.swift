import Foundation
import GGTrackerCatalog
import GGTrackerCore
import GGTrackerStorage
import Testing

@testable import GGTrackerServer

/// The games behind the cases people reported, in IGDB's own shape: namesakes, add-ons, bundles and ports,
/// age-restricted main games. Counts are what make one namesake "widely rated".
enum ResolverCatalog {
    static func game(
        _ id: Int?, _ name: String, _ year: Int, type: String? = nil, esrb: Int? = nil, ratings: Int? = nil,
        slug: String? = nil
    ) -> [String: Any] {
        var g: [String: Any] = [
            "name": name,
            "first_release_date": Int(
                Calendar.utc.date(from: DateComponents(year: year, month: 6, day: 1))!
                    .timeIntervalSince1970),
            "platforms": [["name": "PC (Microsoft Windows)"]],
        ]
        if let id {
            g["id"] = id
        } else {
            g["slug"] = slug ?? name.lowercased().replacingOccurrences(of: " ", with: "-")
        }
        if let type { g["game_type"] = ["type": type] }
        if let esrb { g["age_ratings"] = [["category": 1, "rating": esrb]] }
        if let ratings { g["total_rating_count"] = ratings }
        return g
    }

    static let M = 11

    static let games: [[String: Any]] = [
        game(14593, "Hollow Knight", 2017, type: "Main Game", ratings: 2139),
        game(300_001, "Elden Ring Nightreign: The Forsaken Hollows", 2025, type: "DLC"),
        game(1020, "Grand Theft Auto V", 2013, type: "Main Game", esrb: M, ratings: 5781),
        game(239_064, "Grand Theft Auto V", 2015, type: "Port", esrb: M),
        game(
            nil, "Rockstar Games Double Pack: Grand Theft Auto III & Grand Theft Auto Vice City", 2003, type: "Bundle"),
        game(472, "The Elder Scrolls V: Skyrim", 2011, type: "Main Game", esrb: M, ratings: 4247),
        game(19457, "The Elder Scrolls V: Skyrim - Special Edition", 2016, type: "Remaster", esrb: M, ratings: 433),
        game(673, "Doom", 1993, type: "Main Game", esrb: M, ratings: 991),
        game(7351, "Doom", 2016, type: "Main Game", esrb: M, ratings: 1905),
        game(259_941, "Doom", 2001),
        game(300_002, "Mighty Doom", 2023, type: "Main Game", esrb: 10, ratings: 20),
        game(71, "Portal", 2007, type: "Main Game", ratings: 3922),
        game(14546, "Portal", 1986),
        game(72, "Portal 2", 2011, type: "Main Game", ratings: 4100),
        game(113_112, "Hades", 2020, type: "Main Game", ratings: 1685),
        game(80529, "Hades", 1995),
        game(228_525, "Hades II", 2025, type: "Main Game").merging(
            ["genres": [["name": "Hack and slash/Beat 'em up"]]]) { $1 },
        game(1942, "The Witcher 3: Wild Hunt", 2015, type: "Main Game", esrb: M, ratings: 5327),
        game(12503, "The Witcher 3: Wild Hunt - Hearts of Stone", 2015, type: "Expansion", esrb: M, ratings: 549),
        game(13166, "The Witcher 3: Wild Hunt - Blood and Wine", 2016, type: "Expansion", esrb: M, ratings: 476),
        game(22439, "The Witcher 3: Wild Hunt - Game of the Year Edition", 2016, type: "Bundle", esrb: M, ratings: 568),
        game(20, "BioShock", 2007, type: "Main Game", esrb: M, ratings: 3155),
        game(214_790, "BioShock", 2008, type: "Port", esrb: M),
        game(20115, "BioShock Infinite: Clash in the Clouds", 2013, type: "DLC"),
        game(10047, "BioShock Infinite: Burial at Sea - Episode 1", 2013, type: "DLC"),
        game(26226, "Celeste", 2018, type: "Main Game", ratings: 1200),
        game(7346, "The Legend of Zelda: Breath of the Wild", 2017, type: "Main Game", ratings: 3300),
        game(102_129, "Astro Bot: Rescue Mission", 2018, type: "Main Game", ratings: 60),
        game(25076, "Red Dead Redemption 2", 2018, type: "Main Game", esrb: M, ratings: 3900),
        game(300_003, "Rare Dog Runner 2", 2019, type: "Main Game"),
        game(11133, "Dark Souls III", 2016, type: "Main Game", esrb: M, ratings: 2800),
        game(5503, "Dead Space 3", 2013, type: "Main Game", esrb: M, ratings: 900),
        game(733, "Grand Theft Auto: Vice City", 2002, type: "Main Game", esrb: M, ratings: 3000),
        game(300_004, "Angus Hates Aliens", 2015, type: "Main Game"),
        game(74, "Mass Effect", 2007, type: "Main Game", esrb: M, ratings: 2600),
        game(300_005, "Massive Effect", 2019, type: "Main Game"),
        game(9730, "Shovel Knight", 2014, type: "Main Game", ratings: 1500),
        game(1221, "Kingdom Hearts II", 2005, type: "Main Game", ratings: 1300),
        game(7841, "Kingdom Hearts HD 2.5 Remix", 2014, type: "Bundle", ratings: 150),
    ]

    /// A harness whose catalog is exactly these games.
    static func harness() async throws -> TestHarness {
        let harness = try await TestHarness(emptyCatalog: true)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("resolver-\(UUID().uuidString).jsonl")
        let lines = try games.map { String(decoding: try JSONSerialization.data(withJSONObject: $0), as: UTF8.self) }
        try lines.joined(separator: "\n").write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        _ = try await CatalogImporter(database: harness.services.database).importFile(file.path)
        try await harness.services.catalog.reloadVocabulary()
        return harness
    }
}

/// One row of the table: a command typed by alice, the games already on her shelves, the channel, and what a
/// person should see.
struct ResolverCase: CustomTestStringConvertible, Sendable {
    enum Answer: Sendable {
        /// The command ran on this game (the public card names it).
        case game(String)
        /// A private question with exactly these games to pick from.
        case asks([String])
        /// A private refusal naming these age-restricted games.
        case restricted([String])
        /// A private answer naming the age-restricted games meant and offering the one namesake that may be shown.
        case offers(String, hidden: [String])
        /// "No game matches".
        case nothing
        /// "No game matches", offering exactly these games.
        case suggests([String])
    }

    var command: String
    var title: String
    var extra: [String: any Sendable] = [:]
    var shelves: [String] = []
    var ageRestricted = false
    var answer: Answer

    var testDescription: String {
        "/\(command) title:\(title)\(shelves.isEmpty ? "" : " owning \(shelves)")\(ageRestricted ? " (age-restricted)" : "")"
    }

    static let all: [ResolverCase] = [
        .init(
            command: "add", title: "hollow night", extra: ["status": "playing"], answer: .game("Hollow Knight (2017)")),
        .init(command: "game", title: "Grand Theft Auto V", answer: .restricted(["Grand Theft Auto V (2013)"])),
        .init(
            command: "game", title: "Grand Theft Auto V", ageRestricted: true,
            answer: .game("Grand Theft Auto V (2013)")),
        // Initials of a well-known game, as people type them; an obscure game with the same initials is not one.
        .init(command: "add", title: "botw", answer: .game("The Legend of Zelda: Breath of the Wild (2017)")),
        .init(command: "add", title: "rdr2", ageRestricted: true, answer: .game("Red Dead Redemption 2 (2018)")),
        .init(
            command: "add", title: "ds3", ageRestricted: true,
            answer: .asks(["Dark Souls III (2016)", "Dead Space 3 (2013)"])
        ),
        .init(command: "add", title: "astro bot", answer: .game("Astro Bot: Rescue Mission (2018)")),
        // A platform ending the title is the platform, as in /search: the name is looked for among its games.
        .init(command: "add", title: "hades pc", answer: .game("Hades (2020)")),
        .init(command: "add", title: "hollow knight windows", answer: .game("Hollow Knight (2017)")),
        .init(command: "add", title: "hades switch", answer: .nothing),
        // A number with its unit or its sign ending the title is hours, never part of the name: not Hades II.
        .init(command: "add", title: "hades 2h", answer: .game("Hades (2020)")),
        .init(command: "progress", title: "hades 2h", shelves: ["igdb:113112"], answer: .game("Hades (2020)")),
        .init(command: "progress", title: "hades +2h", shelves: ["igdb:113112"], answer: .game("Hades (2020)")),
        // A numeral matches only whole: "vi" is not the start of "Vice".
        .init(command: "game", title: "gta vi", ageRestricted: true, answer: .nothing),
        .init(
            command: "game", title: "gta vice", ageRestricted: true, answer: .game("Grand Theft Auto: Vice City (2002)")
        ),
        .init(command: "game", title: "gta v", answer: .restricted(["Grand Theft Auto V (2013)"])),
        // A name matched only through typo corrections is shown by /game (below) but only offered by a change.
        .init(command: "add", title: "skyrm", ageRestricted: true, answer: .nothing),
        .init(command: "game", title: "skyrm", answer: .restricted(["The Elder Scrolls V: Skyrim (2011)"])),
        .init(
            command: "game", title: "skyrm", ageRestricted: true, answer: .game("The Elder Scrolls V: Skyrim (2011)")),
        // Only an obscure namesake may be shown: the ones meant are said to be hidden, and that one is offered.
        .init(command: "add", title: "Doom", answer: .offers("Doom (2001)", hidden: ["Doom (2016)", "Doom (1993)"])),
        .init(
            command: "add", title: "Doom", ageRestricted: true,
            answer: .asks(["Doom (2016)", "Doom (1993)", "Doom (2001)"])),
        .init(command: "add", title: "mighty doom", answer: .game("Mighty Doom (2023)")),
        .init(
            command: "rate", title: "portal", extra: ["score": 8], shelves: ["igdb:71"], answer: .game("Portal (2007)")),
        .init(command: "rate", title: "portal", extra: ["score": 8], answer: .game("Portal (2007)")),
        .init(
            command: "rate", title: "portal", extra: ["score": 8], shelves: ["igdb:14546"],
            answer: .game("Portal (1986)")),
        .init(
            command: "rate", title: "portal", extra: ["score": 8], shelves: ["igdb:71", "igdb:72"],
            answer: .game("Portal (2007)")),
        .init(
            command: "progress", title: "hades", extra: ["hours": 3.0], shelves: ["igdb:113112"],
            answer: .game("Hades (2020)")),
        .init(
            command: "progress", title: "doom", extra: ["hours": 3.0], shelves: ["igdb:7351"], ageRestricted: true,
            answer: .game("Doom (2016)")),
        .init(
            command: "game", title: "witcher 3", ageRestricted: true, answer: .game("The Witcher 3: Wild Hunt (2015)")),
        .init(command: "game", title: "witcher 3", answer: .restricted(["The Witcher 3: Wild Hunt (2015)"])),
        .init(
            command: "game", title: "the witcher iii wild hunt", ageRestricted: true,
            answer: .game("The Witcher 3: Wild Hunt (2015)")),
        .init(
            command: "game", title: "witcher 3 blood and wine", ageRestricted: true,
            answer: .game("The Witcher 3: Wild Hunt - Blood and Wine (2016)")),
        .init(command: "game", title: "bioshock", answer: .restricted(["BioShock (2007)"])),
        .init(command: "game", title: "bioshock", ageRestricted: true, answer: .game("BioShock (2007)")),
        .init(command: "game", title: "celest", answer: .game("Celeste (2018)")),
        // A name with its year, as replies write namesakes and people copy them.
        .init(command: "add", title: "Doom (1993)", ageRestricted: true, answer: .game("Doom (1993)")),
        .init(command: "add", title: "doom 2016", ageRestricted: true, answer: .game("Doom (2016)")),
        .init(command: "game", title: "Doom(1993)", answer: .restricted(["Doom (1993)"])),
        .init(command: "game", title: "Hades (1995)", answer: .game("Hades (1995)")),
        .init(
            command: "rate", title: "Portal (1986)", extra: ["score": 8], shelves: ["igdb:71", "igdb:14546"],
            answer: .game("Portal (1986)")),
        .init(command: "game", title: "Portal (2011)", answer: .nothing),
        .init(command: "game", title: "qwzxv plorb", answer: .nothing),
        // A status ending a title that names no game: taken with the one game the rest names, offered with several.
        .init(command: "add", title: "hollow knight playing", answer: .game("Hollow Knight (2017)")),
        .init(
            command: "add", title: "doom playing", ageRestricted: true,
            answer: .suggests(["Doom (2016)", "Doom (1993)", "Doom (2001)"])),
        // A better known game without every word ranks first: the one with them all is the answer.
        .init(command: "game", title: "kingdom hearts 2.5", answer: .game("Kingdom Hearts HD 2.5 Remix (2014)")),
        .init(command: "game", title: "kingdom hearts 2", answer: .game("Kingdom Hearts II (2005)")),
        // A number with a decimal part ending /progress's title is hours only where the whole title names no game.
        .init(
            command: "progress", title: "kingdom hearts 2.5", extra: ["status": "playing"], shelves: ["igdb:7841"],
            answer: .game("Kingdom Hearts HD 2.5 Remix (2014)")),
        .init(
            command: "progress", title: "hollow knight 4.5", extra: ["status": "playing"], shelves: ["igdb:14593"],
            answer: .game("Hollow Knight (2017)")),
        // The closest games are age-restricted: those the channel may show are offered in their place.
        .init(
            command: "add", title: "grand theft auto qqq",
            answer: .suggests(["Rockstar Games Double Pack: Grand Theft Auto III & Grand Theft Auto Vice City (2003)"])),
    ]
}

@Suite("Resolving the title a person typed, through the router")
struct ResolverTests {
    @Test(arguments: ResolverCase.all)
    func answersTheGameThePersonMeant(_ row: ResolverCase) async throws {
        let harness = try await ResolverCatalog.harness()
        try await harness.withClient { client in
            for ref in row.shelves {
                let added = try await client.send(I.command("add", [I.option("title", ref)], nsfw: true))
                #expect(!added.ephemeral, "could not put \(ref) on the shelf: \(added.text)")
            }
            var options = [I.option("title", row.title)]
            for (name, value) in row.extra.sorted(by: { $0.key < $1.key }) { options.append(I.option(name, value)) }
            let answer = try await client.send(I.command(row.command, options, nsfw: row.ageRestricted))
            DiscordChecks.check(answer)
            switch row.answer {
            case .game(let name):
                #expect(!answer.ephemeral, "\(answer.text)")
                #expect(
                    answer.embeds.first.flatMap { $0["title"] as? String }?.contains(name) == true, "\(answer.text)")
            case .asks(let names):
                #expect(answer.ephemeral && answer.content.contains("Which one do you mean?"), "\(answer.text)")
                #expect(Set(answer.buttons.map { $0.label.components(separatedBy: " · ")[0] }) == Set(names))
            case .restricted(let names):
                #expect(answer.ephemeral && answer.content.contains("age-restricted"), "\(answer.text)")
                for name in names { #expect(answer.content.contains(name), "\(answer.content)") }
                #expect(answer.buttons.isEmpty)
            case .offers(let name, let hidden):
                #expect(answer.ephemeral && answer.content.contains("Or did you mean **\(name)**?"), "\(answer.text)")
                #expect(!answer.content.contains("More than one game"), "\(answer.content)")
                for name in hidden { #expect(answer.content.contains("**\(name)**"), "\(answer.content)") }
                #expect(answer.buttons.map(\.label) == [name], "\(answer.buttons.map(\.label))")
            case .nothing:
                #expect(answer.ephemeral && answer.content.contains("No game matches"), "\(answer.text)")
            case .suggests(let names):
                #expect(answer.ephemeral && answer.content.contains("No game matches"), "\(answer.text)")
                for name in names { #expect(answer.content.contains("**\(name)**"), "\(answer.content)") }
                #expect(answer.buttons.count == names.count, "\(answer.text)")
            }
        }
    }

    /// Typed to `/add`, which has no hours to add to, "+2h" is the hours played, never part of the name.
    @Test func hoursWithAPlusTypedToAddAreThePlayedHours() async throws {
        let harness = try await ResolverCatalog.harness()
        let added = try await harness.services.bot.respond(
            toLine: "!gg add hades +2h", from: HoursCorrectionTests.alice)
        let body = added.matrixContent(replyTo: nil).body
        #expect(body.contains("Alice added Hades (2020)") && body.contains("Playing · 2 h"), "\(body)")
    }

    @Test func theQuestionsButtonsRunTheCommandOnTheChosenGame() async throws {
        let harness = try await ResolverCatalog.harness()
        try await harness.withClient { client in
            let question = try await client.send(I.command("add", [I.option("title", "Doom")], nsfw: true))
            let button = try #require(question.button("Doom (1993)"))
            let added = try await client.send(I.button(button, nsfw: true))
            #expect(added.text.contains("Alice added Doom (1993)"))
        }
        let library = try await harness.services.database.library.library(
            of: PlayerID("discord:111111111111111111"), status: nil, sort: .recent, includeMature: true, page: 1,
            pageSize: 10)
        #expect(library.page.items.map(\.game.displayName) == ["Doom (1993)"])
    }

    @Test func nothingIsStoredWhenTheBotAsksOrRefuses() async throws {
        let harness = try await ResolverCatalog.harness()
        try await harness.withClient { client in
            _ = try await client.send(I.command("add", [I.option("title", "Doom")]))
            _ = try await client.send(I.command("add", [I.option("title", "Doom")], nsfw: true))
            _ = try await client.send(I.command("rate", [I.option("title", "bioshock"), I.option("score", 7)]))
        }
        let count = try await harness.services.database.writer.read { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM library_entries") ?? -1
        }
        #expect(count == 0)
    }

    @Test func searchRanksTheMainGameAheadOfItsAddOns() async throws {
        let harness = try await ResolverCatalog.harness()
        try await harness.withClient { client in
            let answer = try await client.send(I.command("search", [I.option("query", "witcher 3")], nsfw: true))
            let titles = answer.embeds.compactMap { $0["title"] as? String }
            #expect(titles.first == "The Witcher 3: Wild Hunt (2015)", "\(titles)")
            let bio = try await client.send(I.command("search", [I.option("query", "bioshock")], nsfw: true))
            #expect(bio.embeds.first?["title"] as? String == "BioShock (2007)")
        }
    }

    /// Where a game has every word as typed, the list is not filled with games found through typo corrections
    /// ("Angus Hates Aliens" for "hades"), nor with games that have some of the words ("Shovel Knight" for
    /// "hollow knight"); a misspelt word is still corrected.
    @Test func searchLeavesOutCorrectionsWhenTheWordsAreFound() async throws {
        let harness = try await ResolverCatalog.harness()
        try await harness.withClient { client in
            func titles(_ query: String) async throws -> [String] {
                let answer = try await client.send(I.command("search", [I.option("query", query)], nsfw: true))
                return answer.embeds.compactMap { $0["title"] as? String }
            }
            let hades = try await titles("hades")
            #expect(hades == ["Hades (2020)", "Hades (1995)", "Hades II (2025)"])
            let hollow = try await titles("hollow knight")
            #expect(hollow == ["Hollow Knight (2017)"])
            let aliens = try await titles("hades aliens")
            #expect(aliens == ["Angus Hates Aliens (2015)"])
            let misspelt = try await titles("hollow night")
            #expect(misspelt.first == "Hollow Knight (2017)")
            let shovel = try await titles("shovel night")
            #expect(shovel == ["Shovel Knight (2014)"])
        }
    }

    /// A search where the games matching every word are age-restricted says so, and is not filled with games that
    /// have only some of the words ("Dead Space 3" for "witcher 3").
    @Test func searchSaysWhatTheAgeGateHides() async throws {
        let harness = try await ResolverCatalog.harness()
        try await harness.withClient { client in
            let witcher = try await client.send(I.command("search", [I.option("query", "witcher 3")]))
            #expect(witcher.ephemeral && witcher.embeds.isEmpty, "\(witcher.text)")
            #expect(
                witcher.content
                    == "No game matching “witcher 3” can be shown in this channel: 4 games with every word are "
                    + "age-restricted; use an age-restricted channel.")
            let doom = try await client.send(I.command("search", [I.option("query", "doom")]))
            #expect(
                doom.embeds.compactMap { $0["title"] as? String } == ["Doom (2001)", "Mighty Doom (2023)"],
                "\(doom.text)")
            #expect(
                doom.content.hasSuffix(
                    "\n2 more games with every word are age-restricted in this channel; use an age-restricted channel."),
                "\(doom.content)")
            let shown = try await client.send(I.command("search", [I.option("query", "doom")], nsfw: true))
            #expect(shown.embeds.count == 4 && !shown.content.contains("age-restricted"), "\(shown.text)")
            // The game with every word as typed is hidden: one found only by correcting a word is no answer for it.
            let mass = try await client.send(I.command("search", [I.option("query", "mass effect")]))
            #expect(mass.embeds.isEmpty, "\(mass.text)")
            #expect(
                mass.content
                    == "No game matching “mass effect” can be shown in this channel: 1 game with every word is "
                    + "age-restricted; use an age-restricted channel.")
            let massShown = try await client.send(
                I.command("search", [I.option("query", "mass effect")], nsfw: true))
            #expect(massShown.embeds.first?["title"] as? String == "Mass Effect (2007)", "\(massShown.text)")
        }
    }

    /// "celeste pc": no game has every word, and the last one names a platform, so it is the platform filter.
    @Test func aSearchEndingWithAPlatformNoNameHasFiltersByIt() async throws {
        let harness = try await ResolverCatalog.harness()
        try await harness.withClient { client in
            let found = try await client.send(I.command("search", [I.option("query", "celeste pc")]))
            #expect(found.content.hasPrefix("1 game for “celeste” · PC (Microsoft Windows)"), "\(found.content)")
            #expect(found.embeds.compactMap { $0["title"] as? String } == ["Celeste (2018)"])
            // Where games have every word, or the gate hides such games, the words are the query.
            let named = try await client.send(I.command("search", [I.option("query", "portal 2")]))
            #expect(named.content.hasPrefix("1 game for “portal 2”\n") || named.content == "1 game for “portal 2”")
            let hidden = try await client.send(I.command("search", [I.option("query", "witcher 3")]))
            #expect(hidden.content.contains("No game matching “witcher 3”"), "\(hidden.content)")
        }
    }

    /// "doom 1993": no game has the year in its name, so the year is the release year.
    @Test func aSearchEndingWithAYearNoNameHasFindsThatYearsGames() async throws {
        let harness = try await ResolverCatalog.harness()
        try await harness.withClient { client in
            let doom = try await client.send(I.command("search", [I.option("query", "doom 1993")], nsfw: true))
            #expect(doom.embeds.compactMap { $0["title"] as? String } == ["Doom (1993)"], "\(doom.text)")
            #expect(doom.content == "1 game for “doom” · released in 1993")
            let hidden = try await client.send(I.command("search", [I.option("query", "doom 1993")]))
            #expect(
                hidden.content
                    == "No game matching “doom” released in 1993 can be shown in this channel: 1 game with every word "
                    + "is age-restricted; use an age-restricted channel.")
            // A name that has the number is found by its name.
            let portal = try await client.send(I.command("search", [I.option("query", "portal 2")]))
            #expect(portal.embeds.first?["title"] as? String == "Portal 2 (2011)")
            #expect(!portal.content.contains("released in"))
        }
    }
}
