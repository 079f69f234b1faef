import PostgresNIO
import Synchronization

/// A connection leased for one transaction, handed from the task that leased it to the one that runs it, and
/// given back when that one releases it. Whichever comes first, the connection or the end of the wait, wins.
final class PostgresLease: Sendable {
    private struct State {
        var connection: PostgresConnection?
        var failure: (any Error)?
        var expired = false
        var released = false
        var waiter: CheckedContinuation<PostgresConnection, any Error>?
        var holder: CheckedContinuation<Void, Never>?
    }

    private let state = Mutex(State())

    /// In the leasing task: hands the connection over and keeps the lease until `release()`. Throws when the wait
    /// ran out first, which gives the connection back at once.
    func hold(_ connection: PostgresConnection) async throws {
        let waiter = try state.withLock { state -> CheckedContinuation<PostgresConnection, any Error>? in
            if state.expired { throw CancellationError() }
            state.connection = connection
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(returning: connection)
        await withCheckedContinuation { continuation in
            let released = state.withLock { state -> Bool in
                if state.released { return true }
                state.holder = continuation
                return false
            }
            if released { continuation.resume() }
        }
    }

    /// In the leasing task: no connection came (the wait was given up, or the pool is closed).
    func fail(_ error: any Error) {
        let waiter = state.withLock { state -> CheckedContinuation<PostgresConnection, any Error>? in
            state.failure = error
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(throwing: error)
    }

    /// The connection, once leased.
    func connection() async throws -> PostgresConnection {
        try await withCheckedThrowingContinuation { continuation in
            let ready = state.withLock { state -> Result<PostgresConnection, any Error>? in
                if let connection = state.connection { return .success(connection) }
                if let failure = state.failure { return .failure(failure) }
                state.waiter = continuation
                return nil
            }
            if let ready { continuation.resume(with: ready) }
        }
    }

    /// The wait ran out: true unless the connection came first.
    func expire() -> Bool {
        state.withLock { state in
            if state.connection != nil { return false }
            state.expired = true
            return true
        }
    }

    var expired: Bool { state.withLock { $0.expired } }

    /// The transaction is done: the connection goes back to the pool.
    func release() {
        let holder = state.withLock { state -> CheckedContinuation<Void, Never>? in
            state.released = true
            defer { state.holder = nil }
            return state.holder
        }
        holder?.resume()
    }
}
