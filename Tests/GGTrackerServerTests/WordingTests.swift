import Foundation
import GGTrackerCore
import GGTrackerStorage
import Testing

@testable import GGTrackerServer

/// Small things a person reads: options that belong to another command, counts in words, the review gate, scores
/// without critics, impossible hours, footers and dates.
@Suite("What the replies say, word for word")
struct WordingTests {
    let harness: TestHarness
    init() async throws { harness = try await TestHarness() }

    @Test func anOptionOfAnotherCommandIsRefusedByName() async throws {
        let reply = try await harness.services.bot.respond(
            toLine: "/activity page:2",
            from: Invoker(platform: .cli, userID: "alice", displayName: "alice", community: "local"))
        #expect(reply.visibility == .invokerOnly)
        #expect(
            reply.text?.discordMarkdown.contains("`/activity` has no option `page`") == true, "\(reply.text ?? "")")
        #expect(reply.text?.contains("hasn't used GGTracker") == false)
    }

    /// A command's word typed where a member goes (`!gg list wishlist`) is said to be no member's name, with the
    /// command it names; a name that is no command's is a member who has not used the bot here.
    @Test func aCommandsWordWhereAMemberGoesNamesTheCommand() async throws {
        let bot = harness.services.bot
        for (line, meant) in [("!gg list wishlist", "/wishlist"), ("!gg stats favorites", "/favorite")] {
            let reply = try await bot.respond(toLine: line, from: UnknownCommandGameTests.alice)
            let word = line.split(separator: " ").last!
            #expect(
                reply.text?.discordMarkdown == "“\(word)” is no member's name here. Did you mean `\(meant)`?",
                "\(reply.text ?? "")")
        }
        let tom = try await bot.respond(toLine: "!gg list tom", from: UnknownCommandGameTests.alice)
        #expect(tom.text?.plainText == "tom hasn't used GGTracker in this server yet, so there is nothing to show.")
    }

    /// Someone who never used the bot here cannot be followed yet, and the answer says so rather than that there
    /// is "nothing to show".
    @Test func followingSomeoneNewSaysWhenItWillWork() async throws {
        try await harness.withClient { client in
            let add = try await client.send(
                I.command("friend", [I.sub("add", [I.user("user", .bob)])], resolvedUsers: [.bob]))
            #expect(
                add.ephemeral
                    && add.content
                        == "Bob hasn't used GGTracker in this server yet, so there is no one to follow yet: once they use a command here, you can.",
                "\(add.content)")
            let remove = try await client.send(
                I.command("friend", [I.sub("remove", [I.user("user", .bob)])], resolvedUsers: [.bob]))
            #expect(remove.content.hasSuffix("so you do not follow them."), "\(remove.content)")
            _ = try await client.send(I.command("help", as: .bob))
            let again = try await client.send(
                I.command("friend", [I.sub("add", [I.user("user", .bob)])], resolvedUsers: [.bob]))
            #expect(again.content.hasPrefix("You now follow Bob"), "\(again.content)")
        }
    }

    /// The terminal shows the review form as the command to type, with the review it would hold.
    @Test func theTerminalShowsAFormAsACommandWithItsCurrentText() async throws {
        let bot = harness.services.bot
        let ada = Invoker(platform: .cli, userID: "ada", displayName: "ada", community: "local")
        for line in ["/add title:igdb:26226 status:completed", "/review title:igdb:26226 text:Kind and hard."] {
            _ = try await bot.respond(toLine: line, from: ada)
        }
        let form = try await bot.respond(toLine: "/review title:Celeste", from: ada).plainText()
        #expect(
            form.hasSuffix(
                "Review: Celeste — type it as:\n  /review title:igdb:26226 text:…\n  Your review now: “Kind and hard.”"),
            "\(form)")
    }

    @Test func countsReadAsWordsAndTheReviewGateSaysWhereTheGameStands() async throws {
        try await harness.withClient { client in
            // Before any game, the caller's own stats say how to start.
            let none = try await client.send(I.command("stats"))
            #expect(none.ephemeral && none.content == "Your library has no games yet. Add one with `/add`.")
            _ = try await client.send(
                I.command("add", [I.option("title", "Celeste"), I.option("status", "completed")]))
            _ = try await client.send(
                I.command("review", [I.option("title", "Celeste"), I.option("text", "Kind and hard.")]))
            let profile = try await client.send(I.command("profile", [I.sub("show")]))
            #expect(profile.text.contains("Library\n1 game\n") && !profile.text.contains("1 games"), "\(profile.text)")
            let stats = try await client.send(I.command("stats"))
            #expect(stats.text.contains("1 game · 1 review ·") && !stats.text.contains("1 reviews"), "\(stats.text)")
            _ = try await client.send(I.command("add", [I.option("title", "Hades")]))
            let gate = try await client.send(
                I.command("review", [I.option("title", "Hades"), I.option("text", "Great")]))
            #expect(gate.content.contains("(it is on your backlog)"), "\(gate.content)")
        }
    }

    @Test func hoursBeyondWhatOneGameCanTakeAreRefused() async throws {
        try await harness.withClient { client in
            let answer = try await client.send(
                I.command("add", [I.option("title", "Celeste"), I.option("hours", 100_000.0)]))
            #expect(answer.ephemeral && answer.content.contains("`hours` must be between 0 and 20000"))
        }
        let count = try await harness.services.database.writer.read { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM library_entries") ?? -1
        }
        #expect(count == 0)
    }

    @Test func aFilteredListCountsWhatItShows() async throws {
        try await harness.withClient { client in
            _ = try await client.send(I.command("add", [I.option("title", "Celeste"), I.option("status", "playing")]))
            _ = try await client.send(I.command("add", [I.option("title", "Hades")]))
            _ = try await client.send(I.command("add", [I.option("title", "Inside")]))
            let list = try await client.send(I.command("list", [I.option("status", "playing")]))
            let footer = (list.embeds.first?["footer"] as? [String: Any])?["text"] as? String ?? ""
            #expect(footer.hasPrefix("🎮 1 playing of 3 games"), "\(footer)")
        }
    }

    @Test func aGameWithoutCriticsShowsNoScoreAndEnginesAreSaidToBeMissing() async throws {
        let database = harness.services.database
        try await database.write { db in
            try await db.execute("UPDATE games SET critic_rating = 0, rating_count = NULL WHERE name = 'Inside'")
        }
        try await harness.withClient { client in
            let card = try await client.send(I.command("game", [I.option("title", "Inside")]))
            #expect(!card.text.contains("Critic rating"), "\(card.text)")
            let rated = try await client.send(I.command("game", [I.option("title", "Celeste")]))
            #expect(
                rated.text.range(of: #"Critic rating\n\d+/100 from \d+ critics"#, options: .regularExpression) != nil)
            let engines = try await client.send(
                I.command("browse", [I.sub("engine", [I.option("name", "Unreal Engine")])]))
            #expect(engines.ephemeral && engines.content.contains("no engine data"), "\(engines.content)")
            // Without a name, the catalog's genres, the most common first, each of the first five a button.
            let genres = try await client.send(I.command("browse", [I.sub("genre")]))
            DiscordChecks.check(genres)
            #expect(genres.ephemeral && genres.text.contains("The catalog's genres, the most common first"))
            #expect(genres.text.contains("• Adventure\n") && genres.buttons.count == 5, "\(genres.text)")
            let picked = try await client.send(I.button(try #require(genres.buttons.first).customID))
            #expect(picked.text.contains("Genre: \(genres.buttons[0].label)") && picked.text.contains("• "))
            let noEngines = try await client.send(I.command("browse", [I.sub("engine")]))
            #expect(noEngines.ephemeral && noEngines.content.contains("no engine data"), "\(noEngines.content)")
            let top = try await client.send(I.command("top"))
            let lines = (top.embeds.first?["description"] as? String ?? "").split(separator: "\n")
            #expect(!lines.isEmpty && lines.allSatisfy { $0.contains(" critics)") }, "\(lines)")
        }
    }

    @Test func aChallengeCardShowsItsLastDayOnceAndTimeLeftInWords() async throws {
        let bot = harness.services.bot
        let alice = Invoker(platform: .cli, userID: "alice", displayName: "alice", community: "local")
        let year = Calendar.utc.component(.year, from: Date()) + 1
        _ = try await bot.respond(
            toLine: "/challenge create name:Backlog goal:3 unit:games_completed ends:\(year)-12-31", from: alice)
        let card = try await bot.respond(toLine: "/challenge show name:Backlog", from: alice).plainText()
        #expect(card.contains("until Dec 31, \(year) (in "), "\(card)")
        #expect(!card.contains("Jan 1, \(year + 1)"), "\(card)")
    }
}

/// An age-restricted game refused names the way to show it that exists where it was asked for: only Discord marks
/// channels age-restricted.
@Suite("The age gate's refusal says what works here")
struct AgeGateRemedyTests {
    @Test func eachPlatformIsToldItsOwnWay() async throws {
        let harness = try await TestHarness()
        let bot = harness.services.bot
        func answer(_ line: String, _ platform: ChatPlatform, admin: Bool = false) async throws -> String {
            let invoker = Invoker(
                platform: platform, userID: "ada", displayName: "ada", community: "room", isAdmin: admin)
            return try await bot.respond(toLine: line, from: invoker).plainText()
        }
        let refused =
            "(only you can see this)\nHalf-Life 2 (2004) is age-restricted (ESRB M) and cannot be shown in this channel; "
        #expect(try await answer("/add title:Half-Life 2", .discord) == refused + "use an age-restricted channel.")
        #expect(
            try await answer("/add title:Half-Life 2", .cli) == refused + "run the command with --age-restricted.")
        for platform in [ChatPlatform.matrix, .slack] {
            let text = try await answer("!gg add Half-Life 2", platform)
            #expect(
                text == refused
                    + "here no channel is age-restricted: an admin can show such games everywhere with /admin settings age_gate:off.",
                "\(text)")
        }
        // Who may turn it off is said as each platform decides it.
        #expect(
            try await answer("!gg admin settings age_gate:off", .matrix).hasSuffix(
                "Only admins can use /admin: room members with power level 50 or more, or ids the bot's operator lists in GGTRACKER_ADMIN_IDS."
            )
        )
        #expect(
            try await answer("/gg admin settings age_gate:off", .slack).hasSuffix(
                "Only admins can use /admin: the Slack ids the bot's operator lists in GGTRACKER_ADMIN_IDS."))
        #expect(
            try await answer("/admin settings", .cli).hasSuffix(
                "Only admins can use /admin: run the command with --admin."))
        // The settings card says what strict means there.
        #expect(
            try await answer("!gg admin settings", .matrix, admin: true).contains(
                "Age gate: strict — mature games (ESRB M/AO, PEGI 18) hidden, since no room or channel here is age-restricted"
            ))
        // The way named works: once an admin turns the gate off, the game is added in the same room.
        _ = try await answer("!gg admin settings age_gate:off", .matrix, admin: true)
        #expect(try await answer("!gg add Half-Life 2", .matrix).contains("added Half-Life 2 (2004)"))
    }
}

