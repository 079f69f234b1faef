import Foundation
import GGTrackerCore
import Logging
import NIOCore
import NIOPosix
import PostgresNIO
import Synchronization

/// Where a PostgreSQL database is: `postgres://user:password@host:port/database`. It prints, and reflects,
/// without the password.
package struct PostgresLocation: Sendable, Equatable, Redacting {
    package var host: String
    package var port: Int
    package var user: String
    package var password: String?
    package var database: String
    /// The schema to keep the tables in (`?schema=NAME`), created when missing; PostgreSQL's default otherwise.
    package var schema: String?

    /// Reads a `postgres://` or `postgresql://` URL; nil when the text is not one.
    package init?(url text: String) {
        guard let url = URLComponents(string: text), url.scheme == "postgres" || url.scheme == "postgresql",
            let host = url.host, !host.isEmpty
        else { return nil }
        self.host = host
        port = url.port ?? 5432
        user = url.user?.removingPercentEncoding ?? "postgres"
        password = url.password?.removingPercentEncoding
        let path = url.path.hasPrefix("/") ? String(url.path.dropFirst()) : url.path
        database = path.isEmpty ? user : path
        schema = url.queryItems?.first { $0.name == "schema" }?.value
        if let schema, schema.isEmpty || !schema.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") })
        {
            return nil
        }
    }

    /// How GGTracker's connections show in `pg_stat_activity`: `ggtracker`, and the schema when one is set.
    package var applicationName: String { "ggtracker" + (schema.map { ":" + $0 } ?? "") }

    /// The address without the password, for messages and logs.
    package var description: String {
        "postgres://\(user)@\(host):\(port)/\(database)" + (schema.map { "?schema=\($0)" } ?? "")
    }
}

/// Where the database is, as `GGTRACKER_DATABASE` and `--database` say it: a SQLite file (a path, or `sqlite:`
/// and a path) or a PostgreSQL URL.
package enum DatabaseLocation: Sendable, Equatable, CustomStringConvertible {
    case sqlite(path: String)
    case postgres(PostgresLocation)

    package init(_ text: String) throws {
        if let postgres = PostgresLocation(url: text) {
            self = .postgres(postgres)
        } else if text.hasPrefix("postgres:") || text.hasPrefix("postgresql:") {
            throw InvalidDatabaseLocation(
                description: "“\(text)” is not a PostgreSQL URL; write postgres://user:password@host:port/database")
        } else {
            self = .sqlite(path: text.hasPrefix("sqlite:") ? String(text.dropFirst("sqlite:".count)) : text)
        }
    }

    /// For messages and logs: a PostgreSQL URL without its password.
    package var description: String {
        switch self {
        case .sqlite(let path): path
        case .postgres(let location): location.description
        }
    }
}

/// A database location that cannot be used as given.
package struct InvalidDatabaseLocation: Error, CustomStringConvertible {
    package var description: String
}

/// Why the PostgreSQL database could not be used.
package struct PostgresUnavailable: Error, CustomStringConvertible {
    package var description: String
}

/// One PostgreSQL database, through postgres-nio's connection pool (`PostgresClient`, run in a task of its own):
/// each transaction borrows a connection and awaits its statements without holding a thread. A connection the
/// server closed is replaced by the pool.
final class PostgresDatabase: Sendable {
    let location: PostgresLocation
    private let client: PostgresClient
    private let running: Task<Void, Never>
    /// Statements its sessions sent and waited for, each a round trip to the server (a transaction's BEGIN and a
    /// read's COMMIT are sent without waiting, so they do not count).
    let roundTrips = Atomic<Int>(0)
    static let logger = Logger(label: "ggtracker.postgres")

    /// Connects (saying why when the server cannot be reached), runs the migrations it has not run yet, and starts
    /// the pool.
    static func open(location: PostgresLocation, maximumConnections: Int) async throws -> PostgresDatabase {
        let first = try await connect(location)
        do {
            try await Migration.migrate(PostgresSession(first, logger: logger), schema: location.schema)
            try await first.close()
        } catch {
            try? await first.close()
            throw error
        }
        return PostgresDatabase(location: location, maximumConnections: maximumConnections)
    }

