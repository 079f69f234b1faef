import Foundation
import GGTrackerCore
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import Testing

@testable import GGTrackerServer

/// A local stand-in for Discord's `POST /channels/{channel.id}/messages`: every other request to a channel, the first
/// one first, is answered 429 with Discord's rate-limit body and headers, the others 200; channel …403 answers as one
/// the bot cannot see, …404 as one Discord does not know. Every accepted message is streamed out.
func fakeDiscordChannels(
    token: String, accepted: AsyncStream<(String, [String: Any])>.Continuation
) -> some ApplicationProtocol {
    let router = Router()
    let seen = Received()
    let refusals: [String: (status: HTTPResponse.Status, body: String)] = [
        "777000000000000403": (.forbidden, #"{"message": "Missing Access", "code": 50001}"#),
        "777000000000000404": (.notFound, #"{"message": "Unknown Channel", "code": 10003}"#),
    ]
    router.post("/api/v10/channels/:channel/messages") { request, context -> Response in
        let body = try await request.body.collect(upTo: 1 << 20)
        let channel = context.parameters.get("channel") ?? ""
        guard request.headers[.authorization] == "Bot \(token)" else {
            return Response(
                status: .unauthorized,
                body: .init(byteBuffer: ByteBuffer(string: #"{"message": "401: Unauthorized", "code": 0}"#)))
        }
        if let refusal = refusals[channel] {
            return Response(
                status: refusal.status, headers: [.contentType: "application/json"],
                body: .init(byteBuffer: ByteBuffer(string: refusal.body)))
        }
        let earlier = await seen.requests.filter { $0.path == channel }.count
        await seen.add(channel, nil, Data(buffer: body))
        if earlier % 2 == 0 {
            return Response(
                status: .tooManyRequests,
                headers: [
                    .contentType: "application/json", .retryAfter: "1", HTTPField.Name("X-RateLimit-Limit")!: "5",
                    HTTPField.Name("X-RateLimit-Remaining")!: "0", HTTPField.Name("X-RateLimit-Reset-After")!: "0.05",
                    HTTPField.Name("X-RateLimit-Scope")!: "user",
                ],
                body: .init(
                    byteBuffer: ByteBuffer(
                        string: #"{"message": "You are being rate limited.", "retry_after": 0.05, "global": false}"#)))
        }
        let json = (try? JSONSerialization.jsonObject(with: Data(buffer: body))) as? [String: Any] ?? [:]
        accepted.yield((channel, json))
        var message = json
        message["id"] = "1400000000000000000"
        message["channel_id"] = channel
        return Response(
            status: .ok, headers: [.contentType: "application/json"],
            body: .init(byteBuffer: ByteBuffer(data: try JSONSerialization.data(withJSONObject: message))))
    }
    var logger = Logger(label: "fake-discord")
    logger.logLevel = .warning
    return Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)), logger: logger)
}

extension Interaction {
    /// `/admin settings announce_channel:` as the admin sends it.
    static func announceChannel(_ channel: String) -> [String: Any] {
        command("admin", [sub("settings", [["name": "announce_channel", "type": 7, "value": channel]])], as: .admin)
    }
}

@Suite("Announcements in the server's channel")
struct AnnouncementTests {
    /// A bot whose Discord bot token posts to the stand-in, and the stream of the messages the stand-in accepted.
    func withFakeDiscord(
        _ body: (TestHarness, AsyncStream<(String, [String: Any])>) async throws -> Void
    ) async throws {
        let (stream, continuation) = AsyncStream.makeStream(of: (String, [String: Any]).self)
        try await fakeDiscordChannels(token: "bot-token", accepted: continuation).test(.live) { fake in
            let port = try #require(fake.port)
            let harness = try await TestHarness { config in
                config.discordBotToken = "bot-token"
                config.discordAPIBase = "http://127.0.0.1:\(port)/api/v10"
            }
            try await body(harness, stream)
        }
    }

    /// Runs `commands` against a bot whose server announces in channel 777000000000000001 through the stand-in,
    /// then hands over the stream of messages the stand-in accepted.
    func withAnnouncements(
        _ commands: @Sendable (TestHarness.Client) async throws -> Void,
        then check: (inout AsyncStream<(String, [String: Any])>.Iterator) async throws -> Void
    ) async throws {
        try await withFakeDiscord { harness, stream in
            try await harness.withClient { client in
                let settings = try await client.send(I.announceChannel("777000000000000001"))
                #expect(settings.text.contains("<#777000000000000001>"))
                try await commands(client)
            }
            var iterator = stream.makeAsyncIterator()
            // The channel heard first that news goes there, as it was set.
            let (channel, welcome) = try #require(await iterator.next())
            #expect(channel == "777000000000000001")
            let title = (welcome["embeds"] as? [[String: Any]])?.first?["title"] as? String
            #expect(title == "📣 GGTracker's news will be posted here")
            try await check(&iterator)
        }
    }

    @Test(.timeLimit(.minutes(5)))
    func completionsAreAnnouncedAfterARateLimitWithoutDelayingTheReply() async throws {
        try await withAnnouncements { client in
            let added = try await client.send(I.command("add", [I.option("title", "Celeste")]))
            #expect(added.status == .ok)
            let done = try await client.send(
                I.command("progress", [I.option("title", "Celeste"), I.option("status", "completed")]))
            #expect(done.text.contains("Alice completed Celeste"))
        } then: { iterator in
            let (channel, message) = try #require(await iterator.next())
            #expect(channel == "777000000000000001")
            let embeds = message["embeds"] as? [[String: Any]] ?? []
            #expect(embeds.first?["title"] as? String == "Alice completed Celeste (2018) 🎉")
            #expect((message["allowed_mentions"] as? [String: Any])?["parse"] as? [Any] != nil)
            let problems = DiscordChecks.validator.validate(message, against: "MessageCreateRequest")
            #expect(problems.isEmpty, "\(problems.prefix(3))")
        }
    }

    @Test(.timeLimit(.minutes(5)))
    func everyPathThatCompletesAGameAnnouncesIt() async throws {
        try await withAnnouncements { client in
            let added = try await client.send(
                I.command("add", [I.option("title", "Celeste"), I.option("status", "completed")]))
            #expect(added.text.contains("Alice completed Celeste (2018) 🎉"))
            let rated = try await client.send(
                I.command("rate", [I.option("title", "Hades"), I.option("score", 9)], as: .bob))
            #expect(rated.text.contains("Added to Bob's library as completed"))
            // Not a completion: no announcement.
            _ = try await client.send(I.command("add", [I.option("title", "Inside")]))
        } then: { iterator in
            var titles: [String] = []
            for _ in 0..<2 {
                let (_, message) = try #require(await iterator.next())
                titles += (message["embeds"] as? [[String: Any]] ?? []).compactMap { $0["title"] as? String }
            }
            #expect(titles.sorted() == ["Alice completed Celeste (2018) 🎉", "Bob rated Hades (2020) ★★★★½"])
        }
    }

    /// A channel is posted to as it is set: one the bot cannot see, or one Discord does not know, is refused with
    /// what to do, and the channel set before stays; without the bot's token the setting says what it needs.
    @Test(.timeLimit(.minutes(5)))
    func aChannelTheBotCannotPostInIsRefused() async throws {
        try await withFakeDiscord { harness, stream in
            try await harness.withClient { client in
                let set = try await client.send(I.announceChannel("777000000000000001"))
                #expect(set.text.contains("Settings saved."), "\(set.text)")
                let hidden = try await client.send(I.announceChannel("777000000000000403"))
                #expect(hidden.ephemeral)
                #expect(
                    hidden.text.contains(
                        "The bot cannot post in <#777000000000000403>: it cannot see that channel. Give the bot View Channel there"
                    ), "\(hidden.text)")
                #expect(hidden.text.contains("Nothing was changed."))
                let unknown = try await client.send(I.announceChannel("777000000000000404"))
                #expect(unknown.text.contains("Discord knows no such channel."), "\(unknown.text)")
            }
            let settings = try await harness.services.database.library.settings(of: "discord:900000000000000001")
            #expect(settings.announceChannel == "777000000000000001")
            var iterator = stream.makeAsyncIterator()
            let (channel, _) = try #require(await iterator.next())
            #expect(channel == "777000000000000001")
        }

        let tokenless = try await TestHarness()
        try await tokenless.withClient { client in
            let answer = try await client.send(I.announceChannel("777000000000000001"))
            #expect(
                answer.text.contains(
                    #"This installation cannot post to Discord channels: its operator gives it the bot's token (DISCORD\_BOT\_TOKEN)"#
                ),
                "\(answer.text)")
        }
        #expect(
            try await tokenless.services.database.library.settings(of: "discord:900000000000000001").announceChannel
                == nil)
    }

    /// A channel that stops taking the bot's posts (its permissions changed after it was set) is shown to admins
    /// in `/admin settings` with why; a post that goes through again clears it.
    @Test(.timeLimit(.minutes(5)))
    func aFailedAnnouncementIsShownToAdminsUntilAPostGoesThrough() async throws {
        try await withFakeDiscord { harness, _ in
            let guild = "discord:900000000000000001"
            let library = harness.services.database.library
            _ = try await library.updateSettings(of: guild, announceChannel: "777000000000000403", ageGate: nil)
            @Sendable func failure() async throws -> AnnounceFailure? {
                for _ in 0..<100 {
                    if let failure = try await library.settings(of: guild).announceFailure { return failure }
                    try await Task.sleep(for: .milliseconds(50))
                }
                return nil
            }
            try await harness.withClient { client in
                let done = try await client.send(
                    I.command("add", [I.option("title", "Celeste"), I.option("status", "completed")]))
                #expect(done.text.contains("Alice completed Celeste"))
                #expect(try await failure()?.reason.contains("it cannot see that channel") == true)
                let shown = try await client.send(I.command("admin", [I.sub("settings", [])], as: .admin))
                #expect(
                    shown.text.contains("⚠️ The last post there failed <t:")
                        && shown.text.contains("it cannot see that channel. Give the bot View Channel there"),
                    "\(shown.text)")

                // Mended elsewhere: the next post goes through and the warning goes.
                _ = try await library.updateSettings(of: guild, announceChannel: "777000000000000001", ageGate: nil)
                try await harness.services.database.social.noteAnnouncement(
                    in: guild, channel: "777000000000000001", failure: "earlier", at: Date())
                let reviewed = try await client.send(
                    I.command("review", [I.option("title", "Celeste"), I.option("text", "The summit, at last.")]))
                #expect(reviewed.text.contains("Celeste"), "\(reviewed.text)")
                for _ in 0..<100 where try await library.settings(of: guild).announceFailure != nil {
                    try await Task.sleep(for: .milliseconds(50))
                }
                let clear = try await client.send(I.command("admin", [I.sub("settings", [])], as: .admin))
                #expect(clear.text.contains("<#777000000000000001>") && !clear.text.contains("⚠️"), "\(clear.text)")
            }
        }
    }

    /// An admin can stop the announcements: the channel is cleared, a completion then posts nothing, and asking
    /// again (or with a channel at the same time) is answered with why nothing changed.
    @Test(.timeLimit(.minutes(5)))
    func announcementsCanBeStopped() async throws {
        try await withFakeDiscord { harness, stream in
            // Each a new interaction (the same one sent again would be a retried delivery).
            @Sendable func stop() -> [String: Any] {
                I.command(
                    "admin", [I.sub("settings", [["name": "stop_announcing", "type": 5, "value": true]])], as: .admin)
            }
            try await harness.withClient { client in
                _ = try await client.send(I.announceChannel("777000000000000001"))
                let both = try await client.send(
                    I.command(
                        "admin",
                        [
                            I.sub(
                                "settings",
                                [
                                    ["name": "announce_channel", "type": 7, "value": "777000000000000001"],
                                    ["name": "stop_announcing", "type": 5, "value": true],
                                ])
                        ], as: .admin))
                #expect(both.text.contains("not both. Nothing was changed."), "\(both.text)")
                let stopped = try await client.send(stop())
                #expect(stopped.text.contains("Settings saved: nothing is announced any more"), "\(stopped.text)")
                #expect(
                    stopped.text.contains("Announce channel") && stopped.text.contains("not set"), "\(stopped.text)")
                let again = try await client.send(stop())
                #expect(again.text.contains("No announce channel is set: nothing is announced."), "\(again.text)")
                _ = try await client.send(
                    I.command("add", [I.option("title", "Celeste"), I.option("status", "completed")]))
            }
            #expect(
                try await harness.services.database.library.settings(of: "discord:900000000000000001").announceChannel
                    == nil)
            var iterator = stream.makeAsyncIterator()
            let (_, welcome) = try #require(await iterator.next())
            let title = (welcome["embeds"] as? [[String: Any]])?.first?["title"] as? String
            #expect(title == "📣 GGTracker's news will be posted here")
        }
    }

    /// Announcements are posted through Discord alone: elsewhere there is no channel to set, and saying so changes
    /// nothing.
    @Test func anAnnounceChannelIsRefusedWhereNothingIsAnnounced() async throws {
        let harness = try await TestHarness()
        let admin = Invoker(
            platform: .matrix, userID: "@ada:example.org", displayName: "Ada", community: "matrix:!room:example.org",
            isAdmin: true)
        let refused = try await harness.services.bot.respond(
            toLine: "/admin settings announce_channel:#news age_gate:off", from: admin)
        #expect(refused.visibility == .invokerOnly)
        #expect(refused.plainText().contains("A Matrix room has no announce channel to set: news shows in /activity"))
        #expect(refused.plainText().contains("release alerts of its members' wishes come to the room itself."))
        #expect(refused.plainText().contains("Nothing was changed"))
        let settings = try await harness.services.database.library.settings(of: admin.community)
        #expect(settings.announceChannel == nil && settings.ageGate == .strict)
        let stop = try await harness.services.bot.respond(toLine: "/admin settings stop_announcing:true", from: admin)
        #expect(stop.plainText().contains("A Matrix room has no announce channel to set"), "\(stop.plainText())")
        // The settings card there shows what can be set.
        let shown = try await harness.services.bot.respond(toLine: "/admin settings", from: admin)
        #expect(shown.plainText().contains("Age gate") && !shown.plainText().contains("Announce channel"))
    }
}
