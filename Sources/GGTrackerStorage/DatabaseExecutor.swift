import Foundation
import GRDB

/// Runs every store's read and write transactions, on a SQLite file through GRDB or on PostgreSQL through
/// postgres-nio's client. A transaction is an async closure over an `SQLSession`; no thread is held waiting for
/// the database.
package final class DatabaseExecutor: Sendable {
    enum Backend: Sendable {
        case sqlite(any DatabaseWriter)
        case postgres(PostgresDatabase)
    }

    let backend: Backend
    /// SQLite's writes, committed together when they arrive together.
    private let commits: GroupCommit?

    /// One command's reads on PostgreSQL, in one transaction (see `scoped(idle:)`).
    private let reads: PostgresReadScope?
    /// A SQLite file's read connections, one per thread (see `SQLiteReaders`).
    let readers: SQLiteReaders?

    init(_ backend: Backend) {
        self.backend = backend
        if case .sqlite(let writer) = backend { commits = GroupCommit(writer) } else { commits = nil }
        reads = nil
        if case .sqlite(let writer) = backend, let pool = writer as? DatabasePool {
            readers = SQLiteReaders(pool)
        } else {
            readers = nil
        }
    }

    private init(sharing executor: DatabaseExecutor, reads: PostgresReadScope) {
        backend = executor.backend
        commits = executor.commits
        readers = executor.readers
        self.reads = reads
    }

    /// The same database for one command: on PostgreSQL its reads share one transaction until it writes or
    /// `endReads()` is called, and with `holdingChanges` its change on behalf of its delivery is made in that
    /// transaction and held for its answer (see `PostgresReadScope`). A SQLite read takes microseconds on the
    /// calling thread, and is its own transaction.
    func scoped(idle: Duration, holdingChanges: Bool) -> DatabaseExecutor {
        guard case .postgres(let database) = backend else { return self }
        return DatabaseExecutor(
            sharing: self, reads: PostgresReadScope(database, idle: idle, holdsChanges: holdingChanges))
    }

    /// Ends the command's transaction, if one is open, rolling back a change still held.
    func endReads() { reads?.end() }

    /// Whether a change is held, uncommitted, for the command's answer.
    var holdsChange: Bool { reads?.holdsChange ?? false }

    /// Makes a change on behalf of the delivery in the command's transaction and holds it for the answer (see
    /// `PostgresReadScope.hold(_:_:)`); nil when the change is to be a transaction of its own.
    func hold<T: Sendable>(_ claim: DeliveryClaim, _ body: (any SQLSession) async throws -> T) async throws -> T? {
        guard let reads else { return nil }
        return try await reads.hold(claim, body)
    }

    /// Commits the change held, if any, with what `body` adds to it; false when none is held.
    func commitHeld(with body: (any SQLSession) async throws -> Void) async throws -> Bool {
        guard let reads else { return false }
        return try await reads.commitHeld(with: body)
    }

    package var dialect: SQLDialect {
        switch backend {
        case .sqlite: .sqlite
        case .postgres: .postgres
        }
    }

    var sqliteCommits: Int { commits?.commits.load(ordering: .relaxed) ?? 0 }

    /// The SQLite connection, for what only SQLite does (backups, the bulk catalog load, file checks).
    var sqliteWriter: any DatabaseWriter {
        guard case .sqlite(let writer) = backend else {
            preconditionFailure("a SQLite-only operation was used on a PostgreSQL database")
        }
        return writer
    }

    /// Reads in one snapshot. SQLite reads on the calling thread: the reads a command makes take microseconds, and
    /// handing each one to another thread and back costs more than the read itself.
    package func read<T>(_ body: (any SQLSession) async throws -> T) async throws -> T {
        switch backend {
        case .sqlite(let writer):
            guard let readers else { return try Self.read(writer, body) }
            return try readers.read { db in
                try Self.read(db, body)
            } otherwise: {
                try Self.read(writer, body)
            }
        case .postgres(let database):
            if let reads { return try await reads.read(body) }
            return try await database.transaction(readOnly: true, body)
        }
    }

    /// A read of one statement, which sees one snapshot without a transaction around it. On PostgreSQL, unless the
    /// command's transaction is open (it then reads there), it runs apart from it, as a statement of its own on a
    /// connection of the pool that rests outside any transaction: one exchange with the server, where a transaction
    /// adds one for its end. SQLite reads as `read` does.
    package func readStatement<T>(_ body: (any SQLSession) async throws -> T) async throws -> T {
        guard case .postgres(let database) = backend, reads?.isOpen != true else { return try await read(body) }
        return try await database.transaction(readOnly: true, alone: true, body)
    }

    /// A read transaction begun and ended with statements prepared once per connection. GRDB's `read` parses its
    /// `BEGIN` and `COMMIT` anew and adds savepoint and isolation bookkeeping on every call, a few percent of a
    /// `/list`'s CPU.
    private static func read<T>(_ writer: any DatabaseWriter, _ body: (any SQLSession) async throws -> T) throws -> T {
        try writer.unsafeRead { db in try read(db, body) }
    }

    private static func read<T>(_ db: Database, _ body: (any SQLSession) async throws -> T) throws -> T {
        try db.cachedStatement(sql: "BEGIN DEFERRED TRANSACTION").execute()
        let result: T
        do {
            result = try SQLiteTransaction.run { try await body(SQLiteSession(db)) }
        } catch {
            try? db.cachedStatement(sql: "ROLLBACK").execute()
            throw error
        }
        try db.cachedStatement(sql: "COMMIT").execute()
        return result
    }

    /// One write transaction, committed (and on SQLite flushed to disk) before it returns. On SQLite, writes that
    /// arrive while another commits share the next commit (`GroupCommit`), each in a savepoint of its own.
    @discardableResult
    package func write<T: Sendable>(_ body: @Sendable (any SQLSession) async throws -> T) async throws -> T {
        switch backend {
        case .sqlite: return try await commits!.write(body)
        case .postgres(let database):
            try await reads?.close()
            return try await database.transaction(readOnly: false, body)
        }
    }
}

/// Runs a transaction's body on SQLite. GRDB lends a connection for the length of a synchronous closure; a SQLite
/// session's statements never suspend, so the body, started at once on the connection's thread, ends before the
/// closure returns.
enum SQLiteTransaction {
    /// The body and, once it ended, its result.
    final class Job<T>: @unchecked Sendable {
        var body: (() async throws -> T)?
        var result: Result<T, any Error>?
        init(_ body: @escaping () async throws -> T) { self.body = body }
    }

    static func run<T>(_ body: () async throws -> T) throws -> T {
        let job = withoutActuallyEscaping(body) { body in
            let job = Job(body)
            Task.immediate {
                let result: Result<T, any Error>
                do { result = .success(try await job.body!()) } catch { result = .failure(error) }
                job.body = nil
                job.result = result
            }
            precondition(job.result != nil, "a SQLite transaction waited on something other than its statements")
            return job
        }
        return try job.result!.get()
    }
}
