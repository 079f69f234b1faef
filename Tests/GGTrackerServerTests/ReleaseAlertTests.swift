import Foundation
import GGTrackerCatalog
import GGTrackerCore
import GGTrackerStorage
import Hummingbird
import HummingbirdTesting
import Synchronization
import Testing

@testable import GGTrackerServer

/// Release alerts: "Out today" in the server's announce channel, pinging exactly the members who wishlisted the
/// game before it came out, once per server and game across processes.
@Suite("Release alerts", .serialized)
struct ReleaseAlertTests {
    typealias I = Interaction
    static let carol = Interaction.Person(id: "444444444444444444", name: "carol")
    static let dave = Interaction.Person(id: "555555555555555555", name: "dave")

    /// Runs `ggtracker alerts check` against the database, posting through the stand-in at `port`. The wait for
    /// the process blocks a thread, so it runs on one of Dispatch's, never on one the stand-in in this process
    /// needs to answer the process.
    static func check(database: String, port: Int) async throws -> (status: Int32, output: String) {
        try await ServerProcess.commandInBackground(
            ["alerts", "check", "--database", database],
            environment: [
                "DISCORD_BOT_TOKEN": "bot-token", "DISCORD_API_BASE": "http://127.0.0.1:\(port)/api/v10",
            ])
    }

    /// Two checks at once, in two processes.
    static func twoChecks(database: String, port: Int) async throws -> [String] {
        async let first = check(database: database, port: port)
        async let second = check(database: database, port: port)
        let results = try await [first, second]
        #expect(results.allSatisfy { $0.status == 0 }, "\(results)")
        return results.map(\.output)
    }

    @Test(.enabled(if: ServerProcess.binaryExists), .timeLimit(.minutes(5)))
    func anAlertGoesOutOnceWithExactlyTheRightMentionsAcrossTwoProcesses() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("gg-alerts-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("bot.sqlite").path
        let now = Date()
        let clock = Mutex(now.addingTimeInterval(-2 * 86_400))
        let harness = try await TestHarness(databasePath: path, now: { clock.withLock { $0 } })
        let launch = Int(now.timeIntervalSince1970) - 3600
        let lines = """
            {"id":990011,"name":"Launch Day","first_release_date":\(launch)}
            {"id":990012,"name":"Later Game","first_release_date":\(Int(now.timeIntervalSince1970) + 30 * 86_400)}
            {"id":990013,"name":"Long Ago","first_release_date":\(Int(now.timeIntervalSince1970) - 10 * 86_400)}
            """
        _ = try await CatalogImporter(database: harness.services.database).importData(Data(lines.utf8))
        try await harness.services.catalog.reloadVocabulary()

        let (stream, continuation) = AsyncStream.makeStream(of: (String, [String: Any]).self)
        let accepted = Received()
        let collector = Task {
            for await (channel, message) in stream {
                await accepted.add(channel, nil, try JSONSerialization.data(withJSONObject: message))
            }
        }
        defer { collector.cancel() }
        try await fakeDiscordChannels(token: "bot-token", accepted: continuation).test(.live) { fake in
            let port = try #require(fake.port)
            // The server's announce channel, as an admin set it (the setting's own post is not this test's).
            _ = try await harness.services.database.library.updateSettings(
                of: "discord:900000000000000001", announceChannel: "777000000000000001", ageGate: nil)
            try await harness.withClient { client in
                func wish(_ title: String, as person: I.Person, guild: String? = nil) async throws {
                    var command = I.command("wishlist", [I.sub("add", [I.option("title", title)])], as: person)
                    if let guild { command["guild_id"] = guild }
                    let answer = try await client.send(command)
                    #expect(answer.text.contains("wishlisted"), "\(answer.text)")
                }
                // Two days ago: Alice and Bob wish for Launch Day; Alice for Later Game and for Long Ago too late.
                clock.withLock { $0 = now.addingTimeInterval(-2 * 86_400) }
                try await wish("Launch Day", as: .alice)
                try await wish("Launch Day", as: .bob)
                try await wish("Later Game", as: .alice)
                try await wish("Long Ago", as: .alice)
                // Dave wishes in a server without an announce channel.
                try await wish("Launch Day", as: Self.dave, guild: "900000000000000002")
                // Carol wishes after the release: she is not pinged.
                clock.withLock { $0 = now }
                try await wish("Launch Day", as: Self.carol)
            }

            let outputs = try await Self.twoChecks(database: path, port: port)
            #expect(outputs.filter { $0.contains("Sent 1 release alert.") }.count == 1, "\(outputs)")
            #expect(outputs.filter { $0.contains("No release alerts due.") }.count == 1, "\(outputs)")
            // The stand-in hands each accepted message to a collecting task: wait for it to have them.
            func messages(_ expected: Int) async throws -> [(path: String, authorization: String?, body: Data)] {
                for _ in 0..<100 where await accepted.requests.count < expected {
                    try await Task.sleep(for: .milliseconds(50))
                }
                // A moment more, so a message beyond those expected would be seen too.
                try await Task.sleep(for: .milliseconds(300))
                return await accepted.requests
            }
            var posts = try await messages(1)
            #expect(posts.count == 1, "one message: \(posts.map { String(decoding: $0.body, as: UTF8.self) })")
            let firstPost = try #require(posts.first)
            let message = try #require(try JSONSerialization.jsonObject(with: firstPost.body) as? [String: Any])
            #expect(posts.first?.path == "777000000000000001")
            #expect(
                message["content"] as? String
                    == "Out today: **Launch Day** — wishlisted by <@111111111111111111>, <@222222222222222222>")
            let mentions = try #require(message["allowed_mentions"] as? [String: Any])
            #expect(mentions["users"] as? [String] == ["111111111111111111", "222222222222222222"])
            #expect((mentions["parse"] as? [Any])?.isEmpty == true)
            let year = Calendar.utc.component(.year, from: Date(timeIntervalSince1970: TimeInterval(launch)))
            #expect((message["embeds"] as? [[String: Any]])?.first?["title"] as? String == "Launch Day (\(year))")
            let problems = DiscordChecks.validator.validate(message, against: "MessageCreateRequest")
            #expect(problems.isEmpty, "\(problems.prefix(3))")

            // Another check, as after a restart: nothing is sent twice.
            let again = try await Self.check(database: path, port: port)
            #expect(again.output.contains("No release alerts due."), "\(again.output)")

            // A refresh moves Later Game's release to an hour ago: its alert goes out, for Alice only.
            let moved = """
                {"id":990012,"name":"Later Game","first_release_date":\(launch)}
                """
            _ = try await CatalogImporter(database: harness.services.database).importData(Data(moved.utf8))
            let afterMove = try await Self.check(database: path, port: port)
            #expect(afterMove.output.contains("Sent 1 release alert."), "\(afterMove.output)")
            posts = try await messages(2)
            #expect(posts.count == 2)
            let lastPost = try #require(posts.last)
            let second = try #require(try JSONSerialization.jsonObject(with: lastPost.body) as? [String: Any])
            #expect(second["content"] as? String == "Out today: **Later Game** — wishlisted by <@111111111111111111>")
        }
    }

    @Test func withoutABotTokenTheCheckSaysWhyAndSendsNothing() async throws {
        guard ServerProcess.binaryExists else { return }
        let refused = try await ServerProcess.commandInBackground(["alerts", "check", "--database", ":memory:"])
        #expect(refused.status != 0)
        #expect(refused.output.contains("DISCORD_BOT_TOKEN is not set"), "\(refused.output)")
        #expect(!refused.output.contains("Usage:"), "\(refused.output)")
    }
}
