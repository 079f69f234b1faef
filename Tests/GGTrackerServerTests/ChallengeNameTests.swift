import Foundation
import GGTrackerCore
import Testing

@testable import GGTrackerServer

/// A challenge is found by the name people type, not only its exact spelling: Matrix and Slack have no suggestions.
@Suite("Challenges by the name people type")
struct ChallengeNameTests {
    let harness: TestHarness
    init() async throws { harness = try await TestHarness() }

    func challenge(_ sub: String, _ name: String, as who: I.Person = .alice) -> [String: Any] {
        I.command("challenge", [I.sub(sub, [I.option("name", name)])], as: who)
    }

    func participants(_ name: String) async throws -> Int {
        let social = harness.services.database.social
        let found = try #require(try await social.challenge(in: "discord:900000000000000001", named: name))
        return try await social.standings(found).count
    }

    @Test func aStartAWordOrATypoFindsTheChallengeAndSeveralAsk() async throws {
        try await harness.withClient { client in
            for name in ["Winter Sprint", "Winter Reading"] {
                _ = try await client.send(I.createChallenge(name, goal: 3))
            }
            let word = try await client.send(challenge("join", "sprint", as: .bob))
            DiscordChecks.check(word)
            #expect(word.text.contains("Bob joined: Winter Sprint"), "\(word.text)")
            let typo = try await client.send(challenge("show", "wintr reading", as: .bob))
            #expect(typo.text.contains("Winter Reading") && !typo.ephemeral, "\(typo.text)")

            // "winter" fits both: the bot asks, and joins nothing until a button is pressed.
            let both = try await client.send(challenge("join", "winter", as: .bob))
            DiscordChecks.check(both)
            #expect(both.ephemeral && both.content.contains("More than one challenge here fits “winter”"))
            #expect(both.buttons.map(\.label) == ["Winter Reading", "Winter Sprint"])
            #expect(try await participants("Winter Reading") == 1)
            let picked = try await client.send(I.button(both.buttons[0].customID, as: .bob))
            #expect(picked.text.contains("Bob joined: Winter Reading"), "\(picked.text)")
            #expect(try await participants("Winter Reading") == 2)

            let unknown = try await client.send(challenge("leave", "summer", as: .bob))
            #expect(unknown.ephemeral && unknown.content.contains("No challenge here is named “summer”"))
            let near = try await client.send(challenge("leave", "wntr sprnt", as: .bob))
            #expect(near.ephemeral && near.content.contains("Did you mean “Winter Sprint”?"), "\(near.content)")
            #expect(try await participants("Winter Sprint") == 2)
        }
    }
}
