import Foundation
import GGTrackerCore
import GGTrackerStorage
import GRDB
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import Testing

@testable import GGTrackerServer

/// A homeserver stand-in whose first `failures` sends answer 500 (as a homeserver under load does), then accept.
actor FlakyHomeserver {
    var failures: Int
    var accepted: [(txn: String, body: [String: Any])] = []
    init(failures: Int) { self.failures = failures }
    func take() -> Bool {
        if failures > 0 {
            failures -= 1
            return false
        }
        return true
    }
    func accept(_ txn: String, _ body: [String: Any]) { accepted.append((txn, body)) }

    nonisolated func application() -> some ApplicationProtocol {
        let router = Router()
        router.put("/_matrix/client/v3/rooms/:room/send/m.room.message/:txn") { request, context -> Response in
            let body = try await request.body.collect(upTo: 1 << 20)
            guard await self.take() else {
                return FakeHomeserver.json(.internalServerError, ["errcode": "M_UNKNOWN", "error": "busy"])
            }
            let json = (try? JSONSerialization.jsonObject(with: Data(buffer: body))) as? [String: Any] ?? [:]
            await self.accept(context.parameters.get("txn") ?? "", json)
            return FakeHomeserver.json(.ok, ["event_id": "$reply\(UUID().uuidString)"])
        }
        router.get("/_matrix/client/v3/rooms/:room/state/m.room.power_levels") { _, _ -> Response in
            FakeHomeserver.json(.ok, ["users": [String: Int](), "users_default": 0])
        }
        var logger = Logger(label: "flaky-homeserver")
        logger.logLevel = .critical
        return Application(
            router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)), logger: logger)
    }
}

@Suite("Matrix transactions that fail for a passing reason are retried")
struct MatrixRetryTests {
    func withBot(
        failures: Int, databasePath: String? = nil,
        _ body: @Sendable (TestHarness, TestHarness.Client, FlakyHomeserver) async throws -> Void
    ) async throws {
        let homeserver = FlakyHomeserver(failures: failures)
        try await homeserver.application().test(.live) { fake in
            let port = try #require(fake.port)
            let harness = try await TestHarness(
                databasePath: databasePath ?? Scratch.path("matrix.sqlite")
            ) { config in
                config.matrixHomeserverURL = "http://127.0.0.1:\(port)"
                config.matrixASToken = "as-secret"
                config.matrixHSToken = "hs-secret"
            }
            try await harness.withClient { client in try await body(harness, client, homeserver) }
        }
    }

    func put(_ client: TestHarness.Client, txn: String, _ events: [Any]) async throws -> HTTPResponse.Status {
        let body = try JSONSerialization.data(withJSONObject: ["events": events])
        return try await client.client.execute(
            uri: "/_matrix/app/v1/transactions/\(txn)", method: .put,
            headers: [.contentType: "application/json", .authorization: "Bearer hs-secret"],
            body: ByteBuffer(data: body)
        ) { $0.status }
    }

    @Test func aReplyTheHomeserverRefusedIsSentWhenTheTransactionComesAgain() async throws {
        try await withBot(failures: 1) { harness, client, homeserver in
            let event = MatrixTests.message("!gg add Celeste --status playing", id: "$evt-1")
            let status1 = try await put(client, txn: "t1", [event])
            #expect(status1 == .internalServerError, "not acknowledged")
            #expect(await homeserver.accepted.isEmpty)
            let status2 = try await put(client, txn: "t1", [event])
            #expect(status2 == .ok)
            let sent = await homeserver.accepted
            #expect(sent.count == 1)
            #expect((sent.first?.body["body"] as? String)?.contains("alice added Celeste (2018)") == true)
            #expect(sent.first?.txn.removingPercentEncoding == "gg-$evt-1")
            let status3 = try await put(client, txn: "t1", [event])
            #expect(status3 == .ok)
            #expect(await homeserver.accepted.count == 1, "a transaction acknowledged is not handled again")
            let count = try await harness.services.database.writer.read { db in
                try Int.fetchOne(db, sql: "SELECT count(*) FROM library_entries") ?? -1
            }
            #expect(count == 1, "applied once")
        }
    }

    @Test(.timeLimit(.minutes(5)))
    func aBusyDatabaseFailsTheTransactionUntilItRecovers() async throws {
        let path = Scratch.path("busy.sqlite")
        try await withBot(failures: 0, databasePath: path) { harness, client, homeserver in
            _ = try await put(client, txn: "t0", [MatrixTests.message("!gg list", id: "$evt-0")])
            // Another process holds the write lock for longer than the bot waits for it.
            let other = try DatabaseQueue(path: path)
            let locked = DispatchSemaphore(value: 0)
            let release = DispatchSemaphore(value: 0)
            DispatchQueue.global().async {
                try? other.inDatabase { db in
                    try db.execute(sql: "BEGIN EXCLUSIVE")
                    locked.signal()
                    release.wait()
                    try db.execute(sql: "COMMIT")
                }
                locked.signal()
            }
            locked.wait()
            let event = MatrixTests.message("!gg add Hades", id: "$evt-2")
            let busy = try await put(client, txn: "t2", [event])
            #expect(busy == .internalServerError)
            #expect(await homeserver.accepted.count == 1)
            release.signal()
            locked.wait()
            let retried = try await put(client, txn: "t2", [event])
            #expect(retried == .ok)
            let sent = await homeserver.accepted
            #expect(sent.count == 2 && (sent.last?.body["body"] as? String)?.contains("alice added Hades") == true)
        }
    }

    @Test func aMalformedEventIsSkippedAndTheRestAnswered() async throws {
        try await withBot(failures: 0) { _, client, homeserver in
            let bad: [String: Any] = ["type": "m.room.message", "content": ["body": "!gg list"]]
            let good = MatrixTests.message("!gg list", id: "$evt-3")
            let status6 = try await put(client, txn: "t3", [bad, good])
            #expect(status6 == .ok)
            #expect(await homeserver.accepted.count == 1)
        }
    }
}