    private init(location: PostgresLocation, maximumConnections: Int) {
        self.location = location
        var configuration = PostgresClient.Configuration(
            host: location.host, port: location.port, username: location.user, password: location.password,
            database: location.database, tls: .disable)
        configuration.options.connectTimeout = .seconds(5)
        configuration.options.additionalStartupParameters = Self.startupParameters(location)
        configuration.options.maximumConnections = maximumConnections
        configuration.options.keepAliveBehavior = nil
        let client = PostgresClient(configuration: configuration, backgroundLogger: Self.logger)
        self.client = client
        // Started at once, so the pool is running before the first transaction asks it for a connection.
        running = Task.immediate { await client.run() }
    }

    deinit { running.cancel() }

    static func startupParameters(_ location: PostgresLocation) -> [(String, String)] {
        [("application_name", location.applicationName)] + (location.schema.map { [("search_path", $0)] } ?? [])
    }

    /// One connection outside the pool, for the migrations (their lock is the connection's).
    private static func connect(_ location: PostgresLocation) async throws -> PostgresConnection {
        var configuration = PostgresConnection.Configuration(
            host: location.host, port: location.port, username: location.user, password: location.password,
            database: location.database, tls: .disable)
        configuration.options.connectTimeout = .seconds(5)
        configuration.options.additionalStartupParameters = startupParameters(location)
        do {
            return try await PostgresConnection.connect(configuration: configuration, id: 0, logger: logger)
        } catch {
            // What the network or the server said (refused, unknown host, bad password), not that a connection was lost.
            let reason =
                (error as? PSQLError).flatMap { error in
                    error.serverInfo?[.message] ?? error.underlying.map { "\($0)" }
                } ?? PostgresSession.describe(error)
            throw PostgresUnavailable(description: "cannot connect to the database at \(location): \(reason)")
        }
    }

    /// Runs `body` in one transaction on a connection of the pool, which sees one snapshot of the database. A write
    /// that changes a row another transaction changed since its snapshot is run again (PostgreSQL's repeatable
    /// read: no lost updates, and a delivery claimed by another replica meanwhile is seen on the second run), apart
    /// from the other writers, at random, longer each time, so writers of one hot row take turns. A connection found
    /// closed before anything was committed is let go and the transaction runs again on another. Serializable
    /// isolation was tried and dropped: every write claims its delivery in one small table, whose few index pages
    /// made nearly every pair of concurrent writes a conflict.
    nonisolated(nonsending) func transaction<T>(
        readOnly: Bool, _ body: (any SQLSession) async throws -> T
    ) async throws -> T {
        var attempt = 0
        while true {
            attempt += 1
            do {
                // The result goes back to this task, which waited for it.
                return try await client.withConnection { connection in
                    Handed(
                        try await PostgresSession(connection, logger: Self.logger, database: self).transaction(
                            readOnly: readOnly, body))
                }.value
            } catch let error as PostgresSession.ServerError
                where PostgresSession.retriable.contains(error.state) && attempt < 40
            {
                try await Task.sleep(
                    for: .seconds(Double.random(in: 0...min(0.05, 0.001 * Double(1 << min(attempt, 6))))))
            } catch let lost as PostgresSession.ConnectionLost where !lost.committing && attempt < 3 {
                continue
            } catch let lost as PostgresSession.ConnectionLost {
                throw lost.error
            } catch let error as PSQLError {
                throw PostgresUnavailable(description: PostgresSession.describe(error))
            }
        }
    }

    func close() { running.cancel() }

    /// A transaction's result, handed back to the task that ran it.
    struct Handed<T>: @unchecked Sendable {
        let value: T
        init(_ value: T) { self.value = value }
    }
}

/// A session on a PostgreSQL connection. Statements are written with `?` placeholders, as for SQLite, and
/// numbered here.
final class PostgresSession: SQLSession, @unchecked Sendable {
    let connection: PostgresConnection
    let logger: Logger
    var dialect: SQLDialect { .postgres }
    private(set) var changesCount = 0

