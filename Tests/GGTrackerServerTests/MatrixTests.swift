import Foundation
import GGTrackerCore
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import Testing

@testable import GGTrackerServer

@Suite("Matrix application service")
struct MatrixTests {
    static let room = "!gamenight:localhost"

    static func message(
        _ body: String, from sender: String = "@alice:localhost", id: String = "$\(UUID().uuidString)",
        msgtype: String = "m.text"
    )
        -> [String: Any]
    {
        [
            "type": "m.room.message", "room_id": room, "sender": sender, "event_id": id,
            "origin_server_ts": 1_700_000_000_000, "content": ["msgtype": msgtype, "body": body],
        ]
    }

    func withBot(
        powerLevels: [String: Int] = [:], prepare: @Sendable (TestHarness) async throws -> Void = { _ in },
        _ body: @Sendable (TestHarness.Client, Received) async throws -> Void
    ) async throws {
        let received = Received()
        try await fakeHomeserver(asToken: "as-secret", received: received, powerLevels: powerLevels).test(.live) {
            fake in
            let port = try #require(fake.port)
            let harness = try await TestHarness { config in
                config.matrixHomeserverURL = "http://127.0.0.1:\(port)"
                config.matrixASToken = "as-secret"
                config.matrixHSToken = "hs-secret"
            }
            try await prepare(harness)
            try await harness.withClient { client in try await body(client, received) }
        }
    }

    /// The content of the last message the bot sent to the homeserver.
    static func lastSent(_ received: Received) async throws -> [String: Any] {
        let sent = await received.requests.filter { $0.path.hasPrefix("send") }
        let last = try #require(sent.last)
        return try #require(try JSONSerialization.jsonObject(with: last.body) as? [String: Any])
    }

    func put(
        _ client: TestHarness.Client, txn: String, events: [Any], token: String? = "hs-secret", query: Bool = false
    )
        async throws -> (HTTPResponse.Status, [String: Any])
    {
        var headers: HTTPFields = [.contentType: "application/json"]
        if let token, !query { headers[.authorization] = "Bearer \(token)" }
        let uri = "/_matrix/app/v1/transactions/\(txn)" + (query ? "?access_token=\(token ?? "")" : "")
        let body = try JSONSerialization.data(withJSONObject: ["events": events])
        return try await client.client.execute(uri: uri, method: .put, headers: headers, body: ByteBuffer(data: body)) {
            ($0.status, (try? JSONSerialization.jsonObject(with: Data(buffer: $0.body))) as? [String: Any] ?? [:])
        }
    }

    @Test func tokensAreCheckedBeforeAnythingRuns() async throws {
        try await withBot { client, received in
            let missing = try await put(client, txn: "1", events: [Self.message("!gg add Celeste")], token: nil)
            #expect(missing.0 == .unauthorized && missing.1["errcode"] as? String == "M_UNAUTHORIZED")
            let wrong = try await put(client, txn: "1", events: [Self.message("!gg add Celeste")], token: "nope")
            #expect(wrong.0 == .forbidden && wrong.1["errcode"] as? String == "M_FORBIDDEN")
            #expect(await received.requests.isEmpty)
            let legacy = try await put(client, txn: "2", events: [], token: "hs-secret", query: true)
            #expect(legacy.0 == .ok)
        }
    }

