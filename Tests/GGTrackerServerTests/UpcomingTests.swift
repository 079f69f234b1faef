import Foundation
import GGTrackerCatalog
import GGTrackerCore
import GGTrackerStorage
import Hummingbird
import HummingbirdTesting
import Testing

@testable import GGTrackerServer

/// `/upcoming`: the wishlisted games of a server's members that are not out yet, soonest first, with who wants them.
@Suite("Upcoming releases")
struct UpcomingTests {
    typealias I = Interaction

    /// The first moment of the current year, as a year-only release date is stored.
    static var thisYear: Int {
        Int(
            Calendar.utc.date(
                from: DateComponents(year: Calendar.utc.component(.year, from: Date()), month: 1, day: 1))!
                .timeIntervalSince1970)
    }

    /// Three games not out yet — one known only by this year — added to the test catalog.
    static func withFutureGames(_ harness: TestHarness) async throws {
        let lines = """
            {"id":990001,"name":"Starfall Odyssey","first_release_date":4102444800}
            {"id":990002,"name":"Moonlit Harbor","first_release_date":1893456000}
            {"id":990003,"name":"Ashen Year","first_release_date":\(thisYear),"release_dates":[{"date_format":2}]}
            """
        _ = try await CatalogImporter(database: harness.services.database).importData(Data(lines.utf8))
        try await harness.services.catalog.reloadVocabulary()
    }

    static let carol = Interaction.Person(id: "444444444444444444", name: "carol")

    func wish(_ client: TestHarness.Client, _ title: String, as person: I.Person, guild: String? = nil) async throws {
        var command = I.command("wishlist", [I.sub("add", [I.option("title", title)])], as: person)
        if let guild { command["guild_id"] = guild }
        let answer = try await client.send(command)
        #expect(answer.text.contains("wishlisted"), "\(answer.text)")
    }

