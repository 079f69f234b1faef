@preconcurrency import Crypto
import Foundation
import GGTrackerCore
import GRDB
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import Testing

@testable import GGTrackerServer

@Suite("Slack slash commands")
struct SlackTests {
    static let secret = "8f742231b10e8888abcd99yyyzzz85a5"

    func withBot(_ body: @Sendable (TestHarness.Client) async throws -> Void) async throws {
        let harness = try await TestHarness { $0.slackSigningSecret = Self.secret }
        try await harness.withClient(body)
    }

    static func form(_ fields: [(String, String)]) -> String {
        fields.map { key, value in
            key + "=" + (value.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? value)
        }.joined(separator: "&")
    }

    static func sign(_ body: String, timestamp: String, secret: String = secret) -> String {
        let mac = HMAC<SHA256>.authenticationCode(
            for: Data("v0:\(timestamp):\(body)".utf8), using: SymmetricKey(data: Data(secret.utf8)))
        return "v0=" + mac.map { String(format: "%02x", $0) }.joined()
    }

    func post(
        _ client: TestHarness.Client, _ path: String, _ body: String, timestamp: Date = Date(), signature: String? = nil
    ) async throws -> (HTTPResponse.Status, [String: Any]) {
        let stamp = String(Int(timestamp.timeIntervalSince1970))
        let headers: HTTPFields = [
            .contentType: "application/x-www-form-urlencoded",
            HTTPField.Name("X-Slack-Request-Timestamp")!: stamp,
            HTTPField.Name("X-Slack-Signature")!: signature ?? Self.sign(body, timestamp: stamp),
        ]
        return try await client.client.execute(
            uri: path, method: .post, headers: headers, body: ByteBuffer(string: body)
        ) {
            (
                $0.status,
                (try? JSONSerialization.jsonObject(with: Data(buffer: $0.body))) as? [String: Any]
                    ?? ["raw": String(buffer: $0.body)]
            )
        }
    }

    static func command(
        _ text: String, user: String = "U0ALICE", responseURL: String = "https://hooks.slack.com/commands/T0001/1/abc",
        trigger: String = "1.2.3"
    ) -> String {
        form([
            ("token", "legacy"), ("team_id", "T0001"), ("team_domain", "friends"), ("channel_id", "C0GAMES"),
            ("channel_name", "games"), ("user_id", user), ("user_name", "alice"), ("command", "/gg"), ("text", text),
            ("response_url", responseURL), ("trigger_id", trigger),
        ])
    }

