import Foundation
import GGTrackerCatalog
import GGTrackerCore
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import Testing

@testable import GGTrackerServer

/// A local stand-in for the Slack Web API's `files.list` and the private file host, as Slack answers them: errors
/// as `200 {"ok": false, "error": …}`, and a private file asked for with a token it refuses as its sign-in page.
actor FakeSlackFiles {
    static let token = "xoxb-test-token"
    /// Files by the user who shared them: name, the file's bytes, its type and when it was shared.
    var shared: [String: [(name: String, data: Data, filetype: String, created: Date)]] = [:]
    var error: String?
    var listed: [String] = []
    /// Messages posted to the `response_url` a button press gives.
    var posted: [Data] = []
    /// Messages posted with `chat.postMessage`.
    var channelPosts: [[String: Any]] = []

    func post(_ message: Data) { posted.append(message) }

    /// Channels the app is not a member of: a post there is refused as Slack refuses it.
    let outside: Set<String> = ["C0OUTSIDE"]
    /// Channels whose next post is over Slack's rate limit: answered 429 with `Retry-After`, once.
    var busy: Set<String> = ["C0BUSY"]

    /// Whether a post is over the rate limit (its channel's first).
    func overLimit(_ body: Data) -> Bool {
        let message = try? JSONSerialization.jsonObject(with: body) as? [String: Any]
        return busy.remove(message?["channel"] as? String ?? "") != nil
    }

    func postToChannel(_ body: Data) -> [String: Any] {
        guard let message = try? JSONSerialization.jsonObject(with: body) as? [String: Any],
            let channel = message["channel"] as? String, channel.hasPrefix("C")
        else { return ["ok": false, "error": "channel_not_found"] }
        if outside.contains(channel) { return ["ok": false, "error": "not_in_channel"] }
        channelPosts.append(message)
        return ["ok": true, "channel": channel, "ts": "1700000000.000\(channelPosts.count)"]
    }

    func share(_ name: String, _ data: Data, by user: String, filetype: String = "csv", at created: Date = Date()) {
        shared[user, default: []].append((name, data, filetype, created))
    }

    func fail(with error: String) { self.error = error }

    /// How long the file host takes before it answers.
    var delay: Duration = .zero
    func slowDown(_ delay: Duration) { self.delay = delay }

    func list(_ query: String, host: String) -> [String: Any] {
        listed.append(query)
        if let error { return ["ok": false, "error": error, "needed": "files:read", "provided": "commands"] }
        let fields = Dictionary(
            query.split(separator: "&").map { $0.split(separator: "=", maxSplits: 1).map(String.init) }.map {
                ($0[0], $0.count > 1 ? $0[1] : "")
            }, uniquingKeysWith: { $1 })
        let since = Double(fields["ts_from"] ?? "0") ?? 0
        let files = (shared[fields["user"] ?? ""] ?? []).enumerated().filter {
            $0.element.created.timeIntervalSince1970 >= since
        }
        return [
            "ok": true,
            "files": files.map { index, file in
                [
                    "id": "F0\(index)", "created": Int(file.created.timeIntervalSince1970), "name": file.name,
                    "title": file.name, "filetype": file.filetype, "size": file.data.count,
                    "user": fields["user"] ?? "",
                    "url_private": "http://\(host)/files-pri/T0001-F0\(index)/\(file.name)",
                    "url_private_download": "http://\(host)/files-pri/T0001-F0\(index)/download/\(file.name)",
                ] as [String: Any]
            },
        ]
    }

    func file(_ name: String) -> Data? { shared.values.joined().first { $0.name == name }?.data }
}

