import Foundation
import Logging
import NIOCore
import PostgresNIO

/// A session on a PostgreSQL connection. Statements are written with `?` placeholders, as for SQLite, and
/// numbered here.
final class PostgresSession: SQLSession, @unchecked Sendable {
    let connection: PostgresConnection
    let logger: Logger
    var dialect: SQLDialect { .postgres }
    private(set) var changesCount = 0

    /// The database the connection was borrowed from, which counts the round trips.
    let database: PostgresDatabase?
    private var committing = false
    /// What this transaction read that a later statement of it may use instead of reading it again (see
    /// `SQLSession.remember(_:_:)`).
    private var remembered: [String: any Sendable] = [:]

    func remember(_ key: String, _ value: any Sendable) { remembered[key] = value }
    func recall(_ key: String) -> (any Sendable)? { remembered[key] }
    func forgetRemembered() { remembered = [:] }
    /// The transaction's BEGIN, until its answer is checked.
    private var beginning: EventLoopFuture<Void>?
    /// Whether the transaction was begun read-only.
    private var readOnly = false
    /// Whether the transaction's end leaves the connection outside a transaction, whatever `chains` says.
    private var endsChain = false

    init(_ connection: PostgresConnection, logger: Logger, database: PostgresDatabase? = nil) {
        self.connection = connection
        self.logger = logger
        self.database = database
    }

    /// What the server answered to one statement: its rows, and how many rows it changed.
    struct Answer {
        var rows: [PostgresRow]
        var changes: Int
        /// Rows of a statement run by name.
        var prepared = false
    }

    /// Runs a statement; with `counting`, sent as written, so its answer says how many rows it changed.
    func run(_ sql: String, _ arguments: SQLArguments, counting: Bool = false) async throws -> Answer {
        sendHeldBack()
        let result = dispatch(sql, arguments, counting: counting)
        unsettled.append(result)
        return try await answer(of: result)
    }

    /// Statements sent and not yet waited for, oldest first.
    private var unsettled: [EventLoopFuture<Answer>] = []

    /// Whether a statement whose answer is not needed yet is kept back until one is waited for, rather than sent at
    /// once: a change held for its answer then takes its row locks only when its commit goes out with it.
    var holdsBackStatements = false
    private var heldBack: [(sql: String, arguments: SQLArguments, answer: EventLoopPromise<Answer>)] = []

    /// Sends the statements kept back, in order, ahead of the next one.
    private func sendHeldBack() {
        guard !heldBack.isEmpty else { return }
        let statements = heldBack
        heldBack = []
        for statement in statements {
            dispatch(statement.sql, statement.arguments, counting: false).cascade(to: statement.answer)
        }
    }

    /// Drops the statements kept back, which will never be sent.
    private func dropHeldBack() {
        let statements = heldBack
        heldBack = []
        for statement in statements {
            statement.answer.fail(PostgresUnavailable(description: "the transaction was rolled back"))
        }
    }

    deinit { dropHeldBack() }

    /// The statements this session's connection has prepared (see `PostgresStatements`).
    var prepared: [Int: PreparedQuery] = [:]
    /// Statements this session ran as written that its connection has not prepared yet.
    private(set) var unprepared: [(id: Int, text: String)] = []

    private func dispatch(_ sql: String, _ arguments: SQLArguments, counting: Bool) -> EventLoopFuture<Answer> {
        sent()
        guard let statements = database?.statements else { return send(PostgresStatements.numbered(sql), arguments) }
        let statement = statements.statement(sql, arguments)
        if let named = statement.prepared, !counting {
            if let prepared = prepared[named.id] {
                let data = PostgresStatements.data(arguments)
                return whileOpen { prepared.execute(data) }.map { Answer(rows: $0, changes: 0, prepared: true) }
            }
            if !unprepared.contains(where: { $0.id == named.id }) {
                unprepared.append(named)
            }
        }
        return send(statement.numbered, arguments)
    }

    /// Counts a statement sent to the server.
    private func sent() { database?.statementsSent.add(1, ordering: .relaxed) }

