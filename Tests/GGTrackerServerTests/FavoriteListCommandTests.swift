import Foundation
import GGTrackerCore
import Testing

@testable import GGTrackerServer

/// `/list favorites:true`: a library's favorite games, paged with the filter kept; none yet is said with how to mark
/// one; typed, "favorites" alone offers that list.
@Suite("Lists of favorites")
struct FavoriteListCommandTests {
    typealias I = Interaction

    @Test func theFavoritesAreListedWithTheFilterKeptAcrossPages() async throws {
        let harness = try await TestHarness()
        try await harness.withClient { client in
            for game in TaggedListCommandTests.twelveGames {
                let added = try await client.send(I.command("add", [I.option("title", game)]))
                #expect(added.status == .ok, "\(game): \(added.text)")
                guard game != "Portal 2" else { continue }
                let marked = try await client.send(I.command("favorite", [I.option("title", game)]))
                #expect(marked.text.contains("favorited"), "\(game): \(marked.text)")
            }
            let favorites = try await client.send(I.command("list", [I.option("favorites", true)]))
            DiscordChecks.check(favorites)
            let card = try #require(favorites.embeds.first)
            #expect(card["title"] as? String == "Alice's library — ⭐ favorites", "\(favorites.text)")
            let footer = ((card["footer"] as? [String: Any])?["text"] as? String) ?? ""
            #expect(footer.hasPrefix("11 favorites · 📚 11 · page 1/2"), "\(footer)")
            #expect(!favorites.text.contains("Portal 2"))
            let second = try await client.send(I.button(try #require(favorites.button("Next"))))
            #expect(second.text.contains("page 2/2") && !second.text.contains("Portal 2"), "\(second.text)")
            #expect(second.text.contains("11 favorites"), "\(second.text)")

            let none = try await client.send(
                I.command("list", [I.option("favorites", true), I.option("status", "completed")]))
            #expect(none.ephemeral)
            #expect(
                none.content.contains(
                    "You have no favorite games with status completed yet. Mark one with `/favorite title:<game>`."),
                "\(none.content)")
        }
    }

    /// Typed, "favorites" (or "my faves") offers the list of them, where "fav" before a game still marks it.
    @Test func typedFavoritesOffersTheList() async throws {
        let harness = try await TestHarness()
        let hints = TextHintTests()
        _ = try await hints.matrixBody(harness, "!gg add Celeste")
        _ = try await hints.matrixBody(harness, "!gg add Hades")
        let marked = try await hints.matrixBody(harness, "!gg fav celeste")
        #expect(marked.contains("!gg favorite title:celeste"), "\(marked)")
        _ = try await hints.matrixBody(harness, "!gg favorite celeste")
        for line in ["!gg favorites", "!gg my faves", "!gg show my favourites"] {
            let offer = try await hints.matrixBody(harness, line)
            #expect(offer.contains("reply !gg list favorites:true"), "\(line): \(offer)")
        }
        // A value that is no yes or no is refused with what the option takes.
        let refused = try await hints.matrixBody(harness, "!gg list favorites:maybe")
        #expect(refused.contains("`favorites` must be true or false."), "\(refused)")
        #expect(!refused.contains("Celeste"), "\(refused)")
        let listed = try await hints.matrixBody(harness, "!gg list favorites")
        #expect(listed.contains("library — ⭐ favorites") && listed.contains("Celeste"), "\(listed)")
        #expect(!listed.contains("Hades"), "\(listed)")
    }
}
