import Foundation
import GGTrackerCore
import Testing

@testable import GGTrackerServer

/// Matrix and Slack users cannot press Discord's buttons: every button, menu option and form becomes a command to
/// type. Each one shown must work exactly as written.
@Suite("Every hint shown on Matrix and Slack is a command that works as written")
struct TextHintTests {
    static let matrixUser = Invoker(
        platform: .matrix, userID: "@alice:localhost", displayName: "alice", community: "!room:localhost",
        channelIsAgeRestricted: true)

    /// The same person on Slack.
    static var slackUser: Invoker {
        var invoker = matrixUser
        invoker.platform = .slack
        return invoker
    }

    /// Lines a user could take a hint from, after setting up a library with something on every shelf.
    /// (The confirmations come last: their hints remove a game and erase the account.)
    static let starts = [
        "!gg search hollow knight", "!gg game Hollow Knight", "!gg game Celeste", "!gg game Stardew Valley",
        "!gg note Hades", "!gg review Hades", "!gg progress Hades --status completed", "!gg review Celeste",
        "!gg list", "!gg wishlist show", "!gg add Doom", "!gg top", "!gg rate Hollow Knight --score 8",
        "!gg add Stardew Valley", "!gg remove Celeste", "!gg account delete",
    ]

    /// A usage error or an unknown command: the hint did not work as written.
    static func isUsageError(_ reply: Reply) -> Bool {
        let text = reply.text ?? ""
        return reply.visibility == .invokerOnly
            && ["has no option", "Unknown command", "must be", "is required", "Usage:", "takes no options"]
                .contains { text.contains($0) }
    }

    func prepared() async throws -> TestHarness {
        let harness = try await TestHarness()
        let bot = harness.services.bot
        for line in [
            "!gg add Hades", "!gg add Celeste --status completed", "!gg wishlist add Stardew Valley",
            "!gg note Hades --text Try the spear", "!gg add Hollow Knight", "!gg add Portal 2", "!gg add Limbo",
            "!gg add Inside", "!gg add Cuphead", "!gg add Undertale", "!gg add Terraria", "!gg add Tetris",
            "!gg add Half-Life 2",
        ] {
            let reply = try await bot.respond(toLine: line, from: Self.matrixUser)
            #expect(!Self.isUsageError(reply), "\(line): \(reply.text ?? "")")
        }
        return harness
    }

    @Test func matrixHintsRunAsTyped() async throws {
        let harness = try await prepared()
        let bot = harness.services.bot
        var tried = Set<String>()
        for start in Self.starts {
            let reply = try await bot.respond(toLine: start, from: Self.matrixUser)
            let body = reply.matrixContent(replyTo: nil).body
            let hints = body.split(separator: "\n").compactMap { line -> String? in
                guard let range = line.range(of: "reply !gg ") ?? line.range(of: "Reply !gg ") else { return nil }
                return "!gg " + line[range.upperBound...].replacingOccurrences(of: ":…", with: ":a few words")
            }
            for hint in hints where tried.insert(hint).inserted {
                let answer = try await bot.respond(toLine: hint, from: Self.matrixUser)
                #expect(!Self.isUsageError(answer), "\(start) → \(hint) → \(answer.text ?? "")")
            }
        }
        // The hints covered the confirmations, paging, rating and the review form.
        #expect(tried.contains { $0.contains("confirm:true") })
        #expect(tried.contains { $0.hasPrefix("!gg review") && $0.contains("text:") }, "\(tried.sorted())")
        #expect(tried.contains { $0.hasPrefix("!gg rate") })
        #expect(tried.contains { $0.hasPrefix("!gg note") && $0.contains("clear:true") })
    }

