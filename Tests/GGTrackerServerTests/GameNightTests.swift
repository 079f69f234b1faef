import Foundation
import GGTrackerCatalog
import GGTrackerCore
import Synchronization
import Testing

@testable import GGTrackerServer

/// `/gamenight`: a message people join with buttons, then three games from their shelves, and three more.
@Suite("Game night")
struct GameNightTests {
    typealias I = Interaction
    static let carol = Interaction.Person(id: "444444444444444444", name: "carol")

    /// Games with modes and times to beat: four fit a multiplayer night of at most 10 hours, three do not.
    static func withGames(_ harness: TestHarness) async throws {
        let lines = """
            {"id":990101,"name":"Duo Quest","game_modes":[{"name":"Multiplayer"},{"name":"Co-operative"}],"time_to_beat":{"normally":28800}}
            {"id":990102,"name":"Party Brawl","game_modes":[{"name":"Multiplayer"}],"time_to_beat":{"normally":7200},"aggregated_rating":80,"aggregated_rating_count":10}
            {"id":990103,"name":"Lonely Tale","game_modes":[{"name":"Single player"}],"time_to_beat":{"normally":7200}}
            {"id":990104,"name":"Epic Saga","game_modes":[{"name":"Multiplayer"},{"name":"Co-operative"}],"time_to_beat":{"normally":216000}}
            {"id":990105,"name":"Mystery Box"}
            {"id":990106,"name":"Couch Kart","game_modes":[{"name":"Multiplayer"},{"name":"Split screen"}],"aggregated_rating":90,"aggregated_rating_count":10}
            {"id":990107,"name":"Old Favorite","game_modes":[{"name":"Multiplayer"}],"time_to_beat":{"normally":18000}}
            """
        _ = try await CatalogImporter(database: harness.services.database).importData(Data(lines.utf8))
        try await harness.services.catalog.reloadVocabulary()
    }

    /// Alice, Bob and Carol's shelves: what each owns (with a status) or wishes for.
    static func shelves(_ client: TestHarness.Client) async throws {
        let steps: [(I.Person, String, String?)] = [
            (.alice, "Duo Quest", "playing"), (.alice, "Couch Kart", nil), (.alice, "Lonely Tale", "backlog"),
            (.alice, "Epic Saga", "backlog"), (.bob, "Duo Quest", "completed"), (.bob, "Party Brawl", "backlog"),
            (.bob, "Mystery Box", "backlog"), (carol, "Duo Quest", nil), (carol, "Old Favorite", "dropped"),
            (carol, "Couch Kart", "backlog"),
        ]
        for (person, title, status) in steps {
            let command =
                if let status {
                    I.command("add", [I.option("title", title), I.option("status", status)], as: person)
                } else {
                    I.command("wishlist", [I.sub("add", [I.option("title", title)])], as: person)
                }
            let answer = try await client.send(command)
            #expect(answer.status == .ok && !answer.text.contains("⚠️"), "\(answer.text)")
        }
    }

    static func field(_ answer: TestHarness.Client.Answer, _ index: Int) -> (name: String, value: String)? {
        let fields = answer.embeds.first?["fields"] as? [[String: Any]] ?? []
        guard index < fields.count else { return nil }
        return (fields[index]["name"] as? String ?? "", fields[index]["value"] as? String ?? "")
    }

