import Foundation
import GGTrackerStorage
import Testing

@testable import GGTrackerServer

/// `/list` of the caller's own library is read with the caller: on PostgreSQL in one statement without a
/// transaction, on SQLite in the caller's read. Every page, order, filter and age gate answers as the page read on
/// its own does.
@Suite("A /list read with its caller")
struct ListWithCallerTests {
    /// The answers to a session of commands, on a new database at `path` (nil: SQLite in memory).
    func session(on path: String?) async throws -> [String] {
        let harness = try await TestHarness(databasePath: path)
        func refs(mature: Int, _ count: Int) -> String {
            """
            SELECT provider || ':' || provider_id FROM games WHERE provider = 'igdb' AND mature = \(mature)
            ORDER BY popularity DESC, id LIMIT \(count)
            """
        }
        let (plain, mature): ([String], [String]) = try await harness.services.database.read { db in
            (try await db.values(refs(mature: 0, 12)), try await db.values(refs(mature: 1, 1)))
        }
        #expect(plain.count == 12 && mature.count == 1)
        return try await harness.withClient { client in
            var answers: [String] = []
            func list(_ options: [[String: Any]] = [], as person: I.Person = .alice, nsfw: Bool = false) async throws {
                answers.append(try await client.send(I.command("list", options, as: person, nsfw: nsfw)).text)
            }
            // The first command records the player (a write); the second only reads who they are.
            try await list()
            try await list()
            for (n, ref) in plain.enumerated() {
                _ = try await client.send(
                    I.command(
                        "add",
                        [
                            I.option("title", ref), I.option("status", n % 3 == 0 ? "completed" : "playing"),
                            I.option("hours", Double(n * 7 % 5)),
                        ]))
            }
            _ = try await client.send(I.command("add", [I.option("title", mature[0])], nsfw: true))
            try await list()
            try await list([I.option("page", 2)])
            try await list([I.option("page", 3)])
            try await list([I.option("sort", "hours")])
            try await list([I.option("sort", "name"), I.option("status", "completed")])
            try await list([I.option("status", "backlog")])
            try await list(nsfw: true)
            try await list([I.user("user", .alice)], as: .alice)
            try await list([I.user("user", .alice)], as: .bob)
            _ = try await client.send(
                I.command("admin", [I.sub("settings", [I.option("age_gate", "off")])], as: .admin))
            try await list()
            return answers
        }
    }

    @Test func everyPageAnswersTheSameOnBothDatabases() async throws {
        let sqlite = try await session(on: nil)
        // What the answers say, on SQLite.
        #expect(sqlite[0].contains("Your library has no games yet") && sqlite[1] == sqlite[0], "\(sqlite[0])")
        #expect(sqlite[2].contains("12 games"), "\(sqlite[2])")
        #expect(sqlite[2].contains("1 age-restricted hidden") && sqlite[2].contains("page 1/2"), "\(sqlite[2])")
        #expect(
            sqlite[3].contains("page 2/2")
                && sqlite[4].contains("There is no page 3: the list has 2 pages (12 games)."), "\(sqlite[3])")
        #expect(sqlite[5].contains("by hours") && sqlite[6].contains("completed"), "\(sqlite[5])")
        #expect(sqlite[7].contains("no games with status backlog"), "\(sqlite[7])")
        #expect(!sqlite[8].contains("hidden") && sqlite[8].contains("13 games"), "\(sqlite[8])")
        #expect(sqlite[9] == sqlite[2] && sqlite[10] == sqlite[2], "\(sqlite[10])")
        #expect(!sqlite[11].contains("hidden") && sqlite[11].contains("13 games"), "\(sqlite[11])")
        guard let base = ReplicaTests.postgresURL else {
            #expect(ProcessInfo.processInfo.environment["CI"] == nil, "GGTRACKER_TEST_POSTGRES is not set")
            return
        }
        let schema = "t_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(16).lowercased()
        let postgres = try await session(on: base + "?schema=\(schema)")
        #expect(postgres.count == sqlite.count)
        for (p, s) in zip(postgres, sqlite) { #expect(p == s) }
    }
}
