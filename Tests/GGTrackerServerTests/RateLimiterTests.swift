import Foundation
import GGTrackerCatalog
import Testing

/// The arrivals a provider would count: when each call reached it.
private actor Arrivals {
    private(set) var times: [ContinuousClock.Instant] = []
    func record() { times.append(.now) }

    /// The most arrivals within any one second.
    func busiestSecond() -> Int {
        let sorted = times.sorted()
        return sorted.indices.map { first in
            sorted[first...].prefix { $0 - sorted[first] < .seconds(1) }.count
        }.max() ?? 0
    }
}

@Suite("Keeping to a provider's rate")
struct RateLimiterTests {
    @Test(.timeLimit(.minutes(5)))
    func callsThatReachTheProviderLateStillKeepToItsRate() async throws {
        let limiter = RateLimiter(perSecond: 4, maxInFlight: 8)
        let arrivals = Arrivals()
        let clock = ContinuousClock()
        let begin = clock.now
        // Twelve calls; every third reaches the provider 300 ms after it starts (a slow connection, a busy
        // machine), the others at once, and each is answered 50 ms after it arrives.
        try await withThrowingTaskGroup(of: Void.self) { group in
            for call in 0..<12 {
                group.addTask {
                    try await limiter.run {
                        try await Task.sleep(for: .milliseconds(call % 3 == 0 ? 300 : 0))
                        await arrivals.record()
                        try await Task.sleep(for: .milliseconds(50))
                    }
                }
            }
            try await group.waitForAll()
        }
        let busiest = await arrivals.busiestSecond()
        #expect(await arrivals.times.count == 12)
        #expect(busiest <= 4, "\(busiest) calls reached the provider within one second")
        // 12 calls at 4 a second: the last four cannot start before two seconds have passed.
        #expect(clock.now - begin >= .seconds(2))
    }

    @Test(.timeLimit(.minutes(5)))
    func noMoreCallsRunAtOnceThanAllowed() async throws {
        let limiter = RateLimiter(perSecond: 100, maxInFlight: 3)
        let running = Arrivals()
        let finished = Arrivals()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<9 {
                group.addTask {
                    try await limiter.run {
                        await running.record()
                        try await Task.sleep(for: .milliseconds(100))
                        await finished.record()
                    }
                }
            }
            try await group.waitForAll()
        }
        let starts = await running.times.sorted()
        let ends = await finished.times.sorted()
        // However the calls interleave, at any start at most 3 have started and not yet finished.
        for start in starts {
            let open = starts.filter { $0 <= start }.count - ends.filter { $0 < start }.count
            #expect(open <= 3)
        }
    }
}