    @Test func slackFormsAndButtonsRun() async throws {
        let harness = try await prepared()
        let bot = harness.services.bot
        let invoker = Self.slackUser
        var checked = 0
        for start in Self.starts {
            let reply = try await bot.respond(toLine: start, from: invoker)
            let encoder = JSONEncoder()
            encoder.outputFormatting = .withoutEscapingSlashes
            let json = String(decoding: try encoder.encode(reply.slackMessage()), as: UTF8.self)
            // Typed hints (forms): "Reply with `/gg review title:… text:…`".
            for part in json.components(separatedBy: "Reply with `/gg ").dropFirst() {
                let hint = "/gg " + part.prefix { $0 != "`" }.replacingOccurrences(of: ":…", with: ":a few words")
                let answer = try await bot.respond(toLine: hint, from: invoker)
                #expect(!Self.isUsageError(answer), "\(start) → \(hint) → \(answer.text ?? "")")
                checked += 1
            }
            // Buttons and menus carry the command they run when pressed.
            let commands =
                (reply.actions.flatMap { $0 }.filter { !$0.disabled }.map(\.command)
                    + reply.menus.flatMap { $0.options.map(\.command) })
            for command in commands {
                let answer = try await bot.respond(toLine: command, from: invoker, fromComponent: true)
                #expect(!Self.isUsageError(answer), "\(start) → \(command) → \(answer.text ?? "")")
                checked += 1
            }
        }
        #expect(checked > 20)
    }

