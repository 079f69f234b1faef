import Foundation
import Testing

@testable import GGTrackerServer

@Suite("Discord request signatures")
struct DiscordSignatureTests {
    let harness: TestHarness
    init() async throws { harness = try await TestHarness() }

    @Test func signedPingIsAnsweredWithPong() async throws {
        try await harness.withClient { client in
            let answer = try await client.send(Interaction.base(type: 1, as: .alice))
            #expect(answer.status == .ok)
            #expect(answer.json["type"] as? Int == 1)
            DiscordChecks.check(answer)
        }
    }

    @Test func missingSignatureIsRefused() async throws {
        try await harness.withClient { client in
            let body = try JSONSerialization.data(withJSONObject: Interaction.base(type: 1, as: .alice))
            let answer = try await client.post(
                body, signature: nil, timestamp: String(Int(Date().timeIntervalSince1970)))
            #expect(answer.status == .unauthorized)
        }
    }

    @Test func signatureByAnotherKeyIsRefused() async throws {
        let other = try await TestHarness()
        try await harness.withClient { client in
            let body = try JSONSerialization.data(withJSONObject: Interaction.base(type: 1, as: .alice))
            let stamp = String(Int(Date().timeIntervalSince1970))
            let forged = try TestHarness.Client(client: client.client, key: other.key).sign(body, timestamp: stamp)
            let answer = try await client.post(body, signature: forged, timestamp: stamp)
            #expect(answer.status == .unauthorized)
        }
    }

    @Test func tamperedBodyIsRefusedAndNothingRuns() async throws {
        try await harness.withClient { client in
            let original = try JSONSerialization.data(
                withJSONObject: Interaction.command("add", [Interaction.option("title", "Celeste")]))
            let stamp = String(Int(Date().timeIntervalSince1970))
            let signature = try client.sign(original, timestamp: stamp)
            let tampered = try JSONSerialization.data(
                withJSONObject: Interaction.command("add", [Interaction.option("title", "Hades")]))
            let answer = try await client.post(tampered, signature: signature, timestamp: stamp)
            #expect(answer.status == .unauthorized)
        }
        let players = try await harness.services.database.writer.read { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM players")
        }
        #expect(players == 0)
    }

    @Test func malformedSignatureIsRefused() async throws {
        try await harness.withClient { client in
            let body = try JSONSerialization.data(withJSONObject: Interaction.base(type: 1, as: .alice))
            let answer = try await client.post(
                body, signature: "zz-not-hex", timestamp: String(Int(Date().timeIntervalSince1970)))
            #expect(answer.status == .unauthorized)
        }
    }

    @Test(arguments: [-301.0, 400.0, -3600.0])
    func timestampFarFromNowIsRefused(offset: Double) async throws {
        try await harness.withClient { client in
            let answer = try await client.send(
                Interaction.base(type: 1, as: .alice), timestamp: Date().addingTimeInterval(offset))
            #expect(answer.status == .unauthorized)
        }
    }

    @Test func malformedJSONWithValidSignatureIsABadRequest() async throws {
        try await harness.withClient { client in
            let body = Data("{\"type\": 2, \"id\": ".utf8)
            let stamp = String(Int(Date().timeIntervalSince1970))
            let answer = try await client.post(
                body, signature: try client.sign(body, timestamp: stamp), timestamp: stamp)
            #expect(answer.status == .badRequest)
        }
    }
}