    @Test func anInviteIsJoinedAndACommandIsAnsweredOnceEvenWhenTheTransactionIsRetried() async throws {
        try await withBot { client, received in
            let invite: [String: Any] = [
                "type": "m.room.member", "room_id": Self.room, "sender": "@alice:localhost",
                "state_key": "@ggtracker:localhost",
                "event_id": "$invite", "content": ["membership": "invite"],
            ]
            let command = Self.message("!gg add Hollow Knight --status playing", id: "$cmd1")
            let first = try await put(client, txn: "42", events: [invite, "not an event", command])
            #expect(first.0 == .ok && first.1.isEmpty)
            let again = try await put(client, txn: "42", events: [invite, command])
            #expect(again.0 == .ok)
            let requests = await received.requests
            #expect(requests.map(\.path) == ["join \(Self.room)", "send \(Self.room)"])
            let content = try #require(try JSONSerialization.jsonObject(with: requests[1].body) as? [String: Any])
            #expect(content["msgtype"] as? String == "m.notice")
            #expect(content["format"] as? String == "org.matrix.custom.html")
            #expect((content["body"] as? String)?.contains("alice added Hollow Knight (2017)") == true)
            #expect(
                (content["formatted_body"] as? String)?.contains(
                    "<strong><a href=\"https://www.igdb.com/games/hollow-knight\">") == true)
            #expect(
                ((content["m.relates_to"] as? [String: Any])?["m.in_reply_to"] as? [String: Any])?["event_id"]
                    as? String == "$cmd1")
            #expect((content["m.mentions"] as? [String: Any])?.isEmpty == true)
            #expect(!((content["formatted_body"] as? String) ?? "").contains("<img"))
        }
    }

    @Test func ordinaryChatNoticesAndTheBotsOwnMessagesAreIgnored() async throws {
        try await withBot { client, received in
            _ = try await put(
                client, txn: "7",
                events: [
                    Self.message("good game everyone"), Self.message("!gg help", msgtype: "m.notice"),
                    Self.message("!gg help", from: "@ggtracker:localhost"),
                ])
            #expect(await received.requests.isEmpty)
        }
    }

    /// A reply to the bot's message from a client that quotes it first ("> <@ggtracker:localhost> …", a blank line)
    /// is the command after the quote; a quote of someone else's "!gg" line is not a command.
    @Test func aCommandSentAsAReplyIsReadAfterTheQuotedMessage() async throws {
        try await withBot { client, received in
            let reply = "> <@ggtracker:localhost> 🎮 Game night — who's in?\n> In (1): bob\n\n!gg add Celeste"
            _ = try await put(client, txn: "10", events: [Self.message(reply, id: "$reply")])
            let content = try await Self.lastSent(received)
            #expect((content["body"] as? String)?.contains("alice added Celeste (2018)") == true, "\(content)")
            let quoted = "> <@bob:localhost> !gg remove Celeste\n\nwhy would you"
            _ = try await put(client, txn: "11", events: [Self.message(quoted, id: "$quoted")])
            #expect(await received.requests.filter { $0.path.hasPrefix("send") }.count == 1)
        }
    }

    /// A member is named by a mention pill (the body shows their display name), by their id, or by the name before
    /// the colon on the same homeserver.
    @Test func aMemberIsNamedByAPillTheirIdOrTheirName() async throws {
        try await withBot { client, received in
            _ = try await put(
                client, txn: "20", events: [Self.message("!gg add Celeste", from: "@bob:localhost", id: "$b1")])
            var pill = Self.message("!gg list Bobby Tables", id: "$p1")
            pill["content"] = [
                "msgtype": "m.text", "body": "!gg list Bobby Tables", "format": "org.matrix.custom.html",
                "formatted_body": "!gg list <a href=\"https://matrix.to/#/%40bob%3Alocalhost\">Bobby Tables</a>",
            ]
            for (txn, event) in [
                ("21", pill), ("22", Self.message("!gg list @bob:localhost", id: "$p2")),
                ("23", Self.message("!gg list bob", id: "$p3")),
            ] {
                _ = try await put(client, txn: txn, events: [event])
                let body = try await Self.lastSent(received)["body"] as? String ?? ""
                #expect(body.contains("Celeste (2018)") && !body.contains("hasn't used"), "\(txn): \(body)")
            }
            // A pill in the quote of a reply names the quoted message's sender, not an option: "Celeste" stays a game.
            var reply = Self.message("> <@celeste:localhost> hi\n\n!gg add Celeste", id: "$p4")
            reply["content"] = [
                "msgtype": "m.text", "body": "> <@celeste:localhost> hi\n\n!gg add Celeste",
                "format": "org.matrix.custom.html",
                "formatted_body": "<mx-reply><blockquote><a href=\"https://matrix.to/#/!r/$e\">In reply to</a> "
                    + "<a href=\"https://matrix.to/#/@celeste:localhost\">Celeste</a><br>hi</blockquote></mx-reply>"
                    + "!gg add Celeste",
            ]
            _ = try await put(client, txn: "24", events: [reply])
            let added = try await Self.lastSent(received)["body"] as? String ?? ""
            #expect(added.contains("alice added Celeste (2018)"), "\(added)")
        }
    }

    /// A command sent in a thread is answered in that thread, in reply to the command; one in the room's timeline
    /// is answered there.
    @Test func aCommandInAThreadIsAnsweredInTheThread() async throws {
        try await withBot { client, received in
            var threaded = Self.message("!gg add Celeste", id: "$inthread")
            threaded["content"] = [
                "msgtype": "m.text", "body": "!gg add Celeste",
                "m.relates_to": [
                    "rel_type": "m.thread", "event_id": "$root", "is_falling_back": true,
                    "m.in_reply_to": ["event_id": "$root"],
                ],
            ]
            _ = try await put(client, txn: "30", events: [threaded])
            let relation = try #require(try await Self.lastSent(received)["m.relates_to"] as? [String: Any])
            #expect(relation["rel_type"] as? String == "m.thread" && relation["event_id"] as? String == "$root")
            #expect((relation["m.in_reply_to"] as? [String: Any])?["event_id"] as? String == "$inthread")
            #expect(relation["is_falling_back"] as? Bool == false)
            _ = try await put(client, txn: "31", events: [Self.message("!gg list", id: "$timeline")])
            let plain = try #require(try await Self.lastSent(received)["m.relates_to"] as? [String: Any])
            #expect(plain["rel_type"] == nil && plain["event_id"] == nil, "\(plain)")
            #expect((plain["m.in_reply_to"] as? [String: Any])?["event_id"] as? String == "$timeline")
        }
    }

    /// An edit (`m.replace`) of the message with its new content, with the "* …" fallback body clients send.
    static func edit(_ original: String, to body: String, id: String) -> [String: Any] {
        var event = message("* \(body)", id: id)
        event["content"] = [
            "msgtype": "m.text", "body": "* \(body)", "m.new_content": ["msgtype": "m.text", "body": body],
            "m.relates_to": ["rel_type": "m.replace", "event_id": original],
        ]
        return event
    }

    /// A command edited to fix what was refused is run, under the message it edits; an edit of a command whose
    /// change was made (first sent or edited) is not run again, and says so.
    @Test func anEditedCommandRunsOnlyWhereNoVersionChangedAnything() async throws {
        try await withBot { client, received in
            func answer() async throws -> (body: String, replyTo: String?) {
                let content = try await Self.lastSent(received)
                let relation = content["m.relates_to"] as? [String: Any]
                return (
                    content["body"] as? String ?? "",
                    (relation?["m.in_reply_to"] as? [String: Any])?["event_id"] as? String
                )
            }
            _ = try await put(client, txn: "40", events: [Self.message("!gg ad Celeste", id: "$typo")])
            #expect(try await answer().body.contains("Did you mean"))
            _ = try await put(client, txn: "41", events: [Self.edit("$typo", to: "!gg add Celeste", id: "$fix")])
            let fixed = try await answer()
            #expect(fixed.body.contains("alice added Celeste (2018)") && fixed.replyTo == "$typo", "\(fixed)")
            // Edited again, or a command that changed something when first sent: not run.
            _ = try await put(client, txn: "42", events: [Self.edit("$typo", to: "!gg add Hades", id: "$again")])
            let refused = try await answer().body
            #expect(refused.contains("That command was carried out when you sent it"), "\(refused)")
            _ = try await put(client, txn: "43", events: [Self.message("!gg rate Celeste score:6", id: "$rated")])
            _ = try await put(
                client, txn: "44", events: [Self.edit("$rated", to: "!gg add Hades", id: "$rated2")])
            #expect(try await answer().body.contains("your edit was not run"))
            // A read edited is run: it changed nothing.
            _ = try await put(client, txn: "45", events: [Self.message("!gg list bob", id: "$read")])
            _ = try await put(client, txn: "46", events: [Self.edit("$read", to: "!gg list", id: "$read2")])
            let list = try await answer().body
            #expect(list.contains("Celeste (2018)") && !list.contains("Hades"), "\(list)")
            let sent = await received.requests.filter { $0.path.hasPrefix("send") }.count
            _ = try await put(client, txn: "47", events: [Self.edit("$typo", to: "!gg add Celeste", id: "$fix")])
            #expect(await received.requests.filter { $0.path.hasPrefix("send") }.count == sent)
        }
    }

    @Test func userTextIsEscapedInTheHTML() async throws {
        try await withBot { client, received in
            _ = try await put(client, txn: "8", events: [Self.message("!gg profile set --nickname <b>Bold</b> & co")])
            _ = try await put(client, txn: "9", events: [Self.message("!gg profile show")])
            let sent = try #require(await received.requests.last)
            let content = try #require(try JSONSerialization.jsonObject(with: sent.body) as? [String: Any])
            let html = try #require(content["formatted_body"] as? String)
            #expect(html.contains("&lt;b&gt;Bold&lt;/b&gt; &amp; co") && !html.contains("<b>Bold</b>"))
        }
    }

    @Test func roomModeratorsAreAdmins() async throws {
        try await withBot(powerLevels: ["@alice:localhost": 100, "@bob:localhost": 0]) { client, received in
            _ = try await put(client, txn: "10", events: [Self.message("!gg admin settings --age_gate off")])
            _ = try await put(
                client, txn: "11", events: [Self.message("!gg admin catalog status", from: "@bob:localhost")])
            let bodies = await received.requests.map {
                ((try? JSONSerialization.jsonObject(with: $0.body)) as? [String: Any])?["body"] as? String ?? ""
            }
            #expect(bodies[0].contains("Settings saved"))
            #expect(
                bodies[1].contains("For bob:")
                    && bodies[1].contains("Only admins can use `!gg admin`: room members with power level 50 or more"),
                "\(bodies[1])")
        }
    }

    @Test func userRoomAndPingQueries() async throws {
        try await withBot { client, _ in
            let auth: HTTPFields = [.authorization: "Bearer hs-secret"]
            try await client.client.execute(
                uri: "/_matrix/app/v1/users/@ggtracker:localhost", method: .get, headers: auth
            ) {
                #expect($0.status == .ok)
            }
            try await client.client.execute(
                uri: "/_matrix/app/v1/users/@someone:localhost", method: .get, headers: auth
            ) {
                #expect($0.status == .notFound)
            }
            try await client.client.execute(
                uri: "/_matrix/app/v1/rooms/%23games:localhost", method: .get, headers: auth
            ) {
                #expect($0.status == .notFound)
            }
            try await client.client.execute(
                uri: "/_matrix/app/v1/ping", method: .post, headers: auth, body: ByteBuffer(string: "{}")
            ) {
                #expect($0.status == .ok)
            }
            try await client.client.execute(uri: "/_matrix/app/v1/ping", method: .post, body: ByteBuffer(string: "{}"))
            {
                #expect($0.status == .unauthorized)
            }
        }
    }

    @Test func registrationNamesTheBotExclusively() throws {
        var config = AppConfig()
        config.matrixASToken = "as"
        config.matrixHSToken = "hs"
        config.matrixBotLocalpart = "gg.bot"
        let (yaml, generated) = MatrixRegistration.yaml(config: config)
        #expect(!generated)
        #expect(
            yaml.contains("as_token: \"as\"") && yaml.contains("hs_token: \"hs\"")
                && yaml.contains("rate_limited: false"))
        #expect(yaml.contains("sender_localpart: \"gg.bot\"") && yaml.contains("regex: \"@gg\\\\.bot:.*\""))
        #expect(yaml.contains("exclusive: true") && yaml.contains("url: \"http://127.0.0.1:8080\""))
    }
}
