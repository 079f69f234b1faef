import Foundation
import GGTrackerCore
import GGTrackerStorage

/// Refreshing the catalog: one refresh at a time across every process sharing the database (a lease row), from
/// IGDB or, offline, the bundled file.
extension LocalCatalog {
    /// How far the running refresh got, nil when none runs.
    package var refreshProgress: RefreshProgress? { refreshState.progress }

    /// For shutdown: lets a running refresh finish the page it is storing, then returns (at most `timeout`).
    /// No refresh starts afterwards.
    package func stopRefreshing(timeout: Duration = .seconds(30)) async {
        refreshState.requestStop()
        let deadline = ContinuousClock.now + timeout
        while refreshState.isRunning, ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(50))
        }
    }

    package func refresh(full: Bool) async throws -> RefreshSummary {
        try await refresh(full: full) { _ in }
    }

    /// Refreshes and waits, reporting progress (the terminal's progress bar). Only one refresh runs at a time.
    package func refresh(
        full: Bool, progress: @escaping @Sendable (RefreshProgress) -> Void
    ) async throws -> RefreshSummary {
        guard refreshState.begin() else {
            throw CatalogImporter.ReadError(description: "a catalog refresh is already running")
        }
        guard try await takeLease() else {
            throw CatalogImporter.ReadError(description: "a catalog refresh is already running in another process")
        }
        do {
            let summary = try await perform(full: full, progress: progress)
            refreshState.end(summary)
            return summary
        } catch {
            refreshState.end(nil)
            throw error
        }
    }

    package func startRefresh(
        full: Bool, progress: @escaping @Sendable (RefreshProgress) -> Void,
        finished: @escaping @Sendable (Result<RefreshSummary, any Error>) -> Void
    ) async throws -> Bool {
        guard refreshState.begin() else { return false }
        guard try await takeLease() else { return false }
        let catalog = self
        Task.detached(priority: .utility) {
            do {
                let summary = try await catalog.perform(full: full, progress: progress)
                catalog.refreshState.end(summary)
                finished(.success(summary))
            } catch {
                catalog.refreshState.end(nil)
                finished(.failure(error))
            }
        }
        return true
    }

    /// Runs a refresh holding the lease: it is renewed a few times a lifetime, and the refresh stops after its
    /// current page if the lease was lost (this process stalled and another took over).
    func perform(full: Bool, progress: @escaping @Sendable (RefreshProgress) -> Void) async throws -> RefreshSummary {
        let state = refreshState
        return try await lease.renewing(onLoss: { state.loseLease() }) {
            try await performHoldingLease(full: full, progress: progress)
        }
    }

    /// Takes the refresh lease for this process; false (and the in-process refresh state ended) when another
    /// process holds it.
    private func takeLease() async throws -> Bool {
        let taken: Bool
        do { taken = try await lease.take() } catch {
            refreshState.end(nil)
            throw error
        }
        if !taken { refreshState.end(nil) }
        return taken
    }

    func performHoldingLease(
        full: Bool, progress: @escaping @Sendable (RefreshProgress) -> Void
    ) async throws -> RefreshSummary {
        if let igdb {
            let state = refreshState
            let summary = try await igdb.run(
                full: full,
                progress: { value in
                    state.report(value)
                    progress(value)
                }, shouldStop: { state.stopRequested || state.lostLease })
            try await index.reload()
            return summary
        }
        if let provider {
            throw CatalogImporter.ReadError(
                description:
                    "the \(provider.name) catalog fills through lookups; a bulk refresh needs GGTRACKER_CATALOG=igdb")
        }
        return try await reloadBundled()
    }

    func reloadBundled() async throws -> RefreshSummary {
        let start = Date()
        let report = try await loadBundled()
        return RefreshSummary(
            added: report.added, updated: report.updated, skipped: report.skipped,
            duration: Date().timeIntervalSince(start))
    }
}

/// Whether a refresh runs, and what the last one did; one refresh at a time.
final class RefreshState: @unchecked Sendable {
    private let lock = NSLock()
    private var running = false
    private var last: RefreshSummary?
    private var current: RefreshProgress?

    private var stopping = false

    private var lost = false

    func begin() -> Bool {
        lock.withLock {
            if running || stopping { return false }
            running = true
            lost = false
            return true
        }
    }

    /// The refresh lease went to another process: this refresh stops after its current page.
    func loseLease() { lock.withLock { lost = true } }
    var lostLease: Bool { lock.withLock { lost } }

    /// Asks a running refresh to stop after its current page, and refuses new ones.
    func requestStop() { lock.withLock { stopping = true } }
    var stopRequested: Bool { lock.withLock { stopping } }
    var isRunning: Bool { lock.withLock { running } }

    func end(_ summary: RefreshSummary?) {
        lock.withLock {
            running = false
            if let summary { last = summary }
        }
    }

    var snapshot: (Bool, RefreshSummary?) { lock.withLock { (running, last) } }

    func report(_ progress: RefreshProgress) { lock.withLock { current = progress } }
    var progress: RefreshProgress? { lock.withLock { running ? current : nil } }
}
