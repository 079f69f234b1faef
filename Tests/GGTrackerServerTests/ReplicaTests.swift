import AsyncHTTPClient
@preconcurrency import Crypto
import Foundation
import GGTrackerCore
import GGTrackerStorage
import Hummingbird
import HummingbirdTesting
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Two `ggtracker serve` processes sharing one PostgreSQL database, as behind a load balancer.
@Suite("Two replicas on one PostgreSQL database", .serialized)
struct ReplicaTests {
    /// The server named by `GGTRACKER_TEST_POSTGRES` (empty is unset); in continuous integration it must be there.
    static let postgresURL = ProcessInfo.processInfo.environment["GGTRACKER_TEST_POSTGRES"].flatMap {
        $0.isEmpty ? nil : $0
    }
    static var runs: Bool {
        ServerProcess.binaryExists
            && (postgresURL != nil || ProcessInfo.processInfo.environment["CI"] != nil)
    }

    static func freshDatabase() throws -> String {
        let base = try #require(postgresURL, "GGTRACKER_TEST_POSTGRES is not set")
        let schema = "r_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(16).lowercased()
        return base + (base.contains("?") ? "&" : "?") + "schema=\(schema)"
    }

    static func progressByPlayer(_ url: String) async throws -> [String: Double] {
        let database = try await AppDatabase.open(url, connections: 1)
        defer { try? database.close() }
        return try await database.read { db in
            try await db.fetchAll("SELECT player_id, custom_progress FROM challenge_participants").reduce(into: [:]) {
                $0[$1["player_id"] as String] = $1["custom_progress"] as Double
            }
        }
    }

    static func text(_ answer: (UInt, Data)?) -> String {
        answer.map { String(decoding: $0.1, as: UTF8.self) } ?? ""
    }

    @Test(.enabled(if: ServerProcess.binaryExists))
    func anUnreachableDatabaseAtStartUpIsNamedAndTheExitIsNonZero() async throws {
        let refused = try await ServerProcess.commandInBackground([
            "serve", "--port", "1", "--database", "postgres://bot@127.0.0.1:1/db",
        ])
        #expect(refused.status != 0)
        #expect(refused.output.contains("cannot connect to the database at postgres://bot@127.0.0.1:1/db"))
        #expect(refused.output.contains("refused"), "says why: \(refused.output)")
        let malformed = try await ServerProcess.commandInBackground([
            "db", "migrate", "--database", "postgres:/nowhere",
        ])
        #expect(malformed.status != 0 && malformed.output.contains("is not a PostgreSQL URL"))
    }

