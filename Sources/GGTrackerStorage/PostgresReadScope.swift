import NIOCore
import NIOPosix
import Synchronization

/// The reads of one command on PostgreSQL, in one read-only transaction that sees one snapshot: begun by its first
/// read and ended by its first write (so the write never waits for a second connection while this one is held), at
/// the end of the command (`close()`), or once no read came for `idle` (20 ms when serving: a command waiting on
/// something else, a provider say, gives its connection back). A read made while another of the same command runs
/// has a transaction of its own.
final class PostgresReadScope: Sendable {
    private struct Open {
        let session: PostgresSession
        let lease: PostgresLease
        var used: ContinuousClock.Instant
    }

    private struct State {
        var open: Open?
        var busy = false
        var timer: Scheduled<Void>?
    }

    private let state = Mutex(State())
    let database: PostgresDatabase
    /// How long the transaction stays open without a read.
    let idle: Duration

    init(_ database: PostgresDatabase, idle: Duration) {
        self.database = database
        self.idle = idle
    }

    nonisolated(nonsending) func read<T>(_ body: (any SQLSession) async throws -> T) async throws -> T {
        let (free, taken) = state.withLock { state -> (Bool, Open?) in
            guard !state.busy else { return (false, nil) }
            state.busy = true
            defer { state.open = nil }
            return (true, state.open)
        }
        guard free else { return try await database.transaction(readOnly: true, body) }
        var open: Open
        if let taken {
            open = taken
        } else {
            do {
                let (session, lease) = try await database.leaseSession()
                session.begin(readOnly: true)
                open = Open(session: session, lease: lease, used: .now)
            } catch {
                state.withLock { $0.busy = false }
                throw error
            }
        }
        let result: T
        do {
            result = try await body(open.session)
            try await open.session.begun()
        } catch {
            finish(open)
            state.withLock { $0.busy = false }
            // What a transaction of its own runs again (a connection lost, a prepared statement gone stale) is run
            // as one, which retries it and reports its error as such a transaction does.
            if error is PostgresSession.ConnectionLost
                || (error as? PostgresSession.ServerError)?.isStalePreparedStatement == true
            {
                return try await database.transaction(readOnly: true, body)
            }
            throw error
        }
        open.used = .now
        state.withLock { state in
            state.busy = false
            state.open = open
            if state.timer == nil { state.timer = scheduleCheck() }
        }
        return result
    }

    /// Ends the transaction, if one is open and no read is running.
    func close() {
        let open = state.withLock { state -> Open? in
            state.timer?.cancel()
            state.timer = nil
            defer { state.open = nil }
            return state.open
        }
        if let open { finish(open) }
    }

    private func scheduleCheck() -> Scheduled<Void> {
        MultiThreadedEventLoopGroup.singleton.any().scheduleTask(in: idle.timeAmount) { [self] in
            let expired = state.withLock { state -> Open? in
                state.timer = nil
                guard let open = state.open else { return nil }
                if ContinuousClock.now - open.used >= idle {
                    state.open = nil
                    return open
                }
                state.timer = scheduleCheck()
                return nil
            }
            if let expired { finish(expired) }
        }
    }

    private func finish(_ open: Open) {
        open.session.endRead()
        database.giveBack(open.session, open.lease)
    }
}