/// A line whose first word names no command but whose words name a game is offered that game's card.
@Suite("An unknown command that names a game")
struct UnknownCommandGameTests {
    let harness: TestHarness
    init() async throws { harness = try await TestHarness() }

    static let alice = Invoker(
        platform: .matrix, userID: "@alice:localhost", displayName: "alice", community: "!room:localhost")

    @Test func theGameItNamesIsOfferedBeforeTheSearch() async throws {
        let bot = harness.services.bot
        let hades = try await bot.respond(toLine: "!gg hades", from: Self.alice)
        let body = hades.matrixContent(replyTo: nil).body
        #expect(
            body.hasPrefix("Unknown command `hades`. Did you mean the game Hades (2020)? `!gg help` lists them all"),
            "\(body)")
        let buttons = hades.actions.flatMap { $0 }
        #expect(buttons.map(\.label) == ["Hades (2020)", "Search"], "\(buttons)")
        // The button shows the card, as pressing it would.
        let card = try await bot.respond(to: buttons[0].invocation, from: Self.alice)
        #expect(card.cards.first?.title == "Hades (2020)", "\(card)")
        // A typo in the name still finds it; words naming a few games offer each as a button.
        let night = try await bot.respond(toLine: "!gg hollow night", from: Self.alice)
        #expect(night.actions.first?.first?.label == "Hollow Knight (2017)", "\(night)")
        let hollow = try await bot.respond(toLine: "!gg hollow", from: Self.alice)
        #expect(
            hollow.text?.discordMarkdown.contains(
                "Did you mean one of the games **Hollow Knight (2017)** or **Hollow Knight: Silksong (2025)**?")
                == true, "\(hollow.text ?? "")")
        #expect(
            hollow.actions.first?.map(\.label) == ["Hollow Knight (2017)", "Hollow Knight: Silksong (2025)", "Search"],
            "\(hollow.actions)")
    }

    /// Where a game the words name is age-restricted, or they name none, only the search is offered: it says what
    /// the channel hides.
    @Test func aHiddenGameOrNoneLeavesTheSearch() async throws {
        let bot = harness.services.bot
        // "lost planet" names a mature namesake too, though `lost` is near `list`: the search says what is hidden.
        for line in ["!gg doom", "!gg lost planet", "!gg dance", "!gg serch zelda"] {
            let reply = try await bot.respond(toLine: line, from: Self.alice)
            #expect(reply.text?.contains("Did you mean the game") == false, "\(line): \(reply.text ?? "")")
            #expect(reply.actions.flatMap { $0 }.allSatisfy { $0.invocation.path != ["game"] }, "\(line)")
        }
    }
}

