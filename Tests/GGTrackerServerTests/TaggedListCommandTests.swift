import Foundation
import GGTrackerCore
import Testing

@testable import GGTrackerServer

/// `/list tag:`: a library's games with one tag, paged with the tag kept; a tag no game has is answered with the
/// tags there are, each a button; the tag autocompletes from the caller's own tags.
@Suite("Lists by tag")
struct TaggedListCommandTests {
    typealias I = Interaction

    /// Twelve games of the fixture catalog: more than a page of a list.
    static let twelveGames = [
        "Celeste", "Hades", "Hollow Knight", "Portal 2", "Stardew Valley", "Terraria", "Cuphead", "Undertale", "Limbo",
        "Tetris", "Ori and the Blind Forest", "Disco Elysium",
    ]

    @Test func aLibraryIsListedByTagWithTheTagKeptAcrossPages() async throws {
        let harness = try await TestHarness()
        try await harness.withClient { client in
            for game in Self.twelveGames {
                let added = try await client.send(I.command("add", [I.option("title", game)]))
                #expect(added.status == .ok && !added.ephemeral, "\(game): \(added.text)")
                let tagged = try await client.send(
                    I.command(
                        "tag", [I.option("title", game), I.option("tags", game == "Portal 2" ? "co-op" : "Indie")]))
                #expect(tagged.status == .ok, "\(game): \(tagged.text)")
            }
            let indie = try await client.send(I.command("list", [I.option("tag", "#Indie")]))
            DiscordChecks.check(indie)
            let card = try #require(indie.embeds.first)
            #expect(card["title"] as? String == "Alice's library — tagged “indie”", "\(indie.text)")
            let footer = ((card["footer"] as? [String: Any])?["text"] as? String) ?? ""
            #expect(footer.hasPrefix("11 games tagged “indie” · 📚 11 · page 1/2"), "\(footer)")
            #expect(!indie.text.contains("Portal 2"))
            let next = try #require(indie.button("Next"))
            let second = try await client.send(I.button(next))
            #expect(second.text.contains("page 2/2") && !second.text.contains("Portal 2"), "\(second.text)")
            #expect(second.text.contains("11 games tagged “indie”"), "\(second.text)")

            let none = try await client.send(I.command("list", [I.option("tag", "rpg")]))
            #expect(none.ephemeral)
            #expect(
                none.content.contains("No game in your library is tagged “rpg”. Your tags: indie (11), co-op (1)."),
                "\(none.content)")
            let coop = try await client.send(I.button(try #require(none.button("#co-op"))))
            #expect(coop.text.contains("Portal 2") && coop.text.contains("1 game tagged “co-op”"), "\(coop.text)")

            let suggested = try await client.send(I.autocomplete("list", [I.option("tag", "c", focused: true)]))
            let choices = (suggested.data["choices"] as? [[String: Any]] ?? []).compactMap { $0["value"] as? String }
            #expect(choices == ["co-op"], "\(choices)")
        }
    }

    /// Tags stored with a leading "#" or "+" (before those were read away) lose it when the game's tags next
    /// change, so `/list #co-op` finds them and `-co-op` removes them.
    @Test func oldTagsWithAHashOrAPlusLoseItWhenTheTagsChange() async throws {
        let harness = try await TestHarness()
        let database = harness.services.database
        let alice = Invoker(platform: .discord, userID: "111", displayName: "Alice", community: "discord:1")
        let hades = try #require(try await database.catalog.game(GameRef(provider: "igdb", id: "113112")))
        _ = try await harness.services.bot.respond(toLine: "/list", from: alice)
        try await database.library.updateEntry(of: alice.player, game: hades, community: alice.community, at: Date()) {
            var entry = LibraryEntry(game: hades, status: .playing, at: Date())
            entry.tags = ["#co-op", "+new", "co-op", "rpg"]
            $0 = entry
        }
        let removed = try await harness.services.bot.respond(toLine: "/tag title:Hades tags:-co-op", from: alice)
        #expect(
            removed.plainText() == "(only you can see this)\nRemoved co-op. Tags on Hades (2020): new, rpg",
            "\(removed.plainText())")
        let listed = try await harness.services.bot.respond(toLine: "!gg list #new", from: alice)
        #expect(listed.plainText().contains("Hades (2020)"), "\(listed.plainText())")
    }

    /// Typed, a tag is its option or a word written with "#".
    @Test func aTagIsTypedWithItsNameOrAHash() throws {
        for line in ["!gg list #co-op", "!gg list tag:co-op", "!gg list --tag Co-op"] {
            let command = try BotCommand(TextCommandParser.parse(line))
            #expect(command == .library(.list(user: nil, status: nil, sort: .recent, page: 1, tag: "co-op")), "\(line)")
        }
        let two = #expect(throws: UsageError.self) {
            try BotCommand(TextCommandParser.parse("!gg list tag:co-op, rpg"))
        }
        #expect(two?.meant?.commandLine == "/list tag:co-op", "\(String(describing: two))")
        let both = try BotCommand(TextCommandParser.parse("!gg list bob #co-op completed"))
        #expect(
            both
                == .library(
                    .list(user: UserMention(id: "bob"), status: .completed, sort: .recent, page: 1, tag: "co-op")))
    }
}
