import Foundation
import GGTrackerCore
import Testing

@testable import GGTrackerServer

@Suite("Restarts and the committed command definitions")
struct PersistenceAndExportTests {
    @Test func libraryIsIntactAfterARestartOnTheSameFile() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ggtracker-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("db.sqlite").path
        do {
            let first = try await TestHarness(databasePath: path)
            try await first.withClient { client in
                let added = try await client.send(
                    I.command("add", [I.option("title", "Hollow Knight"), I.option("status", "playing")]))
                #expect(added.text.contains("added Hollow Knight"))
                _ = try await client.send(I.command("rate", [I.option("title", "Celeste"), I.option("score", 9)]))
            }
        }
        let second = try await TestHarness(databasePath: path)
        try await second.withClient { client in
            let list = try await client.send(I.command("list"))
            DiscordChecks.check(list)
            #expect(list.text.contains("Hollow Knight (2017)") && list.text.contains("Celeste (2018)"))
            #expect(list.text.contains("★★★★½"))
        }
    }

    /// The JSON in `commands/` is what `ggtracker commands export` writes; it must match the declarations.
    @Test func committedCommandDefinitionsMatchTheCode() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let committed = try Data(contentsOf: root.appendingPathComponent("commands/commands.json"))
        #expect(
            committed == (try DiscordCommandDefinition.exportJSON()),
            "commands/commands.json is out of date: run `swift run ggtracker commands export`")
    }

    @Test func commandDefinitionsFitDiscordsSchema() throws {
        let json = try JSONSerialization.jsonObject(with: try DiscordCommandDefinition.exportJSON()) as! [Any]
        #expect(json.count == CommandName.allCases.count + DiscordUserCommand.allCases.count)
        for command in json {
            // The docs give default_member_permissions as a string bitset; the preview spec says integer.
            let problems = DiscordChecks.validator.validate(
                command, against: "ApplicationCommandUpdateRequest", ignoring: ["default_member_permissions"])
            #expect(problems.isEmpty, "\(problems.prefix(3))")
        }
        let admin = try #require(json.compactMap { $0 as? [String: Any] }.first { $0["name"] as? String == "admin" })
        #expect(admin["default_member_permissions"] as? String == "32")
        // The announce channel is picked among the channels a bot can post in: text and announcement channels.
        let settings = (admin["options"] as? [[String: Any]])?.first { $0["name"] as? String == "settings" }
        let channel = (settings?["options"] as? [[String: Any]])?.first { $0["name"] as? String == "announce_channel" }
        #expect(channel?["channel_types"] as? [Int] == [0, 5], "\(String(describing: channel))")
    }

    @Test func healthAndMetricsAnswer() async throws {
        let harness = try await TestHarness()
        try await harness.withClient { client in
            _ = try await client.send(I.base(type: 1, as: .alice))
            try await client.client.execute(uri: "/healthz", method: .get) { response in
                #expect(response.status == .ok)
            }
            try await client.client.execute(uri: "/metrics", method: .get) { response in
                let text = String(buffer: response.body)
                #expect(text.contains("ggtracker_catalog_games 34"))
                #expect(
                    text.contains("ggtracker_requests_total{platform=\"discord\",command=\"ping\",outcome=\"ok\"} 1"))
            }
        }
    }
}
