import Foundation
import GGTrackerCatalog
import GGTrackerCore
import GGTrackerStorage
import GRDB
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import Testing

@testable import GGTrackerServer

@Suite("Searching through the catalog provider")
struct ProviderLookupTests {
    /// A bot whose catalog starts empty and asks a local IGDB stand-in, like `GGTRACKER_CATALOG=igdb`.
    func withIGDBBot(
        delay: Duration = .milliseconds(20), webhook: Received? = nil, deferAfter: Duration = .seconds(120),
        databasePath: String? = nil, _ body: @Sendable (TestHarness.Client, FakeIGDBState) async throws -> Void
    ) async throws {
        var games = try fakeGames(count: 40)
        games[0]["name"] = "Outer Wilds"
        games[0]["slug"] = "outer-wilds"
        let state = FakeIGDBState(games: games)
        await state.setDelay(delay)
        try await fakeDiscordWebhooks(webhook).test(.live) { discordClient in
            let discordPort = try #require(discordClient.port)
            try await fakeIGDB(state, clientID: "client", secret: "secret").test(.live) { fake in
                let port = try #require(fake.port)
                let harness = try await TestHarness(databasePath: databasePath, emptyCatalog: true) { config in
                    config.discordAPIBase = "http://127.0.0.1:\(discordPort)/api/v10"
                    config.deferAfter = deferAfter
                }
                var logger = Logger(label: "igdb")
                logger.logLevel = .critical
                let client = IGDBClient(
                    apiBase: "http://127.0.0.1:\(port)/v4", oauthBase: "http://127.0.0.1:\(port)/oauth2",
                    clientID: "client",
                    clientSecret: "secret", database: harness.services.database,
                    limiter: RateLimiter(perSecond: 4, maxInFlight: 8), logger: logger)
                var services = harness.services
                services.catalog.provider = client
                services.catalog.igdb = IGDBRefresh(client: client, database: services.database)
                services.catalog.providerName = "igdb"
                // The fake is slow on purpose in some tests; a loaded machine must not turn that into a timeout.
                services.catalog.providerTimeout = .seconds(30)
                try await TestHarness(services: services, key: harness.key).withClient { client in
                    try await body(client, state)
                }
            }
        }
    }

