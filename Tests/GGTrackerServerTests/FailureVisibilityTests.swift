import Foundation
import GGTrackerCore
import GGTrackerStorage
import Testing

@testable import GGTrackerServer

/// A failure after the work began is shown to the user, never left as a silent "thinking…"; a database that
/// refuses writes makes the replica not ready.
@Suite("Failures the user sees")
struct FailureVisibilityTests {
    /// A bot on a database file (its writer connection is used for writes only).
    static func harness() async throws -> TestHarness {
        try await TestHarness(databasePath: Scratch.path("rw.sqlite"))
    }

    /// Makes the database refuse every write from now on, as a read-only file would.
    static func refuseWrites(_ database: AppDatabase) async throws {
        try await database.write { db in try await db.execute("PRAGMA query_only = 1") }
    }

    @Test func aQuestionWhoseButtonsCannotBeStoredIsStillAnsweredAtOnce() async throws {
        let harness = try await Self.harness()
        try await harness.withClient { client in
            _ = try await client.send(I.command("list"))  // alice is recorded while writes still work
            try await Self.refuseWrites(harness.services.database)
            // Each button re-runs the review with its long text: too long for a custom id, so it must be stored.
            let review = String(repeating: "A long review that does not fit in a button. ", count: 5)
            let answer = try await client.send(
                I.command("review", [I.option("title", "Doom"), I.option("text", review)], nsfw: true))
            #expect(answer.type == 4, "answered at once, not deferred")
            #expect(answer.ephemeral && answer.content.contains("More than one game matches"), "\(answer.content)")
            #expect(answer.content.contains("buttons are unavailable"))
        }
    }

    @Test func aCommandThatCannotWriteSaysSoAndChangesNothing() async throws {
        let harness = try await Self.harness()
        try await harness.withClient { client in
            _ = try await client.send(I.command("list"))
            try await Self.refuseWrites(harness.services.database)
            let answer = try await client.send(I.command("add", [I.option("title", "Celeste")]))
            #expect(answer.type == 4 && answer.ephemeral)
            #expect(answer.content.contains("nothing was changed"), "\(answer.content)")
        }
    }

    @Test func readinessFailsWhileTheDatabaseRefusesWrites() async throws {
        let harness = try await Self.harness()
        try await harness.withClient { client in
            let before = try await client.client.execute(uri: "/readyz", method: .get) { $0.status }
            #expect(before == .ok)
            try await Self.refuseWrites(harness.services.database)
            let after = try await client.client.execute(uri: "/readyz", method: .get) { $0.status }
            #expect(after == .serviceUnavailable)
            let alive = try await client.client.execute(uri: "/healthz", method: .get) { $0.status }
            #expect(alive == .ok)
        }
    }

    @Test(.timeLimit(.minutes(5)))
    func aDeferredCommandThatFailsEditsItsMessageWithTheFailure() async throws {
        let race = FirstAnswer()
        let slow = Task<Handled, Never> {
            let handled = await DiscordInteractionController.answer {
                try await Task.sleep(for: .milliseconds(300))
                throw CancellationError()
            }
            race.offer(handled)
            return handled
        }
        let first = await race.first(deadline: .milliseconds(10))
        #expect(first.outcome == .deferred)
        let edit = await slow.value
        #expect(edit.outcome == .error)
        let json = try #require(try JSONSerialization.jsonObject(with: edit.data) as? [String: Any])
        #expect(((json["data"] as? [String: Any])?["content"] as? String)?.contains("Something went wrong") == true)
        // Work that fails before the deadline is answered with the failure at once, not taken for a deferral. The
        // deadline is long: on a machine busy with the whole suite, a new task may wait seconds to start.
        let quick = FirstAnswer()
        Task { quick.offer(await DiscordInteractionController.answer { throw CancellationError() }) }
        #expect(await quick.first(deadline: .seconds(30)).outcome == .error)
    }
}
