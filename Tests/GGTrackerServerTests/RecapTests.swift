import Foundation
import GGTrackerCore
import Hummingbird
import HummingbirdTesting
import Synchronization
import Testing

@testable import GGTrackerServer

/// `/recap`: a year in games as a card, and the same year on the share page.
@Suite("The year in review")
struct RecapTests {
    typealias I = Interaction

    static func day(_ year: Int, _ month: Int, _ day: Int) -> Date {
        Calendar.utc.date(from: DateComponents(year: year, month: month, day: day, hour: 12))!
    }

    static func field(_ answer: TestHarness.Client.Answer, _ name: String) -> String? {
        let fields = answer.embeds.first?["fields"] as? [[String: Any]] ?? []
        return fields.first { ($0["name"] as? String) == name }?["value"] as? String
    }

    /// Alice's last year: Celeste started in March and finished in June (rated, reviewed), Hades finished in July;
    /// this year, five more hours of Hades and nothing finished.
    static func aliceYears(
        _ client: TestHarness.Client, setClock: (Date) -> Void, lastYear: Int
    ) async throws {
        let steps: [(Date, [String: Any])] = [
            (
                day(lastYear, 3, 2),
                I.command(
                    "add", [I.option("title", "Celeste"), I.option("status", "playing"), I.option("hours", 5)])
            ),
            (
                day(lastYear, 6, 15),
                I.command(
                    "progress",
                    [I.option("title", "Celeste"), I.option("status", "completed"), I.option("hours", 20)])
            ),
            (day(lastYear, 6, 15), I.command("rate", [I.option("title", "Celeste"), I.option("score", 9)])),
            (
                day(lastYear, 6, 16),
                I.command("review", [I.option("title", "Celeste"), I.option("text", "Kind and hard.")])
            ),
            (
                day(lastYear, 7, 20),
                I.command(
                    "add", [I.option("title", "Hades"), I.option("status", "completed"), I.option("hours", 40)])
            ),
            (day(lastYear, 7, 20), I.command("rate", [I.option("title", "Hades"), I.option("score", 8)])),
            (day(lastYear + 1, 1, 10), I.command("progress", [I.option("title", "Hades"), I.option("hours", 45)])),
        ]
        for (date, command) in steps {
            setClock(date)
            let answer = try await client.send(command)
            #expect(answer.status == .ok && !answer.text.contains("⚠️"), "\(answer.text)")
        }
    }

    /// A bot whose clock the test sets, with Alice's last year and this one already played.
    static func withAlicesYears(
        _ body:
            @Sendable (TestHarness.Client, _ lastYear: Int, _ setClock: @Sendable (Date) -> Void) async throws
            -> Void
    ) async throws {
        let lastYear = Calendar.utcYear(of: Date()) - 1
        let clock = Mutex(day(lastYear, 1, 1))
        let setClock: @Sendable (Date) -> Void = { date in clock.withLock { $0 = date } }
        let harness = try await TestHarness(now: { clock.withLock { $0 } })
        try await harness.withClient { client in
            try await aliceYears(client, setClock: setClock, lastYear: lastYear)
            try await body(client, lastYear, setClock)
        }
    }