    @Test func theServersWishesNotOutYetComeSoonestFirstWithWhoWantsThem() async throws {
        let harness = try await TestHarness()
        try await Self.withFutureGames(harness)
        try await harness.withClient { client in
            try await wish(client, "Starfall Odyssey", as: .alice)
            try await wish(client, "Celeste", as: .alice)  // out since 2018
            try await wish(client, "Ashen Year", as: .alice)
            try await wish(client, "Moonlit Harbor", as: .bob)
            try await wish(client, "Starfall Odyssey", as: .bob)
            // Carol wishes in another server only.
            try await wish(client, "Moonlit Harbor", as: Self.carol, guild: "900000000000000002")

            let all = try await client.send(I.command("upcoming", as: .bob))
            DiscordChecks.check(all)
            #expect(!all.ephemeral)
            let card = try #require(all.embeds.first)
            #expect(card["title"] as? String == "Coming soon on this server's wishlists")
            let year = Calendar.utc.component(.year, from: Date())
            #expect(
                card["description"] as? String == """
                    • **Ashen Year** — some time in \(year) — wanted by Alice
                    • **Moonlit Harbor** — <t:1893456000:R> (Jan 1, 2030) — wanted by Bob
                    • **Starfall Odyssey** — <t:4102444800:R> (Jan 1, 2100) — wanted by Alice and Bob
                    """)
            #expect((card["footer"] as? [String: Any])?["text"] as? String == "3 games")
            #expect(!all.text.contains("Celeste") && !all.text.contains("Carol"))

            let bobs = try await client.send(
                I.command("upcoming", [I.user("user", .bob)], resolvedUsers: [.bob]))
            #expect(bobs.embeds.first?["title"] as? String == "Coming soon on Bob's wishlist")
            #expect(bobs.text.contains("Moonlit Harbor") && bobs.text.contains("Starfall Odyssey"))
            #expect(!bobs.text.contains("Ashen Year") && !bobs.text.contains("Alice"))

            // In the other server only Carol's wish counts.
            var elsewhere = I.command("upcoming", as: Self.carol)
            elsewhere["guild_id"] = "900000000000000002"
            let other = try await client.send(elsewhere)
            #expect(other.text.contains("**Moonlit Harbor** — <t:1893456000:R> (Jan 1, 2030) — wanted by Carol"))
            #expect(!other.text.contains("Starfall"))
        }
    }

    @Test func nothingAheadIsSaidPlainlyAndAStrangerIsRefused() async throws {
        let harness = try await TestHarness()
        try await harness.withClient { client in
            try await wish(client, "Celeste", as: .alice)
            // A catalog of released games only (as the bundled one is) has nothing to wishlist ahead: said so.
            let none = try await client.send(I.command("upcoming"))
            #expect(
                none.ephemeral
                    && none.content == "Nothing on this server's wishlists has a release date ahead. The catalog holds "
                        + "no game that is not out yet, so none can be wishlisted ahead of its release.",
                "\(none.content)")
            try await Self.withFutureGames(harness)
            let empty = try await client.send(I.command("upcoming"))
            #expect(empty.ephemeral)
            #expect(empty.text.contains("Nothing on this server's wishlists has a release date ahead"), "\(empty.text)")
            #expect(empty.text.contains("/wishlist add") && !empty.text.contains("holds no game"))
            // Another member's wishlist is theirs to fill: no hint; one's own is "your wishlist", with it.
            let hers = try await client.send(
                I.command("upcoming", [I.user("user", .alice)], as: .bob, resolvedUsers: [.alice]))
            #expect(hers.text.contains("Nothing on Alice's wishlist has a release date ahead."), "\(hers.text)")
            #expect(!hers.text.contains("/wishlist add"))
            let mine = try await client.send(
                I.command("upcoming", [I.user("user", .alice)], resolvedUsers: [.alice]))
            #expect(mine.text.contains("Nothing on your wishlist") && mine.text.contains("/wishlist add"))
            let stranger = try await client.send(
                I.command("upcoming", [I.user("user", Self.carol)], resolvedUsers: [Self.carol]))
            #expect(stranger.ephemeral && stranger.text.contains("hasn't used GGTracker in this server"))
        }
    }

    @Test func slackAndMatrixShowTheSameList() async throws {
        let slack = SlackTests()
        let harness = try await TestHarness { $0.slackSigningSecret = SlackTests.secret }
        try await Self.withFutureGames(harness)
        try await harness.withClient { client in
            _ = try await slack.post(client, "/slack/commands", SlackTests.command("wishlist add Moonlit Harbor"))
            let (status, message) = try await slack.post(client, "/slack/commands", SlackTests.command("upcoming"))
            #expect(status == .ok && message["response_type"] as? String == "in_channel")
            let blocks = try #require(message["blocks"] as? [[String: Any]])
            let text = try #require((blocks.first?["text"] as? [String: Any])?["text"] as? String)
            #expect(text.hasPrefix("*Coming soon on this server's wishlists*\n• *Moonlit Harbor* — in "), "\(text)")
            #expect(text.hasSuffix(" (Jan 1, 2030) — wanted by alice"), "\(text)")
        }
        // Matrix: the same list in the plain body, the titles bold in the HTML.
        let matrix = MatrixTests()
        try await matrix.withBot(prepare: { try await Self.withFutureGames($0) }) { client, received in
            _ = try await matrix.put(
                client, txn: "u1", events: [MatrixTests.message("!gg wishlist add Starfall Odyssey")])
            _ = try await matrix.put(client, txn: "u2", events: [MatrixTests.message("!gg upcoming")])
            let content = try await MatrixTests.lastSent(received)
            let body = try #require(content["body"] as? String)
            #expect(body.hasPrefix("Coming soon on this server's wishlists\n• Starfall Odyssey — in "), "\(body)")
            #expect(body.contains(" (Jan 1, 2100) — wanted by alice\n1 game"), "\(body)")
            #expect((content["formatted_body"] as? String)?.contains("<strong>Starfall Odyssey</strong>") == true)
        }
    }
}
