import Foundation
import GGTrackerStorage
import Testing

@testable import GGTrackerServer

/// What a command costs in waits on the network when the database is PostgreSQL, counted statement by statement.
@Suite("Round trips to PostgreSQL per command")
struct PostgresRoundTripTests {
    @Test func listAndProgressCountTheirRoundTrips() async throws {
        guard let base = ProcessInfo.processInfo.environment["GGTRACKER_TEST_POSTGRES"] else {
            #expect(ProcessInfo.processInfo.environment["CI"] == nil, "GGTRACKER_TEST_POSTGRES is not set")
            return
        }
        let schema = "t_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(16).lowercased()
        let harness = try await TestHarness(databasePath: base + "?schema=\(schema)")
        let database = harness.services.database
        try await harness.withClient { client in
            // The player is recorded by the first command; later ones only read who they are.
            _ = try await client.send(I.command("add", [I.option("title", "igdb:113112")]))
            var before = database.postgresRoundTrips
            let list = try await client.send(I.command("list", []))
            let listTrips = database.postgresRoundTrips - before
            #expect(list.text.contains("Hades"))
            // The caller with their server's settings and any answer stored for the delivery; the page with its
            // counts, sent together.
            #expect(listTrips == 2, "/list took \(listTrips) round trips")

            before = database.postgresRoundTrips
            let progress = try await client.send(
                I.command("progress", [I.option("title", "igdb:113112"), I.option("hours", 12)]))
            let progressTrips = database.postgresRoundTrips - before
            #expect(progress.text.contains("12 h"), "\(progress.text)")
            // The caller with the game its id names, the entry as it was and the challenges that could award a
            // medal; the change (the claim, the upsert, the event) with the answer kept for retries and the commit.
            #expect(progressTrips == 2, "/progress took \(progressTrips) round trips")

            // A game not in the library yet, added by its catalog id: the caller with the game and the entry found
            // missing; the new entry, off the wishlist, with its event, the answer and the commit.
            before = database.postgresRoundTrips
            let add = try await client.send(I.command("add", [I.option("title", "igdb:26226")]))
            let addTrips = database.postgresRoundTrips - before
            #expect(add.text.contains("Celeste"), "\(add.text)")
            #expect(addTrips == 2, "/add took \(addTrips) round trips")
            print("round trips on PostgreSQL: /list \(listTrips), /progress \(progressTrips), /add \(addTrips)")
        }
    }
}
