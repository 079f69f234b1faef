import Foundation
import GGTrackerCore
import Hummingbird
import HummingbirdTesting
import Testing

@testable import GGTrackerServer

/// `/review … spoiler:true`: the review is hidden until clicked on every platform and on the share page.
@Suite("Spoiler reviews")
struct SpoilerReviewTests {
    typealias I = Interaction

    /// A reply whose card hides a review: `|` in it must not end Discord's spoiler early.
    let reply = Reply(cards: [
        Card(title: "Alice reviewed Outer Wilds", description: "\(spoiler: "The sun || <b>")")
    ])

    @Test func eachRendererHidesTheSpoilerItsOwnWay() throws {
        let discord = reply.discordMessage { "gg:" + $0 }
        #expect(discord.embeds?.first?.description == #"||The sun \|\| <b\>||"#)

        let matrix = reply.matrixContent(replyTo: nil)
        #expect(matrix.formattedBody.contains("<p><span data-mx-spoiler>The sun || &lt;b&gt;</span></p>"))
        #expect(matrix.body == "Alice reviewed Outer Wilds\n(spoiler hidden)")
        #expect(!matrix.body.contains("The sun"))

        let slack = try JSONSerialization.jsonObject(with: try JSONEncoder().encode(reply.slackMessage()))
        let text = String(describing: slack)
        #expect(text.contains("_(spoiler hidden)_"))
        #expect(!text.contains("The sun"))

        #expect(reply.plainText().contains("(spoiler hidden)"))
    }

    func completeAndReview(
        _ client: TestHarness.Client, _ options: [[String: Any]]
    ) async throws
        -> TestHarness.Client.Answer
    {
        _ = try await client.send(
            I.command("add", [I.option("title", "Celeste"), I.option("status", "completed")]))
        return try await client.send(I.command("review", [I.option("title", "Celeste")] + options))
    }

    @Test func aLongSpoilerCutToDiscordsLimitStaysHidden() async throws {
        let harness = try await TestHarness()
        // 4000 characters, the most a review holds, whose escapes take it past a description's 4096.
        let text = String(String(repeating: "The *twist* | 10/10 #1 ", count: 200).prefix(4000))
        try await harness.withClient { client in
            let reviewed = try await completeAndReview(client, [I.option("text", text), I.option("spoiler", true)])
            DiscordChecks.check(reviewed)
            let description = try #require(reviewed.embeds.first?["description"] as? String)
            #expect(Format.length(description) <= DiscordLimits.embedDescription)
            #expect(
                description.hasPrefix("||The \\*twist\\*") && description.hasSuffix("…||"), "\(description.suffix(40))")
            // The words' own bars are escaped: the two unescaped pairs open and close the one spoiler.
            let bars = description.replacingOccurrences(of: "\\|", with: "")
            #expect(bars.components(separatedBy: "||").count == 3, "\(bars.suffix(40))")
        }
    }

    @Test func onDiscordTheReviewIsHiddenUntilClickedAndTheFlagIsKeptUntilCleared() async throws {
        let harness = try await TestHarness()
        try await harness.withClient { client in
            let reviewed = try await completeAndReview(
                client, [I.option("text", "Madeline's mother… the summit"), I.option("spoiler", true)])
            DiscordChecks.check(reviewed)
            #expect(!reviewed.ephemeral)
            #expect(reviewed.text.contains("||Madeline's mother… the summit||"), "\(reviewed.text)")
            // Hidden is said once: by Discord's bar here, by "(spoiler hidden)" where words cannot be hidden.
            #expect(!reviewed.text.contains("Spoiler:"), "\(reviewed.text)")
            #expect(reviewed.buttons.isEmpty, "Discord hides spoilers itself: no extra button")

            // The own copy on the game card hides it too.
            let card = try await client.send(I.command("game", [I.option("title", "Celeste")]))
            #expect(card.text.contains("||Madeline's mother… the summit||"), "\(card.text)")

            // A new text without the option keeps the review a spoiler; spoiler:false clears it.
            let edited = try await client.send(
                I.command("review", [I.option("title", "Celeste"), I.option("text", "The summit, again")]))
            #expect(edited.text.contains("||The summit, again||"))
            let cleared = try await client.send(
                I.command(
                    "review",
                    [I.option("title", "Celeste"), I.option("text", "No secrets here"), I.option("spoiler", false)]))
            #expect(cleared.text.contains("No secrets here") && !cleared.text.contains("||"))
            // The same text again is no new review: said privately, nothing posted.
            let same = try await client.send(
                I.command("review", [I.option("title", "Celeste"), I.option("text", "No secrets here")]))
            #expect(same.ephemeral && same.content.contains("already says that: nothing changed"), "\(same.content)")
            // The same text as a spoiler is a change.
            let hidden = try await client.send(
                I.command(
                    "review",
                    [I.option("title", "Celeste"), I.option("text", "No secrets here"), I.option("spoiler", true)]))
            #expect(!hidden.ephemeral && hidden.text.contains("||No secrets here||"), "\(hidden.text)")
        }
    }

    @Test func anotherMemberReadsItPrivatelyAndMisuseChangesNothing() async throws {
        let harness = try await TestHarness()
        try await harness.withClient { client in
            _ = try await completeAndReview(client, [I.option("text", "The ending twist"), I.option("spoiler", true)])
            _ = try await client.send(I.command("add", [I.option("title", "Hades")], as: .bob))
            let read = try await client.send(
                I.command(
                    "review", [I.option("title", "Celeste"), I.user("by", .alice)], as: .bob, resolvedUsers: [.alice]))
            DiscordChecks.check(read)
            #expect(read.ephemeral)
            #expect(read.text.contains("Alice's review of Celeste"))
            #expect(read.text.contains("The ending twist") && !read.text.contains("||"))

            // `by` with a text is refused, and Alice's review stays as it was.
            let refused = try await client.send(
                I.command(
                    "review", [I.option("title", "Celeste"), I.user("by", .alice), I.option("text", "Overwrite")],
                    as: .bob, resolvedUsers: [.alice]))
            #expect(refused.ephemeral && refused.text.contains("shows someone's review"), "\(refused.text)")
            let again = try await client.send(
                I.command(
                    "review", [I.option("title", "Celeste"), I.user("by", .alice)], as: .bob, resolvedUsers: [.alice]))
            #expect(again.text.contains("The ending twist"))

            // Someone without a review of it is told so.
            let none = try await client.send(
                I.command("review", [I.option("title", "Hades"), I.user("by", .bob)], resolvedUsers: [.bob]))
            #expect(none.ephemeral && none.text.contains("Bob has not reviewed"), "\(none.text)")
            // Asking for one's own is answered to the caller.
            let own = try await client.send(
                I.command("review", [I.option("title", "Hades"), I.user("by", .bob)], as: .bob, resolvedUsers: [.bob]))
            #expect(own.ephemeral && own.text.contains("You have not reviewed"), "\(own.text)")
        }
    }

    @Test func theSharePageFoldsASpoilerReview() async throws {
        let harness = try await TestHarness()
        try await harness.withClient { client in
            _ = try await completeAndReview(client, [I.option("text", "Twist <here>"), I.option("spoiler", true)])
            let share = try await client.send(I.command("share"))
            let url = try #require(share.content.split(separator: " ").first { $0.contains("/u/") }).split(
                separator: "\n")[0]
            let path = String(url[url.range(of: "/u/")!.lowerBound...])
            try await client.client.execute(uri: path, method: .get) { response in
                let html = String(buffer: response.body)
                #expect(
                    html.contains(
                        "<details class=\"spoiler\"><summary>Review (spoiler)</summary><blockquote class=\"review\">Twist &lt;here&gt;</blockquote></details>"
                    ), "\(html)")
            }
        }
    }
}