func fakeSlackAPI(_ state: FakeSlackFiles) -> some ApplicationProtocol {
    let router = Router()
    router.get("/api/files.list") { request, _ -> Response in
        let host = request.head.authority ?? "127.0.0.1"
        let object: [String: Any] =
            request.headers[.authorization] == "Bearer \(FakeSlackFiles.token)"
            ? await state.list(request.uri.query ?? "", host: host) : ["ok": false, "error": "invalid_auth"]
        return FakeHomeserver.json(.ok, object)
    }
    router.get("/files-pri/:file/download/:name") { request, context -> Response in
        try await Task.sleep(for: await state.delay)
        guard request.headers[.authorization] == "Bearer \(FakeSlackFiles.token)",
            let data = await state.file(context.parameters.get("name") ?? "")
        else {
            return Response(
                status: .ok, headers: [.contentType: "text/html; charset=utf-8"],
                body: .init(
                    byteBuffer: ByteBuffer(string: "<!DOCTYPE html><html><title>Sign in | Slack</title></html>")))
        }
        return Response(
            status: .ok, headers: [.contentType: "text/csv"], body: .init(byteBuffer: ByteBuffer(data: data)))
    }
    router.post("/api/chat.postMessage") { request, _ -> Response in
        guard request.headers[.authorization] == "Bearer \(FakeSlackFiles.token)" else {
            return FakeHomeserver.json(.ok, ["ok": false, "error": "invalid_auth"])
        }
        let body = Data(buffer: try await request.body.collect(upTo: 1 << 20))
        if await state.overLimit(body) {
            var limited = FakeHomeserver.json(.tooManyRequests, ["ok": false, "error": "ratelimited"])
            limited.headers[.retryAfter] = "1"
            return limited
        }
        return FakeHomeserver.json(.ok, await state.postToChannel(body))
    }
    router.post("/response") { request, _ -> Response in
        await state.post(Data(buffer: try await request.body.collect(upTo: 1 << 20)))
        return Response(status: .ok)
    }
    var logger = Logger(label: "fake-slack")
    logger.logLevel = .warning
    return Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)), logger: logger)
}

