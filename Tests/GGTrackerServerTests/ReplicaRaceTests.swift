import Foundation
import GGTrackerCore
import GGTrackerStorage
import Testing

@testable import GGTrackerServer

/// Two processes on one database given the same delivery at the same moment: it is applied once, and the answer
/// stored for every later retry is the real one, whichever replica won.
@Suite("Replicas racing on one delivery")
struct ReplicaRaceTests {
    @Test func bothReplicasEndWithTheRealReplyStored() async throws {
        let path = Scratch.path("race.sqlite")
        let first = try await TestHarness(databasePath: path)
        var services = try await TestHarness(databasePath: path).services
        services.config.discordPublicKey = first.key.publicKey
        let second = TestHarness(services: services, key: first.key)
        for trial in 0..<6 {
            let id = "9\(trial)0000000000000000"
            let interaction = I.command(
                "challenge",
                [
                    I.sub(
                        "create",
                        [
                            I.option("name", "Race \(trial)"), I.option("goal", 3.0),
                            I.option("unit", "custom"), I.option("ends", "2099-12-31"),
                        ])
                ], id: id)
            async let a = first.withClient { try await $0.send(interaction) }
            async let b = second.withClient { try await $0.send(interaction) }
            let answers = try await [a, b]
            #expect(answers.contains { $0.text.contains("Race \(trial)") && !$0.ephemeral }, "\(answers.map(\.text))")
            let stored = try #require(try await first.services.database.deliveries.processedResponse(id))
            let json = try #require(try JSONSerialization.jsonObject(with: stored) as? [String: Any])
            let text = "\(json)"
            #expect(text.contains("Race \(trial)") && !text.contains("already carried out"), "trial \(trial): \(text)")
            let retry = try await first.withClient { try await $0.send(interaction) }
            #expect(retry.text.contains("Race \(trial)"), "a later retry gets the real answer")
        }
        let count = try await first.services.database.writer.read { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM challenges") ?? -1
        }
        #expect(count == 6, "each delivery applied once")
    }
}