    @Test func aYearWithCompletionsAndAYearWithout() async throws {
        try await Self.withAlicesYears { client, lastYear, setClock in
            let thisYear = lastYear + 1
            setClock(Self.day(thisYear, 2, 1))

            let last = try await client.send(I.command("recap", [I.option("year", lastYear)]))
            DiscordChecks.check(last)
            #expect(!last.ephemeral, "a recap is for the channel")
            let card = try #require(last.embeds.first)
            #expect(card["title"] as? String == "Alice's \(lastYear) in games")
            #expect(card["url"] == nil, "no share link yet")
            #expect(card["description"] as? String == "2 games finished · 60 h played · 1 review")
            #expect(Self.field(last, "Finished (2)") == "✅ Jun 15 · Celeste\n✅ Jul 20 · Hades")
            let months = try #require(Self.field(last, "By month"))
            #expect(months.hasPrefix("```\nJan ░░░░░░░░░░ 0\n"))
            #expect(months.contains("\nJun ██████████ 1\nJul ██████████ 1\nAug ░░░░░░░░░░ 0\n"))
            // The headline's hours and reviews are not said again below it.
            #expect(Self.field(last, "Hours played") == nil && Self.field(last, "Reviews written") == nil)
            #expect(Self.field(last, "Best rated") == "Celeste · ★★★★½ 9/10")
            #expect(Self.field(last, "First finished") == "Celeste · Jun 15")
            #expect(Self.field(last, "Last finished") == "Hades · Jul 20")
            // The longest game by the hours on it now, this year's five included.
            #expect(Self.field(last, "Longest game") == "Hades · 45 h")
            #expect(Self.field(last, "Medals (0)") == "None this year")
            // Celeste and Hades are both adventures and indies: the two genres are level, and named together.
            #expect(Self.field(last, "Most played genres") == "Adventure, Indie · 60 h each", "\(last.text)")
            // The next year with something recorded is a button; no year before it has anything.
            #expect(last.buttons.map(\.label) == ["\(thisYear) ▶"], "\(last.buttons)")

            // This year: hours, nothing finished, so no chart.
            let current = try await client.send(I.command("recap"))
            DiscordChecks.check(current)
            #expect(current.embeds.first?["title"] as? String == "Alice's \(thisYear) in games")
            #expect(current.embeds.first?["description"] as? String == "0 games finished · 5 h played · 0 reviews")
            #expect(Self.field(current, "Finished") == "No games finished in \(thisYear) yet.")
            #expect(Self.field(current, "By month") == nil && Self.field(current, "First finished") == nil)
            #expect(Self.field(current, "Best rated") == "Hades · ★★★★☆ 8/10")
            // One game's genres are all level: three named, the rest counted, none picked by its name alone.
            #expect(
                Self.field(current, "Most played genres")
                    == "Adventure, Hack and slash/Beat 'em up, Indie +1 · 5 h each",
                "\(current.text)")

            #expect(current.buttons.map(\.label) == ["◀ \(lastYear)"], "\(current.buttons)")

            let empty = try await client.send(I.command("recap", [I.option("year", lastYear - 1)]))
            // A past year cannot fill up any more: no "log a game" hint; the years that have something say so, the
            // most recent first as buttons.
            #expect(
                empty.ephemeral
                    && empty.content
                        == "Nothing recorded for you in \(lastYear - 1). Years with something recorded: \(lastYear), \(thisYear).",
                "\(empty.content)")
            #expect(empty.buttons.map(\.label) == ["\(thisYear)", "\(lastYear)"])
            let pressed = try await client.send(I.button(try #require(empty.buttons.last).customID))
            #expect(pressed.embeds.first?["title"] as? String == "Alice's \(lastYear) in games", "\(pressed.text)")
            let future = try await client.send(I.command("recap", [I.option("year", thisYear + 1)]))
            #expect(future.ephemeral && future.embeds.isEmpty)
            #expect(future.text.contains("\(thisYear + 1) has not happened yet"), "\(future.text)")
            let stranger = try await client.send(
                I.command("recap", [I.user("user", .bob)], resolvedUsers: [.bob]))
            #expect(stranger.ephemeral && stranger.text.contains("hasn't used GGTracker in this server"))

            // Bob reads Alice's year.
            _ = try await client.send(I.command("about", as: .bob))
            let bobReads = try await client.send(
                I.command(
                    "recap", [I.user("user", .alice), I.option("year", lastYear)], as: .bob,
                    resolvedUsers: [.alice]))
            #expect(bobReads.embeds.first?["title"] as? String == "Alice's \(lastYear) in games")
            #expect(Self.field(bobReads, "Finished (2)") == Self.field(last, "Finished (2)"))
        }
    }