/// Slack cannot hide words: the spoiler is left out and a button shows it privately.
@Suite("Spoiler reviews on Slack and Matrix")
struct SpoilerReviewTextPlatformTests {
    @Test func onSlackAShowReviewButtonAnswersPrivately() async throws {
        let slack = SlackTests()
        try await slack.withBot { client in
            _ = try await slack.post(client, "/slack/commands", SlackTests.command("add Celeste --status completed"))
            let (status, message) = try await slack.post(
                client, "/slack/commands", SlackTests.command("review Celeste --spoiler --text The summit twist"))
            #expect(status == .ok)
            let text = String(describing: message)
            #expect(message["response_type"] as? String == "in_channel")
            #expect(text.contains("(spoiler hidden)") && !text.contains("The summit twist"), "\(text)")
            let blocks = try #require(message["blocks"] as? [[String: Any]])
            let buttons = blocks.filter { $0["type"] as? String == "actions" }.flatMap {
                $0["elements"] as? [[String: Any]] ?? []
            }
            let show = try #require(
                buttons.first { ($0["text"] as? [String: Any])?["text"] as? String == "Show review" })
            let command = try #require(show["value"] as? String)
            #expect(command == "/review title:igdb:26226 by:@U0ALICE", "\(command)")

            // Bob runs the button's command: the review, only for him.
            _ = try await slack.post(client, "/slack/commands", SlackTests.command("add Hades", user: "U0BOB"))
            let (_, shown) = try await slack.post(
                client, "/slack/commands", SlackTests.command(String(command.dropFirst()), user: "U0BOB"))
            #expect(shown["response_type"] as? String == "ephemeral")
            #expect(String(describing: shown).contains("The summit twist"))
        }
    }

    @Test func onMatrixTheHTMLHidesItAndThePlainBodySaysSo() async throws {
        try await MatrixTests().withBot { client, received in
            let matrix = MatrixTests()
            _ = try await matrix.put(
                client, txn: "s1", events: [MatrixTests.message("!gg add Celeste --status completed")])
            _ = try await matrix.put(
                client, txn: "s2",
                events: [MatrixTests.message("!gg review Celeste --spoiler --text Granny is the key")])
            let sent = await received.requests.filter { $0.path.hasPrefix("send") }
            let last = try #require(sent.last)
            let content = try #require(try JSONSerialization.jsonObject(with: last.body) as? [String: Any])
            let html = try #require(content["formatted_body"] as? String)
            let body = try #require(content["body"] as? String)
            #expect(html.contains("<span data-mx-spoiler>Granny is the key</span>"), "\(html)")
            #expect(body.contains("(spoiler hidden)") && !body.contains("Granny"), "\(body)")
            #expect(!html.contains("Show review"), "Matrix clients hide spoilers: no extra hint")
        }
    }
}
