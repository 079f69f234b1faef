import Foundation
import GGTrackerStorage

/// Keeps calls within a rate and a concurrency: at most `perSecond` calls in any second and at most
/// `maxInFlight` running at once, across the whole process (IGDB: 4 per second, 8 in flight). With `cluster`,
/// the starts are also counted in the database, so replicas sharing it keep to the rate together.
///
/// The provider counts a call when it arrives, which is some time after it starts here and before its answer is
/// back. So a call holds one of the second's places from its start until one second after its answer: however
/// late a call reaches the provider, no other `perSecond` calls can reach it within the same second.
package actor RateLimiter {
    package let perSecond: Int
    package let maxInFlight: Int
    package let cluster: (database: AppDatabase, name: String)?
    /// Calls begun and not yet answered.
    private var running = 0
    /// When the calls answered in the last second were answered.
    private var answered: [ContinuousClock.Instant] = []
    private var inFlight = 0
    private var waiters: [CheckedContinuation<Void, Never>] = []
    private var answerWaiters: [CheckedContinuation<Void, Never>] = []
    private let clock = ContinuousClock()

    package init(perSecond: Int, maxInFlight: Int, cluster: (database: AppDatabase, name: String)? = nil) {
        self.perSecond = perSecond
        self.maxInFlight = maxInFlight
        self.cluster = cluster
    }

    /// Runs `work` once both bounds allow it.
    package func run<T: Sendable>(_ work: @Sendable () async throws -> T) async throws -> T {
        try await acquire()
        defer { finish() }
        return try await work()
    }

    private func acquire() async throws {
        while inFlight >= maxInFlight {
            await withCheckedContinuation { waiters.append($0) }
        }
        inFlight += 1
        do {
            try await waitForStart()
        } catch {
            // Cancelled, or the shared count could not be read: the in-flight place is given back.
            leaveFlight()
            throw error
        }
    }

    /// Waits until a start is allowed here and, with `cluster`, in the database's count of this second.
    private func waitForStart() async throws {
        while true {
            let now = clock.now
            answered.removeAll { now - $0 >= .seconds(1) }
            guard running + answered.count < perSecond else {
                if let oldest = answered.first {
                    try await Task.sleep(for: oldest + .seconds(1) - now)
                } else {
                    // Every place is held by a call still running: its answer starts its last second.
                    await withCheckedContinuation { answerWaiters.append($0) }
                    try Task.checkCancellation()
                }
                continue
            }
            running += 1
            guard let cluster else { return }
            let allowed: Bool
            do {
                allowed = try await cluster.database.leases.takeRequestSlot(
                    cluster.name, perSecond: perSecond, at: Date())
            } catch {
                running -= 1
                throw error
            }
            if allowed { return }
            running -= 1
            // Other replicas used this second's calls: try again early in the next one.
            let fraction = Date().timeIntervalSince1970.truncatingRemainder(dividingBy: 1)
            try await Task.sleep(for: .milliseconds(Int((1 - fraction) * 1000) + Int.random(in: 1...40)))
        }
    }

    /// A call was answered (or failed): its place in the second is held one second more, its in-flight place is free.
    private func finish() {
        running -= 1
        answered.append(clock.now)
        for waiter in answerWaiters { waiter.resume() }
        answerWaiters.removeAll()
        leaveFlight()
    }

    /// Gives an in-flight place back, to the first call waiting for one.
    private func leaveFlight() {
        inFlight -= 1
        if !waiters.isEmpty { waiters.removeFirst().resume() }
    }
}
