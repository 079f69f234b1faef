import Foundation
import GGTrackerCore
import Testing

@testable import GGTrackerServer

/// A direct message with the bot: a player's own games work there as in the server, the commands about a server's
/// members are refused with where to run them, and Discord offers each command only where it works.
@Suite("Direct messages with the bot")
struct DirectMessageTests {
    typealias I = Interaction

    /// An interaction as Discord sends it from a DM with the bot: no `guild_id`, `user` in place of `member`,
    /// a DM channel (type 1) and `context` 1.
    static func direct(_ name: String, _ options: [[String: Any]] = [], as person: I.Person = .alice) -> [String: Any] {
        var interaction = I.command(name, options, as: person)
        interaction["guild_id"] = nil
        interaction["member"] = nil
        interaction["user"] = ["id": person.id, "username": person.name, "global_name": person.name.capitalized]
        interaction["channel_id"] = "700000000000000077"
        interaction["channel"] = ["id": "700000000000000077", "type": 1]
        interaction["context"] = 1
        return interaction
    }

    /// Alice on Discord: in a server, or in her DM with the bot (`discord:dm:…`).
    static func alice(in community: String, ageRestricted: Bool = false) -> Invoker {
        Invoker(
            platform: .discord, userID: "111", displayName: "Alice", community: community, channel: "700",
            channelIsAgeRestricted: ageRestricted, isDirectMessage: community.hasPrefix("discord:dm:"))
    }

    /// A bot where Alice has used two servers, 901 and 902, which announce in channels 801 and 802; 901's age gate
    /// is strict, 902's as given.
    static func twoServers(secondGate: AgeGate = .strict) async throws -> TestHarness {
        let harness = try await TestHarness()
        for (server, channel, gate) in [("discord:901", "801", AgeGate.strict), ("discord:902", "802", secondGate)] {
            _ = try await harness.services.bot.respond(toLine: "/list", from: alice(in: server))
            _ = try await harness.services.database.library.updateSettings(
                of: server, announceChannel: channel, ageGate: gate)
        }
        return harness
    }

    /// The titles of the cards a reply announces, by channel.
    static func cards(_ reply: Reply) -> [String: [String]] {
        Dictionary(uniqueKeysWithValues: reply.announcements.map { ($0.channel, $0.cards.compactMap(\.title)) })
    }

    @Test func ownGamesWorkAndTheServersCommandsSayWhereToRunThem() async throws {
        let harness = try await TestHarness()
        try await harness.withClient { client in
            // Games added in the server are the player's in the DM too, and the other way round.
            _ = try await client.send(I.command("rate", [I.option("title", "Celeste"), I.option("score", 9)]))
            _ = try await client.send(
                I.command("rate", [I.option("title", "Celeste"), I.option("score", 7)], as: .bob))
            let added = try await client.send(Self.direct("add", [I.option("title", "Hades")]))
            #expect(added.embeds.first?["title"] as? String == "Alice added Hades (2020)", "\(added.text)")
            let listed = try await client.send(Self.direct("list"))
            #expect(listed.text.contains("Celeste (2018)") && listed.text.contains("Hades (2020)"), "\(listed.text)")
            let inServer = try await client.send(I.command("list"))
            #expect(inServer.text.contains("Hades (2020)"), "\(inServer.text)")

            // The game card keeps the caller's copy; the server's members are not "here".
            let card = try await client.send(Self.direct("game", [I.option("title", "Celeste")]))
            #expect(card.text.contains("Alice's copy"), "\(card.text)")
            #expect(!card.text.contains("On this server") && !card.text.contains("Server average"), "\(card.text)")

            // Mature games stay hidden: nothing tells a direct message's reader is of age.
            let gated = try await client.send(Self.direct("add", [I.option("title", "The Witcher 3")]))
            #expect(
                gated.ephemeral
                    && gated.content.hasSuffix(
                        "a direct message is never age-restricted: use an age-restricted channel of a server."),
                "\(gated.content)")

            for name in ["leaderboard", "activity", "upcoming", "gamenight"] {
                let refused = try await client.send(Self.direct(name))
                #expect(refused.ephemeral, "\(name)")
                #expect(
                    refused.content.hasPrefix("`/\(name)` is about a server's members: run it in a server"),
                    "\(refused.content)")
            }
            let create = I.sub(
                "create",
                [
                    I.option("name", "Solo"), I.option("goal", 3.0), I.option("unit", "custom"),
                    I.option("ends", "2099-01-01"),
                ])
            let challenge = try await client.send(Self.direct("challenge", [create]))
            #expect(challenge.content.hasPrefix("`/challenge` is about a server's members"), "\(challenge.content)")