/// Numbers typed where a game's name goes: one with a unit its option does not take is out of range, not part of
/// a name; one alone names a game only by its very name.
@Suite("Numbers typed where a game's name goes")
struct OutOfRangeNumberTests {
    let harness: TestHarness
    init() async throws { harness = try await TestHarness() }

    @Test func aNumberEndingATitleIsRefusedWithItsRangeAndNothingChanges() async throws {
        let bot = harness.services.bot
        let alice = UnknownCommandGameTests.alice
        for (line, expected) in [
            ("!gg progress hades 150%", "“150%” is out of range: `percent` takes a whole number from 0 to 100."),
            ("!gg add hades 30000h", "“30000h” is out of range: `hours` takes a number from 0 to 20,000."),
            // Alone where the game goes, a whole number near the range too: no game is named "11" or "0" ("Yakuza 0"
            // was taken for the second).
            ("!gg rate 11", "“11” is out of range: `score` takes a whole number from 1 to 10."),
            ("!gg rate 0", "“0” is out of range: `score` takes a whole number from 1 to 10."),
            ("!gg progress 150%", "“150%” is out of range: `percent` takes a whole number from 0 to 100."),
            ("!gg progress 30000h", "“30000h” is out of range: `hours` takes a number from 0 to 20,000."),
        ] {
            let reply = try await bot.respond(toLine: line, from: alice)
            #expect(reply.visibility == .invokerOnly && reply.text?.discordMarkdown == expected, "\(reply)")
        }
        // A number far from the range may be a game's name ("1942"): looked up as one.
        let year = try await bot.respond(toLine: "!gg rate 1942", from: alice)
        #expect(year.text?.contains("No game matches “1942”") == true, "\(year)")
        let hades = try #require(try await harness.services.catalog.game(GameRef(provider: "igdb", id: "113112")))
        #expect(try await harness.services.database.library.entry(of: alice.player, game: hades.id) == nil)
        // On Discord, where the title is typed whole, the same.
        try await harness.withClient { client in
            let answer = try await client.send(I.command("progress", [I.option("title", "Hades 150%")]))
            #expect(answer.ephemeral && answer.content.hasPrefix("“150%” is out of range"), "\(answer.content)")
        }
    }

    /// A title that is only a number names a game by its very name: a game with that number among other words is
    /// a suggestion, not the answer ("!gg add 0" added Yakuza 0).
    @Test func aGameWithTheNumberInItsNameIsOnlySuggested() async throws {
        let bot = harness.services.bot
        let alice = UnknownCommandGameTests.alice
        let reply = try await bot.respond(toLine: "!gg add 111", from: alice)
        #expect(
            reply.visibility == .invokerOnly
                && reply.text?.discordMarkdown == "No game matches “111”. Did you mean: **The 111th Soul**?",
            "\(reply)")
        #expect(reply.actions.first?.first?.label == "The 111th Soul", "\(reply.actions)")
        let soul = try #require(
            try await harness.services.catalog.search("the 111th soul", filter: CatalogFilter(), limit: 1).first?.game)
        #expect(try await harness.services.database.library.entry(of: alice.player, game: soul.id) == nil)
        // Its button adds it.
        let added = try await bot.respond(to: try #require(reply.actions.first?.first).invocation, from: alice)
        #expect(added.cards.first?.title?.contains("added The 111th Soul") == true, "\(added)")
    }
}
