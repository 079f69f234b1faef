import NIOCore
import NIOPosix
import PostgresNIO
import Synchronization

/// The transaction of one command on PostgreSQL, which sees one snapshot: begun by its first read, and ended at
/// the end of the command (`end()`), by a write of another kind (`close()`), or once no read came for `idle` (20 ms
/// when serving: a command waiting on something else, a provider say, gives its connection back). A read made
/// while another of the same command runs has a transaction of its own.
///
/// Where the command's delivery allows it (`holdsChanges`), the change the command makes on the delivery's behalf
/// is made in the same transaction and held there, uncommitted, until its answer is stored with it
/// (`commitHeld(with:)`): the reads, the change and the answer then cost two round trips, and what the change read
/// first (the entry as it was, with the caller) is read in the snapshot the change is made in, so a concurrent
/// change to the same rows makes the commit fail rather than be lost. A held change that fails before its commit
/// for a passing reason (a concurrent change, a connection lost) is reported as `CommandConflict`: nothing of it
/// was committed, and the command is run again from the start.
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
        /// The delivery whose change the open transaction holds.
        var held: DeliveryClaim?
        /// Why a held change was lost: every later use of the scope reports it, so that the command is never
        /// answered as if its change were made.
        var lost: (any Error)?
        /// The command is over: nothing more is held.
        var ended = false
    }

    private let state = Mutex(State())
    let database: PostgresDatabase
    /// How long the transaction stays open without a read.
    let idle: Duration
    /// Whether a command's change is held for its answer.
    let holdsChanges: Bool

    init(_ database: PostgresDatabase, idle: Duration, holdsChanges: Bool = false) {
        self.database = database
        self.idle = idle
        self.holdsChanges = holdsChanges
    }

    /// Whether a change is held, uncommitted, for the command's answer.
    var holdsChange: Bool { state.withLock { $0.held != nil } }

    /// Whether the command's transaction is open (or a read of it runs).
    var isOpen: Bool { state.withLock { $0.open != nil || $0.busy || $0.held != nil } }

    nonisolated(nonsending) func read<T>(_ body: (any SQLSession) async throws -> T) async throws -> T {
        let (free, taken, held) = try state.withLock { state -> (Bool, Open?, DeliveryClaim?) in
            if let lost = state.lost { throw lost }
            guard !state.busy else { return (false, nil, nil) }
            state.busy = true
            defer { state.open = nil }
            return (true, state.open, state.held)
        }
        // Core never reads twice at once, so a change held is always seen by the command's next read.
        guard free else { return try await database.transaction(readOnly: true, body) }
        var open = try await opened(taken)
        let result: T
        do {
            result = try await body(open.session)
            try await open.session.begun()
        } catch {
            if let held {
                // A database failure in the transaction that holds the change: the change cannot be committed.
                guard !Self.isDatabaseFailure(error) else { throw drop(open, claim: held, error) }
                state.withLock { state in
                    state.busy = false
                    state.open = open
                }
                throw error
            }
            finish(open)
            state.withLock { $0.busy = false }
            // What a transaction of its own runs again (a connection lost, a prepared statement gone stale) is run
            // as one, which retries it and reports its error as such a transaction does.
            if error is PostgresConnectionLost
                || (error as? PostgresServerError)?.isStalePreparedStatement == true
            {
                return try await database.transaction(readOnly: true, body)
            }
            throw error
        }
        open.used = .now
        state.withLock { state in
            state.busy = false
            state.open = open
            if state.timer == nil && state.held == nil { state.timer = scheduleCheck() }
        }
        return result
    }

    /// Makes a change on behalf of the delivery in the command's transaction (begun now if none is open) and holds
    /// it there, claiming the delivery first. Nil when this scope does not hold changes, the command is over, or a
    /// read of it is running: the change is then made as a transaction of its own. A change already held is
    /// committed first, so that each change commits or fails whole, as on its own.
    nonisolated(nonsending) func hold<T>(
        _ claim: DeliveryClaim, _ body: (any SQLSession) async throws -> T
    ) async throws -> T? {
        guard holdsChanges else { return nil }
        if holdsChange { _ = try await commitHeld { _ in } }
        let (free, taken) = try state.withLock { state -> (Bool, Open?) in
            if let lost = state.lost { throw lost }
            guard !state.ended, !state.busy else { return (false, nil) }
            state.busy = true
            state.timer?.cancel()
            state.timer = nil
            defer { state.open = nil }
            return (true, state.open)
        }
        guard free else { return nil }
        var open = try await opened(taken)
        let session = open.session
        // The change's statements go out with its commit.
        session.holdsBackStatements = true
        do {
            try await DeliveryRecords.claimHeld(claim, in: session)
            let result = try await body(session)
            session.forgetRemembered()
            try await session.begun()
            claim.markWritten()
            open.used = .now
            state.withLock { state in
                state.busy = false
                state.open = open
                state.held = claim
            }
            return result
        } catch {
            // A change the command refused (a user's mistake) is said as such, unless the claim, once answered,
            // shows that another attempt of the delivery made it already, as a change on its own would say.
            var failure = error
            if !Self.isDatabaseFailure(error) { do { try await session.settle() } catch { failure = error } }
            if Self.isDatabaseFailure(failure) { throw drop(open, claim: claim, failure) }
            discard(open)
            state.withLock { $0.busy = false }
            throw failure
        }
    }

    /// Commits the change held, if any, with what `body` adds to it (the answer kept for the delivery's
    /// retries): one round trip for all of it. False when no change is held.
    nonisolated(nonsending) func commitHeld(with body: (any SQLSession) async throws -> Void) async throws -> Bool {
        var taken: (Open, DeliveryClaim)?
        while true {
            let (held, found) = try state.withLock { state -> (Bool, (Open, DeliveryClaim)?) in
                if let lost = state.lost { throw lost }
                guard let held = state.held else { return (false, nil) }
                // The transaction is in use by a read of the command: the change is committed once it is done.
                guard !state.busy, let open = state.open else { return (true, nil) }
                state.busy = true
                state.open = nil
                return (true, (open, held))
            }
            guard held else { return false }
            if let found {
                taken = found
                break
            }
            await Task.yield()
        }
        guard let (open, claim) = taken else { return false }
        do {
            try await body(open.session)
            try await open.session.commit()
        } catch {
            throw drop(open, claim: claim, error)
        }
        claim.markCommitted()
        database.giveBack(open.session, open.lease)
        state.withLock { state in
            state.busy = false
            state.held = nil
        }
        return true
    }

    /// Ends the read transaction for a write of another kind, which runs as a transaction of its own; a change held
    /// is committed first.
    nonisolated(nonsending) func close() async throws {
        _ = try await commitHeld { _ in }
        if let open = takeOpen() { finish(open) }
    }

    /// Ends the command: its transaction, if one is open and no read is running, is ended, and a change still held
    /// (the command failed, or its answer was not kept) is rolled back.
    func end() {
        let held = state.withLock { state -> Bool in
            state.ended = true
            defer { state.held = nil }
            return state.held != nil
        }
        guard let open = takeOpen() else { return }
        if held {
            discard(open)
        } else {
            finish(open)
        }
    }

    private func takeOpen() -> Open? {
        state.withLock { state -> Open? in
            state.timer?.cancel()
            state.timer = nil
            guard !state.busy else { return nil }
            defer { state.open = nil }
            return state.open
        }
    }

    /// The open transaction taken for a read or a change (which marked the scope busy), or a new one on a connection
    /// of the pool, begun without waiting (it may write); when no connection comes, the scope is free again.
    private nonisolated(nonsending) func opened(_ taken: Open?) async throws -> Open {
        if let taken { return taken }
        do {
            let (session, lease) = try await database.leaseSession()
            session.begin(readOnly: false)
            return Open(session: session, lease: lease, used: .now)
        } catch {
            state.withLock { $0.busy = false }
            throw error
        }
    }

    /// Rolls back a transaction holding a change that failed; returns what the failure means for the command,
    /// which every later use of the scope reports too.
    private func drop(_ open: Open, claim: DeliveryClaim, _ error: any Error) -> any Error {
        discard(open)
        let failure = Self.meaning(of: error, claim: claim, database: database)
        state.withLock { state in
            state.busy = false
            state.held = nil
            state.lost = failure
        }
        return failure
    }

    /// Rolls the transaction back and gives its connection back.
    private func discard(_ open: Open) {
        open.session.rollBack()
        database.giveBack(open.session, open.lease)
    }

    /// Whether an error comes from the database rather than from the command.
    private static func isDatabaseFailure(_ error: any Error) -> Bool {
        switch error {
        case is PostgresServerError, is PostgresConnectionLost, is PSQLError, is PostgresError: true
        default: false
        }
    }

    /// What a failure of a held change means for the command: run it again (a concurrent change, a deadlock, a
    /// connection lost before the commit, a statement gone stale), the delivery applied by another attempt (its
    /// claim is taken), the database not answering, or (not the database's) the command's own error.
    private static func meaning(
        of error: any Error, claim: DeliveryClaim, database: PostgresDatabase
    ) -> any Error {
        if let error = error as? PostgresServerError {
            if PostgresWire.retriable.contains(error.state) { return CommandConflict() }
            if error.isStalePreparedStatement {
                database.statements.forget()
                return CommandConflict()
            }
            if error.state == "23505" && error.message.contains("processed_interactions") {
                return DeliveryAlreadyApplied(id: claim.id)
            }
            return error
        }
        if let lost = error as? PostgresConnectionLost {
            return lost.committing ? lost.error : CommandConflict()
        }
        guard isDatabaseFailure(error) else { return error }
        return PostgresUnavailable(description: PostgresWire.describe(error))
    }

    private func scheduleCheck() -> Scheduled<Void> {
        MultiThreadedEventLoopGroup.singleton.any().scheduleTask(in: idle.timeAmount) { [self] in
            let expired = state.withLock { state -> Open? in
                state.timer = nil
                guard let open = state.open, state.held == nil else { return nil }
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
