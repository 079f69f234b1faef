import Foundation
import NIOCore
import Synchronization
import Testing

@testable import GGTrackerServer

/// The deadlines of requests in flight, kept in one table checked by a repeating timer.
@Suite("Request deadlines")
struct DeadlinesTests {
    final class Times: Sendable {
        let fired = Mutex<[String: ContinuousClock.Instant]>([:])
        func mark(_ name: String) { fired.withLock { $0[name] = .now } }
        func at(_ name: String) -> ContinuousClock.Instant? { fired.withLock { $0[name] } }
    }

    /// Waits until `condition` holds, for at most 10 s (a loaded machine runs timers late, never early).
    func eventually(_ condition: () -> Bool) async throws {
        let start = ContinuousClock.now
        while !condition() && ContinuousClock.now - start < .seconds(10) {
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    @Test func aDeadlineFiresOnceItPassesAndNotBefore() async throws {
        let deadlines = Deadlines(tick: .milliseconds(10))
        let times = Times()
        let start = ContinuousClock.now
        _ = deadlines.after(.milliseconds(150)) { times.mark("late") }
        _ = deadlines.after(.milliseconds(30)) { times.mark("soon") }
        try await eventually { times.at("late") != nil }
        let soon = try #require(times.at("soon"), "a 30 ms deadline never fired")
        let late = try #require(times.at("late"), "a 150 ms deadline never fired")
        #expect(soon - start >= .milliseconds(30), "a 30 ms deadline fired after \(soon - start)")
        #expect(late - start >= .milliseconds(150), "a 150 ms deadline fired after \(late - start)")
        #expect(soon < late)
        #expect(deadlines.pendingCount == 0)
    }

    @Test func aCancelledDeadlineNeverFires() async throws {
        let deadlines = Deadlines(tick: .milliseconds(10))
        let times = Times()
        let token = deadlines.after(.milliseconds(40)) { times.mark("cancelled") }
        _ = deadlines.after(.milliseconds(40)) { times.mark("kept") }
        deadlines.cancel(token)
        #expect(deadlines.pendingCount == 1)
        // Both were due at the same time: once the kept one fired, the cancelled one would have too.
        try await eventually { times.at("kept") != nil }
        try await Task.sleep(for: .milliseconds(50))
        #expect(times.at("kept") != nil)
        #expect(times.at("cancelled") == nil)
    }

    @Test func theTimerStopsWhenIdleAndStartsAgain() async throws {
        let deadlines = Deadlines(tick: .milliseconds(10))
        let times = Times()
        _ = deadlines.after(.milliseconds(20)) { times.mark("first") }
        #expect(deadlines.isTicking)
        // A second with nothing pending stops the timer; a new deadline starts it again.
        try await eventually { times.at("first") != nil && !deadlines.isTicking }
        #expect(times.at("first") != nil)
        #expect(!deadlines.isTicking)
        _ = deadlines.after(.milliseconds(20)) { times.mark("second") }
        #expect(deadlines.isTicking)
        try await eventually { times.at("second") != nil }
        #expect(times.at("second") != nil)
    }
}