            // /help lists what works here and names the rest.
            let help = try await client.send(Self.direct("help"))
            let lines = help.text
            #expect(lines.contains("`/list`") && lines.contains("`/export`"), "\(lines)")
            #expect(lines.contains("In a server, with its members: `/compare`, `/leaderboard`"), "\(lines)")
            #expect(!lines.contains("`/gamenight` —"), "\(lines)")
            let one = try await client.send(Self.direct("help", [I.option("command", "gamenight")]))
            #expect(one.text.contains("In a server where GGTracker is, with its members: not here."), "\(one.text)")
            let own = try await client.send(Self.direct("help", [I.option("command", "list")]))
            #expect(!own.text.contains("not here"), "\(own.text)")
        }
    }

    /// What a player does in a direct message is news of theirs: announced in the announce channel of each server
    /// they are a member of, and of no other.
    @Test func newsFromADirectMessageIsAnnouncedInThePlayersServers() async throws {
        let harness = try await TestHarness()
        let (bot, database) = (harness.services.bot, harness.services.database)
        func invoker(_ user: String, in community: String) -> Invoker {
            Invoker(
                platform: .discord, userID: user, displayName: user, community: community, channel: "700",
                isDirectMessage: community.hasPrefix("discord:dm:"))
        }
        _ = try await bot.respond(toLine: "/list", from: invoker("111", in: "discord:901"))
        _ = try await bot.respond(toLine: "/list", from: invoker("111", in: "discord:902"))
        _ = try await database.library.updateSettings(of: "discord:901", announceChannel: "801", ageGate: nil)
        // A server she never used the bot in hears nothing of her.
        _ = try await bot.respond(toLine: "/list", from: invoker("333", in: "discord:903"))
        _ = try await database.library.updateSettings(of: "discord:903", announceChannel: "803", ageGate: nil)
        let direct = invoker("111", in: Invoker.directMessageCommunity(ofDiscordUser: "111"))

        let done = try await bot.respond(toLine: "/add title:Celeste status:completed", from: direct)
        #expect(done.announcements.map(\.channel) == ["801"] && done.announcements.map(\.community) == ["discord:901"])
        #expect(done.announcements.first?.cards.first?.title == "111 completed Celeste (2018) 🎉")
        _ = try await database.library.updateSettings(of: "discord:902", announceChannel: "802", ageGate: nil)
        let reviewed = try await bot.respond(toLine: "/review title:Celeste text:The summit", from: direct)
        #expect(reviewed.announcements.map(\.channel) == ["801", "802"])
        let lone = try await bot.respond(
            toLine: "/add title:Hades status:completed", from: invoker("222", in: "discord:dm:222"))
        #expect(lone.announcements.isEmpty)
        // In a server, its own channel alone.
        let inServer = try await bot.respond(
            toLine: "/add title:Hades status:completed", from: invoker("111", in: "discord:902"))
        #expect(inServer.announcements.map(\.channel) == ["802"])
    }

    /// A medal is announced in its challenge's server, whichever server (or direct message) the change that won it
    /// was made in; the change's own news goes where it always does.
    @Test func aMedalIsAnnouncedInItsChallengesServer() async throws {
        let harness = try await Self.twoServers()
        let bot = harness.services.bot
        for (name, goal) in [("Spring", 1), ("Summer", 2)] {
            _ = try await bot.respond(
                toLine: "/challenge create name:\(name) goal:\(goal) unit:games_completed ends:2099-01-01",
                from: Self.alice(in: "discord:902"))
        }

        let inOther = try await bot.respond(
            toLine: "/add title:Celeste status:completed", from: Self.alice(in: "discord:901"))
        #expect(inOther.plainText().contains("🏅 Alice won a medal in “Spring”!"), "\(inOther.plainText())")
        #expect(
            Self.cards(inOther) == [
                "801": ["Alice completed Celeste (2018) 🎉"], "802": ["Alice completed Celeste (2018) 🎉", "🏅 Medal"],
            ])

        let direct = Self.alice(in: Invoker.directMessageCommunity(ofDiscordUser: "111"))
        let fromDM = try await bot.respond(toLine: "/add title:Hades status:completed", from: direct)
        #expect(
            Self.cards(fromDM) == [
                "801": ["Alice completed Hades (2020) 🎉"], "802": ["Alice completed Hades (2020) 🎉", "🏅 Medal"],
            ])
        let medal = fromDM.announcements.first { $0.channel == "802" }?.cards.last?.description?.plainText
        #expect(medal == "🏅 Alice won a medal in “Summer”!")

        // A medal of the server the change is made in goes with the change's news there.
        _ = try await bot.respond(
            toLine: "/challenge create name:Autumn goal:1 unit:games_completed ends:2099-01-01",
            from: Self.alice(in: "discord:901"))
        let here = try await bot.respond(
            toLine: "/add title:Inside status:completed", from: Self.alice(in: "discord:901"))
        #expect(Self.cards(here) == ["801": ["Alice completed Inside (2016) 🎉", "🏅 Medal"]])
    }

    /// A mature game's news is announced only in a server whose age gate is off, as `/activity` shows it only there:
    /// whether an announce channel is age-restricted is not known. A medal it wins is news on its own.
    @Test func aMatureGamesNewsIsAnnouncedOnlyWhereTheAgeGateIsOff() async throws {
        let harness = try await Self.twoServers(secondGate: .off)
        let bot = harness.services.bot
        _ = try await bot.respond(
            toLine: "/challenge create name:Classics goal:1 unit:games_completed ends:2099-01-01",
            from: Self.alice(in: "discord:901"))

        let done = try await bot.respond(
            toLine: "/add title:Half-Life 2 status:completed", from: Self.alice(in: "discord:902"))
        #expect(done.plainText().contains("Alice completed Half-Life 2"), "\(done.plainText())")
        #expect(Self.cards(done) == ["802": ["Alice completed Half-Life 2 (2004) 🎉"], "801": ["🏅 Medal"]])

        // Reviewed in the strict server's age-restricted channel: shown there, announced nowhere.
        let reviewed = try await bot.respond(
            toLine: "/review title:Half-Life 2 text:Gravity gun",
            from: Self.alice(in: "discord:901", ageRestricted: true))
        #expect(reviewed.plainText().contains("Alice reviewed Half-Life 2"), "\(reviewed.plainText())")
        #expect(reviewed.announcements.isEmpty)
    }

    /// The same through the router: a completion in a DM is posted to the server's channel on Discord.
    @Test(.timeLimit(.minutes(5)))
    func aCompletionInADirectMessageIsPostedInTheServersChannel() async throws {
        try await AnnouncementTests().withAnnouncements { client in
            _ = try await client.send(I.command("list"))
            let done = try await client.send(
                Self.direct("add", [I.option("title", "Celeste"), I.option("status", "completed")]))
            #expect(done.text.contains("Alice completed Celeste (2018) 🎉"), "\(done.text)")
        } then: { iterator in
            let (channel, message) = try #require(await iterator.next())
            #expect(channel == "777000000000000001")
            let embeds = message["embeds"] as? [[String: Any]] ?? []
            #expect(embeds.first?["title"] as? String == "Alice completed Celeste (2018) 🎉")
        }
    }

    @Test func discordOffersTheServersCommandsInServersOnly() throws {
        let json = try #require(
            try JSONSerialization.jsonObject(with: DiscordCommandDefinition.exportJSON()) as? [[String: Any]])
        var contexts: [String: [Int]] = [:]
        for command in json { contexts[command["name"] as? String ?? ""] = command["contexts"] as? [Int] }
        for name in ["compare", "leaderboard", "challenge", "friend", "activity", "upcoming", "gamenight", "admin"] {
            #expect(contexts[name] == [0], "\(name)")
        }
        for name in ["search", "add", "list", "import", "export", "share", "recap", "help", "account"] {
            #expect(contexts[name] == [0, 1], "\(name)")
        }
        #expect(contexts["Library"] == [0] && contexts["Compare with me"] == [0])
    }
}
