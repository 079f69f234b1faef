import Foundation
import GGTrackerCore
import GGTrackerStorage
import Testing

@testable import GGTrackerServer

extension Interaction.Person {
    static let carol = Interaction.Person(id: "555555555555555555", name: "carol")
}

@Suite("Friends in the channel")
struct SocialTests {
    let harness: TestHarness
    init() async throws { harness = try await TestHarness() }

    static func footer(_ answer: TestHarness.Client.Answer) -> String? {
        (answer.embeds.first?["footer"] as? [String: Any])?["text"] as? String
    }

    func play(
        _ client: TestHarness.Client, _ who: I.Person, _ title: String, score: Int? = nil, status: String = "completed"
    )
        async throws
    {
        _ = try await client.send(I.command("add", [I.option("title", title), I.option("status", status)], as: who))
        if let score {
            _ = try await client.send(I.command("rate", [I.option("title", title), I.option("score", score)], as: who))
        }
    }

    @Test func threeFriendsCompareRankAndFinishAChallengeTogether() async throws {
        try await harness.withClient { client in
            // Everyone shows up, and Alice starts a challenge before anyone finishes anything.
            for who in [I.Person.alice, .bob, .carol] { _ = try await client.send(I.command("help", as: who)) }
            let created = try await client.send(
                I.command(
                    "challenge",
                    [
                        I.sub(
                            "create",
                            [
                                I.option("name", "Spring Cleaning"), I.option("goal", 2),
                                I.option("unit", "games_completed"),
                                I.option("ends", "2099-05-31"),
                            ])
                    ]))
            DiscordChecks.check(created)
            #expect(created.text.contains("Alice started a challenge: Spring Cleaning"))
            // Its creator takes part from the start, and the card says so.
            #expect(created.text.contains("Alice") && created.text.contains("0/2"), "\(created.text)")
            #expect(created.text.contains("1 participant") && !created.text.contains("0 participants"))
            let joined = try await client.send(
                I.command("challenge", [I.sub("join", [I.option("name", "spring cleaning")])], as: .bob))
            #expect(joined.text.contains("Bob joined"))
            let twice = try await client.send(
                I.command("challenge", [I.sub("join", [I.option("name", "Spring Cleaning")])], as: .bob))
            #expect(twice.ephemeral && twice.content.contains("already in"))

            try await play(client, .alice, "Celeste", score: 9)
            try await play(client, .alice, "Hades", score: 8)
            try await play(client, .bob, "Celeste", score: 8)
            try await play(client, .bob, "Hades", score: 3)
            try await play(client, .carol, "Celeste", score: 10)
            _ = try await client.send(
                I.command("wishlist", [I.sub("add", [I.option("title", "Stardew Valley")])], as: .bob))
            try await play(client, .alice, "Stardew Valley")

            // Bob's second completion wins him the medal by itself.
            let profile = try await client.send(I.command("profile", [I.sub("show")], as: .bob))
            #expect(profile.text.contains("Medals (1)") && profile.text.contains("🏅 Spring Cleaning"))
            let show = try await client.send(
                I.command("challenge", [I.sub("show", [I.option("name", "Spring Cleaning")])]))
            DiscordChecks.check(show)
            #expect(show.text.contains("2/2 🏅"))

            let compare = try await client.send(
                I.command("compare", [I.user("user", .alice), I.user("with", .bob)], resolvedUsers: [.alice, .bob]))
            DiscordChecks.check(compare)
            // Gaps 1 (Celeste) and 5 (Hades): 100 × (1 − 3/9) = 67%.
            #expect(compare.text.contains("**67%** over 2 games you both rated"))
            #expect(compare.text.contains("Biggest disagreement") && compare.text.contains("Hades (2020)"))
            #expect(compare.text.contains("Alice finished what Bob wants") && compare.text.contains("Stardew Valley"))
            #expect(compare.text.contains("Alice 3 games · Bob 2 games · "), "\(compare.text)")
            // Asked by a third member, the pair is not "you".
            let theirs = try await client.send(
                I.command(
                    "compare", [I.user("user", .alice), I.user("with", .bob)], as: .carol,
                    resolvedUsers: [.alice, .bob]))
            #expect(theirs.text.contains("**67%** over 2 games both rated"), "\(theirs.text)")
            // With one member named, the caller comes first.
            let mine = try await client.send(
                I.command("compare", [I.user("user", .alice)], as: .bob, resolvedUsers: [.alice]))
            #expect(
                mine.text.contains("Bob vs Alice") && mine.text.contains("Bob 2 games · Alice 3 games · "),
                "\(mine.text)")
            // Someone with nothing yet is told how to start.
            let empty = try await client.send(
                I.command("compare", [I.user("user", .alice)], as: .admin, resolvedUsers: [.alice]))
            #expect(empty.ephemeral && empty.content.contains("You have no games in your library yet"))
            #expect(empty.content.contains("Add one with `/add`"), "\(empty.content)")

            let board = try await client.send(I.command("leaderboard", [I.option("metric", "completed")], as: .carol))
            DiscordChecks.check(board)
            let lines = try #require(board.embeds.first?["description"] as? String).split(separator: "\n")
            #expect(lines[0].contains("🥇 Alice — **3**"))
            #expect(lines[1].contains("🥈 Bob — **2**"))
            #expect(lines[2].contains("🥉 Carol — **1** ← you"))

            _ = try await client.send(
                I.command("friend", [I.sub("add", [I.user("user", .carol)])], resolvedUsers: [.carol]))
            let activity = try await client.send(I.command("activity"))
            DiscordChecks.check(activity)
            let feed = try #require(activity.embeds.first?["description"] as? String)
            #expect(feed.split(separator: "\n").first?.contains("Carol") == true, "friends come first: \(feed)")
            #expect(feed.contains("Bob** won a medal in “Spring Cleaning”"))
            #expect(feed.contains("wishlisted Stardew Valley"))
            // Adding a game as completed and rating it straight after is one line of news, not three.
            #expect(feed.contains("✅ **Carol** completed and rated Celeste (2018) ★★★★★"), "\(feed)")
            #expect(!feed.contains("added Celeste") && !feed.contains("** rated Celeste"), "\(feed)")
            #expect(Self.footer(activity) == "Friends you follow come first")
            // Someone who follows nobody is told how; one member's news has no order to explain.
            let lonely = try await client.send(I.command("activity", as: .bob))
            #expect(Self.footer(lonely) == "/friend add puts a friend's news first")
            let carols = try await client.send(
                I.command("activity", [I.user("user", .carol)], resolvedUsers: [.carol]))
            #expect(carols.text.contains("Carol's news") && Self.footer(carols) == nil, "\(carols.text)")
        }
    }

    @Test func leaderboardTiesShareARankAndShowTheCallerOutsideTheTop() async throws {
        let rows = LeaderboardRow.ranked(
            (1...12).map { i in
                (
                    Player(id: PlayerID("p\(i)"), displayName: "p\(String(format: "%02d", i))", createdAt: Date()),
                    Double(i == 2 ? 12 : i)
                )
            })
        #expect(rows.prefix(2).map(\.rank) == [1, 1])
        #expect(rows[2].rank == 3)
        try await harness.withClient { client in
            try await play(client, .bob, "Celeste")
            try await play(client, .carol, "Hades")
            let board = try await client.send(I.command("leaderboard", [I.option("period", "week")]))
            let text = try #require(board.embeds.first?["description"] as? String)
            #expect(text.contains("🥇 Bob — **1**") && text.contains("🥇 Carol — **1**"))
            #expect(text.contains("You: no games completed in the last 7 days yet."))
            // Nobody is left out between the two ranked and the caller: no ellipsis; all time says no window.
            #expect(!text.contains("…"), "\(text)")
            let all = try await client.send(I.command("leaderboard", [I.option("metric", "reviews")]))
            #expect(all.ephemeral && all.content == "Nobody here has reviews written yet.", "\(all.content)")
        }
    }

    @Test func anEllipsisStandsOnlyForRowsLeftOut() async throws {
        try await harness.withClient { client in
            // Twelve players with 12 h down to 1 h: the 11th follows the top 10 directly, the 12th after a gap.
            let people = (1...12).map { I.Person(id: "6000000000000000\(10 + $0)", name: "p\($0)") }
            for (index, person) in people.enumerated() {
                _ = try await client.send(
                    I.command(
                        "add", [I.option("title", "Celeste"), I.option("hours", Double(12 - index))], as: person))
            }
            func board(_ who: I.Person) async throws -> String {
                let answer = try await client.send(I.command("leaderboard", [I.option("metric", "hours")], as: who))
                return try #require(answer.embeds.first?["description"] as? String)
            }
            let eleventh = try await board(people[10])
            #expect(eleventh.hasSuffix("`10.` P10 — **3 h**\n`11.` P11 — **2 h** ← you"), "\(eleventh)")
            let twelfth = try await board(people[11])
            #expect(twelfth.hasSuffix("`10.` P10 — **3 h**\n…\n`12.` P12 — **1 h** ← you"), "\(twelfth)")
        }
    }

    /// The games both have: those both rated first, liked most together first, then those one rated, then the rest.
    @Test func compareListsTheGamesBothRatedFirst() async throws {
        try await harness.withClient { client in
            for (who, scores) in [(I.Person.alice, [9, 8, 6, nil]), (.bob, [9, 3, nil, nil])] {
                for (title, score) in zip(["Celeste", "Hades", "Tetris", "Cuphead"], scores) {
                    try await play(client, who, title, score: score)
                }
            }
            let compare = try await client.send(I.command("compare", [I.user("user", .bob)], resolvedUsers: [.bob]))
            let fields = try #require(compare.embeds.first?["fields"] as? [[String: Any]])
            let shared = try #require(fields.first { ($0["name"] as? String)?.hasPrefix("Both have (4)") == true })
            let names = (shared["value"] as? String ?? "").split(separator: "\n").map {
                $0.split(separator: " (").first ?? ""
            }
            #expect(names == ["• Celeste", "• Hades", "• Tetris", "• Cuphead"], "\(shared)")
        }
    }

    /// Outside age-restricted channels no mature game is named: not among favorites, as the most played, or in a
    /// comparison (which still counts it, and its score).
    @Test func profileStatsAndCompareNameNoMatureGameOutsideAgeRestrictedChannels() async throws {
        try await harness.withClient { client in
            for who in [I.Person.alice, .bob] {
                for (title, hours, score) in [("Grand Theft Auto V", 90.0, 9), ("Celeste", 10.0, 7)] {
                    let add = [I.option("title", title), I.option("status", "completed"), I.option("hours", hours)]
                    _ = try await client.send(I.command("add", add, as: who, nsfw: true))
                    _ = try await client.send(
                        I.command("rate", [I.option("title", title), I.option("score", score)], as: who, nsfw: true))
                    _ = try await client.send(I.command("favorite", [I.option("title", title)], as: who, nsfw: true))
                }
            }
            let profile = try await client.send(I.command("profile", [I.sub("show", [])]))
            #expect(profile.text.contains("Celeste") && !profile.text.contains("Grand Theft"), "\(profile.text)")
            let stats = try await client.send(I.command("stats"))
            #expect(stats.text.contains("Most played: Celeste"), "\(stats.text)")
            #expect(stats.text.contains("100 h in total"), "the hours count every game: \(stats.text)")
            let compare = try await client.send(I.command("compare", [I.user("user", .bob)], resolvedUsers: [.bob]))
            #expect(compare.text.contains("**100%** over 2 games you both rated"), "\(compare.text)")
            #expect(compare.text.contains("Celeste (2018) — 7 vs 7\n1 age-restricted hidden"), "\(compare.text)")
            #expect(!compare.text.contains("Grand Theft"))
            // Where the channel is age-restricted, they are named.
            let there = try await client.send(
                I.command("compare", [I.user("user", .bob)], nsfw: true, resolvedUsers: [.bob]))
            #expect(there.text.contains("Grand Theft Auto V (2013) — 9 vs 9") && !there.text.contains("hidden"))
            let profileThere = try await client.send(I.command("profile", [I.sub("show", [])], nsfw: true))
            #expect(profileThere.text.contains("Grand Theft Auto V"), "\(profileThere.text)")
        }
    }

    @Test func compareRefusesYourselfAndEmptyLibrariesFriendly() async throws {
        try await harness.withClient { client in
            let me = try await client.send(I.command("compare", [I.user("user", .alice)], resolvedUsers: [.alice]))
            #expect(me.ephemeral && me.content.contains("with itself"))
            _ = try await client.send(I.command("help", as: .bob))
            try await play(client, .alice, "Celeste")
            let empty = try await client.send(I.command("compare", [I.user("user", .bob)], resolvedUsers: [.bob]))
            #expect(empty.ephemeral && empty.content.contains("Bob has no games in their library yet"))
        }
    }

    @Test(arguments: [
        ([I.option("goal", 0.0), I.option("unit", "custom"), I.option("ends", "2099-01-01")], "must be more than 0"),
        ([I.option("goal", 3.0), I.option("unit", "custom"), I.option("ends", "2001-01-01")], "ends` is in the past"),
        (
            [I.option("goal", 3.0), I.option("unit", "custom"), I.option("ends", "31/12/2099")],
            "must be a day: 2030-05-31"
        ),
        ([I.option("goal", 3.0), I.option("unit", "laps"), I.option("ends", "2099-01-01")], "`unit` must be one of"),
    ])
    func challengeRulesAreExplained(options: [[String: Any]], message: String) async throws {
        try await harness.withClient { client in
            let answer = try await client.send(
                I.command("challenge", [I.sub("create", [I.option("name", "Marathon")] + options)]))
            #expect(answer.ephemeral && answer.content.contains(message), "\(answer.content)")
        }
        #expect(
            try await harness.services.database.social.challenges(in: "discord:900000000000000001", joinedBy: nil)
                .isEmpty)
    }

    @Test func duplicateNamesAndProgressWithoutJoiningAreRefused() async throws {
        try await harness.withClient { client in
            // A fresh interaction each time: the same id twice would be a retried delivery.
            let create = {
                I.command(
                    "challenge",
                    [
                        I.sub(
                            "create",
                            [
                                I.option("name", "Laps"), I.option("goal", 10.0), I.option("unit", "custom"),
                                I.option("ends", "2099-01-01"),
                            ])
                    ])
            }
            _ = try await client.send(create())
            let again = try await client.send(create())
            #expect(again.ephemeral && again.content.contains("already has a challenge named “Laps”"))
            let stranger = try await client.send(
                I.command(
                    "challenge", [I.sub("progress", [I.option("name", "Laps"), I.option("amount", 3.0)])], as: .bob))
            #expect(stranger.ephemeral && stranger.content.contains("Join “Laps” first"))
            let mine = try await client.send(
                I.command("challenge", [I.sub("progress", [I.option("name", "Laps"), I.option("amount", 10.0)])]))
            #expect(mine.text.contains("🏅 Alice reached the goal"))
            let medals = try await client.send(I.command("profile", [I.sub("show")]))
            #expect(medals.text.contains("🏅 Laps"))
        }
    }

    @Test func sharePageShowsTheLibraryEscapedAndRevokingMakesIt404() async throws {
        try await harness.withClient { client in
            try await play(client, .alice, "Celeste", score: 9)
            _ = try await client.send(
                I.command(
                    "review", [I.option("title", "Celeste"), I.option("text", "<script>alert('x')</script> & more")]))
            try await play(client, .alice, "Hades", status: "playing")
            try await UpcomingTests.withFutureGames(harness)
            for title in ["Stardew Valley", "Moonlit Harbor"] {
                _ = try await client.send(I.command("wishlist", [I.sub("add", [I.option("title", title)])]))
            }
            let share = try await client.send(I.command("share"))
            #expect(share.ephemeral)
            let url = try #require(share.content.split(separator: " ").first { $0.contains("/u/") }).split(
                separator: "\n")[0]
            let path = String(url[url.range(of: "/u/")!.lowerBound...])
            let token = String(path.dropFirst(3))
            #expect(token.count == 32 && token.allSatisfy(\.isHexDigit))
            try await client.client.execute(uri: path, method: .get) { response in
                #expect(response.status == .ok)
                let html = String(buffer: response.body)
                #expect(html.contains("Alice's games"))
                #expect(html.contains("<p class=\"summary\">2 games · "), "\(html.prefix(1200))")
                let year = Calendar.utcYear(of: Date())
                #expect(html.contains("<a href=\"/u/\(token)/recap/\(year)\">\(year) in review</a>"))
                #expect(html.contains("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; more"))
                #expect(!html.contains("<script>"))
                #expect(html.contains("class=\"covers\"") && html.contains("Celeste (2018)") && html.contains("★★★★½"))
                for chart in ["chart-status", "chart-genres", "chart-scores", "chart-hours"] {
                    #expect(html.contains("id=\"\(chart)\""))
                }
                // The wishlist follows the shelves, newest wish first, with the day a game not out yet comes out.
                let wishlist = try #require(
                    html.range(of: "<section class=\"shelf\" id=\"wishlist\">").map { String(html[$0.lowerBound...]) })
                #expect(wishlist.hasPrefix("<section class=\"shelf\" id=\"wishlist\"><h2>🎁 Wishlist <small>2</small>"))
                let moonlit = try #require(wishlist.range(of: "Moonlit Harbor")).lowerBound
                let stardew = try #require(wishlist.range(of: "Stardew Valley (2016)</h3></article>")).lowerBound
                #expect(
                    moonlit < stardew
                        && wishlist.contains("Moonlit Harbor (2030)</h3><p class=\"facts\">Out Jan 1, 2030</p>"))
            }
            let again = try await client.send(I.command("share"))
            #expect(again.content.contains(token), "the same link until revoked")
            let revoke = try await client.send(I.command("share", [I.option("revoke", true)]))
            #expect(revoke.content.contains("link is off"))
            try await client.client.execute(uri: path, method: .get) { response in
                #expect(response.status == .notFound)
                #expect(String(buffer: response.body).contains("Not found"))
            }
            try await client.client.execute(uri: "/u/not-a-token", method: .get) { response in
                #expect(response.status == .notFound)
            }
        }
    }
}