    /// Games finished with no hours logged that year — an import brings the days, not the hours — say so, not
    /// "0 h played".
    @Test func anImportedYearSaysItsHoursWereNotLogged() async throws {
        let harness = try await TestHarness()
        let celeste = try #require(try await harness.services.catalog.game(GameRef(provider: "igdb", id: "26226")))
        var item = ImportItem(line: 2, name: "Celeste")
        item.status = .completed
        item.hours = 30
        item.finishedAt = Date()
        let imported = [(item: item, game: celeste)]
        try await harness.withClient { client in
            _ = try await client.send(I.command("about"))
            _ = try await harness.services.database.library.importItems(
                imported, for: PlayerID("discord:111111111111111111"), displayName: "Alice", at: Date())
            let recap = try await client.send(I.command("recap"))
            #expect(
                recap.embeds.first?["description"] as? String == "1 game finished · no hours logged · 0 reviews",
                "\(recap.text)")
        }
    }

    @Test func theSharePageHasTheSameYearWithCharts() async throws {
        try await Self.withAlicesYears { client, lastYear, setClock in
            let thisYear = lastYear + 1
            setClock(Date())
            let share = try await client.send(I.command("share"))
            let token = try #require(
                share.content.range(of: "/u/").map { String(share.content[$0.upperBound...].prefix(32)) })
            let recap = try await client.send(I.command("recap", [I.option("year", lastYear)]))
            let url = try #require(recap.embeds.first?["url"] as? String)
            #expect(url.hasSuffix("/u/\(token)/recap/\(lastYear)"))

            try await client.client.execute(uri: "/u/\(token)/recap/\(lastYear)", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "text/html; charset=utf-8")
                let html = String(buffer: response.body)
                #expect(
                    html.contains("<h1>Alice&#39;s \(lastYear) in games</h1>")
                        || html.contains("<h1>Alice's \(lastYear) in games</h1>"))
                #expect(html.contains("2 games finished · 60 h played · 1 review"))
                for chart in ["chart-months", "chart-game-hours", "chart-genres"] {
                    #expect(html.contains("id=\"\(chart)\""), "\(chart) missing")
                }
                #expect(html.contains("<dt>Best rated</dt><dd>Celeste · ★★★★½ 9/10</dd>"))
                #expect(html.contains("<dt>Longest game</dt><dd>Hades · 45 h</dd>"))
                #expect(html.components(separatedBy: "<article class=\"cover\"").count - 1 == 2)
                #expect(html.contains("Kind and hard."), "the finished games' reviews are on their covers")
                // The other years with something recorded are linked; a year with nothing is not.
                #expect(html.contains("href=\"/u/\(token)/recap/\(thisYear)\""))
                #expect(!html.contains("href=\"/u/\(token)/recap/\(lastYear - 1)\""))
            }
            try await client.client.execute(uri: "/u/\(token)/recap/\(lastYear - 1)", method: .get) { response in
                #expect(response.status == .ok)
                let html = String(buffer: response.body)
                #expect(html.contains("Nothing recorded in \(lastYear - 1)."))
                #expect(html.contains("href=\"/u/\(token)/recap/\(lastYear)\""), "where the recaps are")
            }
            for bad in [
                "/u/\(token)/recap/\(thisYear + 1)", "/u/\(token)/recap/last",
                "/u/\(String(repeating: "0", count: 32))/recap/\(lastYear)",
            ] {
                try await client.client.execute(uri: bad, method: .get) { response in
                    #expect(response.status == .notFound, "\(bad)")
                }
            }
            _ = try await client.send(I.command("share", [I.option("revoke", true)]))
            try await client.client.execute(uri: "/u/\(token)/recap/\(lastYear)", method: .get) { response in
                #expect(response.status == .notFound, "a revoked link opens no recap")
            }
        }
    }
}

extension RecapTests {
    @Test func slackAndMatrixShowTheSameYear() async throws {
        let year = Calendar.utcYear(of: Date())
        let slack = SlackTests()
        let harness = try await TestHarness { $0.slackSigningSecret = SlackTests.secret }
        try await harness.withClient { client in
            _ = try await slack.post(
                client, "/slack/commands", SlackTests.command("add Celeste status:completed hours:12"))
            let (status, message) = try await slack.post(client, "/slack/commands", SlackTests.command("recap"))
            #expect(status == .ok && message["response_type"] as? String == "in_channel")
            let blocks = try #require(message["blocks"] as? [[String: Any]])
            let head = try #require((blocks.first?["text"] as? [String: Any])?["text"] as? String)
            #expect(head == "*alice's \(year) in games*\n1 game finished · 12 h played · 0 reviews")
            let fields = (blocks.dropFirst().first?["fields"] as? [[String: Any]] ?? []).compactMap {
                $0["text"] as? String
            }
            #expect(
                fields.first?.hasPrefix("*Finished (1)*\n✅ ") == true && fields.first?.hasSuffix(" · Celeste") == true)
            #expect(fields.contains { $0.hasPrefix("*By month*\n```\nJan ") && $0.contains(" ██████████ 1\n") })
            #expect(fields.contains("*Longest game*\nCeleste · 12 h"))
            #expect(!fields.contains { $0.hasPrefix("*First finished*") }, "one game finished is listed once")
        }
        let matrix = MatrixTests()
        try await matrix.withBot { client, received in
            _ = try await matrix.put(
                client, txn: "r1", events: [MatrixTests.message("!gg add Celeste status:completed hours:12")])
            _ = try await matrix.put(client, txn: "r2", events: [MatrixTests.message("!gg recap year:\(year)")])
            let content = try await MatrixTests.lastSent(received)
            let body = try #require(content["body"] as? String)
            #expect(
                body.hasPrefix("alice's \(year) in games\n1 game finished · 12 h played · 0 reviews\n"), "\(body)")
            // The chart starts on a line of its own, in the plain body and in the HTML.
            #expect(body.contains("\nBy month:\nJan ░░░░░░░░░░ 0\nFeb "), "\(body)")
            let html = try #require(content["formatted_body"] as? String)
            #expect(html.contains("<p><em>By month</em>:</p><pre>Jan ░░░░░░░░░░ 0\n"), "\(html)")
            #expect(html.contains("<p><em>Longest game</em>: Celeste · 12 h</p>"))
        }
    }
}
