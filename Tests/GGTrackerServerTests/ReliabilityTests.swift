import Foundation
import GGTrackerServer
import GGTrackerStorage
import GRDB
import Testing

@Suite("Exactly-once delivery")
struct ExactlyOnceTests {
    static func laps(id: String? = nil) -> [String: Any] {
        I.command(
            "challenge",
            [
                I.sub(
                    "create",
                    [
                        I.option("name", "Laps"), I.option("goal", 100.0), I.option("unit", "custom"),
                        I.option("ends", "2099-01-01"),
                    ])
            ], id: id)
    }

    static func progress(_ amount: Double, id: String) -> [String: Any] {
        I.command("challenge", [I.sub("progress", [I.option("name", "Laps"), I.option("amount", amount)])], id: id)
    }

    static func lapsProgress(_ database: AppDatabase) async throws -> Double {
        try await database.reader.read { db in
            try Double.fetchOne(db, sql: "SELECT sum(custom_progress) FROM challenge_participants") ?? 0
        }
    }

    @Test func aRetryWhoseChangeCommittedButWhoseAnswerWasLostIsNotAppliedAgain() async throws {
        let harness = try TestHarness()
        let database = harness.services.database
        try await harness.withClient { client in
            _ = try await client.send(Self.laps())
            let first = try await client.send(Self.progress(7, id: "1322222222222222222"))
            #expect(first.text.contains("Laps"))
            // The process died after committing the change and before storing the answer: what is left is
            // the claim written in the change's own transaction.
            try await database.writer.write { db in
                try db.execute(
                    sql: "UPDATE processed_interactions SET response = NULL, attempt = 'dead' WHERE id = ?",
                    arguments: ["1322222222222222222"])
            }
            let retry = try await client.send(Self.progress(7, id: "1322222222222222222"))
            #expect(retry.ephemeral && retry.content.contains("already carried out"))
            // Answered once now, the same way every time.
            let again = try await client.send(Self.progress(7, id: "1322222222222222222"))
            #expect(again.body == retry.body)
        }
        #expect(try await Self.lapsProgress(database) == 7)
    }

    @Test func concurrentCopiesOfOneDeliveryApplyOnce() async throws {
        let harness = try TestHarness()
        let database = harness.services.database
        try await harness.withClient { client in
            _ = try await client.send(Self.laps())
            let delivery = Self.progress(5, id: "1333333333333333333")
            let bodies = try await withThrowingTaskGroup(of: Data.self) { group in
                for _ in 0..<8 { group.addTask { try await client.send(delivery).body } }
                return try await group.reduce(into: [Data]()) { $0.append($1) }
            }
            #expect(Set(bodies).count == 1, "every copy gets the same answer")
        }
        #expect(try await Self.lapsProgress(database) == 5)
    }

    @Test func aRetryAfterARestartGetsTheStoredAnswer() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("gg-\(UUID().uuidString).sqlite").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let delivery = I.command(
            "add", [I.option("title", "Hades"), I.option("hours", 3.0)], id: "1344444444444444444")
        let before = try TestHarness(databasePath: path)
        let first = try await before.withClient { try await $0.send(delivery).body }
        // A new process on the same file, with a new signing key standing in for the same application.
        var after = try TestHarness(databasePath: path) { $0.discordPublicKey = before.key.publicKey }
        after.key = before.key
        let again = try await after.withClient { try await $0.send(delivery).body }
        #expect(again == first)
        let entries = try await after.services.database.reader.read { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM library_entries") ?? 0
        }
        #expect(entries == 1)
    }

    @Test func deliveryIdsArePrunedAfterADay() async throws {
        let database = try AppDatabase.inMemory()
        let now = Date()
        try await database.recordProcessed("old", response: Data("{}".utf8), at: now.addingTimeInterval(-90_000))
        try await database.recordProcessed("recent", response: Data("{}".utf8), at: now.addingTimeInterval(-3_600))
        let removed = try await database.prune(now: now)
        #expect(removed == 1)
        #expect(try await database.deliverySeen("recent"))
        #expect(try await !database.deliverySeen("old"))
    }
}
