import Foundation
import GGTrackerStorage

/// Keeps calls within a rate and a concurrency: at most `perSecond` starts in any second and at most
/// `maxInFlight` running at once, across the whole process (IGDB: 4 per second, 8 in flight). With `cluster`,
/// the starts are also counted in the database, so replicas sharing it keep to the rate together.
package actor RateLimiter {
    package let perSecond: Int
    package let maxInFlight: Int
    package let cluster: (database: AppDatabase, name: String)?
    private var starts: [ContinuousClock.Instant] = []
    private var inFlight = 0
    private var waiters: [CheckedContinuation<Void, Never>] = []
    private let clock = ContinuousClock()

    package init(perSecond: Int, maxInFlight: Int, cluster: (database: AppDatabase, name: String)? = nil) {
        self.perSecond = perSecond
        self.maxInFlight = maxInFlight
        self.cluster = cluster
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
        do {
            try await waitForStart()
        } catch {
            // Cancelled, or the shared count could not be read: the in-flight place is given back.
            release()
            throw error
        }
    }

    /// Waits until a start is allowed here and, with `cluster`, in the database's count of this second.
    private func waitForStart() async throws {
        while true {
            let now = clock.now
            starts.removeAll { now - $0 >= .seconds(1) }
            guard starts.count < perSecond else {
                // Wait until the oldest start leaves the one-second window, with a margin: the provider counts
                // a request when it arrives, and one sent late after its start can arrive close to the next.
                try await Task.sleep(for: starts[0] + .seconds(1) - now + .milliseconds(60))
                continue
            }
            if let cluster,
                try await !cluster.database.leases.takeRequestSlot(cluster.name, perSecond: perSecond, at: Date())
            {
                // Other replicas used this second's calls: try again early in the next one.
                let fraction = Date().timeIntervalSince1970.truncatingRemainder(dividingBy: 1)
                try await Task.sleep(for: .milliseconds(Int((1 - fraction) * 1000) + Int.random(in: 1...40)))
                continue
            }
            starts.append(clock.now)
            return
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