    @Test(.enabled(if: runs))
    func replicasStartingTogetherMigrateOnce() async throws {
        let url = try Self.freshDatabase()
        let opened = try await withThrowingTaskGroup(of: Bool.self) { group in
            for _ in 0..<4 {
                group.addTask {
                    let database = try await AppDatabase.open(url, connections: 1)
                    defer { try? database.close() }
                    return try await database.isReady()
                }
            }
            return try await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(opened == [true, true, true, true])
    }

    @Test(.enabled(if: runs), .timeLimit(.minutes(10)))
    func replicasShareTheWorkApplyEachDeliveryOnceAndSurviveALostReplica() async throws {
        let url = try Self.freshDatabase()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "gg-replicas-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let state = FakeIGDBState(games: try fakeGames(count: 1_200))
        // Discord's edit of a deferred answer.
        let edits = Received()
        try await fakeDiscordWebhooks(edits).test(.live) { discordClient in
            let discordPort = try #require(discordClient.port)
            try await fakeIGDB(state, clientID: "client", secret: "secret").test(.live) { fake in
                let igdb = try #require(fake.port)
                let key = Curve25519.Signing.PrivateKey()
                let publicKey = key.publicKey.rawRepresentation.map { String(format: "%02x", $0) }.joined()
                let port = 20_000 + Int.random(in: 0..<900) * 2
                let environment = [
                    "GGTRACKER_CATALOG": "igdb", "IGDB_CLIENT_ID": "client", "IGDB_CLIENT_SECRET": "secret",
                    "IGDB_API_BASE": "http://127.0.0.1:\(igdb)/v4",
                    "TWITCH_OAUTH_BASE": "http://127.0.0.1:\(igdb)/oauth2",
                    "DISCORD_API_BASE": "http://127.0.0.1:\(discordPort)/api/v10",
                ]
                let http = HTTPClient.shared
                var replicas: [ServerProcess] = []
                for n in 0..<2 {
                    replicas.append(
                        try ServerProcess(
                            database: url, port: port + n, publicKey: publicKey,
                            log: directory.appendingPathComponent("replica\(n).log"), environment: environment))
                }
                defer { for replica in replicas { replica.kill(SIGKILL) } }
                for replica in replicas { try await replica.waitUntilReady(http) }
                let senders = replicas.map { SignedSender(http: http, key: key, port: $0.port) }

                // Commands alternate between the replicas: what one stores, the other sees.
                #expect(await senders[0].send(DurabilityTests.createSoak)?.0 == 200)
                for n in 1..<10 {
                    let join = Interaction.command(
                        "challenge", [Interaction.sub("join", [Interaction.option("name", "Soak")])],
                        as: DurabilityTests.person(n))
                    let answer = await senders[n % 2].send(join)
                    #expect(answer?.0 == 200 && Self.text(answer).contains("Soak"), "\(Self.text(answer))")
                }
                await #expect(try Self.progressByPlayer(url).count == 10)

                // The same interaction delivered to both replicas at once is applied once.
                let twice = DurabilityTests.progress(3, id: "1600000000000000001")
                async let first = senders[0].send(twice)
                async let second = senders[1].send(twice)
                let duplicated = await [first, second]
                #expect(duplicated.allSatisfy { $0?.0 == 200 })
                await #expect(try Self.progressByPlayer(url)["discord:\(DurabilityTests.person(3).id)"] == 1)

                // A refresh asked of both replicas at once runs once.
                let refresh = Interaction.command(
                    "admin", [Interaction.sub("catalog", [Interaction.sub("refresh")], group: true)], as: .admin)
                async let refreshA = senders[0].send(refresh)
                async let refreshB = senders[1].send(refresh)
                let refreshAnswers = await [refreshA, refreshB].map(Self.text)
                #expect(
                    refreshAnswers.filter { $0.contains("started in the background") }.count == 1, "\(refreshAnswers)")
                #expect(refreshAnswers.filter { $0.contains("already running") }.count == 1, "\(refreshAnswers)")
                let database = try await AppDatabase.open(url, connections: 1)
                defer { try? database.close() }
                for _ in 0..<600 {
                    if try await database.catalog.gameCount() == 1_200,
                        try await database.leases.leaseHolder("catalog.refresh", at: Date()) == nil
                    {
                        break
                    }
                    try await Task.sleep(for: .milliseconds(100))
                }
                #expect(try await database.catalog.gameCount() == 1_200)
                let pages = await state.queries.filter { $0.contains("sort id asc; limit 500") }.count
                #expect(pages == 3, "1,200 games are three pages of 500, fetched once")

                // Ten clients alternate between the replicas; one replica is killed mid-stream and the clients go on
                // with the other, as a load balancer would send them.
                actor Ledger {
                    var sent: [(client: Int, id: String)] = []
                    var acknowledged: Set<String> = []
                    func send(_ client: Int, _ id: String) { sent.append((client, id)) }
                    func ack(_ id: String) { acknowledged.insert(id) }
                }
                let ledger = Ledger()
                let stop = Date().addingTimeInterval(4)
                let killer = Task {
                    try await Task.sleep(for: .seconds(2))
                    replicas[0].kill(SIGKILL)
                }
                await withTaskGroup(of: Void.self) { group in
                    for n in 0..<10 {
                        group.addTask {
                            var i = 0
                            var alive = [true, true]
                            while Date() < stop {
                                i += 1
                                let id = String(1_700_000_000_000_000_000 + n * 10_000_000 + i)
                                await ledger.send(n, id)
                                var replica = i % 2
                                if !alive[replica] { replica = 1 - replica }
                                var answer = await senders[replica].send(DurabilityTests.progress(n, id: id))
                                if answer == nil {
                                    // That replica is gone: the balancer retries the delivery on the other one.
                                    alive[replica] = false
                                    answer = await senders[1 - replica].send(DurabilityTests.progress(n, id: id))
                                }
                                if answer?.0 == 200 { await ledger.ack(id) }
                            }
                        }
                    }
                }
                try await killer.value
                #expect(replicas[0].waitForExit() == SIGKILL)
                let sent = await ledger.sent
                let acknowledged = await ledger.acknowledged
                #expect(acknowledged.count == sent.count, "every delivery was answered by one replica or the other")
                let stored = try await Self.progressByPlayer(url)
                var sentByPlayer: [String: Double] = ["discord:\(DurabilityTests.person(3).id)": 1]
                for (client, _) in sent {
                    sentByPlayer["discord:\(DurabilityTests.person(client).id)", default: 0] += 1
                }
                for (player, count) in sentByPlayer {
                    #expect(stored[player] == count, "\(player): every acknowledged delivery stored, none twice")
                }

                // The survivor still answers, and the connections it lost to the database are replaced.
                let terminated = try await database.read { db in
                    try await
                        (db.value(
                            """
                            SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity
                            WHERE application_name = ? AND pid <> pg_backend_pid()
                            """, [PostgresLocation(url: url)!.applicationName]) as Int?) ?? 0
                }
                #expect(terminated >= 1)
                var answers: [String] = []
                for n in 0..<4 {
                    let interaction = DurabilityTests.progress(n, id: String(1_800_000_000_000_000_000 + n))
                    var answer = Self.text(await senders[1].send(interaction))
                    if answer == #"{"type":5}"# {
                        // Waiting for new connections took it past Discord's deadline: it was acknowledged as deferred,
                        // and its answer is the edit of the original message.
                        answer = await Self.edit(of: interaction["token"] as! String, in: edits)
                    }
                    answers.append(answer)
                }
                // On failure, what the surviving replica logged is shown (its log is removed with the folder).
                let log = (try? String(contentsOf: replicas[1].log, encoding: .utf8)) ?? ""
                let tail = log.split(separator: "\n").suffix(40).joined(separator: "\n")
                #expect(
                    answers.last?.contains("Soak") == true,
                    "answers after the connections were cut: \(answers)\n\(tail)")
                #expect(
                    answers.allSatisfy { $0.contains("Soak") || $0.contains("database did not answer") },
                    "\(answers)\n\(tail)")
            }
        }
    }

    /// The body of the edit made to a deferred interaction's message, waiting up to a minute for it (a loaded
    /// machine reconnecting to the database is slow, but the edit must come).
    static func edit(of token: String, in edits: Received) async -> String {
        for _ in 0..<600 {
            if let edit = await edits.requests.first(where: { $0.path.hasSuffix("/\(token)") }) {
                return String(decoding: edit.body, as: UTF8.self)
            }
            try? await Task.sleep(for: .milliseconds(100))
        }
        return "no edit of the deferred answer"
    }
}