@Suite("The share page in place of what is missing")
struct SharePagePlaceholderTests {
    /// A cover that cannot load shows the letter a shelf sorts the game by, not a leading article or a symbol.
    @Test(arguments: [
        ("The Legend of Zelda: Breath of the Wild", "L"), ("A Hat in Time", "H"), (".hack//G.U. Last Recode", "H"),
        ("'Splosion Man", "S"), ("7 Days to Die", "7"), ("celeste", "C"), ("The", "T"), ("Theme Hospital", "T"),
    ])
    func aPlaceholderShowsTheSortingLetter(name: String, letter: String) {
        #expect(SharedLibraryPage.initial(of: name) == letter)
        #expect(
            SharedLibraryPage.art(Game(id: 1, ref: GameRef(provider: "local", id: "1"), name: name)).contains(
                "<span aria-hidden=\"true\">\(letter)</span>"))
    }

    /// A library with no score and no hours yet says so on its page, rather than drawing ten bars of zero.
    @Test func chartsWithNothingToDrawSaySo() {
        let game = Game(id: 1, ref: GameRef(provider: "local", id: "1"), name: "Celeste", genres: ["Platform"])
        let player = Player(id: PlayerID("discord:1"), displayName: "Alice", createdAt: Date())
        let html = SharedLibraryPage.html(
            player: player, entries: [LibraryEntry(game: game, status: .backlog, at: Date())],
            token: String(repeating: "a", count: 32), now: Date())
        #expect(html.contains("<p class=\"summary\">1 game · no hours logged</p>"), "\(html.prefix(800))")
        #expect(html.contains("<p class=\"empty\" id=\"chart-scores\">No games rated yet</p>"))
        #expect(html.contains("<p class=\"empty\" id=\"chart-hours\">No hours logged yet</p>"))
        // What there is, is drawn: one game on the backlog, one genre.
        #expect(html.contains("<svg class=\"chart\" id=\"chart-status\""))
        #expect(html.contains("<svg class=\"chart\" id=\"chart-genres\""))
    }
}
