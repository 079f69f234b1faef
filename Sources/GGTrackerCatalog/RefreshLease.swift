import Foundation
import GGTrackerStorage

/// The lease that lets one catalog refresh run across every process sharing the database. The holder renews it
/// while it works; if it dies, the lease expires and another process may refresh, resuming from the checkpoint
/// stored with the games.
struct RefreshLease: Sendable {
    let leases: LeaseRecords
    static let name = "catalog.refresh"
    /// Who this process is when it holds the lease.
    let holder = "\(ProcessInfo.processInfo.hostName):\(getpid()):\(UUID().uuidString.prefix(8))"
    var duration: TimeInterval = 60

    /// Takes the lease, or renews it for its holder; false when another process holds it.
    func take() async throws -> Bool {
        try await leases.acquireLease(Self.name, holder: holder, for: duration, at: Date())
    }

    /// Whether another process holds the lease now.
    func heldElsewhere() async throws -> Bool {
        try await leases.leaseHolder(Self.name, at: Date()).map { $0 != holder } ?? false
    }

    func release() async {
        try? await leases.releaseLease(Self.name, holder: holder)
    }

    /// Runs `body` holding the lease, and lets go of it after; 0 without running it when another process holds it.
    func holding(_ body: () async throws -> Int) async throws -> Int {
        guard try await take() else { return 0 }
        return try await releasing(after: body)
    }

    /// Runs `body`, taken beforehand, renewing the lease a few times a lifetime (`onLoss` when another process has
    /// taken it over), and lets go of it after.
    func renewing<T>(onLoss: @escaping @Sendable () -> Void, _ body: () async throws -> T) async throws -> T {
        let lease = self
        let renewal = Task {
            while !Task.isCancelled {
                try await Task.sleep(for: .seconds(lease.duration / 3))
                if (try? await lease.take()) != true { onLoss() }
            }
        }
        // The renewal stops before the lease is let go, so it cannot take it again afterwards.
        return try await releasing {
            defer { renewal.cancel() }
            return try await body()
        }
    }

    /// Runs `body`, then lets go of the lease whether it threw or not.
    private func releasing<T>(after body: () async throws -> T) async throws -> T {
        let result: Result<T, any Error>
        do { result = .success(try await body()) } catch { result = .failure(error) }
        await release()
        return try result.get()
    }
}
