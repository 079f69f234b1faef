import Foundation
import GGTrackerStorage
import Testing

@testable import GGTrackerServer

/// Commands changing the same entry at once on PostgreSQL, through the real router: each command's change is held
/// in its transaction with its answer, and one that loses to another is run again, so none is lost and none is
/// applied twice.
@Suite("Concurrent changes through the router on PostgreSQL")
struct PostgresHeldChangeDeliveryTests {
    func harness() async throws -> TestHarness? {
        guard let base = ReplicaTests.postgresURL else {
            #expect(ProcessInfo.processInfo.environment["CI"] == nil, "GGTRACKER_TEST_POSTGRES is not set")
            return nil
        }
        let schema = "t_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(16).lowercased()
        return try await TestHarness(databasePath: base + "?schema=\(schema)")
    }

    @Test func togglesOfOneEntryAtOnceAreEachApplied() async throws {
        guard let harness = try await harness() else { return }
        try await harness.withClient { client in
            _ = try await client.send(I.command("add", [I.option("title", "igdb:113112")]))
            let toggles = (0..<10).map { _ in
                try! JSONSerialization.data(
                    withJSONObject: I.command("favorite", [I.option("title", "igdb:113112")]))
            }
            let answers = try await withThrowingTaskGroup(of: String.self) { group in
                for toggle in toggles {
                    group.addTask {
                        let interaction = try JSONSerialization.jsonObject(with: toggle) as! [String: Any]
                        return try await client.send(interaction).text
                    }
                }
                return try await group.reduce(into: [String]()) { $0.append($1) }
            }
            // Each toggle saw the one before it: five turned the flag on, five off, and it ends off.
            #expect(answers.filter { $0.contains("favorited Hades") }.count == 5, "\(answers)")
            #expect(answers.filter { $0.contains("no longer a favorite") }.count == 5, "\(answers)")
            let list = try await client.send(I.command("list", []))
            #expect(list.text.contains("Hades") && !list.text.contains("⭐"), "\(list.text)")
        }
    }

    @Test func copiesOfOneDeliveryAtOnceApplyOnce() async throws {
        guard let harness = try await harness() else { return }
        try await harness.withClient { client in
            _ = try await client.send(I.command("add", [I.option("title", "igdb:113112")]))
            let delivery = try JSONSerialization.data(
                withJSONObject: I.command("favorite", [I.option("title", "igdb:113112")], id: "1355555555555555555"))
            let bodies = try await withThrowingTaskGroup(of: Data.self) { group in
                for _ in 0..<8 {
                    group.addTask {
                        try await client.send(JSONSerialization.jsonObject(with: delivery) as! [String: Any]).body
                    }
                }
                return try await group.reduce(into: [Data]()) { $0.append($1) }
            }
            #expect(Set(bodies).count == 1, "every copy gets the same answer")
            // Applied once: the flag is on (twice would have turned it off again).
            let card = try await client.send(I.command("game", [I.option("title", "igdb:113112")]))
            #expect(card.text.contains("⭐ favorite"), "\(card.text)")
        }
    }

    /// Starts a one-game challenge that Alice is in.
    func challenge(_ name: String, _ client: TestHarness.Client) async throws {
        let created = try await client.send(
            I.createChallenge(name, goal: 1, unit: "games_completed", ends: "2099-05-31"))
        #expect(created.text.contains("started a challenge: \(name)"), "\(created.text)")
        _ = try await client.send(I.command("challenge", [I.sub("join", [I.option("name", name)])]))
    }

    /// The challenges a change could award a medal in are read ahead of it (with the caller for a catalog id, with
    /// the shelves for a typed title) and still award it.
    @Test func aHeldChangeWinsTheMedalItEarns() async throws {
        guard let harness = try await harness() else { return }
        try await harness.withClient { client in
            _ = try await client.send(I.command("add", [I.option("title", "igdb:113112")]))
            _ = try await client.send(I.command("add", [I.option("title", "igdb:26226")]))
            try await challenge("One Down", client)
            let byID = try await client.send(
                I.command("progress", [I.option("title", "igdb:113112"), I.option("status", "completed")]))
            #expect(byID.text.contains("won a medal in “One Down”"), "\(byID.text)")
            try await challenge("Second Wind", client)
            let byName = try await client.send(
                I.command("progress", [I.option("title", "celeste"), I.option("status", "completed")]))
            #expect(byName.text.contains("won a medal in “Second Wind”"), "\(byName.text)")
            #expect(!byName.text.contains("One Down"), "\(byName.text)")
        }
    }
}
