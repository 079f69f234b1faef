import Foundation
import NIOCore
import Synchronization
import Testing

@testable import GGTrackerServer

/// The deadlines of requests in flight, kept in one table with one timer armed for the earliest.
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
        let deadlines = Deadlines()
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
        let deadlines = Deadlines()
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

    @Test func theTimerIsOffOnceNothingIsPendingAndArmedAgainByTheNextDeadline() async throws {
        let deadlines = Deadlines()
        let times = Times()
        _ = deadlines.after(.milliseconds(20)) { times.mark("first") }
        #expect(deadlines.isArmed)
        try await eventually { times.at("first") != nil && !deadlines.isArmed }
        #expect(times.at("first") != nil)
        #expect(!deadlines.isArmed)
        #expect(deadlines.timerEvents == 1)
        _ = deadlines.after(.milliseconds(20)) { times.mark("second") }
        #expect(deadlines.isArmed)
        try await eventually { times.at("second") != nil }
        #expect(times.at("second") != nil)
    }

    /// A server with requests coming and going is woken once per deadline's length, not while it rests: the
    /// deadlines cancelled before they pass leave the timer armed for the first of them, which then finds nothing.
    @Test func cancelledDeadlinesCostOneTimerEventAndAKeptOneStillFires() async throws {
        let deadlines = Deadlines()
        let times = Times()
        let start = ContinuousClock.now
        for _ in 0..<50 {
            deadlines.cancel(deadlines.after(.milliseconds(30)) { times.mark("cancelled") })
        }
        _ = deadlines.after(.milliseconds(200)) { times.mark("kept") }
        try await eventually { times.at("kept") != nil }
        let kept = try #require(times.at("kept"), "a 200 ms deadline never fired")
        #expect(kept - start >= .milliseconds(200))
        #expect(times.at("cancelled") == nil)
        // The 30 ms timer found nothing due and waited for the kept one: two events in all (one when a loaded
        // machine ran the first after the kept deadline had passed too), where a 10 ms tick would have made twenty.
        let events = deadlines.timerEvents
        #expect((1...2).contains(events))
        try await Task.sleep(for: .milliseconds(100))
        #expect(!deadlines.isArmed)
        #expect(deadlines.timerEvents == events)
    }
}
