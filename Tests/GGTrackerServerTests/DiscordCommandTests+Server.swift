import Foundation
import GGTrackerCore
import GGTrackerStorage
import Testing

@testable import GGTrackerServer

/// The catalog's pages, profiles, help, administration, accounts, autocompletion and retries, through signed
/// interactions.
extension DiscordCommandTests {
    @Test func gameCardShowsDetailsAndWhoHereHasIt() async throws {
        try await harness.withClient { client in
            _ = try await client.send(I.command("rate", [I.option("title", "Celeste"), I.option("score", 8)]))
            _ = try await client.send(
                I.command("rate", [I.option("title", "Celeste"), I.option("score", 10)], as: .bob))
            let answer = try await client.send(I.command("game", [I.option("title", "Celeste")]))
            DiscordChecks.check(answer)
            let text = answer.text
            #expect(text.contains("Celeste (2018)"))
            #expect(text.contains("Platforms") && text.contains("Developer") && text.contains("Critic rating"))
            #expect(text.contains("On this server (2)") && text.contains("Alice") && text.contains("Bob"))
            #expect(text.contains("9.0/10 (2)"))
        }
    }

    @Test func matureGamesAreHiddenOutsideAgeRestrictedChannels() async throws {
        try await harness.withClient { client in
            let hidden = try await client.send(I.command("search", [I.option("query", "grand theft auto")]))
            #expect(!hidden.text.contains("Grand Theft Auto V"))
            let shown = try await client.send(I.command("search", [I.option("query", "grand theft auto")], nsfw: true))
            #expect(shown.text.contains("Grand Theft Auto V"))
            let admin = try await client.send(
                I.command("admin", [I.sub("settings", [I.option("age_gate", "off")])], as: .admin))
            #expect(admin.content.contains("Settings saved"))
            let ungated = try await client.send(I.command("search", [I.option("query", "grand theft auto")]))
            #expect(ungated.text.contains("Grand Theft Auto V"))
        }
    }