    @Test func threePlayersFromTheFirstPressToTheRerollAcrossARestart() async throws {
        let path = Scratch.path("gamenight.sqlite")
        let clock = Mutex(Date())
        let buttons: [String: String]
        do {
            let harness = try await TestHarness(databasePath: path, now: { clock.withLock { $0 } })
            try await Self.withGames(harness)
            buttons = try await harness.withClient { client in
                try await Self.shelves(client)
                let start = try await client.send(I.command("gamenight", [I.option("max_hours", 10)]))
                DiscordChecks.check(start)
                #expect(start.type == 4 && !start.ephemeral, "a game night is for the channel")
                let card = try #require(start.embeds.first)
                #expect(card["title"] as? String == "🎮 Game night — who's in?")
                let description = try #require(card["description"] as? String)
                #expect(
                    description.hasPrefix(
                        "Looking for multiplayer games (up to 10 h to beat) on the players' shelves.\n**In (1):** Alice\nCloses <t:"
                    ), "\(description)")
                #expect(start.buttons.map(\.label) == ["I'm in", "Leave", "Pick a game"])
                var ids: [String: String] = [:]
                for label in ["I'm in", "Leave", "Pick a game"] {
                    let id: String = try #require(start.button(label))
                    ids[label] = id
                }

                let alone = try await client.send(I.button(ids["Pick a game"]!))
                #expect(alone.ephemeral && alone.text.contains("Picking needs at least 2 players"), "\(alone.text)")
                let bobIn = try await client.send(I.button(ids["I'm in"]!, as: .bob))
                DiscordChecks.check(bobIn)
                #expect(bobIn.type == 7, "the game night's message is edited")
                #expect((bobIn.embeds.first?["description"] as? String)?.contains("**In (2):** Alice, Bob\n") == true)
                let again = try await client.send(I.button(ids["I'm in"]!, as: .bob))
                #expect(again.ephemeral && again.text.contains("You're in already."))
                let outsider = try await client.send(I.button(ids["Pick a game"]!, as: Self.carol))
                #expect(outsider.ephemeral && outsider.text.contains("Only players who joined can pick"))
                return ids
            }
        }
        // The server restarts: the night is in the database.
        let harness = try await TestHarness(databasePath: path, now: { clock.withLock { $0 } })
        try await harness.withClient { client in
            let carolIn = try await client.send(I.button(buttons["I'm in"]!, as: Self.carol))
            #expect(carolIn.type == 7)
            #expect(
                (carolIn.embeds.first?["description"] as? String)?.contains("**In (3):** Alice, Bob, Carol\n") == true)