    /// Sends a statement as written.
    private func send(_ numbered: String, _ arguments: SQLArguments) -> EventLoopFuture<Answer> {
        query(PostgresQuery(unsafeSQL: numbered, binds: PostgresWire.bindings(arguments))).map {
            Answer(rows: $0.rows, changes: $0.metadata.rows ?? 0)
        }
    }

    /// Sends a statement as written, unless the connection is closed (see `whileOpen(_:)`).
    private func query(_ query: PostgresQuery) -> EventLoopFuture<PostgresQueryResult> {
        whileOpen { [connection, logger] in connection.query(query, logger: logger) }
    }

    /// Hands a statement to the connection on its event loop, or fails it at once when the connection is closed
    /// there. The client library drops, unanswered, a statement written to a connection that is already closed, and
    /// its answer would be waited for without end; the pool can lend a connection the server has just ended (an
    /// administrator, a restart) before it notices. On the event loop the check and the write are one step: a
    /// connection that closes after the write fails the statement itself.
    private func whileOpen<T: Sendable>(_ send: @escaping @Sendable () -> EventLoopFuture<T>) -> EventLoopFuture<T> {
        let connection = connection
        @Sendable func checked() -> EventLoopFuture<T> {
            guard connection.isClosed else { return send() }
            return connection.eventLoop.makeFailedFuture(PostgresUnavailable(description: PostgresWire.lostConnection))
        }
        return connection.eventLoop.inEventLoop ? checked() : connection.eventLoop.flatSubmit(checked)
    }

    /// A statement's answer. While it is unsettled, this waits for it and every statement sent before and since:
    /// one round trip, since the connection answers in order; the first failure is the one reported (a later
    /// statement of a failed transaction only says it was aborted).
    private func answer(of future: EventLoopFuture<Answer>) async throws -> Answer {
        sendHeldBack()
        if unsettled.contains(where: { $0 === future }) {
            database?.roundTrips.add(1, ordering: .relaxed)
            let sent = unsettled
            unsettled = []
            for earlier in sent {
                do { _ = try await earlier.get() } catch { throw failure(error) }
            }
        }
        do { return try await future.get() } catch { throw failure(error) }
    }

    /// Waits for every statement sent and not yet waited for.
    func settle() async throws {
        if let last = unsettled.last { _ = try await answer(of: last) }
    }

    func prefetch(_ sql: String, _ arguments: SQLArguments) async throws -> SQLPending {
        let future: EventLoopFuture<Answer>
        if holdsBackStatements {
            let answer = connection.eventLoop.makePromise(of: Answer.self)
            heldBack.append((sql, arguments, answer))
            future = answer.futureResult
        } else {
            future = dispatch(sql, arguments, counting: false)
        }
        unsettled.append(future)
        return SQLPending { [self] in try PostgresWire.rows(of: try await answer(of: future), sql: sql) }
    }

    /// What a statement's error means: the server refused it (the connection is sound), or the connection broke
    /// (however the client library words it).
    func failure(_ error: any Error) -> any Error {
        if let refused = PostgresWire.serverError(error), !refused.endsConnection { return refused }
        return PostgresConnectionLost(
            error: PostgresUnavailable(description: PostgresWire.describe(error)), committing: committing)
    }

    @discardableResult
    func execute(_ sql: String, _ arguments: SQLArguments) async throws -> Int {
        changesCount = try await run(sql, arguments, counting: true).changes
        return changesCount
    }

    func fetchAll(_ sql: String, _ arguments: SQLArguments) async throws -> [SQLRow] {
        try PostgresWire.rows(of: try await run(sql, arguments), sql: sql)
    }

    private var cursors = 0

    /// Reads through a cursor, a thousand rows at a time, so a large result is never held whole. Sessions are
    /// always inside a transaction, which a cursor needs.
    func forEach(_ sql: String, _ arguments: SQLArguments, _ body: (SQLRow) throws -> Void) async throws {
        cursors += 1
        let cursor = "ggtracker_rows_\(cursors)"
        try await execute("DECLARE \(cursor) NO SCROLL CURSOR FOR \(sql)", arguments)
        while true {
            let rows = try PostgresWire.rows(of: try await run("FETCH 1000 FROM \(cursor)", []), sql: nil)
            for row in rows { try body(row) }
            if rows.count < 1000 { break }
        }
        try await execute("CLOSE \(cursor)", [])
    }
}

