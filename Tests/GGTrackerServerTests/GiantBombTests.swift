@preconcurrency import Crypto
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

/// A local stand-in for Giant Bomb's API: `GET /api/search/` and `GET /api/game/{guid}/` with `api_key` and
/// `format=json`, 403 for a missing or generic User-Agent, and the response envelope (`status_code` 1 OK,
/// 100 invalid key, 101 not found). As on Giant Bomb, search results carry a game's list-level fields only
/// (no companies, genres or themes), and `field_list` limits what comes back.
func fakeGiantBomb(key: String, received: Received) -> some ApplicationProtocol {
    let outerWilds: [String: Any] = [
        "guid": "3030-54397", "id": 54397, "name": "Outer Wilds",
        "deck": "Explore a solar system stuck in a time loop.",
        "original_release_date": "2019-05-28", "site_detail_url": "https://www.giantbomb.com/outer-wilds/3030-54397/",
        "image": ["super_url": "https://www.giantbomb.com/a/uploads/scale_large/outer-wilds.jpg"],
        "platforms": [["name": "PC"], ["name": "Xbox One"]], "genres": [["name": "Adventure"]],
        "themes": [["name": "Sci-Fi"]],
        "developers": [["name": "Mobius Digital"]], "publishers": [["name": "Annapurna Interactive"]],
        "original_game_rating": [["name": "ESRB: E10+"]], "date_last_updated": "2024-01-02 10:00:00",
        "api_detail_url": "https://www.giantbomb.com/api/game/3030-54397/",
    ]
    let detailOnly: Set<String> = ["genres", "themes", "developers", "publishers"]
    @Sendable func fields(_ object: [String: Any], _ request: Request, search: Bool) -> [String: Any] {
        let wanted = (request.uri.queryParameters.get("field_list") ?? "").split(separator: ",").map(String.init)
        return object.filter { (wanted.isEmpty || wanted.contains($0.key)) && !(search && detailOnly.contains($0.key)) }
    }
    @Sendable func envelope(_ status: Int, _ error: String, _ results: Any) -> Response {
        let body: [String: Any] = [
            "error": error, "limit": 10, "offset": 0, "number_of_page_results": (results as? [Any])?.count ?? 1,
            "number_of_total_results": (results as? [Any])?.count ?? 1, "status_code": status, "results": results,
            "version": "1.0",
        ]
        return Response(
            status: status == 100 ? .unauthorized : .ok, headers: [.contentType: "application/json"],
            body: .init(byteBuffer: ByteBuffer(data: try! JSONSerialization.data(withJSONObject: body))))
    }
    @Sendable func check(_ request: Request) async -> Response? {
        await received.add(request.uri.path, request.headers[.userAgent], Data())
        let agent = request.headers[.userAgent] ?? ""
        if agent.isEmpty || agent.lowercased().hasPrefix("python") || agent.lowercased().hasPrefix("curl")
            || agent == "AsyncHTTPClient"
        {
            return Response(
                status: .forbidden, body: .init(byteBuffer: ByteBuffer(string: "<html>Wrong user agent</html>")))
        }
        let query = request.uri.queryParameters
        guard query.get("format") == "json" else { return envelope(102, "Error in URL Format", []) }
        guard query.get("api_key") == key else { return envelope(100, "Invalid API Key", []) }
        return nil
    }
    let router = Router()
    router.get("/api/search/") { request, _ -> Response in
        if let refusal = await check(request) { return refusal }
        let words = (request.uri.queryParameters.get("query") ?? "").removingPercentEncoding?.lowercased() ?? ""
        let hits = words.contains("outer") ? [fields(outerWilds, request, search: true)] : []
        return envelope(1, "OK", hits)
    }
    router.get("/api/game/:guid/") { request, context -> Response in
        if let refusal = await check(request) { return refusal }
        guard context.parameters.get("guid") == "3030-54397" else { return envelope(101, "Object Not Found", []) }
        return envelope(1, "OK", fields(outerWilds, request, search: false))
    }
    var logger = Logger(label: "fake-giantbomb")
    logger.logLevel = .warning
    return Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)), logger: logger)
}

@Suite("Giant Bomb as the catalog provider")
struct GiantBombTests {
    func withFake(
        key: String = "gb-key", _ body: @Sendable (TestHarness.Client, Received, Int) async throws -> Void
    ) async throws {
        let received = Received()
        try await fakeGiantBomb(key: "gb-key", received: received).test(.live) { fake in
            let port = try #require(fake.port)
            let harness = try await TestHarness(emptyCatalog: true)
            var logger = Logger(label: "gb")
            logger.logLevel = .critical
            var services = harness.services
            services.catalog.provider = GiantBombClient(
                apiBase: "http://127.0.0.1:\(port)/api", apiKey: key, logger: logger)
            services.catalog.providerName = "giantbomb"
            try await TestHarness(services: services, key: harness.key).withClient { client in
                try await body(client, received, port)
            }
        }
    }

    @Test func searchFindsGamesThroughGiantBombOnceWithADescriptiveUserAgent() async throws {
        try await withFake { client, received, _ in
            let first = try await client.send(I.command("search", [I.option("query", "outer wilds")]))
            DiscordChecks.check(first)
            #expect(first.embeds.first?["title"] as? String == "Outer Wilds (2019)")
            #expect(first.selectOptions.contains { $0.value == "gg:/add title:gb:3030-54397" })
            let second = try await client.send(I.command("search", [I.option("query", "outer wilds")]))
            #expect(second.embeds.first?["title"] as? String == "Outer Wilds (2019)")
            let requests = await received.requests
            #expect(requests.count == 1, "the second identical search makes no API call")
            #expect(requests.first?.authorization?.hasPrefix("GGTracker/") == true)
            let card = try await client.send(I.command("game", [I.option("title", "gb:3030-54397")]))
            #expect(card.text.contains("Mobius Digital") && card.text.contains("ESRB E10+"))
            #expect(await received.requests.map(\.path) == ["/api/search/", "/api/game/3030-54397/"])
            _ = try await client.send(I.command("game", [I.option("title", "outer wilds")]))
            #expect(await received.requests.count == 2, "the game's page is fetched once")
        }
    }

