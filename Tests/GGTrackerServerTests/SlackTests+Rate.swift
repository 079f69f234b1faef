import Foundation
import GRDB
import Testing

extension SlackTests {
    /// `/gg rate 9` names no game: the caller's games are offered — completed first, then being played, then the
    /// rest, never the wishlist — each a button that gives it that score; nothing is stored until one is pressed.
    @Test func aScoreWithoutAGameOffersTheCallersGames() async throws {
        try await withResponseURL { harness, url, received in
            try await harness.withClient { client in
                for (line, trigger) in [
                    ("add Hollow Knight", "2.1"), ("add Celeste --status completed", "2.2"),
                    ("add Hades --status playing", "2.3"), ("wishlist add Elden Ring", "2.4"),
                ] {
                    _ = try await post(client, "/slack/commands", Self.command(line, trigger: trigger))
                }
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