    /// Commands named in a reply's words — usage, examples, "`/challenge list` shows them" — are typed as each
    /// platform types them, and each example in every command's help runs as written on Matrix.
    @Test func commandsNamedInWordsAreTypedAsThePlatformDoes() async throws {
        let harness = try await prepared()
        let bot = harness.services.bot
        var ran = 0
        for command in CommandName.allCases where command != .admin {
            let reply = try await bot.respond(toLine: "!gg help \(command.rawValue)", from: Self.matrixUser)
            let body = reply.matrixContent(replyTo: nil).body
            #expect(body.hasPrefix("!gg \(command.rawValue)\n"), "\(body)")
            #expect(
                body.contains("Usage:\n!gg \(command.rawValue) ") || body.contains("Usage: !gg \(command.rawValue)"))
            let json = String(decoding: try JSONEncoder().encode(reply.slackMessage()), as: UTF8.self)
            #expect(json.contains("*\\/gg \(command.rawValue)*"), "\(json.prefix(300))")
            // Code is in backticks in the plain body: every one naming a command is typed for Matrix, and each
            // example runs as written.
            func code(_ text: some StringProtocol) -> [String] {
                text.components(separatedBy: "`").enumerated().filter { $0.offset % 2 == 1 }.map(\.element)
            }
            #expect(!code(body).contains { $0.hasPrefix("/") }, "\(code(body))")
            let examples = body.components(separatedBy: "Examples:").dropFirst().first ?? ""
            for example in code(examples) {
                let answer = try await bot.respond(toLine: example, from: Self.matrixUser)
                #expect(!Self.isUsageError(answer), "\(example) → \(answer.text ?? "")")
                ran += 1
            }
        }
        #expect(ran > 40)
        // A score written without its name, after a title that also names a game with it ("Portal 2"), is offered
        // back as a command that works as written, and only offered.
        let guess = try await bot.respond(toLine: "!gg rate Portal 2", from: Self.matrixUser)
        let offered = guess.matrixContent(replyTo: nil).body
        #expect(offered.contains("Did you mean `!gg rate title:Portal score:2`?"), "\(offered)")
        let taken = try await bot.respond(toLine: "!gg rate title:Celeste score:9", from: Self.matrixUser)
        #expect(taken.cards.first?.title?.contains("rated Celeste (2018)") == true, "\(taken)")
        // A refusal names the command to use as the reader types it.
        let refusal = try await bot.respond(toLine: "!gg challenge join name:zzz", from: Self.matrixUser)
        #expect(refusal.matrixContent(replyTo: nil).body.contains("`!gg challenge list` shows them"))
        let usage = try await bot.respond(toLine: "/gg challenge create name:Laps", from: Self.slackUser)
        let text = usage.slackMessage().text
        #expect(
            text.contains("/gg challenge create needs goal") && text.contains("Usage: /gg challenge create name:"),
            "\(text)")
        // A score left out is asked for, with the scores as commands typed as the reader types them.
        let scores = try await bot.respond(toLine: "!gg rate Celeste", from: Self.matrixUser)
        let body = scores.matrixContent(replyTo: nil).body
        #expect(body.contains("\n1. 10/10 ★★★★★: reply !gg rate title:igdb:"), "\(body)")
    }

    /// What the bot answers the Matrix user, as the plain body of its message.
    func matrixBody(_ harness: TestHarness, _ line: String) async throws -> String {
        try await harness.services.bot.respond(toLine: line, from: Self.matrixUser).matrixContent(replyTo: nil).body
    }

    /// The Matrix user's copy of the catalog game with that IGDB id.
    func entry(_ harness: TestHarness, igdb id: String) async throws -> LibraryEntry? {
        let game = try #require(try await harness.services.catalog.game(GameRef(provider: "igdb", id: id)))
        return try await harness.services.database.library.entry(of: Self.matrixUser.player, game: game.id)
    }

    /// "!gg add Celeste playing": no game has that name, but without its last word, a status, one does: the game is
    /// added with that status (where several games would do, `ResolverTests` has them offered with it).
    @Test func aStatusWrittenLastInATitleIsTakenWithTheGame() async throws {
        let harness = try await TestHarness()
        let body = try await matrixBody(harness, "!gg add Celeste playing")
        #expect(body.contains("alice added Celeste (2018)"), "\(body)")
        #expect(try await entry(harness, igdb: "26226")?.status == .playing)
        // A bare number after the status is the one number `/add` takes: hours. Without a status before it, it may
        // be part of the name ("Portal 2") and is left there.
        let hours = try await matrixBody(harness, "!gg add Hades playing 5")
        #expect(hours.contains("alice added Hades (2020)"), "\(hours)")
        let hades = try await entry(harness, igdb: "113112")
        #expect(hades?.status == .playing && hades?.hours == 5)
        let bare = try await matrixBody(harness, "!gg add Hollow Knight 5")
        #expect(bare.contains("Hollow Knight (2017): reply !gg add title:igdb:14593"), "\(bare)")
        #expect(!bare.contains("hours:5"), "\(bare)")
        #expect(try await entry(harness, igdb: "14593") == nil)
    }

    /// "!gg rate Celeste 9", "!gg progress Hades 12h": a title that names no game as typed ends with the value the
    /// command lacks, which is taken; a title that does name one ("Portal 2") is only offered the reading.
    @Test func aValueEndingATitleThatNamesNoGameIsTaken() async throws {
        let harness = try await prepared()
        let rated = try await matrixBody(harness, "!gg rate Celeste 9")
        #expect(rated.contains("alice rated Celeste (2018)"), "\(rated)")
        #expect(try await entry(harness, igdb: "26226")?.score == 9)
        let hours = try await matrixBody(harness, "!gg progress Hades 12h")
        #expect(hours.contains("Hades (2020)") && hours.contains("12 h"), "\(hours)")
        #expect(try await entry(harness, igdb: "113112")?.hours == 12)
        let done = try await matrixBody(harness, "!gg progress Hollow Knight completed")
        #expect(done.contains("alice completed Hollow Knight (2017)"), "\(done)")
        #expect(try await entry(harness, igdb: "14593")?.status == .completed)
        let stars = try await matrixBody(harness, "!gg rate Limbo 3.5 stars")
        #expect(stars.contains("alice rated Limbo (2010)"), "\(stars)")
        // A number with a decimal part ending /progress's title is hours, the number it takes bare.
        let decimal = try await matrixBody(harness, "!gg progress Limbo 4,5")
        #expect(decimal.contains("Limbo (2010)") && decimal.contains("4.5 h"), "\(decimal)")
        #expect(try await entry(harness, igdb: "1331")?.hours == 4.5)
        let offered = try await matrixBody(harness, "!gg rate Portal 2")
        #expect(offered.contains("Did you mean `!gg rate title:Portal score:2`?"), "\(offered)")
        // Beside it, the game the whole title names, whose button asks for the score.
        #expect(offered.contains("2. Portal 2 (2011): reply !gg rate title:igdb:72\n"), "\(offered)")
        #expect(try await entry(harness, igdb: "72")?.score == nil)
        let asked = try await matrixBody(harness, "!gg rate title:igdb:72")
        #expect(asked.contains("1. 10/10 ★★★★★: reply !gg rate title:igdb:72 score:10"), "\(asked)")
    }

    /// "!gg tag Hades roguelike, co-op": the tags run into the title; the game is tagged with those from the word
    /// before the first comma on.
    @Test func tagsWrittenAfterATitleAreTakenWithTheGame() async throws {
        let harness = try await prepared()
        let body = try await matrixBody(harness, "!gg tag Hades roguelike, co-op")
        #expect(body.contains("Tags on Hades (2020): `roguelike`, `co-op`"), "\(body)")
        #expect(try await entry(harness, igdb: "113112")?.tags == ["roguelike", "co-op"])
        // Hashtags are a tag each.
        let hashtags = try await matrixBody(harness, "!gg tag Hades #story #hard")
        #expect(hashtags.contains("Tags on Hades (2020): `roguelike`, `co-op`, `story`, `hard`"), "\(hashtags)")
    }

    /// "!gg review Hades Loved it": a game on the caller's shelves starts the title and the rest is the text the
    /// command was not given; it runs so. Where the catalog names a longer start ("Hades II is hard" with only Hades
    /// on the shelves) the game is offered with that text, and nothing is stored until the hint is sent.
    @Test func textWrittenAfterATitleIsTakenWithTheGame() async throws {
        let harness = try await prepared()
        _ = try await matrixBody(harness, "!gg progress Hades --status completed")
        let body = try await matrixBody(harness, "!gg review Hades Loved it, the spear most")
        #expect(body.contains("alice reviewed Hades (2020)"), "\(body)")
        #expect(try await entry(harness, igdb: "113112")?.review == "Loved it, the spear most")
        // Text whose words the catalog's search finds in other games ("dark souls"): the game on the caller's
        // shelves that starts the title is the one.
        let plain = try await matrixBody(harness, "!gg note Hades harder than dark souls")
        #expect(plain.contains("Saved your note on Hades (2020)"), "\(plain)")
        #expect(try await entry(harness, igdb: "113112")?.note == "harder than dark souls")
        let article = try await matrixBody(harness, "!gg note Hades the best")
        #expect(article.contains("Saved your note on Hades (2020)"), "\(article)")
        #expect(try await entry(harness, igdb: "113112")?.note == "the best")
        _ = try await matrixBody(harness, "!gg add Hollow Knight")
        let sequel = try await matrixBody(harness, "!gg note Hollow Knight Silksong looks great")
        let hint = "!gg note title:igdb:14593 text:Silksong looks great"
        #expect(sequel.contains("Did you mean: Hollow Knight (2017) with `text:Silksong looks great`?"), "\(sequel)")
        #expect(sequel.contains("reply \(hint)"), "\(sequel)")
        #expect(try await entry(harness, igdb: "14593")?.note == nil)
        _ = try await matrixBody(harness, hint)
        #expect(try await entry(harness, igdb: "14593")?.note == "Silksong looks great")
        // With the sequel on the shelves too, its name is the longer start and the one taken.
        _ = try await matrixBody(harness, "!gg add Hollow Knight: Silksong")
        let second = try await matrixBody(harness, "!gg note Hollow Knight Silksong at last")
        #expect(second.contains("Saved your note on Hollow Knight: Silksong"), "\(second)")
        #expect(try await entry(harness, igdb: "115289")?.note == "at last")
        #expect(try await entry(harness, igdb: "14593")?.note == "Silksong looks great")
        // Namesakes on the shelves are each offered with the text: which one is meant is asked.
        _ = try await matrixBody(harness, "!gg add igdb:673")
        _ = try await matrixBody(harness, "!gg add igdb:7351")
        let doom = try await matrixBody(harness, "!gg note Doom the classic")
        #expect(doom.contains(" or ") && doom.contains(") with `text:the classic`?"), "\(doom)")
        for id in ["673", "7351"] {
            #expect(doom.contains("reply !gg note title:igdb:\(id) text:the classic"), "\(doom)")
        }
        #expect(try await entry(harness, igdb: "673")?.note == nil)
        #expect(try await entry(harness, igdb: "7351")?.note == nil)
        // A status after the title's option name is taken too.
        let named = try await matrixBody(harness, "!gg add Stardew Valley status playing")
        #expect(named.contains("alice added Stardew Valley (2016)"), "\(named)")
        // A game of the shelves named by its first words is offered with the rest as its text, not run.
        let short = try await matrixBody(harness, "!gg note stardew farm layout: crops north")
        #expect(
            short.contains("Did you mean: Stardew Valley (2016) with `text:farm layout: crops north`?")
                && short.contains("reply !gg note title:igdb:17000 text:farm layout: crops north"), "\(short)")
        #expect(try await entry(harness, igdb: "17000")?.note == nil)
        let tip = try await matrixBody(harness, "!gg note hollow the crossroads first")
        #expect(tip.contains("reply !gg note title:igdb:14593 text:the crossroads first"), "\(tip)")
    }

    /// Typed, `/top`'s words go to its genre: a platform there is the platform, a platform after a genre ("rpg on
    /// switch") both, and "games" (or "of" before a year) says nothing of either; a search's platform after "on"
    /// leaves the "on" out. On Discord, where the option was picked, a platform given as the genre is still offered,
    /// not run.
    @Test func topAndSearchTypedWithAPlatformReadIt() async throws {
        let harness = try await TestHarness()
        for (line, scope) in [
            ("!gg top rpg on switch", "Role-playing (RPG) · Nintendo Switch"),
            ("!gg top rpg games for switch", "Role-playing (RPG) · Nintendo Switch"),
            ("!gg top switch", "Nintendo Switch"), ("!gg top switch games", "Nintendo Switch"),
            ("!gg top games on switch", "Nintendo Switch"), ("!gg top games", "all games"),
        ] {
            let body = try await matrixBody(harness, line)
            let title = body.split(separator: "\n").first.map(String.init) ?? ""
            #expect(
                title.hasSuffix("Top rated: \(scope)") || body.contains("Nothing to rank for \(scope) games"),
                "\(line): \(body)")
        }
        // Words before the year the line ends with say nothing of a genre ("games of 2020").
        for (line, scope) in [
            ("!gg top games of 2020", "2020"), ("!gg top of 2020", "2020"),
            ("!gg top rpg games from 2019", "Role-playing (RPG) · 2019"), ("!gg top games released in 2019", "2019"),
        ] {
            let body = try await matrixBody(harness, line)
            let title = body.split(separator: "\n").first.map(String.init) ?? ""
            #expect(title.hasSuffix("Top rated: \(scope)") || body.contains("released in 20"), "\(line): \(body)")
            #expect(!body.contains("No genre"), "\(line): \(body)")
        }
        let search = try await matrixBody(harness, "!gg search zelda on switch")
        #expect(search.contains("for “zelda” · Nintendo Switch"), "\(search)")
    }

    /// "!gg add Celeste to my wishlist" wishlists it (nothing added to the library); "… from my wishlist" takes it off.
    @Test func aShelfNamedLastIsTheOneChanged() async throws {
        let harness = try await TestHarness()
        let game = try #require(try await harness.services.catalog.game(GameRef(provider: "igdb", id: "26226")))
        let added = try await matrixBody(harness, "!gg add Celeste to my wishlist")
        #expect(added.contains("alice wishlisted Celeste (2018)"), "\(added)")
        #expect(try await harness.services.database.library.isWishlisted(Self.matrixUser.player, game: game.id))
        #expect(try await entry(harness, igdb: "26226") == nil)
        let removed = try await matrixBody(harness, "!gg remove Celeste from my wishlist")
        #expect(removed.contains("off your wishlist"), "\(removed)")
        #expect(try await !harness.services.database.library.isWishlisted(Self.matrixUser.player, game: game.id))
    }

    /// `/favorite` typed without a game names the caller's favorites, which its buttons would unmark, with a star.
    @Test func favoriteWithoutAGameNamesTheFavorites() async throws {
        let harness = try await TestHarness()
        _ = try await matrixBody(harness, "!gg add Hades")
        _ = try await matrixBody(harness, "!gg add Celeste")
        let none = try await matrixBody(harness, "!gg favorite")
        #expect(!none.contains("Your favorites") && !none.contains("⭐"), "\(none)")
        _ = try await matrixBody(harness, "!gg favorite Hades")
        let asked = try await matrixBody(harness, "!gg favorite")
        #expect(asked.hasPrefix("Your favorites: Hades. Which game"), "\(asked)")
        #expect(asked.contains("⭐ Hades (2020): reply !gg favorite title:igdb:113112"), "\(asked)")
        #expect(asked.contains(" Celeste (2018): reply") && !asked.contains("⭐ Celeste"), "\(asked)")
    }

    /// `/tag` typed without a game names the caller's tags, each a button that lists its games; hashtags typed alone
    /// are tags, for the game asked.
    @Test func tagWithoutAGameNamesTheTags() async throws {
        let harness = try await TestHarness()
        _ = try await matrixBody(harness, "!gg add Hades")
        _ = try await matrixBody(harness, "!gg add Celeste")
        let none = try await matrixBody(harness, "!gg tag")
        #expect(none.hasPrefix("Which game's tags do you want to see?") && !none.contains("Your tags"), "\(none)")
        _ = try await matrixBody(harness, "!gg tag Hades roguelike, story")
        _ = try await matrixBody(harness, "!gg tag Celeste story")
        let asked = try await matrixBody(harness, "!gg tag")
        #expect(asked.hasPrefix("Your tags: story (2), roguelike (1); `!gg list tag:<tag>`"), "\(asked)")
        #expect(asked.contains("#story: reply !gg list tag:story"), "\(asked)")
        #expect(asked.contains("Celeste (2018): reply !gg tag title:igdb:26226"), "\(asked)")
        let hashtags = try await matrixBody(harness, "!gg tag #coop #hard")
        #expect(hashtags.hasPrefix("Which game gets those tags?"), "\(hashtags)")
        #expect(hashtags.contains("reply !gg tag title:igdb:113112 tags:#coop #hard"), "\(hashtags)")
        #expect(try await entry(harness, igdb: "113112")?.tags == ["roguelike", "story"])
    }

    /// A review typed after its game's name may be longer than a name: it is read apart from the name, whole; text
    /// that no game of the caller's starts is refused as too long a title, nothing stored.
    @Test func aLongTextTypedAfterAGameIsTakenWhole() async throws {
        let harness = try await prepared()
        _ = try await matrixBody(harness, "!gg progress Hades --status completed")
        let review = Array(repeating: "The spear and the bow, the boons and the music.", count: 12).joined(
            separator: " ")
        let body = try await matrixBody(harness, "!gg review Hades \(review)")
        #expect(body.contains("alice reviewed Hades (2020)"), "\(body)")
        #expect(try await entry(harness, igdb: "113112")?.review == review)
        let refused = try await matrixBody(harness, "!gg note Elden Ring \(review)")
        #expect(refused.contains("characters long, more than a game's name (200)"), "\(refused)")
        #expect(refused.contains("note title:<game> text:<text>"), "\(refused)")
        #expect(try await entry(harness, igdb: "119133") == nil)
        #expect(try await entry(harness, igdb: "113112")?.note == "Try the spear")
        let add = try await matrixBody(harness, "!gg add \(review)")
        #expect(add.contains("`title` is \(review.count) characters long; the limit is 200"), "\(add)")
    }

    /// A quoted title ends where its quote does: the words after it are run as the options they name, and what no
    /// option takes is refused with nothing stored.
    @Test func wordsAfterAQuotedTitleAreItsOptions() async throws {
        let harness = try await TestHarness()
        let rated = try await matrixBody(harness, "!gg rate \"Portal 2\" 8")
        #expect(rated.contains("rated Portal 2 (2011)"), "\(rated)")
        #expect(try await entry(harness, igdb: "72")?.score == 8)
        let added = try await matrixBody(harness, "!gg add “Celeste” playing 5h")
        #expect(added.contains("added Celeste (2018)"), "\(added)")
        let celeste = try await entry(harness, igdb: "26226")
        #expect(celeste?.status == .playing && celeste?.hours == 5)
        let refused = try await matrixBody(harness, "!gg add \"Hades\" banana")
        #expect(refused.contains("“banana” is no value `!gg add` takes"), "\(refused)")
        #expect(try await entry(harness, igdb: "113112") == nil)
    }

    /// "!gg remove Hades confirm": a yes/no option named after the title is yes.
    @Test func aYesNoOptionNamedAfterATitleIsYes() async throws {
        let harness = try await prepared()
        let body = try await matrixBody(harness, "!gg remove Hades confirm")
        #expect(body.contains("Removed Hades (2020) from your library."), "\(body)")
        #expect(try await entry(harness, igdb: "113112") == nil)
    }

    /// A pasted Steam or IGDB page is its game; a page the catalog has no game for says so and adds nothing.
    @Test func aPastedStorePageIsItsGame() async throws {
        let harness = try await TestHarness()
        let added = try await matrixBody(harness, "!gg add https://store.steampowered.com/app/620/Portal_2/")
        #expect(added.contains("added Portal 2 (2011)"), "\(added)")
        #expect(try await entry(harness, igdb: "72") != nil)
        let shown = try await matrixBody(harness, "!gg game https://www.igdb.com/games/hades--1")
        #expect(shown.hasPrefix("Hades (2020)"), "\(shown)")
        let unknown = try await matrixBody(harness, "!gg add https://store.steampowered.com/app/99999999/Nothing_Here/")
        #expect(unknown.contains("The catalog has no game for the Steam app 99999999 or a game named “Nothing Here”"))
    }

    @Test func removingAndErasingCanBeFinishedInText() async throws {
        let harness = try await prepared()
        let bot = harness.services.bot
        let hadesRow = try #require(try await harness.services.catalog.game(GameRef(provider: "igdb", id: "113112")))
        #expect(try await harness.services.database.library.entry(of: Self.matrixUser.player, game: hadesRow.id) != nil)
        let asked = try await bot.respond(toLine: "!gg remove Hades", from: Self.matrixUser)
        #expect(asked.plainText().contains("confirm:true"))
        let removed = try await bot.respond(toLine: "!gg remove Hades --confirm", from: Self.matrixUser)
        #expect(removed.text?.spans.contains(.bold("Hades (2020)")) == true, "\(removed.text ?? "")")
        #expect(removed.text?.contains("Removed Hades (2020)") == true, "\(removed.text ?? "")")
        let hades = try #require(try await harness.services.catalog.game(GameRef(provider: "igdb", id: "113112")))
        #expect(try await harness.services.database.library.entry(of: Self.matrixUser.player, game: hades.id) == nil)
        let erased = try await bot.respond(toLine: "!gg account delete confirm:true", from: Self.matrixUser)
        #expect(erased.text?.plainText.lowercased().contains("erased") == true, "\(erased.text ?? "")")
        #expect(try await harness.services.database.library.player(Self.matrixUser.player) == nil)
    }
}
