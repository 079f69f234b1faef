import Foundation
import GGTrackerCatalog
import GGTrackerCore
import GGTrackerServer
import GGTrackerStorage
import GRDB
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import Testing

@Suite("Exactly-once delivery")
struct ExactlyOnceTests {
    static func laps(id: String? = nil) -> [String: Any] {
        I.command(
            "challenge",
            [
                I.sub(
                    "create",
                    [
                        I.option("name", "Laps"), I.option("goal", 100.0), I.option("unit", "custom"),
                        I.option("ends", "2099-01-01"),
                    ])
            ], id: id)
    }

    static func progress(_ amount: Double, id: String) -> [String: Any] {
        I.command("challenge", [I.sub("progress", [I.option("name", "Laps"), I.option("amount", amount)])], id: id)
    }

    static func lapsProgress(_ database: AppDatabase) async throws -> Double {
        try await database.writer.read { db in
            try Double.fetchOne(db, sql: "SELECT sum(custom_progress) FROM challenge_participants") ?? 0
        }
    }

    @Test func aRetryWhoseChangeCommittedButWhoseAnswerWasLostIsNotAppliedAgain() async throws {
        let harness = try await TestHarness()
        let database = harness.services.database
        try await harness.withClient { client in
            _ = try await client.send(Self.laps())
            let first = try await client.send(Self.progress(7, id: "1322222222222222222"))
            #expect(first.text.contains("Laps"))
            // The process died after committing the change and before storing the answer: what is left is
            // the claim written in the change's own transaction.
            try await database.writer.write { db in
                try db.execute(
                    sql: "UPDATE processed_interactions SET response = NULL, attempt = 'dead' WHERE id = ?",
                    arguments: ["1322222222222222222"])
            }
            let retry = try await client.send(Self.progress(7, id: "1322222222222222222"))
            #expect(retry.ephemeral && retry.content.contains("already carried out"))
            // Answered once now, the same way every time.
            let again = try await client.send(Self.progress(7, id: "1322222222222222222"))
            #expect(again.body == retry.body)
        }
        #expect(try await Self.lapsProgress(database) == 7)
    }

    @Test func concurrentCopiesOfOneDeliveryApplyOnce() async throws {
        let harness = try await TestHarness()
        let database = harness.services.database
        try await harness.withClient { client in
            _ = try await client.send(Self.laps())
            let delivery = Self.progress(5, id: "1333333333333333333")
            let bodies = try await withThrowingTaskGroup(of: Data.self) { group in
                for _ in 0..<8 { group.addTask { try await client.send(delivery).body } }
                return try await group.reduce(into: [Data]()) { $0.append($1) }
            }
            #expect(Set(bodies).count == 1, "every copy gets the same answer")
        }
        #expect(try await Self.lapsProgress(database) == 5)
    }

    @Test func aRetryAfterARestartGetsTheStoredAnswer() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("gg-\(UUID().uuidString).sqlite").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let delivery = I.command(
            "add", [I.option("title", "Hades"), I.option("hours", 3.0)], id: "1344444444444444444")
        let before = try await TestHarness(databasePath: path)
        let first = try await before.withClient { try await $0.send(delivery).body }
        // A new process on the same file, with a new signing key standing in for the same application.
        var after = try await TestHarness(databasePath: path) { $0.discordPublicKey = before.key.publicKey }
        after.key = before.key
        let again = try await after.withClient { try await $0.send(delivery).body }
        #expect(again == first)
        let entries = try await after.services.database.writer.read { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM library_entries") ?? 0
        }
        #expect(entries == 1)
    }

    @Test func deliveryIdsArePrunedAfterADay() async throws {
        let database = try AppDatabase.inMemory()
        let now = Date()
        try await database.deliveries.recordProcessed(
            "old", response: Data("{}".utf8), at: now.addingTimeInterval(-90_000))
        try await database.deliveries.recordProcessed(
            "recent", response: Data("{}".utf8), at: now.addingTimeInterval(-3_600))
        let removed = try await database.deliveries.prune(now: now)
        #expect(removed == 1)
        #expect(try await database.deliveries.deliverySeen("recent"))
        #expect(try await !database.deliveries.deliverySeen("old"))
    }
}

