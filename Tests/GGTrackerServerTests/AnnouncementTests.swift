import Foundation
import GGTrackerCore
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import Testing

@testable import GGTrackerServer

/// A local stand-in for Discord's `POST /channels/{channel.id}/messages`: the first request of each channel is
/// answered 429 with Discord's rate-limit body and headers, later ones 200. Every accepted message is streamed out.
func fakeDiscordChannels(
    token: String, accepted: AsyncStream<(String, [String: Any])>.Continuation
) -> some ApplicationProtocol {
    let router = Router()
    let seen = Received()
    router.post("/api/v10/channels/:channel/messages") { request, context -> Response in
        let body = try await request.body.collect(upTo: 1 << 20)
        let channel = context.parameters.get("channel") ?? ""
        guard request.headers[.authorization] == "Bot \(token)" else {
            return Response(
                status: .unauthorized,
                body: .init(byteBuffer: ByteBuffer(string: #"{"message": "401: Unauthorized", "code": 0}"#)))
        }
        let earlier = await seen.requests.filter { $0.path == channel }.count
        await seen.add(channel, nil, Data(buffer: body))
        if earlier == 0 {
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

@Suite("Announcements in the server's channel")
struct AnnouncementTests {
    /// Runs `commands` against a bot whose server announces in channel 777000000000000001 through the stand-in,
    /// then hands over the stream of messages the stand-in accepted.
    func withAnnouncements(
        _ commands: @Sendable (TestHarness.Client) async throws -> Void,
        then check: (inout AsyncStream<(String, [String: Any])>.Iterator) async throws -> Void
    ) async throws {
        let (stream, continuation) = AsyncStream.makeStream(of: (String, [String: Any]).self)
        try await fakeDiscordChannels(token: "bot-token", accepted: continuation).test(.live) { fake in
            let port = try #require(fake.port)
            let harness = try await TestHarness { config in
                config.discordBotToken = "bot-token"
                config.discordAPIBase = "http://127.0.0.1:\(port)/api/v10"
            }
            try await harness.withClient { client in
                let settings = try await client.send(
                    I.command(
                        "admin",
                        [I.sub("settings", [["name": "announce_channel", "type": 7, "value": "777000000000000001"]])],
                        as: .admin))
                #expect(settings.text.contains("<#777000000000000001>"))
                try await commands(client)
            }
            var iterator = stream.makeAsyncIterator()
            try await check(&iterator)
        }
    }

    @Test(.timeLimit(.minutes(1)))
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

    @Test(.timeLimit(.minutes(1)))
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
        // The settings card there shows what can be set.
        let shown = try await harness.services.bot.respond(toLine: "/admin settings", from: admin)
        #expect(shown.plainText().contains("Age gate") && !shown.plainText().contains("Announce channel"))
    }
}
