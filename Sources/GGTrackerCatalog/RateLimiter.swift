import Foundation

/// Keeps calls within a rate and a concurrency: at most `perSecond` starts in any second and at most
/// `maxInFlight` running at once, across the whole process (IGDB: 4 per second, 8 in flight).
package actor RateLimiter {
    package let perSecond: Int
    package let maxInFlight: Int
    private var starts: [ContinuousClock.Instant] = []
    private var inFlight = 0
    private var waiters: [CheckedContinuation<Void, Never>] = []
    private let clock = ContinuousClock()

    package init(perSecond: Int, maxInFlight: Int) {
        self.perSecond = perSecond
        self.maxInFlight = maxInFlight
    }

    /// Runs `work` once both bounds allow it.
    package func run<T: Sendable>(_ work: @Sendable () async throws -> T) async throws -> T {
        try await acquire()
        defer { release() }
        return try await work()
    }

    private func acquire() async throws {
        while inFlight >= maxInFlight {
            await withCheckedContinuation { waiters.append($0) }
        }
        inFlight += 1
        while true {
            let now = clock.now
            starts.removeAll { now - $0 >= .seconds(1) }
            if starts.count < perSecond {
                starts.append(now)
                return
            }
            // Wait until the oldest start leaves the one-second window, with a little margin.
            let wait = starts[0] + .seconds(1) - now + .milliseconds(5)
            do {
                try await Task.sleep(for: wait)
            } catch {
                inFlight -= 1
                resumeOne()
                throw error
            }
        }
    }

    private func release() {
        inFlight -= 1
        resumeOne()
    }

    private func resumeOne() {
        if !waiters.isEmpty { waiters.removeFirst().resume() }
    }
}