/// Two servers in this process sharing one PostgreSQL database: a retry or replay that reaches the other
/// replica is recognised there.
@Suite("Slack and Matrix deliveries across replicas")
struct ReplicaDeliveryTests {
    @Test(.enabled(if: ReplicaTests.postgresURL != nil || ProcessInfo.processInfo.environment["CI"] != nil))
    func aSlackReplayAndARetriedMatrixTransactionAreRefusedByTheOtherReplica() async throws {
        let url = try ReplicaTests.freshDatabase()
        let received = Received()
        try await fakeHomeserver(asToken: "as-secret", received: received, powerLevels: [:]).test(.live) { fake in
            let port = try #require(fake.port)
            func replica() async throws -> TestHarness {
                try await TestHarness(databasePath: url) { config in
                    config.slackSigningSecret = SlackTests.secret
                    config.matrixHomeserverURL = "http://127.0.0.1:\(port)"
                    config.matrixASToken = "as-secret"
                    config.matrixHSToken = "hs-secret"
                }
            }
            let (first, second) = await (try replica(), try replica())
            let body = SlackTests.command("add Hollow Knight --status playing")
            let stamp = Date()
            let signature = SlackTests.sign(body, timestamp: String(Int(stamp.timeIntervalSince1970)))
            let answered = try await first.withClient { client in
                try await SlackTests().post(client, "/slack/commands", body, timestamp: stamp, signature: signature)
            }
            #expect(answered.0 == .ok)
            let replayed = try await second.withClient { client in
                try await SlackTests().post(client, "/slack/commands", body, timestamp: stamp, signature: signature)
            }
            #expect(replayed.0 == .unauthorized, "the same signed request on the other replica is a replay")

            let command = MatrixTests.message("!gg add Celeste", id: "$across")
            let put = try await first.withClient { client in
                try await MatrixTests().put(client, txn: "77", events: [command])
            }
            #expect(put.0 == .ok)
            let retried = try await second.withClient { client in
                try await MatrixTests().put(client, txn: "77", events: [command])
            }
            #expect(retried.0 == .ok)
            #expect(await received.requests.filter { $0.path.hasPrefix("send") }.count == 1, "answered once")
            let library = try await second.services.database.library.library(
                of: PlayerID("matrix:@alice:localhost"), status: nil, sort: .recent, includeMature: true, page: 1,
                pageSize: 10)
            #expect(library.page.items.map(\.game.name) == ["Celeste"])
        }
    }
}