@Suite("Limits and back-pressure")
struct LimitsTests {
    @Test func anOversizedBodyIs413BeforeItIsRead() async throws {
        let harness = try await TestHarness()
        try await harness.withClient { client in
            let big = ByteBuffer(repeating: UInt8(ascii: "x"), count: (1 << 20) + 1)
            let status = try await client.client.execute(
                uri: "/discord/interactions", method: .post,
                headers: [.contentType: "application/json", .contentLength: "\(big.readableBytes)"], body: big
            ) { $0.status }
            #expect(status == .contentTooLarge)
            let slack = try await client.client.execute(
                uri: "/slack/commands", method: .post, headers: [.contentLength: "\(big.readableBytes)"], body: big
            ) { $0.status }
            #expect(slack == .contentTooLarge)
        }
        #expect(try await harness.services.database.deliveries.deliverySeen("anything") == false)
    }

    @Test func aUserFloodingCommandsIsAskedToSlowDownAndNothingChanges() async throws {
        // The bot's clock stands still, so however slowly a loaded machine sends the four, none is refilled.
        let instant = Date()
        let harness = try await TestHarness(
            configure: { $0.limits = .init(userPerMinute: 3, serverPerMinute: 0) }, now: { instant })
        try await harness.withClient { client in
            for title in ["Hades", "Celeste", "Undertale"] {
                let answer = try await client.send(I.command("add", [I.option("title", title)]))
                #expect(answer.text.contains("added \(title)"))
            }
            let fourth = try await client.send(I.command("add", [I.option("title", "Hollow Knight")]))
            #expect(
                fourth.ephemeral && fourth.content.contains("Try again in ")
                    && fourth.content.contains("nothing was changed"))
            // Someone else in the same server is not held up by Alice.
            let bob = try await client.send(I.command("add", [I.option("title", "Hollow Knight")], as: .bob))
            #expect(bob.text.contains("added Hollow Knight"))
        }
        let entries = try await harness.services.database.writer.read { db in
            try String.fetchAll(db, sql: "SELECT player_id FROM library_entries ORDER BY player_id")
        }
        #expect(entries.count == 4)
    }

    @Test func aRetryWhileOverTheRateGetsItsAnswerNotASlowDown() async throws {
        let instant = Date()
        let harness = try await TestHarness(
            configure: { $0.limits = .init(userPerMinute: 2, serverPerMinute: 0) }, now: { instant })
        try await harness.withClient { client in
            _ = try await client.send(I.command("add", [I.option("title", "Hades")]))
            let first = try await client.send(I.command("add", [I.option("title", "Celeste")], id: "retried-add"))
            #expect(first.text.contains("added Celeste"))
            // Alice is now at her limit; the same interaction delivered again is answered as it was.
            let again = try await client.send(I.command("add", [I.option("title", "Celeste")], id: "retried-add"))
            #expect(again.content == first.content && again.text.contains("added Celeste"), "\(again.content)")
            let other = try await client.send(I.command("add", [I.option("title", "Undertale")]))
            #expect(other.content.contains("Try again in "))
        }
    }

    @Test func aServerOverItsRateIsSlowedDownAsAWhole() async throws {
        let limits = FloodGuard(.init(userPerMinute: 0, serverPerMinute: 2))
        let now = Date()
        #expect(limits.admit(user: "a", server: "guild", at: now) == nil)
        #expect(limits.admit(user: "b", server: "guild", at: now) == nil)
        #expect(limits.admit(user: "c", server: "guild", at: now) == 30)
        #expect(limits.admit(user: "c", server: "other", at: now) == nil)
        // The bucket refills evenly: one command every 30 seconds.
        #expect(limits.admit(user: "c", server: "guild", at: now.addingTimeInterval(30)) == nil)
    }

    @Test func aFailingProviderOpensTheCircuitAndIsNotAskedUntilTheCooldownEnds() async throws {
        let state = FakeIGDBState(games: try fakeGames(count: 5))
        await state.setGarbage(true)
        try await fakeIGDB(state, clientID: "client", secret: "secret").test(.live) { fake in
            let port = try #require(fake.port)
            let harness = try await TestHarness(emptyCatalog: true)
            var logger = Logger(label: "igdb")
            logger.logLevel = .critical
            var client = IGDBClient(
                apiBase: "http://127.0.0.1:\(port)/v4", oauthBase: "http://127.0.0.1:\(port)/oauth2",
                clientID: "client", clientSecret: "secret", database: harness.services.database,
                limiter: RateLimiter(perSecond: 100, maxInFlight: 8), logger: logger)
            client.metrics = harness.services.metrics.factory
            var services = harness.services
            services.catalog.provider = client
            services.catalog.breaker = CircuitBreaker(threshold: 3, cooldown: 60)
            try await TestHarness(services: services, key: harness.key).withClient { bot in
                for query in ["alpha quest", "beta quest", "gamma quest"] {
                    let answer = try await bot.send(I.command("search", [I.option("query", query)]))
                    #expect(answer.text.contains("unreachable right now"))
                }
                #expect(await state.apiRequests == 3)
                let fast = try await bot.send(I.command("search", [I.option("query", "delta quest")]))
                // The cooldown counts down from 60 s from the third failure; a loaded machine shows a few seconds less.
                let countdown = try Regex(#"unreachable right now; try again in (\d+) s"#)
                let wait = fast.text.firstMatch(of: countdown).flatMap { $0.output[1].substring.flatMap { Int($0) } }
                #expect((45...60).contains(wait ?? 0), "\(fast.text)")
                #expect(await state.apiRequests == 3, "an open circuit makes no call")
                let scrape = try await bot.client.execute(uri: "/metrics", method: .get) { String(buffer: $0.body) }
                #expect(scrape.contains(#"ggtracker_provider_requests_total{provider="igdb",status="200"} 3"#))
                #expect(scrape.contains("ggtracker_provider_circuit_open 1"))
            }
        }
    }
}