    @Test(.timeLimit(.minutes(5)))
    func aGameNotInTheLocalCatalogIsFoundThroughTheProviderOnce() async throws {
        try await withIGDBBot { client, state in
            let outerWilds = try #require(await state.games.first?["id"] as? Int)
            await state.setTimesToBeat([
                [
                    "id": 1, "game_id": outerWilds, "hastily": 45_000, "normally": 63_000, "completely": 104_400,
                    "count": 12,
                ]
            ])
            let first = try await client.send(I.command("search", [I.option("query", "outer wilds")]))
            DiscordChecks.check(first)
            #expect(
                first.embeds.first?["title"] as? String == "Outer Wilds (2017)"
                    || (first.embeds.first?["title"] as? String)?.hasPrefix("Outer Wilds") == true)
            let calls = await state.apiRequests
            #expect(calls == 2, "the search, and the time to beat of the games it found")
            #expect(
                await state.queries.last?.hasPrefix("fields game_id,hastily,normally,completely; where game_id = (")
                    == true)
            let second = try await client.send(I.command("search", [I.option("query", "outer wilds")]))
            #expect((second.embeds.first?["title"] as? String)?.hasPrefix("Outer Wilds") == true)
            #expect(await state.apiRequests == calls, "the second identical search makes no API call")
            let added = try await client.send(I.command("add", [I.option("title", "Outer Wilds")]))
            #expect(added.text.contains("added Outer Wilds"))
            #expect(await state.apiRequests == calls)
            // The card shows IGDB's time to beat, kept with the game.
            let card = try await client.send(I.command("game", [I.option("title", "Outer Wilds")]))
            #expect(card.text.contains("about 17.5 h to beat (rushed 12.5 h, everything 29 h)"), "\(card.text)")
        }
    }

    @Test(.timeLimit(.minutes(5)))
    func aSlowProviderGetsADeferredAnswerAndTheMessageIsEditedWhenDone() async throws {
        let webhook = Received()
        try await withIGDBBot(delay: .milliseconds(3200), webhook: webhook, deferAfter: .milliseconds(2500)) {
            client, _ in
            let interaction = I.command("search", [I.option("query", "outer wilds")])
            let answer = try await client.send(interaction)
            #expect(answer.type == 5, "deferred at once")
            DiscordChecks.check(answer)
            // The edit arrives when the provider answers.
            for _ in 0..<300 where await webhook.requests.isEmpty { try await Task.sleep(for: .milliseconds(100)) }
            let edit = try #require(await webhook.requests.first)
            #expect(edit.path == "123456789012345678/\(interaction["token"] as! String)")
            let message = try #require(try JSONSerialization.jsonObject(with: edit.body) as? [String: Any])
            let embeds = message["embeds"] as? [[String: Any]] ?? []
            #expect((embeds.first?["title"] as? String)?.hasPrefix("Outer Wilds") == true)
            let problems = DiscordChecks.validator.validate(message, against: "IncomingWebhookUpdateRequestPartial")
            #expect(problems.isEmpty, "\(problems.prefix(3))")
        }
    }

    @Test(.timeLimit(.minutes(5)))
    func aDeferredCommandThatFailsHasItsMessageEditedWithTheFailure() async throws {
        let webhook = Received()
        let path = Scratch.path("defer.sqlite")
        try await withIGDBBot(
            delay: .milliseconds(1500), webhook: webhook, deferAfter: .milliseconds(300), databasePath: path
        ) { client, _ in
            _ = try await client.send(I.command("list"))  // alice is recorded before the database is taken
            // While the provider is slow, another process holds the database's write lock past the bot's wait: until
            // the deferred message has been edited, however slowly a loaded machine gets there.
            let other = try DatabaseQueue(path: path)
            let locked = DispatchSemaphore(value: 0)
            let release = DispatchSemaphore(value: 0)
            DispatchQueue.global().async {
                try? other.inDatabase { db in
                    try db.execute(sql: "BEGIN EXCLUSIVE")
                    locked.signal()
                    _ = release.wait(timeout: .now() + 50)
                    try db.execute(sql: "COMMIT")
                }
            }
            defer { release.signal() }
            locked.wait()
            let interaction = I.command("add", [I.option("title", "Outer Wilds")])
            let answer = try await client.send(interaction)
            #expect(answer.type == 5, "deferred at once")
            // The edit of this interaction's message (a busy machine may defer the `/list` too).
            let token = interaction["token"] as! String
            for _ in 0..<450 where await !webhook.requests.contains(where: { $0.path.hasSuffix(token) }) {
                try await Task.sleep(for: .milliseconds(100))
            }
            let edit = try #require(
                await webhook.requests.first { $0.path.hasSuffix(token) }, "the deferred message is edited")
            let message = try #require(try JSONSerialization.jsonObject(with: edit.body) as? [String: Any])
            // What failed is said (here the database was busy), never "no game matches" nor nothing at all.
            let content = message["content"] as? String ?? ""
            #expect(content.contains("right now") || content.contains("went wrong"), "\(content)")
            #expect(!content.contains("No game matches"))
        }
    }

    @Test(.timeLimit(.minutes(5)))
    func aMalformedProviderAnswerFallsBackToTheLocalCatalog() async throws {
        try await withIGDBBot { client, state in
            await state.setGarbage(true)
            let answer = try await client.send(I.command("search", [I.option("query", "outer wilds")]))
            #expect(answer.ephemeral && answer.content.contains("igdb catalog service is unreachable right now"))
            #expect(answer.content.contains("malformed JSON"))
            let help = try await client.send(I.command("help"))
            #expect(help.text.contains("commands"), "commands that need no provider keep working")
        }
    }

    @Test(.timeLimit(.minutes(5)))
    func anAdminRefreshEditsItsAnswerWithProgressAndASummary() async throws {
        let webhook = Received()
        try await withIGDBBot(webhook: webhook) { client, state in
            let refresh = I.command(
                "admin", [I.sub("catalog", [I.sub("refresh", [I.option("mode", "full")])], group: true)], as: .admin)
            let answer = try await client.send(refresh)
            #expect(answer.ephemeral && answer.content.contains("started in the background"))
            func edits() async -> [String] {
                await webhook.requests.map {
                    ((try? JSONSerialization.jsonObject(with: $0.body)) as? [String: Any])?["content"] as? String ?? ""
                }
            }
            for _ in 0..<100 where !(await edits()).contains(where: { $0.contains("done") }) {
                try await Task.sleep(for: .milliseconds(100))
            }
            let final = try #require(await edits().last)
            #expect(final.contains("Catalog refresh (full) done: 40 added, 0 updated"))
            let status = try await client.send(
                I.command("admin", [I.sub("catalog", [I.sub("status")], group: true)], as: .admin))
            #expect(
                status.text.contains("igdb") && status.text.contains("Checkpoint")
                    && status.text.contains("IGDB requests"))
            #expect(status.text.contains("40"))
            _ = state
        }
    }

    @Test(.timeLimit(.minutes(5)))
    func anUnreachableProviderIsSaidHonestlyAndLocalCommandsStillWork() async throws {
        let harness = try await TestHarness()
        var logger = Logger(label: "igdb")
        logger.logLevel = .critical
        // Nothing listens on port 9 of the loopback: connections are refused at once.
        let client = IGDBClient(
            apiBase: "http://127.0.0.1:9/v4", oauthBase: "http://127.0.0.1:9/oauth2", clientID: "c", clientSecret: "s",
            database: harness.services.database, logger: logger)
        var services = harness.services
        services.catalog.provider = client
        services.catalog.providerTimeout = .milliseconds(800)
        try await TestHarness(services: services, key: harness.key).withClient { client in
            let answer = try await client.send(I.command("search", [I.option("query", "hollow knigt silk")]))
            #expect(answer.type == 4)
            #expect(answer.text.contains("catalog service is unreachable right now"))
            #expect(answer.text.contains("Hollow Knight"))
            let added = try await client.send(I.command("add", [I.option("title", "igdb:14593")]))
            #expect(added.text.contains("added Hollow Knight"))
        }
    }
}