    /// An error the server reported (the connection is still sound).
    struct ServerError: Error, CustomStringConvertible {
        var state: String
        var message: String
        var description: String { "\(message) (\(state))" }
    }

    /// The connection broke (the server went away, or closed it): what the transaction had not committed is gone.
    struct ConnectionLost: Error {
        var error: PostgresUnavailable
        /// The transaction's COMMIT had been sent: it may or may not have been applied.
        var committing: Bool
    }

    /// The database the connection was borrowed from, which counts the round trips.
    let database: PostgresDatabase?
    private var committing = false

    init(_ connection: PostgresConnection, logger: Logger, database: PostgresDatabase? = nil) {
        self.connection = connection
        self.logger = logger
        self.database = database
    }

    private static let translated = Mutex<[String: String]>([:])

    /// `?` → `$1`, `$2`… outside quoted text.
    static func numbered(_ sql: String) -> String {
        if let known = translated.withLock({ $0[sql] }) { return known }
        var out = ""
        out.reserveCapacity(sql.utf8.count + 8)
        var number = 0
        var quote: Character?
        for character in sql {
            if let open = quote {
                if character == open { quote = nil }
                out.append(character)
            } else if character == "'" || character == "\"" {
                quote = character
                out.append(character)
            } else if character == "?" {
                number += 1
                out += "$\(number)"
            } else {
                out.append(character)
            }
        }
        translated.withLock { cache in
            if cache.count > 4_000 { cache.removeAll() }
            cache[sql] = out
        }
        return out
    }

    static func bindings(_ arguments: SQLArguments) -> PostgresBindings {
        var binds = PostgresBindings(capacity: arguments.values.count)
        for value in arguments.values {
            switch value {
            case .null: binds.appendNull()
            case .integer(let v): binds.append(v)
            case .real(let v): binds.append(v)
            case .text(let v): binds.append(v)
            case .blob(let v): binds.append(ByteBuffer(bytes: v))
            }
        }
        return binds
    }

    static func describe(_ error: any Error) -> String {
        if let error = error as? PSQLError {
            if let message = error.serverInfo?[.message] { return message }
            switch error.code {
            case .connectionError, .serverClosedConnection, .clientClosedConnection, .uncleanShutdown:
                return "the connection to the database was lost"
            default: return "\(error.code)"
            }
        }
        if let error = error as? IOError { return error.description }
        return "\(error)"
    }

    func run(_ sql: String, _ arguments: SQLArguments) async throws -> PostgresQueryResult {
        let result = dispatch(sql, arguments)
        database?.roundTrips.add(1, ordering: .relaxed)
        try await settle()
        do { return try await result.get() } catch { throw failure(error) }
    }

    /// Statements sent and not yet waited for, oldest first.
    private var unsettled: [EventLoopFuture<PostgresQueryResult>] = []

    private func dispatch(_ sql: String, _ arguments: SQLArguments) -> EventLoopFuture<PostgresQueryResult> {
        connection.query(PostgresQuery(unsafeSQL: Self.numbered(sql), binds: Self.bindings(arguments)), logger: logger)
    }

    /// Waits for the statements sent before: the connection answers in order, so their answers came first, and the
    /// first failure is the one reported (a later statement of a failed transaction only says it was aborted).
    private func settle() async throws {
        let sent = unsettled
        unsettled = []
        for future in sent {
            do { _ = try await future.get() } catch { throw failure(error) }
        }
    }

    func prefetch(_ sql: String, _ arguments: SQLArguments) async throws -> SQLPending {
        let future = dispatch(sql, arguments)
        unsettled.append(future)
        return SQLPending { [self] in
            do { return try Self.rows(of: try await future.get()) } catch { throw failure(error) }
        }
    }

    /// What a statement's error means: the server refused it (the connection is sound), or the connection broke
    /// (however the client library words it).
    func failure(_ error: any Error) -> any Error {
        if let error = error as? PSQLError, let state = error.serverInfo?[.sqlState] {
            return ServerError(state: state, message: error.serverInfo?[.message] ?? "\(error.code)")
        }
        return ConnectionLost(error: PostgresUnavailable(description: Self.describe(error)), committing: committing)
    }