    @Test func aSignedCommandIsAnsweredWithBlocks() async throws {
        try await withBot { client in
            let (status, message) = try await post(
                client, "/slack/commands", Self.command("add Hollow Knight --status playing"))
            #expect(status == .ok)
            #expect(message["response_type"] as? String == "in_channel")
            let blocks = try #require(message["blocks"] as? [[String: Any]])
            let first = try #require((blocks.first?["text"] as? [String: Any])?["text"] as? String)
            #expect(first.contains("*<https://www.igdb.com/games/hollow-knight|alice added Hollow Knight (2017)>*"))
            #expect((blocks.first?["accessory"] as? [String: Any])?["type"] as? String == "image")
            let actions = try #require(
                blocks.first { $0["type"] as? String == "actions" }?["elements"] as? [[String: Any]])
            #expect(actions.contains { ($0["value"] as? String)?.hasPrefix("/progress title:igdb:") == true })
        }
    }

    /// A score left out of a typed `/gg rate` is asked for: the ten scores to pick from, privately, nothing stored.
    @Test func aRateWithoutAScoreOffersTheScores() async throws {
        let harness = try await TestHarness { $0.slackSigningSecret = Self.secret }
        try await harness.withClient { client in
            let (status, message) = try await post(client, "/slack/commands", Self.command("rate Celeste"))
            #expect(status == .ok && message["response_type"] as? String == "ephemeral")
            let blocks = try #require(message["blocks"] as? [[String: Any]])
            let text = try #require((blocks.first?["text"] as? [String: Any])?["text"] as? String)
            #expect(text.contains("How do you rate *Celeste (2018)*?"), "\(text)")
            let menu = try #require(
                blocks.lazy.compactMap { $0["elements"] as? [[String: Any]] }.joined()
                    .first { $0["type"] as? String == "static_select" })
            let values = (menu["options"] as? [[String: Any]] ?? []).compactMap { $0["value"] as? String }
            #expect(values.count == 10 && values.first?.hasSuffix("score:10") == true, "\(values)")
            let entries = try await harness.services.database.writer.read { db in
                try Int.fetchOne(db, sql: "SELECT count(*) FROM library_entries")
            }
            #expect(entries == 0)
        }
    }

    /// Slack sends `&`, `<` and `>` typed in a command as entities, and a pasted address as `<https://…>`: the bot
    /// reads what was typed.
    @Test func typedTextIsReadAsTypedNotAsSlackEscapesIt() async throws {
        let harness = try await TestHarness { $0.slackSigningSecret = Self.secret }
        try await harness.withClient { client in
            let (_, added) = try await post(
                client, "/slack/commands", Self.command("add <https://store.steampowered.com/app/620/Portal_2/>"))
            #expect((added["text"] as? String)?.contains("alice added Portal 2 (2011)") == true, "\(added)")
            let (_, noted) = try await post(
                client, "/slack/commands", Self.command("note Portal 2 text:co-op w/ Sam &amp; Max &lt;3 &amp;lt;"))
            #expect(noted["response_type"] as? String == "ephemeral")
            let note = try await harness.services.database.writer.read { db in
                try String.fetchOne(db, sql: "SELECT note FROM library_entries")
            }
            #expect(note == "co-op w/ Sam & Max <3 &lt;")
            let (_, shown) = try await post(client, "/slack/commands", Self.command("note Portal 2"))
            let blocks = String(
                decoding: try JSONSerialization.data(withJSONObject: shown["blocks"] ?? []), as: UTF8.self)
            #expect(blocks.contains("Sam &amp; Max &lt;3 &amp;lt;"), "escaped once for Slack: \(blocks)")
            // A tag written with "#" that Slack turned into a channel of that name is the tag.
            _ = try await post(client, "/slack/commands", Self.command("tag Portal 2 tags:co-op"))
            let (_, listed) = try await post(client, "/slack/commands", Self.command("list <#C0COOP|co-op>"))
            let text = String(
                decoding: try JSONSerialization.data(withJSONObject: listed["blocks"] ?? []), as: UTF8.self)
            #expect(text.contains("alice's library — tagged “co-op”") && text.contains("Portal 2"), "\(text)")
        }
    }

    /// A member typed as "@bob" reaches the bot as text when the command does not escape users: the answer says so
    /// and how to name them; a member id Slack sent is answered plainly.
    @Test func aMemberSentAsPlainTextIsExplained() async throws {
        try await withBot { client in
            let (_, plain) = try await post(client, "/slack/commands", Self.command("list @bob"))
            let text = try #require(plain["text"] as? String)
            #expect(plain["response_type"] as? String == "ephemeral")
            #expect(
                text.contains("Slack sent “@bob” as plain text") && text.contains("Escape channels, users, and links"))
            let (_, escaped) = try await post(client, "/slack/commands", Self.command("list <@U0BOB|bob>"))
            let answer = try #require(escaped["text"] as? String)
            #expect(answer.contains("U0BOB hasn't used GGTracker") && !answer.contains("plain text"), "\(answer)")
        }
    }

    @Test func errorsArePrivate() async throws {
        try await withBot { client in
            let (_, message) = try await post(client, "/slack/commands", Self.command("rate Celeste --score 11"))
            #expect(message["response_type"] as? String == "ephemeral")
            #expect((message["text"] as? String)?.contains("score must be between 1 and 10.") == true)
            let blocks = try #require(message["blocks"] as? [[String: Any]])
            let first = try #require((blocks.first?["text"] as? [String: Any])?["text"] as? String)
            #expect(first.contains("`score` must be between 1 and 10."), "\(first)")
        }
    }

    @Test func aCommandThatCannotWriteIsAnsweredAndChangesNothing() async throws {
        let harness = try await TestHarness(
            databasePath: Scratch.path("slack.sqlite")
        ) { $0.slackSigningSecret = Self.secret }
        try await harness.withClient { client in
            _ = try await post(client, "/slack/commands", Self.command("list"))
            try await FailureVisibilityTests.refuseWrites(harness.services.database)
            let (status, message) = try await post(client, "/slack/commands", Self.command("add Celeste"))
            // Slack shows its own bare error for a failed request: the failure is answered as a message instead.
            #expect(status == .ok)
            #expect(message["response_type"] as? String == "ephemeral")
            #expect((message["text"] as? String)?.contains("nothing was changed") == true, "\(message)")
            #expect(try await entries(harness) == 0)
        }
    }

    @Test func badSignaturesOldTimestampsAndReplaysAreRefused() async throws {
        try await withBot { client in
            let body = Self.command("add Celeste")
            let forged = try await post(
                client, "/slack/commands", body, signature: Self.sign(body, timestamp: "1", secret: "wrong"))
            #expect(forged.0 == .unauthorized)
            let old = try await post(client, "/slack/commands", body, timestamp: Date().addingTimeInterval(-600))
            #expect(old.0 == .unauthorized)
            let when = Date()
            let signature = Self.sign(body, timestamp: String(Int(when.timeIntervalSince1970)))
            let first = try await post(client, "/slack/commands", body, timestamp: when, signature: signature)
            #expect(first.0 == .ok)
            let replay = try await post(client, "/slack/commands", body, timestamp: when, signature: signature)
            #expect(replay.0 == .unauthorized)
        }
    }

    @Test func aReplayWithTheSignatureInOtherLetterCaseIsStillAReplay() async throws {
        let harness = try await TestHarness { $0.slackSigningSecret = Self.secret }
        try await harness.withClient { client in
            let body = Self.command("challenge create name:Runs goal:5 unit:custom ends:2099-12-31")
            // The header's timestamp is the signed one: each request is signed for the second it is sent in.
            let when = Date()
            let created = try await post(client, "/slack/commands", body, timestamp: when)
            #expect(created.0 == .ok, "\(created.1)")
            let progress = Self.command("challenge progress name:Runs amount:1")
            let signed = Self.sign(progress, timestamp: String(Int(when.timeIntervalSince1970)))
            let first = try await post(client, "/slack/commands", progress, timestamp: when, signature: signed)
            #expect(first.0 == .ok, "\(first.1)")
            let recased = "v0=" + signed.dropFirst(3).uppercased()
            let upper = try await post(client, "/slack/commands", progress, timestamp: when, signature: recased)
            #expect(upper.0 == .unauthorized)
            let mixed =
                "v0="
                + signed.dropFirst(3).enumerated().map { $0 % 2 == 0 ? $1.uppercased() : String($1) }
                .joined()
            let mixedCase = try await post(client, "/slack/commands", progress, timestamp: when, signature: mixed)
            #expect(mixedCase.0 == .unauthorized)
        }
        let standings = try await harness.services.database.writer.read { db in
            try Double.fetchOne(db, sql: "SELECT sum(custom_progress) FROM challenge_participants") ?? -1
        }
        #expect(standings == 1, "the progress was applied once")
    }

    /// A stand-in for Slack's `response_url`: it answers after `delay`, with `status`, and streams what it got.
    /// Held shut until opened: a stand-in that must not answer before the test says so.
    actor Latch {
        var isOpen = false
        func open() { isOpen = true }
        /// Waits until opened, or `limit` passes.
        func wait(upTo limit: Duration) async {
            let deadline = ContinuousClock.now + limit
            while !isOpen, ContinuousClock.now < deadline { try? await Task.sleep(for: .milliseconds(20)) }
        }
    }

    /// A stand-in for Slack's `response_url`. With `holdUntil`, it answers only once that latch is opened (or after
    /// 90 s), so a bot that waited for it could not have answered first.
    func withResponseURL(
        status: HTTPResponse.Status = .ok, holdUntil latch: Latch? = nil, responseTimeout: Duration = .seconds(10),
        _ body: @Sendable (TestHarness, String, Received) async throws -> Void
    ) async throws {
        let received = Received()
        let router = Router()
        router.post("/response") { request, _ -> Response in
            let body = try await request.body.collect(upTo: 1 << 20)
            await latch?.wait(upTo: .seconds(90))
            await received.add("/response", nil, Data(buffer: body))
            return Response(status: status)
        }
        var logger = Logger(label: "fake-slack")
        logger.logLevel = .critical
        let fake = Application(
            router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)), logger: logger)
        try await fake.test(.live) { fakeClient in
            let port = try #require(fakeClient.port)
            let harness = try await TestHarness {
                $0.slackSigningSecret = Self.secret
                $0.slackResponseBase = "http://127.0.0.1:\(port)/"
                $0.slackResponseTimeout = responseTimeout
            }
            try await body(harness, "http://127.0.0.1:\(port)/response", received)
        }
    }

    static func press(_ line: String, responseURL: String) throws -> String {
        let payload: [String: Any] = [
            "type": "block_actions", "user": ["id": "U0ALICE", "username": "alice"], "team": ["id": "T0001"],
            "channel": ["id": "C0GAMES"], "response_url": responseURL,
            "actions": [["action_id": "gg-button-0", "type": "button", "value": line]],
        ]
        return form([("payload", String(decoding: try JSONSerialization.data(withJSONObject: payload), as: UTF8.self))])
    }

    func entries(_ harness: TestHarness) async throws -> Int {
        try await harness.services.database.writer.read { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM library_entries") ?? -1
        }
    }

    /// The first message posted to the `response_url` stand-in, waited for up to 5 s.
    func firstPost(to received: Received) async throws -> [String: Any] {
        var posted = await received.requests.first
        for _ in 0..<100 where posted == nil {
            try await Task.sleep(for: .milliseconds(50))
            posted = await received.requests.first
        }
        let delivered = try #require(posted)
        return try #require(try JSONSerialization.jsonObject(with: delivered.body) as? [String: Any])
    }

    @Test func buttonPressesPostTheResultToTheResponseURL() async throws {
        try await withResponseURL { harness, url, received in
            try await harness.withClient { client in
                let (status, _) = try await post(
                    client, "/slack/interactions",
                    try Self.press("/add title:Celeste status:completed", responseURL: url))
                #expect(status == .ok)
            }
            let message = try await firstPost(to: received)
            #expect((message["text"] as? String)?.contains("alice completed Celeste (2018)") == true)
        }
    }

    /// `/gg compare` without a member asks whom with, a button for each member seen here last; pressing one compares.
    @Test func aCompareWithoutAMemberOffersTheMembers() async throws {
        try await withResponseURL { harness, url, received in
            try await harness.withClient { client in
                let (_, alone) = try await post(client, "/slack/commands", Self.command("compare"))
                #expect((alone["text"] as? String)?.contains("No one else here has used GGTracker yet") == true)
                _ = try await post(client, "/slack/commands", Self.command("add Celeste", user: "U0BOB"))
                _ = try await post(client, "/slack/commands", Self.command("add Celeste"))
                // Asked again: another delivery (its own trigger), not a replay of the first.
                let (_, ask) = try await post(client, "/slack/commands", Self.command("compare", trigger: "1.2.4"))
                #expect(ask["response_type"] as? String == "ephemeral")
                #expect((ask["text"] as? String)?.contains("Compare your library with whom?") == true, "\(ask)")
                let blocks = try #require(ask["blocks"] as? [[String: Any]])
                let buttons = blocks.filter { $0["type"] as? String == "actions" }
                    .flatMap { $0["elements"] as? [[String: Any]] ?? [] }
                #expect(buttons.count == 1, "only the other member: \(buttons)")
                let value = try #require(buttons.first?["value"] as? String)
                let (status, _) = try await post(client, "/slack/interactions", try Self.press(value, responseURL: url))
                #expect(status == .ok)
            }
            let message = try await firstPost(to: received)
            #expect("\(message["blocks"] ?? "")".contains("Both have (1)"), "\(message)")
        }
    }

    /// `/gg friend add` and `remove` without a member ask whom: the members not followed yet, then those followed.
    @Test func aFriendCommandWithoutAMemberOffersWhomItCanBe() async throws {
        try await withBot { client in
            _ = try await post(client, "/slack/commands", Self.command("add Celeste", user: "U0BOB", trigger: "1"))
            func ask(_ text: String, _ trigger: String) async throws -> (text: String, values: [String]) {
                let (_, message) = try await post(client, "/slack/commands", Self.command(text, trigger: trigger))
                let blocks = message["blocks"] as? [[String: Any]] ?? []
                let values = blocks.filter { $0["type"] as? String == "actions" }
                    .flatMap { $0["elements"] as? [[String: Any]] ?? [] }.compactMap { $0["value"] as? String }
                return (message["text"] as? String ?? "", values)
            }
            let none = try await ask("friend remove", "2")
            #expect(none.text.contains("You follow nobody yet") && none.values.isEmpty, "\(none)")
            let add = try await ask("friend add", "3")
            #expect(add.text.contains("Follow whom?") && add.values.count == 1, "\(add)")
            let followed = try await ask(String(try #require(add.values.first).dropFirst()), "4")
            #expect(followed.text.contains("You now follow"), "\(followed)")
            let everyone = try await ask("friend add", "5")
            #expect(everyone.text.contains("You already follow everyone seen here"), "\(everyone)")
            let remove = try await ask("friend remove", "6")
            #expect(remove.text.contains("Stop following whom?") && remove.values.count == 1, "\(remove)")
            let removed = try await ask(String(try #require(remove.values.first).dropFirst()), "7")
            #expect(removed.text.contains("You no longer follow"), "\(removed)")
        }
    }

    /// `/gg challenge join` and `leave` without a name offer the running challenges one can join, then leave.
    @Test func aChallengeJoinWithoutANameOffersTheRunningOnes() async throws {
        try await withBot { client in
            func say(
                _ text: String, _ trigger: String, user: String = "U0ALICE"
            ) async throws -> (
                text: String, values: [String]
            ) {
                let (_, message) = try await post(
                    client, "/slack/commands", Self.command(text, user: user, trigger: trigger))
                let blocks = message["blocks"] as? [[String: Any]] ?? []
                let values = blocks.filter { $0["type"] as? String == "actions" }
                    .flatMap { $0["elements"] as? [[String: Any]] ?? [] }.compactMap { $0["value"] as? String }
                return ("\(message["text"] ?? "") \(blocks)", values)
            }
            let none = try await say("challenge join", "1")
            #expect(none.text.contains("No running challenge here to join"), "\(none)")
            _ = try await say("challenge create name:Laps goal:5 unit:custom ends:in 2 weeks", "2", user: "U0BOB")
            let join = try await say("challenge join", "3")
            #expect(
                join.text.contains("Join which challenge?") && join.values == ["/challenge join name:Laps"], "\(join)")
            let joined = try await say(String(try #require(join.values.first).dropFirst()), "4")
            #expect(joined.text.contains("joined"), "\(joined)")
            let again = try await say("challenge join", "5")
            #expect(again.text.contains("You are in every running challenge here"), "\(again)")
            let leave = try await say("challenge leave", "6")
            #expect(leave.values == ["/challenge leave name:Laps"], "\(leave)")
        }
    }

    /// "/gg rate Portal 2" typed without option names, where the title as typed names a game too, is only offered
    /// back as the score it may be, with a button that runs it: nothing is stored until it is pressed.
    @Test func aCommandOfferedBackHasAButtonThatRunsIt() async throws {
        try await withResponseURL { harness, url, received in
            try await harness.withClient { client in
                let (_, message) = try await post(client, "/slack/commands", Self.command("rate Portal 2"))
                #expect(message["response_type"] as? String == "ephemeral")
                #expect((message["text"] as? String)?.contains("Did you mean /gg rate title:Portal score:2?") == true)
                let blocks = try #require(message["blocks"] as? [[String: Any]])
                let buttons = blocks.filter { $0["type"] as? String == "actions" }
                    .flatMap { $0["elements"] as? [[String: Any]] ?? [] }
                let button = try #require(buttons.first, "\(blocks)")
                #expect((button["text"] as? [String: Any])?["text"] as? String == "Run it")
                #expect(button["value"] as? String == "/rate title:Portal score:2")
                #expect(try await entries(harness) == 0, "offered, not run")
                let (status, _) = try await post(
                    client, "/slack/interactions", try Self.press(button["value"] as! String, responseURL: url))
                #expect(status == .ok)
            }
            let message = try await firstPost(to: received)
            #expect((message["text"] as? String)?.hasPrefix("alice rated Portal") == true, "\(message)")
            let score = try await harness.services.database.writer.read { db in
                try Int.fetchOne(db, sql: "SELECT score FROM library_entries")
            }
            #expect(score == 2)
        }
    }

    @Test func aSlowResponseURLDoesNotHoldTheAcknowledgement() async throws {
        let latch = Latch()
        // The bot gives the post a minute here, so that a bot that waited for it stands apart from one slowed down
        // by the other tests running at once (seconds, on a loaded machine).
        try await withResponseURL(holdUntil: latch, responseTimeout: .seconds(60)) { harness, url, received in
            try await harness.withClient { client in
                let start = ContinuousClock.now
                let (answer, _) = try await post(
                    client, "/slack/interactions", try Self.press("/add title:Hades", responseURL: url))
                #expect(answer == .ok)
                // The response_url answers only once the test opens the latch: a bot that waited for it would
                // acknowledge only when that post's one-minute timeout ran out, never sooner.
                #expect(ContinuousClock.now - start < .seconds(40), "not held by the response_url")
                #expect(await received.requests.isEmpty)
            }
            await latch.open()
            let stored = try await entries(harness)
            #expect(stored == 1, "the command ran and was stored")
        }
    }

    @Test func aFailingResponseURLStillGetsTheCommandAcknowledged() async throws {
        try await withResponseURL(status: .internalServerError) { harness, url, _ in
            try await harness.withClient { client in
                let (answer, _) = try await post(
                    client, "/slack/interactions", try Self.press("/add title:Hades", responseURL: url))
                #expect(answer == .ok)
            }
            let stored = try await entries(harness)
            #expect(stored == 1, "the command ran and was stored")
        }
    }

    @Test func aResponseURLOutsideSlackIsNotPostedTo() async throws {
        let received = Received()
        try await withResponseURL { harness, url, _ in
            var services = harness.services
            services.config.slackResponseBase = "https://hooks.slack.com/"
            try await TestHarness(services: services, key: harness.key).withClient { client in
                let (status, _) = try await post(
                    client, "/slack/interactions", try Self.press("/add title:Hades", responseURL: url))
                #expect(status == .ok)
            }
            try await Task.sleep(for: .milliseconds(300))
            #expect(await received.requests.isEmpty)
        }
    }
}