            let pick = try await client.send(I.button(buttons["Pick a game"]!, as: .bob))
            DiscordChecks.check(pick)
            #expect(pick.type == 7 && !pick.ephemeral)
            let card = try #require(pick.embeds.first)
            #expect(card["title"] as? String == "🎲 Tonight's picks")
            #expect(
                card["description"] as? String == "For Alice, Bob and Carol: multiplayer games (up to 10 h to beat).")
            let duo = try #require(Self.field(pick, 0))
            #expect(duo.name == "1. Duo Quest")
            #expect(
                duo.value == """
                    Owned by Alice and Bob
                    Wished for by Carol
                    Already completed by Bob
                    Multiplayer, Co-operative · about 8 h to beat
                    """)
            #expect(Self.field(pick, 1)?.name == "2. Couch Kart")
            #expect(Self.field(pick, 1)?.value == "Owned by Carol\nWished for by Alice\nMultiplayer, Split screen")
            #expect(Self.field(pick, 2)?.name == "3. Party Brawl")
            #expect(Self.field(pick, 3) == nil)
            #expect((card["footer"] as? [String: Any])?["text"] as? String == "1–3 of 4 games · Reroll for the next")
            for left in ["Lonely Tale", "Epic Saga", "Mystery Box"] { #expect(!pick.text.contains(left)) }
            let reroll = try #require(pick.button("Reroll"))

            let next = try await client.send(I.button(reroll, as: Self.carol))
            #expect(next.type == 7)
            #expect(Self.field(next, 0)?.name == "4. Old Favorite" && Self.field(next, 1) == nil)
            #expect(
                Self.field(next, 0)?.value.hasPrefix("Owned by Carol\nDropped by Carol") == true)
            #expect(
                (next.embeds.first?["footer"] as? [String: Any])?["text"] as? String
                    == "4 of 4 games · Reroll starts over")
            let over = try await client.send(I.button(reroll, as: .alice))
            #expect(Self.field(over, 0)?.name == "1. Duo Quest", "rerolling past the end starts over")

            let aliceOut = try await client.send(I.button(buttons["Leave"]!, as: .alice))
            #expect((aliceOut.embeds.first?["description"] as? String)?.contains("**In (2):** Bob, Carol\n") == true)

            // Twelve hours on, the night is over and its buttons say so.
            clock.withLock { $0 = $0.addingTimeInterval(12 * 3600 + 1) }
            let late = try await client.send(I.button(buttons["I'm in"]!, as: .alice))
            #expect(late.ephemeral && late.text.contains("This game night is over"), "\(late.text)")
        }
    }

    /// A host waiting alone for an hour does not hold the channel: another member's night replaces theirs.
    @Test func aNightItsHostWaitedAloneAnHourForMayBeReplaced() async throws {
        let clock = Mutex(Date())
        let harness = try await TestHarness(now: { clock.withLock { $0 } })
        try await harness.withClient { client in
            _ = try await client.send(I.command("gamenight"))
            clock.withLock { $0 = $0.addingTimeInterval(59 * 60) }
            #expect(try await client.send(I.command("gamenight", as: .bob)).ephemeral)
            clock.withLock { $0 = $0.addingTimeInterval(2 * 60) }
            let replaced = try await client.send(I.command("gamenight", as: .bob))
            #expect((replaced.embeds.first?["description"] as? String)?.contains("**In (1):** Bob\n") == true)
        }
    }

    @Test func aNewNightReplacesTheOldAndMisuseChangesNothing() async throws {
        let harness = try await TestHarness()
        try await harness.withClient { client in
            let none = try await client.send(I.command("gamenight", [I.option("action", "join")]))
            #expect(none.ephemeral && none.text.contains("There is no game night in this channel"))
            let first = try await client.send(I.command("gamenight"))
            let oldJoin = try #require(first.button("I'm in"))
            // A night that is not this channel's is named as such, while the channel has one.
            let unknown = try await client.send(
                I.command("gamenight", [I.option("action", "join"), I.option("night", 999)]))
            #expect(unknown.ephemeral && unknown.text.contains("There is no game night 999 in this channel"))
            // Someone else's new night would drop the players of this one: it is shown instead, privately.
            let kept = try await client.send(I.command("gamenight", [I.option("mode", "coop")], as: .bob))
            #expect(
                kept.ephemeral
                    && kept.text.hasPrefix(
                        "A game night is already open in this channel, with Alice in: it stays until"),
                "\(kept.text)")
            #expect(kept.button("I'm in") == oldJoin)
            // Its host may start another over it.
            let second = try await client.send(I.command("gamenight", [I.option("mode", "coop")]))
            #expect((second.embeds.first?["description"] as? String)?.hasPrefix("Looking for co-op games") == true)
            let stale = try await client.send(I.button(oldJoin, as: .bob))
            #expect(stale.ephemeral && stale.text.contains("replaced by a newer one"))
            // Typed without the buttons, a command acts on the latest night in the channel.
            let typed = try await client.send(I.command("gamenight", [I.option("action", "join")], as: .bob))
            #expect((typed.embeds.first?["description"] as? String)?.contains("**In (2):** Alice, Bob\n") == true)
            let wrong = try await client.send(
                I.command("gamenight", [I.option("action", "join"), I.option("mode", "any")], as: .bob))
            #expect(wrong.ephemeral && wrong.text.contains("are for starting a game night or picking"), "\(wrong.text)")
            let notIn = try await client.send(
                I.command("gamenight", [I.option("action", "leave")], as: Self.carol))
            #expect(notIn.ephemeral && notIn.text.contains("You weren't in this game night."))
            let nothing = try await client.send(I.command("gamenight", [I.option("action", "pick")]))
            #expect(nothing.embeds.first?["title"] as? String == "🎲 Nothing fits tonight", "\(nothing.text)")
        }
    }
}

