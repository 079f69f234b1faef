import Foundation
import GRDB
import Synchronization

/// SQLite write transactions that arrive while another is being committed are run together in the next one, each
/// in a savepoint of its own, and made durable by a single commit: one flush of the log for several deliveries
/// instead of one each. A write still returns only once its change is committed and flushed; one that fails rolls
/// back its own savepoint and no other's, and a commit that fails fails every write it carried.
final class GroupCommit: Sendable {
    let writer: any DatabaseWriter
    private let state = Mutex<State>(State())
    /// Transactions committed, each carrying one write or more.
    let commits = Atomic<Int>(0)

    private struct State {
        var queue: [Job] = []
        /// Whether a batch is being committed (by the write that leads it).
        var busy = false
    }

    init(_ writer: any DatabaseWriter) { self.writer = writer }

    func write<T: Sendable>(_ body: @Sendable (any SQLSession) async throws -> T) async throws -> T {
        // The body is held by the job only until it has run, which is before this call returns.
        try await withoutActuallyEscaping(body) { body in
            let outcome = Outcome<T>()
            let job = Job { db in
                do {
                    try db.inSavepoint {
                        outcome.result = .success(try SQLiteTransaction.run { try await body(SQLiteSession(db)) })
                        return .commit
                    }
                } catch {
                    outcome.result = .failure(error)
                }
            }
            let leads = state.withLock { state in
                state.queue.append(job)
                if state.busy { return false }
                state.busy = true
                return true
            }
            if !leads { await job.waitForTurn() }
            if !job.isDone { await commitBatch() }
            return try outcome.finished(job.commitError)
        }
    }

    /// Runs every queued write in one transaction and commits it; then hands the lead to the first write that
    /// queued meanwhile, and wakes the ones it carried.
    private func commitBatch() async {
        let batch = state.withLock { state in
            let batch = state.queue
            state.queue = []
            return batch
        }
        var failure: (any Error)?
        do {
            try await writer.write { db in
                for job in batch { job.run(db) }
            }
            commits.add(1, ordering: .relaxed)
        } catch {
            failure = error
        }
        for job in batch { job.finish(failure) }
        let next = state.withLock { state -> Job? in
            guard let first = state.queue.first else {
                state.busy = false
                return nil
            }
            return first
        }
        next?.wake()
        for job in batch { job.wake() }
    }

    /// A write's result, set while its savepoint runs.
    final class Outcome<T>: @unchecked Sendable {
        var result: Result<T, any Error>?

        func finished(_ commitError: (any Error)?) throws -> T {
            if let commitError { throw commitError }
            guard let result else { throw CancellationError() }
            return try result.get()
        }
    }

    /// One write waiting in the queue: what it runs, and how its task is woken (when its batch is committed, or
    /// when it is its turn to lead one).
    final class Job: @unchecked Sendable {
        private let lock = Mutex<Waiting>(Waiting())
        private var body: ((Database) -> Void)?
        private(set) var isDone = false
        private(set) var commitError: (any Error)?

        private struct Waiting {
            var woken = false
            var continuation: CheckedContinuation<Void, Never>?
        }

        init(_ body: @escaping (Database) -> Void) { self.body = body }

        /// Runs the write in the batch's transaction, and lets go of its body.
        func run(_ db: Database) {
            body?(db)
            body = nil
        }

        func finish(_ error: (any Error)?) {
            body = nil
            commitError = error
            isDone = true
        }

        func waitForTurn() async {
            await withCheckedContinuation { continuation in
                let now = lock.withLock { waiting in
                    if waiting.woken { return true }
                    waiting.continuation = continuation
                    return false
                }
                if now { continuation.resume() }
            }
        }

        func wake() {
            let continuation = lock.withLock { waiting in
                waiting.woken = true
                defer { waiting.continuation = nil }
                return waiting.continuation
            }
            continuation?.resume()
        }
    }
}
