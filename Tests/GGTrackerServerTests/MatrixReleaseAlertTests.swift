import Foundation
import GGTrackerCatalog
import GGTrackerCore
import Logging
import Synchronization
import Testing

@testable import GGTrackerServer

extension MatrixTests {
    /// A Matrix room is its own announce channel: a game its members wishlisted before it came out is announced
    /// there once, pinging exactly them (`m.mentions`), with their pills.
    @Test func aReleaseAlertGoesToTheRoomWhereItWasWished() async throws {
        let received = Received()
        let now = Date()
        let clock = Mutex(now.addingTimeInterval(-2 * 86_400))
        try await fakeHomeserver(asToken: "as-secret", received: received, powerLevels: [:]).test(.live) { fake in
            let port = try #require(fake.port)
            let harness = try await TestHarness(
                configure: { config in
                    config.matrixHomeserverURL = "http://127.0.0.1:\(port)"
                    config.matrixASToken = "as-secret"
                    config.matrixHSToken = "hs-secret"
                }, now: { clock.withLock { $0 } })
            let lines = """
                {"id":990021,"name":"Launch Day","first_release_date":\(Int(now.timeIntervalSince1970) - 3600)}
                {"id":990022,"name":"Later Game","first_release_date":\(Int(now.timeIntervalSince1970) + 30 * 86_400)}
                """
            _ = try await CatalogImporter(database: harness.services.database).importData(Data(lines.utf8))
            try await harness.services.catalog.reloadVocabulary()
            try await harness.withClient { client in
                var wish = Self.message("!gg wishlist add Launch Day", id: "$wish")
                _ = try await put(client, txn: "120", events: [wish])
                wish = Self.message("!gg wishlist add Launch Day", from: "@bob:localhost", id: "$bob-wish")
                _ = try await put(
                    client, txn: "121", events: [wish, Self.message("!gg wishlist add Later Game", id: "$l")])
                #expect(try await Self.lastSent(received)["body"] as? String ?? "" != "")
            }
            clock.withLock { $0 = now }
            var logger = Logger(label: "alerts")
            logger.logLevel = .warning
            let alerts = ReleaseAlerts(services: harness.services, logger: logger)
            let sent = try await alerts.check(at: now)
            #expect(sent.count == 1, "\(sent)")
            let alert = try await Self.lastSent(received)
            let body = try #require(alert["body"] as? String)
            #expect(body.hasPrefix("Out today: Launch Day — wishlisted by @alice:localhost, @bob:localhost"), "\(body)")
            #expect(
                (alert["m.mentions"] as? [String: Any])?["user_ids"] as? [String] == [
                    "@alice:localhost", "@bob:localhost",
                ])
            let html = try #require(alert["formatted_body"] as? String)
            #expect(html.contains("<a href=\"https://matrix.to/#/@alice:localhost\">@alice:localhost</a>"), "\(html)")
            #expect(alert["m.relates_to"] == nil)
            let count = await received.requests.filter { $0.path == "send \(Self.room)" }.count
            #expect(try await alerts.check(at: now.addingTimeInterval(60)).isEmpty, "once")
            #expect(await received.requests.filter { $0.path == "send \(Self.room)" }.count == count)
        }
    }

    /// An ordinary reply still pings no one.
    @Test func anAnswerMentionsNoOne() async throws {
        try await withBot { client, received in
            _ = try await put(client, txn: "130", events: [Self.message("!gg list", id: "$list")])
            let mentions = try await Self.lastSent(received)["m.mentions"] as? [String: Any]
            #expect(mentions != nil && mentions?.isEmpty == true)
        }
    }
}