extension GameNightTests {
    @Test func theSameFlowInTextOnMatrixAndSlack() async throws {
        let matrix = MatrixTests()
        try await matrix.withBot { client, received in
            var txn = 0
            func say(_ line: String, from sender: String = "@alice:localhost") async throws -> String {
                txn += 1
                _ = try await matrix.put(
                    client, txn: "g\(txn)", events: [MatrixTests.message(line, from: sender)])
                return try #require(try await MatrixTests.lastSent(received)["body"] as? String)
            }
            _ = try await say("!gg add Celeste status:completed")
            _ = try await say("!gg add Hades", from: "@bob:localhost")
            let start = try await say("!gg gamenight mode:any")
            #expect(start.hasPrefix("🎮 Game night — who's in?\n"), "\(start)")
            #expect(start.contains("1. I'm in: reply !gg gamenight action:join night:"), "\(start)")
            let joined = try await say("!gg gamenight join", from: "@bob:localhost")
            #expect(joined.contains("In (2): alice, bob"), "\(joined)")
            let picks = try await say("!gg gamenight pick", from: "@bob:localhost")
            #expect(picks.hasPrefix("🎲 Tonight's picks\nFor alice and bob: games of any kind.\n"), "\(picks)")
            #expect(picks.contains("1. Hades (2020):\nOwned by bob"), "\(picks)")
            #expect(picks.contains("2. Celeste (2018):\nOwned by alice\nAlready completed by alice"))
            // Both games that fit are shown: no Reroll to offer, and one typed shows them again.
            #expect(picks.contains("Every game that fits") && !picks.contains("Reroll"), "\(picks)")
            let reroll = try await say("!gg gamenight reroll")
            #expect(reroll.contains("1. Hades (2020)") && reroll.contains("Every game that fits"), "\(reroll)")
        }

        let slack = SlackTests()
        let harness = try await TestHarness { $0.slackSigningSecret = SlackTests.secret }
        try await harness.withClient { client in
            func say(_ text: String, user: String = "U0ALICE") async throws -> [String: Any] {
                try await slack.post(client, "/slack/commands", SlackTests.command(text, user: user)).1
            }
            _ = try await say("add Celeste status:playing")
            _ = try await say("add Hades status:playing", user: "U0BOB")
            let start = try await say("gamenight mode:any")
            #expect(start["response_type"] as? String == "in_channel")
            let actions = (start["blocks"] as? [[String: Any]] ?? []).first { $0["type"] as? String == "actions" }
            let values = (actions?["elements"] as? [[String: Any]] ?? []).compactMap { $0["value"] as? String }
            #expect(values.count == 3 && values[0].hasPrefix("/gamenight action:join night:"), "\(values)")
            _ = try await say("gamenight join", user: "U0BOB")
            let picks = try await say("gamenight pick")
            let text = String(decoding: try JSONSerialization.data(withJSONObject: picks), as: UTF8.self)
            #expect(text.contains("Tonight's picks") && text.contains("Celeste") && text.contains("Hades"), "\(text)")
        }
    }

    /// When nothing on the shelves fits, the night looks wider without starting over: its players stay in.
    @Test func nothingFitsWidensTheSameNight() async throws {
        let harness = try await TestHarness()
        try await Self.withGames(harness)
        try await harness.withClient { client in
            _ = try await client.send(I.command("add", [I.option("title", "Lonely Tale")]))
            _ = try await client.send(I.command("add", [I.option("title", "Epic Saga")], as: .bob))
            _ = try await client.send(I.command("gamenight", [I.option("mode", "coop"), I.option("max_hours", 4.0)]))
            _ = try await client.send(I.command("gamenight", [I.option("action", "join")], as: .bob))
            let nothing = try await client.send(I.command("gamenight", [I.option("action", "pick")], as: .bob))
            #expect(nothing.embeds.first?["title"] as? String == "🎲 Nothing fits tonight", "\(nothing.text)")
            #expect(
                nothing.text.contains("`/gamenight action:pick mode:any`")
                    && nothing.text.contains("`/gamenight action:pick max_hours:8`"), "\(nothing.text)")
            #expect(nothing.button("Pick a game") == nil && nothing.button("Reroll") == nil)
            let any = try await client.send(I.button(try #require(nothing.button("Any kind of game")), as: .bob))
            #expect(any.embeds.first?["title"] as? String == "🎲 Tonight's picks", "\(any.text)")
            #expect(any.text.contains("games of any kind (up to 4 h to beat)"), "\(any.text)")
            #expect(Self.field(any, 0)?.name == "1. Lonely Tale" && Self.field(any, 1) == nil, "\(any.text)")
            // Typed, a longer limit is kept for the night's next picks, and both players are still in.
            let longer = try await client.send(
                I.command("gamenight", [I.option("action", "pick"), I.option("max_hours", 100.0)]))
            #expect(longer.text.contains("games of any kind (up to 100 h to beat)"), "\(longer.text)")
            #expect(
                Set([Self.field(longer, 0)?.name, Self.field(longer, 1)?.name])
                    == ["1. Epic Saga", "2. Lonely Tale"], "\(longer.text)")
            let night = try #require(
                try await harness.services.database.social.gameNight(
                    id: nil, in: "discord:900000000000000001", channel: "700000000000000001"))
            #expect(night.mode == .any && night.maxHours == 100 && night.players.count == 2)
        }
    }
}
