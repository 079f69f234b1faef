import Foundation
import GGTrackerStorage
import Testing

@testable import GGTrackerServer

/// What a command costs in waits on the network when the database is PostgreSQL, counted statement by statement.
@Suite("Round trips to PostgreSQL per command")
struct PostgresRoundTripTests {
    @Test func listAndProgressCountTheirRoundTrips() async throws {
        guard let base = ReplicaTests.postgresURL else {
            #expect(ProcessInfo.processInfo.environment["CI"] == nil, "GGTRACKER_TEST_POSTGRES is not set")
            return
        }
        let schema = "t_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(16).lowercased()
        let harness = try await TestHarness(databasePath: base + "?schema=\(schema)")
        let database = harness.services.database
        try await harness.withClient { client in
            /// Sends the command; expects its answer to show `shown` and to have waited `expected` times.
            func check(_ interaction: [String: Any], shows shown: String, trips expected: Int) async throws {
                let before = database.counters.postgresRoundTrips
                let answer = try await client.send(interaction)
                let trips = database.counters.postgresRoundTrips - before
                let command = ((interaction["data"] as? [String: Any])?["name"] as? String) ?? "?"
                #expect(answer.text.contains(shown), "\(answer.text)")
                #expect(trips == expected, "/\(command) took \(trips) round trips")
                print("round trips on PostgreSQL: /\(command) \(trips)")
            }
            // The player is recorded by the first command; later ones only read who they are.
            _ = try await client.send(I.command("add", [I.option("title", "igdb:113112")]))
            // The caller with their server's settings, any answer stored for the delivery and the page of their
            // library with its counts: one statement.
            try await check(I.command("list", []), shows: "Hades", trips: 1)
            // On the connection, postgres-nio sends each statement once the one before is answered, so each is an
            // exchange with the server. The statement needs no transaction: on a connection that rests outside one
            // (the first such read ends the transaction a connection rests in without a next one), a /list sends 1.
            var sent = 0
            for _ in 0..<50 where sent != 1 {
                let before = database.counters.postgresStatementsSent
                #expect(try await client.send(I.command("list", [])).text.contains("Hades"))
                sent = database.counters.postgresStatementsSent - before
                if sent != 1 { try await Task.sleep(for: .milliseconds(20)) }
            }
            #expect(sent == 1, "/list sent \(sent) statements")
            // The caller with the game its id names, the entry as it was and the challenges that could award a
            // medal; the change (the claim, the upsert, the event) with the answer kept for retries and the commit.
            try await check(
                I.command("progress", [I.option("title", "igdb:113112"), I.option("hours", 12)]), shows: "12 h",
                trips: 2)
            // A wishlisted game not in the library yet, added by its catalog id: the caller with the game, the entry
            // found missing and the wishlist; the new entry, off the wishlist, with its event, the answer and the
            // commit.
            _ = try await client.send(I.command("wishlist", [I.sub("add", [I.option("title", "igdb:26226")])]))
            try await check(
                I.command("add", [I.option("title", "igdb:26226")]), shows: "Taken off Alice's wishlist.", trips: 2)
            // A title typed as text (as on Matrix and Slack, which have no autocomplete): the caller; the shelves
            // with the entries on them and the challenges; the change with its answer and the commit.
            try await check(
                I.command("progress", [I.option("title", "hades"), I.option("hours", 13)]), shows: "13 h", trips: 3)
        }
    }
}