    @discardableResult
    func execute(_ sql: String, _ arguments: SQLArguments) async throws -> Int {
        changesCount = try await run(sql, arguments).metadata.rows ?? 0
        return changesCount
    }

    func fetchAll(_ sql: String, _ arguments: SQLArguments) async throws -> [SQLRow] {
        try Self.rows(of: try await run(sql, arguments))
    }

    func fetchAll(together statements: [(String, SQLArguments)]) async throws -> [[SQLRow]] {
        // The connection answers statements in the order they were sent: all are written at once, then awaited.
        let futures = statements.map { sql, arguments in dispatch(sql, arguments) }
        database?.roundTrips.add(1, ordering: .relaxed)
        try await settle()
        var results: [[SQLRow]] = []
        for future in futures {
            do { results.append(try Self.rows(of: try await future.get())) } catch { throw failure(error) }
        }
        return results
    }

    static func rows(of result: PostgresQueryResult) throws -> [SQLRow] {
        guard let first = result.rows.first else { return [] }
        let columns = SQLColumns(first.map(\.columnName))
        return try result.rows.map { row in
            SQLRow(values: try row.map(Self.value(of:)), columns: columns)
        }
    }

    private var cursors = 0

    /// Reads through a cursor, a thousand rows at a time, so a large result is never held whole. Sessions are
    /// always inside a transaction, which a cursor needs.
    func forEach(_ sql: String, _ arguments: SQLArguments, _ body: (SQLRow) throws -> Void) async throws {
        cursors += 1
        let cursor = "ggtracker_rows_\(cursors)"
        try await execute("DECLARE \(cursor) NO SCROLL CURSOR FOR \(sql)", arguments)
        while true {
            let rows = try await fetchAll("FETCH 1000 FROM \(cursor)", [])
            for row in rows { try body(row) }
            if rows.count < 1000 { break }
        }
        try await execute("CLOSE \(cursor)", [])
    }

    static func value(of cell: PostgresCell) throws -> SQLValue {
        guard cell.bytes != nil else { return .null }
        switch cell.dataType {
        case .int2, .int4, .int8, .oid: return .integer(try cell.decode(Int64.self))
        case .float4, .float8: return .real(try cell.decode(Double.self))
        case .numeric: return .real(NSDecimalNumber(decimal: try cell.decode(Decimal.self)).doubleValue)
        case .bool: return .integer(try cell.decode(Bool.self) ? 1 : 0)
        case .bytea: return .blob(Data(buffer: try cell.decode(ByteBuffer.self)))
        default: return .text(try cell.decode(String.self))
        }
    }
}

extension PostgresSession {
    /// SQL states worth running a transaction again for: a serialization failure and a deadlock.
    static let retriable: Set<String> = ["40001", "40P01"]

    /// Runs `body` in one transaction, rolled back when anything fails.
    nonisolated(nonsending) func transaction<T>(
        readOnly: Bool, _ body: (any SQLSession) async throws -> T
    ) async throws -> T {
        // BEGIN is sent without waiting for its answer: the connection runs statements in order, so the body's
        // first statement follows it, and its answer is checked before the commit. A read's COMMIT is not waited
        // for either (the next borrower's statements queue behind it); a write's is, since the caller replies
        // only once it is durable.
        let begin: EventLoopFuture<PostgresQueryResult> = connection.query(
            PostgresQuery(
                unsafeSQL: readOnly
                    ? "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY" : "BEGIN ISOLATION LEVEL REPEATABLE READ"),
            logger: logger)
        do {
            let result = try await body(self)
            do { _ = try await begin.get() } catch { throw failure(error) }
            if readOnly {
                try await settle()
                _ = connection.query("COMMIT", logger: logger) as EventLoopFuture<PostgresQueryResult>
            } else {
                committing = true
                try await execute("COMMIT", [])
            }
            return result
        } catch {
            if !connection.isClosed { _ = try? await execute("ROLLBACK", []) }
            throw error
        }
    }
}
