import Foundation
import GGTrackerCore
import Testing

@testable import GGTrackerServer

/// The commands in a member's context menu (Apps): their library and how well your scores agree, answered only to
/// whoever asked.
@Suite("Commands on a member")
struct UserCommandTests {
    typealias I = Interaction

    /// A user command as Discord sends it: `data.type` 2, the member in `target_id` and `resolved`.
    static func userCommand(_ name: String, on target: I.Person, as person: I.Person = .alice) -> [String: Any] {
        var interaction = I.base(type: 2, as: person)
        interaction["data"] = [
            "id": "2", "name": name, "type": 2, "target_id": target.id,
            "resolved": [
                "users": [
                    target.id: ["id": target.id, "username": target.name, "global_name": target.name.capitalized]
                ],
                "members": [target.id: ["nick": NSNull(), "roles": [], "permissions": "0"]],
            ],
        ]
        return interaction
    }

    @Test func theirLibraryAndACompareAreAnsweredPrivately() async throws {
        let harness = try await TestHarness()
        try await harness.withClient { client in
            for (game, score) in [("Celeste", 9), ("Hades", 6)] {
                _ = try await client.send(
                    I.command("rate", [I.option("title", game), I.option("score", score)], as: .bob))
            }
            _ = try await client.send(I.command("rate", [I.option("title", "Celeste"), I.option("score", 8)]))

            let library = try await client.send(Self.userCommand("Library", on: .bob))
            DiscordChecks.check(library)
            #expect(library.type == 4 && library.ephemeral)
            #expect(library.embeds.first?["title"] as? String == "Bob's library", "\(library.text)")
            #expect(library.text.contains("Celeste (2018)") && library.text.contains("Hades (2020)"))

            let compared = try await client.send(Self.userCommand("Compare with me", on: .bob))
            #expect(compared.ephemeral && compared.text.contains("Celeste"), "\(compared.text)")
            #expect(compared.text.contains("Compatibility"), "\(compared.text)")

            // On oneself, the library is one's own; a name the bot does not declare is refused.
            let own = try await client.send(Self.userCommand("Library", on: .alice))
            #expect(own.embeds.first?["title"] as? String == "Alice's library", "\(own.text)")
            let unknown = try await client.send(Self.userCommand("Wave", on: .bob))
            #expect(unknown.ephemeral && unknown.content.contains("Unknown command"), "\(unknown.content)")
            var noMember = Self.userCommand("Library", on: .bob)
            var data = try #require(noMember["data"] as? [String: Any])
            data["target_id"] = nil
            noMember["data"] = data
            let unnamed = try await client.send(noMember)
            #expect(unnamed.ephemeral && unnamed.content == "This command names no member.", "\(unnamed.content)")
        }
    }

    @Test func theyAreRegisteredAsUserCommands() throws {
        let json = try #require(
            try JSONSerialization.jsonObject(with: DiscordCommandDefinition.exportJSON()) as? [[String: Any]])
        let menus = json.filter { $0["type"] as? Int == 2 }
        #expect(menus.map { $0["name"] as? String } == ["Library", "Compare with me"])
        #expect(menus.allSatisfy { $0["description"] as? String == "" && $0["options"] == nil })
    }
}