@Suite("Health, readiness and metrics")
struct OperationsEndpointTests {
    @Test func readyzAndMetricsDescribeTheRunningBot() async throws {
        let harness = try await TestHarness()
        try await harness.withClient { client in
            _ = try await client.send(I.command("add", [I.option("title", "Hades")]))
            _ = try await client.send(I.command("list"))
            let ready = try await client.client.execute(uri: "/readyz", method: .get) { $0.status }
            #expect(ready == .ok)
            let (status, type, text) = try await client.client.execute(uri: "/metrics", method: .get) {
                ($0.status, $0.headers[.contentType] ?? "", String(buffer: $0.body))
            }
            #expect(status == .ok && type.hasPrefix("text/plain; version=0.0.4"))
            #expect(text.contains(#"ggtracker_requests_total{platform="discord",command="add",outcome="ok"} 1"#))
            #expect(text.contains("# TYPE ggtracker_request_duration_seconds histogram"))
            #expect(text.contains(#"ggtracker_request_duration_seconds_count{platform="discord",command="list"} 1"#))
            #expect(text.contains("ggtracker_catalog_games 34"))
            #expect(!text.contains("tok-"), "interaction tokens never reach the metrics")
        }
    }

    @Test func readyzIs503UntilTheSchemaIsThisVersions() async throws {
        let harness = try await TestHarness()
        // As if the newest migration had not run.
        try await harness.services.database.writer.write { db in
            try db.execute(sql: "DELETE FROM grdb_migrations WHERE identifier LIKE 'v4%'")
        }
        try await harness.withClient { client in
            let (status, body) = try await client.client.execute(uri: "/readyz", method: .get) {
                ($0.status, String(buffer: $0.body))
            }
            #expect(status == .serviceUnavailable)
            #expect(body == "not ready: not every migration of this version has run\n")
        }
    }