    @Test func topAndBrowsePageThroughTheCatalog() async throws {
        try await harness.withClient { client in
            let top = try await client.send(I.command("top"))
            DiscordChecks.check(top)
            #expect(top.text.contains("Top rated: all games"))
            #expect(top.text.contains("`1.`"))
            // Nothing to rank: said as a sentence, with a year still ahead named.
            let ahead = try await client.send(
                I.command("top", [I.option("genre", "Platform"), I.option("year", 2099)]))
            #expect(
                ahead.ephemeral
                    && ahead.content == "Nothing to rank for Platform games released in 2099: none has scores from at "
                        + "least 5 critics (2099 is still ahead).",
                "\(ahead.content)")
            let browse = try await client.send(I.command("browse", [I.sub("genre", [I.option("name", "Platform")])]))
            DiscordChecks.check(browse)
            #expect(browse.text.contains("Genre: Platform") && browse.text.contains("Celeste"))
            let none = try await client.send(I.command("browse", [I.sub("genre", [I.option("name", "Platfromer")])]))
            #expect(none.ephemeral && none.content.contains("Did you mean: Platform?"), "\(none.content)")
        }
    }

    /// Matrix and Slack have no autocomplete: a genre or platform typed as people say it finds the catalog's own.
    @Test func filtersTypedAsPeopleSayThemFindTheCatalogsNames() async throws {
        try await harness.withClient { client in
            let rpg = try await client.send(I.command("top", [I.option("genre", "rpg")]))
            #expect(!rpg.ephemeral && rpg.text.contains("Top rated: Role-playing (RPG)"), "\(rpg.text)")
            let ps4 = try await client.send(I.command("browse", [I.sub("platform", [I.option("name", "ps4")])]))
            #expect(
                ps4.text.contains("Platform: PlayStation 4") && ps4.text.contains("Red Dead Redemption 2"),
                "\(ps4.text)")
            let coop = try await client.send(I.command("browse", [I.sub("mode", [I.option("name", "co-op")])]))
            #expect(coop.text.contains("Mode: Co-operative") && coop.text.contains("Portal 2"), "\(coop.text)")
            let zelda = try await client.send(
                I.command("search", [I.option("query", "zelda breath"), I.option("platform", "switch")]))
            #expect(zelda.text.contains("Breath of the Wild"), "\(zelda.text)")
            // The reply names the filter as the catalog does.
            #expect(zelda.content.contains("for “zelda breath” · Nintendo Switch"), "\(zelda.content)")
            // Several platforms fit: the reply asks, with a button for each, and a button runs the command again.
            let ask = try await client.send(I.command("top", [I.option("platform", "nintendo")]))
            #expect(ask.ephemeral && ask.content.contains("More than one platform matches “nintendo”"))
            let switchButton = try #require(ask.buttons.first { $0.label == "Nintendo Switch" }, "\(ask.buttons)")
            let picked = try await client.send(I.button(switchButton.customID))
            #expect(picked.text.contains("Top rated: Nintendo Switch"), "\(picked.text)")
            // Nothing fits: said so, privately, with the most common names to pick from.
            let unknown = try await client.send(I.command("top", [I.option("platform", "playstation 9")]))
            #expect(unknown.ephemeral && unknown.content.contains("No platform is called “playstation 9”"))
            #expect(unknown.buttons.contains { $0.label == "PlayStation 4" }, "\(unknown.buttons)")
            // A platform given as the genre (or the other way round) is offered as what it is, and its button
            // runs the command with it there.
            let misplaced = try await client.send(I.command("top", [I.option("genre", "ps4")]))
            #expect(
                misplaced.ephemeral
                    && misplaced.content
                        == "“ps4” is a platform, not a genre: did you mean `/top platform:PlayStation 4`?",
                "\(misplaced.content)")
            let moved = try #require(misplaced.buttons.first, "\(misplaced.buttons)")
            #expect(moved.label == "PlayStation 4")
            let top = try await client.send(I.button(moved.customID))
            #expect(top.text.contains("Top rated: PlayStation 4"), "\(top.text)")
            let genre = try await client.send(
                I.command("search", [I.option("query", "zelda"), I.option("platform", "rpg")]))
            #expect(genre.content.contains("did you mean `/search query:zelda genre:Role-playing (RPG)`?"))
            let browse = try await client.send(
                I.command("browse", [I.sub("platform", [I.option("name", "rpg")])]))
            #expect(
                browse.content.contains("did you mean `/browse genre name:Role-playing (RPG)`?"), "\(browse.content)")
            let browsed = try await client.send(I.button(try #require(browse.buttons.first).customID))
            #expect(browsed.text.contains("Genre: Role-playing (RPG)"), "\(browsed.text)")
        }
    }

    @Test func profileSetShowAndStats() async throws {
        try await harness.withClient { client in
            _ = try await client.send(I.command("rate", [I.option("title", "Celeste"), I.option("score", 9)]))
            _ = try await client.send(
                I.command("add", [I.option("title", "Hades"), I.option("status", "playing"), I.option("hours", 20.0)]))
            let bad = try await client.send(
                I.command("profile", [I.sub("set", [I.option("avatar", "http://x.test/a.png")])]))
            #expect(bad.ephemeral && bad.content.contains("https:// image URL"))
            let set = try await client.send(
                I.command(
                    "profile", [I.sub("set", [I.option("nickname", "Ada"), I.option("bio", "Metroidvanias <3")])]))
            #expect(set.ephemeral && set.content.contains("Updated your nickname and bio"))
            let same = try await client.send(
                I.command(
                    "profile", [I.sub("set", [I.option("nickname", "Ada"), I.option("bio", "Metroidvanias <3")])]))
            #expect(
                same.ephemeral && same.content.contains("already has that nickname and bio: nothing changed"),
                "\(same.content)")
            let cleared = try await client.send(I.command("profile", [I.sub("set", [I.option("clear", "bio")])]))
            #expect(cleared.ephemeral && cleared.content.contains("Cleared your bio."), "\(cleared.content)")
            let stored = try await harness.services.database.library.player(PlayerID("discord:\(I.Person.alice.id)"))
            #expect(stored?.bio == nil && stored?.nickname == "Ada")
            let again = try await client.send(I.command("profile", [I.sub("set", [I.option("clear", "bio")])]))
            #expect(again.content.contains("You have no bio: there was nothing to clear."), "\(again.content)")
            let both = try await client.send(
                I.command("profile", [I.sub("set", [I.option("bio", "x"), I.option("clear", "all")])]))
            #expect(both.content.contains("Give `bio` or `clear:all`, not both."), "\(both.content)")
            #expect(
                try await harness.services.database.library.player(PlayerID("discord:\(I.Person.alice.id)"))?.bio == nil
            )
            let shown = try await client.send(I.command("profile", [I.sub("show")]))
            DiscordChecks.check(shown)
            #expect(shown.text.contains("Ada") && shown.text.contains("2 games") && shown.text.contains("20 h"))
            let stats = try await client.send(I.command("stats"))
            DiscordChecks.check(stats)
            #expect(stats.text.contains("By status") && stats.text.contains("Scores (1 rated, average 9.0)"))
            #expect(stats.text.contains("Most played: Hades (20 h)"))
        }
    }

    @Test func helpAndAboutAreGeneratedFromTheDeclarations() async throws {
        try await harness.withClient { client in
            let help = try await client.send(I.command("help"))
            DiscordChecks.check(help)
            for command in CommandName.allCases where command != .admin {
                #expect(help.text.contains("`/\(command.rawValue)`"))
            }
            let one = try await client.send(I.command("help", [I.option("command", "rate")]))
            #expect(one.text.contains("/rate title:<text> score:<whole number>"))
            // Discord's picker is spoken of on Discord alone.
            #expect(one.text.contains("`title` — The game: type to search the catalog"), "\(one.text)")
            let typed = try await harness.services.bot.respond(
                toLine: "!gg help rate",
                from: Invoker(platform: .matrix, userID: "@ada:example.org", displayName: "Ada", community: "m"))
            #expect(typed.plainText().contains("title — The game\n") && !typed.plainText().contains("type to search"))
            // Any other colon in a summary is part of what it says.
            let recap = try await harness.services.bot.respond(
                toLine: "!gg help recap",
                from: Invoker(platform: .matrix, userID: "@ada:example.org", displayName: "Ada", community: "m"))
            #expect(recap.plainText().contains("year — Which year (default: this one)\n"), "\(recap.plainText())")
            // Where commands are typed, a number's unit is shown by example; Discord's picker takes numbers alone.
            #expect(
                typed.plainText().contains("score — 1 to 10; shown as five stars (as 8/10)"), "\(typed.plainText())")
            #expect(!one.text.contains("(as "), "\(one.text)")
            let about = try await client.send(I.command("about"))
            DiscordChecks.check(about)
            #expect(about.text.contains("Game data from IGDB.com") && about.text.contains("Version"))
        }
    }

    @Test func adminCommandsAreRefusedToOthersAndWorkForAdmins() async throws {
        try await harness.withClient { client in
            let refused = try await client.send(I.command("admin", [I.sub("catalog", [I.sub("status")], group: true)]))
            #expect(
                refused.ephemeral
                    && refused.content.contains(
                        "Only admins can use `/admin`: members with Administrator or Manage Server")
            )
            let status = try await client.send(
                I.command("admin", [I.sub("catalog", [I.sub("status")], group: true)], as: .admin))
            DiscordChecks.check(status)
            #expect(status.ephemeral && status.text.contains("Games") && status.text.contains("34"))
            let settings = try await client.send(I.command("admin", [I.sub("settings", [])], as: .admin))
            #expect(settings.text.contains("Age gate") && settings.text.contains("strict"))
        }
    }

    @Test func configuredAdminIDsAreAdminsWithoutPermissions() async throws {
        let harness = try await TestHarness(adminIDs: ["discord:111111111111111111"])
        try await harness.withClient { client in
            let answer = try await client.send(I.command("admin", [I.sub("settings", [I.option("age_gate", "off")])]))
            #expect(answer.content.contains("Settings saved"))
        }
    }

    @Test func accountDeleteNeedsTheConfirmButton() async throws {
        try await harness.withClient { client in
            _ = try await client.send(I.command("add", [I.option("title", "Hades")]))
            _ = try await client.send(I.command("wishlist", [I.sub("add", [I.option("title", "Celeste")])]))
            let ask = try await client.send(I.command("account", [I.sub("delete")]))
            #expect(ask.ephemeral && ask.content.contains("for good"))
            // A copy can be kept first: the export's link, and nothing erased.
            #expect(ask.content.contains("To keep a copy first, `/export`"), "\(ask.content)")
            let export = try await client.send(I.button(try #require(ask.button("Export first"))))
            #expect(export.ephemeral && export.content.contains("/export/"), "\(export.content)")
            #expect(try await entryCount() == 1)
            let done = try await client.send(I.button(try #require(ask.button("Delete everything"))))
            #expect(done.content.contains("erased"))
        }
        #expect(try await entryCount() == 0)
        let left = try await database.writer.read { db in
            try Int.fetchOne(db, sql: "SELECT (SELECT count(*) FROM wishlist) + (SELECT count(*) FROM players)")
        }
        #expect(left == 0)
    }

    @Test func autocompleteOffersAtMost25CatalogReferences() async throws {
        try await harness.withClient { client in
            let answer = try await client.send(I.autocomplete("add", [I.option("title", "hollow", focused: true)]))
            DiscordChecks.check(answer)
            #expect(answer.type == 8)
            let choices = try #require(answer.data["choices"] as? [[String: Any]])
            #expect(!choices.isEmpty && choices.count <= 25)
            // A platform is named only to tell namesakes apart.
            #expect(choices.first?["name"] as? String == "Hollow Knight (2017)", "\(choices.prefix(3))")
            #expect((choices.first?["value"] as? String)?.hasPrefix("igdb:") == true)
            let genres = try await client.send(
                I.autocomplete("browse", [I.sub("genre", [I.option("name", "plat", focused: true)])]))
            let names = (genres.data["choices"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
            #expect(names.contains("Platform"))
            // A short name no catalog name contains still suggests the name it stands for.
            let platforms = try await client.send(I.autocomplete("top", [I.option("platform", "ps4", focused: true)]))
            let suggested = (platforms.data["choices"] as? [[String: Any]] ?? []).compactMap { $0["value"] as? String }
            #expect(suggested.first == "PlayStation 4", "\(suggested)")
        }
    }

    /// For commands about your copy, your own games come first, those the command is most likely about first;
    /// `/add` suggests from the catalog alone.
    @Test func autocompleteOfACommandAboutYourCopyStartsWithYourGames() async throws {
        try await harness.withClient { client in
            // Hades, Celeste, Limbo, Hollow Knight on her shelves; Stardew Valley wished for.
            for title in ["igdb:113112", "igdb:26226", "igdb:1331", "igdb:14593"] {
                _ = try await client.send(I.command("add", [I.option("title", title)]))
            }
            _ = try await client.send(I.command("wishlist", [I.sub("add", [I.option("title", "igdb:17000")])]))
            _ = try await client.send(
                I.command("progress", [I.option("title", "igdb:26226"), I.option("status", "completed")]))
            _ = try await client.send(
                I.command("progress", [I.option("title", "igdb:1331"), I.option("status", "paused")]))
            _ = try await client.send(
                I.command("progress", [I.option("title", "igdb:113112"), I.option("hours", 2.0)]))
            func suggested(_ command: String, _ text: String, as who: I.Person = .alice) async throws -> [String] {
                let words = command.split(separator: " ").map(String.init)
                var options = [I.option("title", text, focused: true)]
                if words.count == 2 { options = [I.sub(words[1], options)] }
                let answer = try await client.send(I.autocomplete(words[0], options, as: who))
                DiscordChecks.check(answer)
                return (answer.data["choices"] as? [[String: Any]] ?? []).compactMap { $0["value"] as? String }
            }
            // Nothing typed yet: for `/progress`, the game she plays, the paused one, the backlog, the completed
            // one, the wished-for one, before the catalog's popular ones.
            let progress = try await suggested("progress", "")
            #expect(
                progress.prefix(5) == ["igdb:113112", "igdb:1331", "igdb:14593", "igdb:26226", "igdb:17000"],
                "\(progress)")
            // The completed one to review, the wished-for one to take off the wishlist; else the last changed first.
            #expect(try await suggested("review", "").first == "igdb:26226")
            #expect(try await suggested("wishlist remove", "").first == "igdb:17000")
            #expect(
                try await suggested("note", "").prefix(5)
                    == ["igdb:113112", "igdb:1331", "igdb:26226", "igdb:14593", "igdb:17000"])
            // A start of any word of the name; the catalog's other matches follow, without repeats.
            let h = try await suggested("rate", "h")
            #expect(h.first == "igdb:113112" && h.count > 1 && Set(h).count == h.count, "\(h)")
            #expect(try await suggested("review", "cel").first == "igdb:26226")
            #expect(try await suggested("note", "des").first != "igdb:113112", "a word's middle is not its start")
            // Someone else, and a command that adds, get the catalog as it ranks.
            let catalogOrder = try await suggested("add", "")
            #expect(try await suggested("progress", "", as: .bob) == catalogOrder)
            #expect(Array(catalogOrder.prefix(2)) != ["igdb:26226", "igdb:113112"], "\(catalogOrder)")
        }
    }

    @Test func aRetriedInteractionIsAnsweredAgainButAppliedOnce() async throws {
        let interaction = I.command(
            "add", [I.option("title", "Hades"), I.option("hours", 3.0)], id: "1311111111111111111")
        try await harness.withClient { client in
            let first = try await client.send(interaction)
            let second = try await client.send(interaction)
            #expect(first.body == second.body)
            #expect(first.text.contains("added Hades"))
        }
        #expect(try await entryCount() == 1)
    }

    @Test func unknownCommandGetsUsage() async throws {
        try await harness.withClient { client in
            let answer = try await client.send(I.command("dance"))
            DiscordChecks.check(answer)
            #expect(answer.ephemeral && answer.content.contains("Unknown command `dance`"))
            let missing = try await client.send(I.command("add", [I.option("status", "playing")]))
            #expect(missing.content.contains("needs `title`") && missing.content.contains("Usage: `/add"))
        }
    }
}

@Suite("Catalog administration")
struct CatalogAdminTests {
    @Test func refreshRunsInTheBackgroundOneAtATime() async throws {
        let harness = try await TestHarness()
        try await harness.withClient { client in
            // Both asked at once, so that a machine slow between two requests cannot let the first refresh end
            // before the second arrives: one starts, the other is told it runs.
            async let first = client.send(
                I.command(
                    "admin", [I.sub("catalog", [I.sub("refresh", [I.option("mode", "full")])], group: true)],
                    as: .admin))
            async let second = client.send(
                I.command("admin", [I.sub("catalog", [I.sub("refresh")], group: true)], as: .admin))
            let answers = try await [first, second]
            for answer in answers { DiscordChecks.check(answer) }
            let allPrivate = answers.allSatisfy { $0.ephemeral }
            #expect(allPrivate)
            #expect(
                answers.filter { $0.content.contains("started in the background") }.count == 1,
                "\(answers.map(\.content))")
            #expect(answers.filter { $0.content.contains("already running") }.count == 1, "\(answers.map(\.content))")
            let status = try await client.send(
                I.command("admin", [I.sub("catalog", [I.sub("status")], group: true)], as: .admin))
            #expect(status.text.contains("Refresh"))
        }
    }
}