extension PostgresSession {
    /// Runs `body` in one transaction, rolled back when anything fails.
    ///
    /// With `alone` (a body of one read statement, which sees one snapshot on its own), on a connection resting
    /// outside a transaction the statement is sent as it is, and the connection stays outside; a transaction the
    /// connection rests in is ended after it without a next one, so that the next such read finds it outside.
    nonisolated(nonsending) func transaction<T>(
        readOnly: Bool, alone: Bool = false, _ body: (any SQLSession) async throws -> T
    ) async throws -> T {
        if alone {
            endsChain = true
            if database?.chain.rests(connection) != true {
                let result = try await body(self)
                try await settle()
                return result
            }
        }
        // BEGIN is sent without waiting for its answer: the connection runs statements in order, so the body's
        // first statement follows it, and its answer is checked before the commit. A read's COMMIT is not waited
        // for either (the next borrower's statements queue behind it); a write's is, since the caller replies
        // only once it is durable.
        begin(readOnly: readOnly)
        do {
            let result = try await body(self)
            try await begun()
            if readOnly {
                try await settle()
                endRead()
            } else {
                try await commit()
            }
            return result
        } catch {
            if !connection.isClosed { _ = try? await execute("ROLLBACK", []) }
            throw error
        }
    }

    /// Commits the transaction, waiting for its answer and for every statement sent before it.
    func commit() async throws {
        committing = true
        try await execute(chains ? "COMMIT AND CHAIN" : "COMMIT", [])
        if chains { chained(connection.eventLoop.makeSucceededVoidFuture()) }
    }

    /// Whether the transaction's end begins the connection's next one (see `PostgresChain`): on a connection of the
    /// pool, unless it ran statements the connection prepares once the transaction is over (a preparation the
    /// server refuses would abort a transaction begun).
    private var chains: Bool { database != nil && unprepared.isEmpty && !endsChain }

    /// Notes that the transaction's end, which `answer` confirms, began the connection's next one.
    private func chained(_ answer: EventLoopFuture<Void>) {
        database?.chain.chained(connection, answer: answer, readOnly: readOnly)
    }

    /// Ends the transaction without keeping anything of it, without waiting for the server's answer (the next
    /// borrower's statements queue behind it).
    func rollBack() {
        dropHeldBack()
        if !connection.isClosed {
            sent()
            _ = query("ROLLBACK")
        }
    }

    /// Begins a transaction, without waiting for the server's answer (see `begun()`): on a connection of the pool
    /// whose last transaction was chained to a new one (see `PostgresChain`), that one is taken over.
    func begin(readOnly: Bool) {
        self.readOnly = readOnly
        if let chained = database?.chain.take(connection) {
            guard chained.readOnly != readOnly else {
                beginning = chained.answer
                return
            }
            sent()
            beginning = chained.answer.and(
                query(PostgresQuery(unsafeSQL: readOnly ? "SET TRANSACTION READ ONLY" : "SET TRANSACTION READ WRITE"))
            ).map { _ in }
            return
        }
        sent()
        beginning = query(
            PostgresQuery(
                unsafeSQL: readOnly
                    ? "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY" : "BEGIN ISOLATION LEVEL REPEATABLE READ")
        ).map { _ in }
    }

    /// Checks that the transaction began.
    func begun() async throws {
        guard let beginning else { return }
        self.beginning = nil
        do { _ = try await beginning.get() } catch { throw failure(error) }
    }

    /// Ends a transaction that only read (read-only, or a command's that changed nothing), without waiting for the
    /// server's answer: the next borrower's statements queue behind it.
    func endRead() {
        guard !connection.isClosed else { return }
        sent()
        let answer = query(chains ? "COMMIT AND CHAIN" : "COMMIT").map { _ in }
        if chains { chained(answer) }
    }
}