    @Test func secretsCanBeReadFromFiles() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("gg-secret-\(UUID().uuidString)")
        let toml = file.appendingPathExtension("toml")
        try "s3cr3t\n".write(to: file, atomically: true, encoding: .utf8)
        try "[slack]\nsigning_secret = \"from-the-file\"\n".write(to: toml, atomically: true, encoding: .utf8)
        defer {
            try? FileManager.default.removeItem(at: file)
            try? FileManager.default.removeItem(at: toml)
        }
        let config = try AppConfig.load(file: toml.path, environment: ["SLACK_SIGNING_SECRET_FILE": file.path])
        #expect(config.slackSigningSecret == "s3cr3t")
    }
}

@Suite("Structured logs")
struct LogTests {
    @Test func aLogLineIsOneJSONObjectWithTheRecordsFields() throws {
        let data = JSONLogHandler.line(
            level: .info, label: "ggtracker", message: "interaction",
            metadata: ["platform": "discord", "command": "add", "ms": .stringConvertible(1.25)],
            at: Date(timeIntervalSince1970: 0))
        #expect(data.last == 0x0A && data.filter { $0 == 0x0A }.count == 1)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(object["message"] as? String == "interaction")
        #expect(object["platform"] as? String == "discord" && object["command"] as? String == "add")
        #expect(object["ms"] as? String == "1.25" && object["level"] as? String == "info")
        #expect((object["time"] as? String)?.hasPrefix("1970-01-01T00:00:00") == true)
    }
}

@Suite("Requests that fail verification")
struct UnverifiedRequestTests {
    @Test func aRequestWithoutAValidSignatureOrTokenNeverReachesTheDatabase() async throws {
        let harness = try await TestHarness { config in
            config.slackSigningSecret = "slack-secret"
            config.matrixHSToken = "hs-secret"
            config.matrixASToken = "as-secret"
        }
        try await harness.withClient { client in
            let body = try JSONSerialization.data(withJSONObject: I.command("add", [I.option("title", "Hades")]))
            let stamp = String(Int(Date().timeIntervalSince1970))
            let forged = try await client.post(body, signature: String(repeating: "ab", count: 64), timestamp: stamp)
            #expect(forged.status == .unauthorized)
            let stale = String(Int(Date().timeIntervalSince1970) - 301)
            let old = try await client.post(body, signature: try client.sign(body, timestamp: stale), timestamp: stale)
            #expect(old.status == .unauthorized)
            let slack = try await client.client.execute(
                uri: "/slack/commands", method: .post,
                headers: [
                    HTTPField.Name("X-Slack-Request-Timestamp")!: stamp,
                    HTTPField.Name("X-Slack-Signature")!: "v0=" + String(repeating: "0", count: 64),
                ], body: ByteBuffer(string: "user_id=U1&team_id=T1&text=add+title%3AHades")
            ) { $0.status }
            #expect(slack == .unauthorized)
            let matrix = try await client.client.execute(
                uri: "/_matrix/app/v1/transactions/1", method: .put, headers: [.authorization: "Bearer wrong"],
                body: ByteBuffer(string: #"{"events":[]}"#)
            ) { $0.status }
            #expect(matrix == .forbidden)
        }
        let rows = try await harness.services.database.writer.read { db in
            try Int.fetchOne(
                db,
                sql: """
                    SELECT (SELECT count(*) FROM players) + (SELECT count(*) FROM processed_interactions)
                        + (SELECT count(*) FROM library_entries)
                    """)
        }
        #expect(rows == 0)
    }
}
