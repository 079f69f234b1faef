import Foundation
import GRDB
import Testing

extension SlackTests {
    /// `/gg rate 9` names no game: the caller's games are offered — completed first, then being played, then the
    /// rest, never the wishlist — each a button that gives it that score; nothing is stored until one is pressed.
    @Test func aScoreWithoutAGameOffersTheCallersGames() async throws {
        try await withResponseURL { harness, url, received in
            try await harness.withClient { client in
                try await shelveFourGames(client, batch: 2)
                let (_, ask) = try await post(client, "/slack/commands", Self.command("rate 9", trigger: "2.5"))
                #expect(ask["response_type"] as? String == "ephemeral")
                #expect((ask["text"] as? String)?.contains("Which game gets ★★★★½ 9/10?") == true, "\(ask)")
                let buttons = (ask["blocks"] as? [[String: Any]] ?? []).filter { $0["type"] as? String == "actions" }
                    .flatMap { $0["elements"] as? [[String: Any]] ?? [] }
                let labels = buttons.compactMap { ($0["text"] as? [String: Any])?["text"] as? String }
                #expect(labels == ["Celeste (2018)", "Hades (2020)", "Hollow Knight (2017)"], "\(labels)")
                let values = buttons.compactMap { $0["value"] as? String }
                #expect(values.count == 3 && values.allSatisfy { $0.hasSuffix(" score:9") }, "\(values)")
                #expect(try await scores(harness).isEmpty, "nothing stored by asking")

                let (_, empty) = try await post(
                    client, "/slack/commands", Self.command("rate ★★★★", user: "U0BOB", trigger: "2.6"))
                #expect((empty["text"] as? String)?.contains("Your library has none yet") == true, "\(empty)")

                let (status, _) = try await post(
                    client, "/slack/interactions", try Self.press(try #require(values.first), responseURL: url))
                #expect(status == .ok)
            }
            let message = try await firstPost(to: received)
            #expect("\(message)".contains("Celeste"), "\(message)")
            #expect(try await scores(harness) == ["Celeste": 9])
        }
    }

    /// `/gg progress completed` without a game offers the games not completed yet, those being played first;
    /// `/gg remove` without one offers the wishlist too; pressing a button runs the command typed for that game.
    @Test func aStatusWithoutAGameOffersTheGamesNotAtItYet() async throws {
        try await withResponseURL { harness, url, received in
            try await harness.withClient { client in
                try await shelveFourGames(client, batch: 3)
                func ask(
                    _ line: String, _ trigger: String
                ) async throws -> (text: String, labels: [String], values: [String]) {
                    let (_, message) = try await post(client, "/slack/commands", Self.command(line, trigger: trigger))
                    #expect(message["response_type"] as? String == "ephemeral", "\(message)")
                    let buttons = (message["blocks"] as? [[String: Any]] ?? [])
                        .filter { $0["type"] as? String == "actions" }.flatMap {
                            $0["elements"] as? [[String: Any]] ?? []
                        }
                    return (
                        message["text"] as? String ?? "",
                        buttons.compactMap { ($0["text"] as? [String: Any])?["text"] as? String },
                        buttons.compactMap { $0["value"] as? String }
                    )
                }
                let finish = try await ask("progress completed", "3.5")
                #expect(finish.text.contains("Which game did you finish?"), "\(finish.text)")
                #expect(finish.labels == ["Hades (2020)", "Hollow Knight (2017)"], "\(finish.labels)")
                #expect(
                    finish.values.allSatisfy {
                        $0.hasPrefix("/progress title:igdb:") && $0.hasSuffix(" status:completed")
                    })
                // A session's hours or percent, without a game: which game it is for.
                let session = try await ask("progress +10%", "3.7")
                #expect(session.text.contains("Which game is that for?"), "\(session.text)")
                #expect(session.values.allSatisfy { $0.hasSuffix(" add_percent:10") }, "\(session.values)")
                let remove = try await ask("remove", "3.6")
                #expect(remove.labels.last == "Elden Ring (2022)" && remove.labels.count == 4, "\(remove.labels)")

                let (status, _) = try await post(
                    client, "/slack/interactions", try Self.press(try #require(finish.values.first), responseURL: url))
                #expect(status == .ok)
            }
            let message = try await firstPost(to: received)
            #expect("\(message)".contains("completed Hades"), "\(message)")
            let statuses = try await harness.services.database.writer.read { db in
                try String.fetchAll(db, sql: "SELECT status FROM library_entries ORDER BY status")
            }
            #expect(statuses == ["backlog", "completed", "completed"], "\(statuses)")
        }
    }

    /// `/gg review` without a game offers the completed ones only; with `by:`, about another member's review, the
    /// game is needed by name.
    @Test func aReviewWithoutAGameOffersTheCompletedOnes() async throws {
        try await withResponseURL { harness, _, _ in
            try await harness.withClient { client in
                try await shelveFourGames(client, batch: 4)
                let (_, ask) = try await post(
                    client, "/slack/commands", Self.command("review text:So kind", trigger: "4.5"))
                #expect((ask["text"] as? String)?.contains("Which game is the review for?") == true, "\(ask)")
                let values = (ask["blocks"] as? [[String: Any]] ?? []).filter { $0["type"] as? String == "actions" }
                    .flatMap { $0["elements"] as? [[String: Any]] ?? [] }.compactMap { $0["value"] as? String }
                #expect(values == ["/review title:igdb:26226 text:So kind"], "\(values)")
                let (_, other) = try await post(
                    client, "/slack/commands", Self.command("review by:<@U0BOB|bob>", trigger: "4.6"))
                #expect((other["text"] as? String)?.contains("/gg review needs title") == true, "\(other)")
            }
            let reviews = try await harness.services.database.writer.read { db in
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM library_entries WHERE review IS NOT NULL")
            }
            #expect(reviews == 0, "nothing stored by asking")
        }
    }

    /// Hollow Knight in the backlog, Celeste completed, Hades being played, Elden Ring wished for, in that order (each
    /// its own delivery: `batch` keeps them apart from another test's).
    func shelveFourGames(_ client: TestHarness.Client, batch: Int) async throws {
        let lines = [
            "add Hollow Knight", "add Celeste --status completed", "add Hades --status playing",
            "wishlist add Elden Ring",
        ]
        for (index, line) in lines.enumerated() {
            _ = try await post(client, "/slack/commands", Self.command(line, trigger: "\(batch).\(index + 1)"))
        }
    }

    /// The scores stored, by game name.
    func scores(_ harness: TestHarness) async throws -> [String: Int] {
        try await harness.services.database.writer.read { db in
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT g.name, e.score FROM library_entries e JOIN games g ON g.id = e.game_id
                    WHERE e.score IS NOT NULL
                    """)
            return Dictionary(uniqueKeysWithValues: rows.map { ($0[0] as String, $0[1] as Int) })
        }
    }
}
