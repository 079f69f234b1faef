import Foundation
import GGTrackerCore
import Testing

@testable import GGTrackerServer

/// `/game` shows the caller's own copy and buttons that follow it; notes can be read and cleared.
@Suite("Your copy on the game card, and notes")
struct YourCopyTests {
    let harness: TestHarness
    init() async throws { harness = try await TestHarness() }

    func hadesRow() async throws -> Int64 {
        try #require(try await harness.services.catalog.game(GameRef(provider: "igdb", id: "113112"))).id
    }

    @Test func theCardFollowsWhereTheGameStandsForYou() async throws {
        try await harness.withClient { client in
            let none = try await client.send(I.command("game", [I.option("title", "Celeste")]))
            DiscordChecks.check(none)
            #expect(none.embeds.count == 1)
            #expect(none.buttons.map(\.label) == ["Add to library", "Add to wishlist"])

            _ = try await client.send(I.command("wishlist", [I.sub("add", [I.option("title", "Celeste")])]))
            let wished = try await client.send(I.command("game", [I.option("title", "Celeste")]))
            #expect(wished.text.contains("On your wishlist"))
            #expect(wished.buttons.map(\.label) == ["Add to library", "Take off wishlist"])

            let added = try await client.send(
                I.command(
                    "add", [I.option("title", "Celeste"), I.option("status", "playing"), I.option("hours", 12.5)]))
            #expect(added.text.contains("Taken off Alice's wishlist."), "\(added.text)")
            _ = try await client.send(I.command("rate", [I.option("title", "Celeste"), I.option("score", 8)]))
            _ = try await client.send(
                I.command("tag", [I.option("title", "Celeste"), I.option("tags", "hard, pixel")]))
            _ = try await client.send(
                I.command("note", [I.option("title", "Celeste"), I.option("text", "Chapter 7 next")]))
            let owned = try await client.send(I.command("game", [I.option("title", "Celeste")]))
            DiscordChecks.check(owned)
            #expect(owned.embeds.count == 2)
            let copy = owned.embeds[1]
            #expect(copy["title"] as? String == "Alice's copy")
            let shown = owned.text
            for fact in ["🎮 Playing", "12.5 h", "★★★★☆ 8/10", "`hard`, `pixel`", "Chapter 7 next", "Added"] {
                #expect(shown.contains(fact), "\(fact) missing from \(shown)")
            }
            #expect(owned.buttons.map(\.label) == ["Mark completed"])
            #expect(owned.selectOptions.contains { $0.value.hasSuffix("/rate title:igdb:26226 score:10") })

            _ = try await client.send(
                I.command("progress", [I.option("title", "Celeste"), I.option("status", "completed")]))
            let done = try await client.send(I.command("game", [I.option("title", "Celeste")]))
            #expect(done.text.contains("Completed"))
            #expect(done.buttons.map(\.label) == ["Write a review"])
        }
    }

    @Test func aNoteIsShownPrivatelyAndClearedOnlyOnRequest() async throws {
        try await harness.withClient { client in
            _ = try await client.send(I.command("add", [I.option("title", "Hades")]))
            let empty = try await client.send(I.command("note", [I.option("title", "Hades")]))
            #expect(empty.ephemeral && empty.content.contains("You have no note on **Hades (2020)**"))
            _ = try await client.send(
                I.command("note", [I.option("title", "Hades"), I.option("text", "Try the spear")]))
            let shown = try await client.send(I.command("note", [I.option("title", "Hades")]))
            #expect(shown.ephemeral && shown.text.contains("Try the spear"))
            #expect(shown.button("Delete the note") != nil)
            let both = try await client.send(
                I.command("note", [I.option("title", "Hades"), I.option("text", "x"), I.option("clear", true)]))
            #expect(both.ephemeral && both.content.contains("not both"))
            let still = try await harness.services.database.library.entry(
                of: PlayerID("discord:111111111111111111"), game: try await hadesRow())
            #expect(still?.note == "Try the spear")
            let cleared = try await client.send(
                I.command("note", [I.option("title", "Hades"), I.option("clear", true)]))
            #expect(cleared.content.contains("Cleared your note"))
            // Once more: there is nothing left to clear, and the entry is not touched.
            let before = try await harness.services.database.library.entry(
                of: PlayerID("discord:111111111111111111"), game: try await hadesRow())
            let again = try await client.send(
                I.command("note", [I.option("title", "Hades"), I.option("clear", true)]))
            #expect(
                again.ephemeral
                    && again.content == "You have no note on **Hades (2020)**: there was nothing to clear.",
                "\(again.content)")
            let after = try await harness.services.database.library.entry(
                of: PlayerID("discord:111111111111111111"), game: try await hadesRow())
            #expect(after?.updatedAt == before?.updatedAt)
        }
        let entry = try await harness.services.database.library.entry(
            of: PlayerID("discord:111111111111111111"), game: try await hadesRow())
        #expect(entry != nil && entry?.note == nil)
    }
}