    @Test func giantBombServesTheBotWhenConfigured() async throws {
        let received = Received()
        try await fakeGiantBomb(key: "gb-key", received: received).test(.live) { fake in
            let config = try AppConfig.load(
                file: nil,
                environment: [
                    "GGTRACKER_CATALOG": "giantbomb", "GIANTBOMB_API_KEY": "gb-key",
                    "GIANTBOMB_API_BASE": "http://127.0.0.1:\(try #require(fake.port))/api",
                    "GGTRACKER_DATABASE": Scratch.path("gb.sqlite"),
                ])
            var logger = Logger(label: "gb")
            logger.logLevel = .critical
            let services = try await AppServices.open(config: config, logger: logger)
            #expect(
                try await services.database.catalog.gameCount() == 0,
                "the catalog fills from Giant Bomb, not the bundled file")
            let key = Curve25519.Signing.PrivateKey()
            var signed = services
            signed.config.discordPublicKey = key.publicKey
            // As in every router test, answers are awaited in full: a loaded machine must not turn them deferred.
            signed.config.deferAfter = .seconds(120)
            try await TestHarness(services: signed, key: key).withClient { client in
                let search = try await client.send(I.command("search", [I.option("query", "outer wilds")]))
                #expect(search.embeds.first?["title"] as? String == "Outer Wilds (2019)")
                let card = try await client.send(I.command("game", [I.option("title", "outer wilds")]))
                DiscordChecks.check(card)
                let embed = try #require(card.embeds.first)
                #expect(embed["url"] as? String == "https://www.giantbomb.com/outer-wilds/3030-54397/")
                #expect(
                    (embed["thumbnail"] as? [String: Any])?["url"] as? String
                        == "https://www.giantbomb.com/a/uploads/scale_large/outer-wilds.jpg")
                for fact in [
                    "Explore a solar system", "May 28, 2019", "PC, Xbox One", "Adventure", "Sci-Fi", "Mobius Digital",
                    "Annapurna Interactive", "Data from Giant Bomb",
                ] {
                    #expect(card.text.contains(fact), "\(fact) missing from \(card.text)")
                }
                let top = try await client.send(I.command("top"))
                #expect(top.ephemeral && top.content.contains("no critic scores"), "\(top.content)")
                let engines = try await client.send(
                    I.command("browse", [I.sub("engine", [I.option("name", "Unity")])]))
                #expect(engines.ephemeral && engines.content.contains("no engine data"), "\(engines.content)")
                let added = try await client.send(I.command("add", [I.option("title", "outer wilds")]))
                #expect(added.text.contains("Alice added Outer Wilds (2019)"))
                let status = try await client.send(
                    I.command("admin", [I.sub("catalog", [I.sub("status")], group: true)], as: .admin))
                #expect(status.text.contains("giantbomb"))
            }
            #expect(await received.requests.map(\.path) == ["/api/search/", "/api/game/3030-54397/"])
            #expect(await received.requests.allSatisfy { $0.authorization?.hasPrefix("GGTracker/") == true })
        }
    }

    @Test func aGameReferenceNotStoredYetIsFetchedByItsDetails() async throws {
        try await withFake { client, received, _ in
            let card = try await client.send(I.command("game", [I.option("title", "gb:3030-54397")]))
            DiscordChecks.check(card)
            #expect(card.text.contains("Outer Wilds (2019)") && card.text.contains("Annapurna Interactive"))
            #expect(await received.requests.map(\.path) == ["/api/game/3030-54397/"])
            _ = try await client.send(I.command("add", [I.option("title", "gb:3030-54397")]))
            #expect(await received.requests.count == 1)
        }
    }

    @Test func aWrongKeyIsReportedHonestly() async throws {
        try await withFake(key: "wrong") { client, _, _ in
            let answer = try await client.send(I.command("search", [I.option("query", "outer wilds")]))
            #expect(answer.ephemeral && answer.content.contains("unreachable right now"))
            #expect(answer.content.contains("status 100 (Invalid API Key)"))
            // A title that only the provider could find says the provider failed, not that nothing matches.
            let card = try await client.send(I.command("game", [I.option("title", "outer wilds")]))
            #expect(card.ephemeral && card.content.contains("unreachable right now"), "\(card.content)")
            #expect(!card.content.contains("No game matches"))
        }
    }

    @Test func aGenericUserAgentIsRefusedByTheRealProtocol() async throws {
        let received = Received()
        try await fakeGiantBomb(key: "k", received: received).test(.live) { fake in
            try await fake.execute(uri: "/api/search/?api_key=k&format=json&query=x", method: .get) { response in
                #expect(response.status == .forbidden)
            }
        }
    }

    @Test func theHourlyBudgetStopsAt200PerResource() {
        let budget = HourlyBudget(limit: 200)
        let now = Date()
        for _ in 0..<200 { #expect(budget.take("search", now: now) == nil) }
        let wait = budget.take("search", now: now.addingTimeInterval(60))
        #expect(wait != nil && abs(wait! - 3540) < 1)
        #expect(budget.take("game", now: now) == nil)
        #expect(budget.take("search", now: now.addingTimeInterval(3601)) == nil)
    }
}