extension SlackTests {
    /// The first message posted to a `response_url`, waited for up to 5 s.
    static func firstPosted(_ state: FakeSlackFiles) async throws -> String {
        var posted = await state.posted
        for _ in 0..<100 where posted.isEmpty {
            try await Task.sleep(for: .milliseconds(50))
            posted = await state.posted
        }
        return String(decoding: try #require(posted.first), as: UTF8.self)
    }

    /// A Grouvee export Alice shared, which the file host takes 2.5 s to hand over, against a deadline of 1 s; the
    /// `response_url` answers are posted to.
    func withSlowSharedFile(
        _ body: @Sendable (FakeSlackFiles, TestHarness, TestHarness.Client, String) async throws -> Void
    ) async throws {
        // The quick commands around it must answer within the deadline on a loaded machine too: 3 s, the file 6 s.
        try await withFiles(deferAfter: .seconds(3)) { state, harness, client in
            await state.share("grouvee.csv", try ImportTests.fixture("grouvee"), by: "U0ALICE")
            await state.slowDown(.milliseconds(6000))
            try await body(state, harness, client, harness.services.config.slackResponseBase + "response")
        }
    }

    func withFiles(
        token: String = FakeSlackFiles.token, deferAfter: Duration = .seconds(120),
        now: @escaping @Sendable () -> Date = { Date() },
        _ body: @Sendable (FakeSlackFiles, TestHarness, TestHarness.Client) async throws -> Void
    ) async throws {
        let state = FakeSlackFiles()
        try await fakeSlackAPI(state).test(.live) { fake in
            let port = try #require(fake.port)
            let harness = try await TestHarness(
                adminIDs: ["slack:U0ALICE"],
                configure: { config in
                    config.slackSigningSecret = Self.secret
                    config.slackFiles.botToken = token
                    config.slackFiles.apiBase = "http://127.0.0.1:\(port)/api"
                    config.slackFiles.filesBase = "http://127.0.0.1:\(port)/files-pri/"
                    config.slackResponseBase = "http://127.0.0.1:\(port)/"
                    config.deferAfter = deferAfter
                }, now: now)
            try await harness.withClient { client in try await body(state, harness, client) }
        }
    }

    /// Everything a Slack answer says, as one string.
    static func said(_ message: [String: Any]) -> String {
        String(
            decoding: (try? JSONSerialization.data(withJSONObject: message, options: .withoutEscapingSlashes))
                ?? Data(), as: UTF8.self)
    }

    static func games(_ harness: TestHarness, of user: String) async throws -> [String: LibraryEntry] {
        let export = try await harness.services.database.library.export(of: PlayerID("slack:\(user)"), at: Date())
        return Dictionary(uniqueKeysWithValues: (export?.entries ?? []).map { ($0.game.name, $0) })
    }

    /// A CSV export the member shared in the channel comes in with `/gg import file`: the newest of theirs there, read
    /// with the bot token from the private file host.
    @Test func theNewestCSVSharedInTheChannelIsImported() async throws {
        try await withFiles { state, harness, client in
            let csv = try ImportTests.fixture("grouvee")
            await state.share("old.csv", Data("Title\n".utf8), by: "U0ALICE", at: Date().addingTimeInterval(-3600))
            await state.share("grouvee.csv", csv, by: "U0ALICE")
            await state.share("cover.png", Data([0x89, 0x50]), by: "U0ALICE", filetype: "png")
            await state.share("bob.csv", Data("Title\n".utf8), by: "U0BOB")
            let (status, message) = try await post(client, "/slack/commands", Self.command("import file"))
            #expect(status == .ok)
            let text = Self.said(message)
            #expect(text.contains("Import from Grouvee (grouvee.csv)"), "\(text)")
            #expect(text.contains("3 added"), "\(text)")
            let listed = try #require(await state.listed.first)
            #expect(listed.contains("channel=C0GAMES") && listed.contains("user=U0ALICE"), "\(listed)")
            let since = try #require(listed.split(separator: "&").first { $0.hasPrefix("ts_from=") }?.dropFirst(8))
            #expect(abs(Date().timeIntervalSince1970 - 86_400 - (Double(since) ?? 0)) < 60)
            let games = try await Self.games(harness, of: "U0ALICE")
            #expect(games["Celeste"]?.status == .completed && games["Hades"]?.status == .playing)
        }
    }

    /// An import still running at Slack's deadline is acknowledged, privately, and its summary follows at the
    /// `response_url`, the games stored; a quick command is answered at once.
    @Test func aSlowImportIsAcknowledgedAndItsAnswerFollows() async throws {
        try await withSlowSharedFile { state, harness, client, url in
            let (status, message) = try await post(
                client, "/slack/commands", Self.command("import file", responseURL: url))
            #expect(status == .ok)
            #expect(message["response_type"] as? String == "ephemeral")
            #expect(Self.said(message).contains("Working on it: the answer follows here"), "\(Self.said(message))")
            let followed = try await Self.firstPosted(state)
            #expect(
                followed.contains("Import from Grouvee (grouvee.csv)") && followed.contains("3 added"), "\(followed)")
            #expect(try await Self.games(harness, of: "U0ALICE")["Celeste"] != nil)

            let (_, listed) = try await post(client, "/slack/commands", Self.command("list", responseURL: url))
            #expect(Self.said(listed).contains("Celeste"), "\(Self.said(listed))")
            // Each command counted once, with the answer it was given at Slack's deadline.
            let metrics = try await client.client.execute(uri: "/metrics", method: .get) { String(buffer: $0.body) }
            #expect(
                metrics.contains(#"ggtracker_requests_total{platform="slack",command="import",outcome="deferred"} 1"#))
            #expect(!metrics.contains(#"platform="slack",command="import",outcome="private""#), "\(metrics)")
            #expect(metrics.contains(#"ggtracker_requests_total{platform="slack",command="list",outcome="ok"} 1"#))
        }
    }

    /// A button whose command is still busy at Slack's deadline is acknowledged at once; its result follows.
    @Test func aSlowButtonIsAcknowledgedBeforeItsResult() async throws {
        try await withSlowSharedFile { state, harness, client, url in
            let (status, _) = try await post(
                client, "/slack/interactions", try Self.press("/import file", responseURL: url))
            #expect(status == .ok)
            // The file is still downloading: nothing posted yet, nothing imported.
            #expect(await state.posted.isEmpty)
            #expect(try await Self.games(harness, of: "U0ALICE")["Celeste"] == nil)
            let message = try await Self.firstPosted(state)
            #expect(message.contains("Import from Grouvee (grouvee.csv)"), "\(message)")
        }
    }

    /// A button that runs `/import file` (offered for a mistyped command) takes the shared file too.
    @Test func aButtonRunningTheImportTakesTheSharedFile() async throws {
        try await withFiles { state, harness, client in
            await state.share("grouvee.csv", try ImportTests.fixture("grouvee"), by: "U0ALICE")
            let url = harness.services.config.slackResponseBase + "response"
            let (status, _) = try await post(
                client, "/slack/interactions", try Self.press("/import file", responseURL: url))
            #expect(status == .ok)
            let message = try await Self.firstPosted(state)
            #expect(message.contains("Import from Grouvee (grouvee.csv)"), "\(message)")
            #expect(try await Self.games(harness, of: "U0ALICE")["Celeste"] != nil)
        }
    }

    /// No CSV to take, Slack refusing to list files, or a token the file host refuses: the answer says why and
    /// nothing comes in.
    @Test func anImportWithoutAFileToTakeSaysWhyAndImportsNothing() async throws {
        try await withFiles { state, harness, client in
            await state.share("cover.png", Data([0x89, 0x50]), by: "U0ALICE", filetype: "png")
            await state.share("older.csv", Data("Title\n".utf8), by: "U0ALICE", at: Date().addingTimeInterval(-90_000))
            let none = Self.said(try await post(client, "/slack/commands", Self.command("import file")).1)
            #expect(
                none.contains("No CSV file from you in this channel in the last day that this app can see"), "\(none)")
            #expect(none.contains("the app must be a member of the channel"), "\(none)")
            #expect(none.contains("`/gg import file`") && none.contains("Nothing was imported."), "\(none)")

            await state.fail(with: "missing_scope")
            let scope = Self.said(
                try await post(client, "/slack/commands", Self.command("import file format:auto")).1)
            #expect(scope.contains("an admin needs to add the files:read scope"), "\(scope)")
            #expect(try await Self.games(harness, of: "U0ALICE").isEmpty)
        }
        try await withFiles(token: "xoxb-revoked") { state, harness, client in
            await state.share("grouvee.csv", try ImportTests.fixture("grouvee"), by: "U0ALICE")
            let refused = Self.said(try await post(client, "/slack/commands", Self.command("import file")).1)
            #expect(refused.contains("Slack refused this app's token"), "\(refused)")
            #expect(try await Self.games(harness, of: "U0ALICE").isEmpty)
        }
    }

    /// A private file address Slack gives is downloaded with the token; a sign-in page in its place is refused.
    @Test func aSignInPageInPlaceOfTheFileIsRefused() async throws {
        try await withFiles { state, harness, _ in
            await state.share("grouvee.csv", try ImportTests.fixture("grouvee"), by: "U0ALICE")
            var sources = try #require(harness.services.bot.sources as? LibrarySourcesClient)
            let base = try #require(sources.slackFiles?.base)
            let file = Attachment(url: base + "T0001-F00/download/grouvee.csv", filename: "grouvee.csv", size: 10)
            #expect(try await sources.download(file, limit: 1 << 20) == ImportTests.fixture("grouvee"))
            sources.slackFiles?.token = "xoxb-wrong"
            let error = await #expect(throws: ImportSourceError.self) {
                _ = try await sources.download(file, limit: 1 << 20)
            }
            #expect(error?.message.contains("a sign-in page came instead") == true, "\(String(describing: error))")
        }
    }
}
