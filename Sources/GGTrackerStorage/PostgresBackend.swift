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
    /// The times its sessions waited for the server: each wait covers the statements sent since the one before
    /// (a transaction's BEGIN and a read's COMMIT are sent without waiting, so they add none); on the connection
    /// each statement is still an exchange of its own (`statementsSent`).
    let roundTrips = Atomic<Int>(0)
    /// Statements its sessions sent, waited for or not: each an exchange with the server on its connection.
    let statementsSent = Atomic<Int>(0)
    /// The statements sent, and the statements each connection has prepared.
    let statements = PostgresStatements()
    let maximumConnections: Int
    /// The transactions its connections rest in between borrowers.
    let chain: PostgresChain
    static let logger = Logger(label: "ggtracker.postgres")

    /// Connects (saying why when the server cannot be reached), runs the migrations it has not run yet, and starts
    /// the pool.
    static func open(
        location: PostgresLocation, maximumConnections: Int, connectionWait: Duration = .seconds(10)
    ) async throws -> PostgresDatabase {
        let first = try await connect(location)
        do {
            try await Migration.migrate(PostgresSession(first, logger: logger), schema: location.schema)
            try await first.close()
        } catch {
            try? await first.close()
            throw error
        }
        return PostgresDatabase(
            location: location, maximumConnections: maximumConnections, connectionWait: connectionWait)
    }

    /// How long a transaction waits for a connection of the pool before it fails as the database not answering.
    let connectionWait: Duration

    private init(location: PostgresLocation, maximumConnections: Int, connectionWait: Duration) {
        self.location = location
        self.connectionWait = connectionWait
        self.maximumConnections = maximumConnections
        chain = PostgresChain(connections: maximumConnections)
        var configuration = PostgresClient.Configuration(
            host: location.host, port: location.port, username: location.user, password: location.password,
            database: location.database, tls: .disable)
        configuration.options.connectTimeout = .seconds(5)
        configuration.options.additionalStartupParameters = Self.startupParameters(location)
        configuration.options.maximumConnections = maximumConnections
        configuration.options.keepAliveBehavior = nil
        // A pool whose connections the server ended (a restart, `pg_terminate_backend`) was seen serving nothing
        // until its idle timeout, 60 s by default, let it open new ones; 10 s bounds that wait.
        configuration.options.connectionIdleTimeout = .seconds(10)
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
                } ?? PostgresWire.describe(error)
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
    ///
    /// With `alone`, the body is one read statement, which needs no transaction: on a connection resting outside
    /// one it is sent as it is, and a transaction a connection rests in is ended after it without a next one (see
    /// `PostgresSession.transaction`).
    nonisolated(nonsending) func transaction<T>(
        readOnly: Bool, alone: Bool = false, _ body: (any SQLSession) async throws -> T
    ) async throws -> T {
        var attempt = 0
        while true {
            attempt += 1
            do {
                return try await leasedTransaction(readOnly: readOnly, alone: alone, body)
            } catch let error as PostgresServerError
                where PostgresWire.retriable.contains(error.state) && attempt < 40
            {
                try await Task.sleep(
                    for: .seconds(Double.random(in: 0...min(0.05, 0.001 * Double(1 << min(attempt, 6))))))
            } catch let error as PostgresServerError where error.isStalePreparedStatement && attempt < 3 {
                statements.forget()
            } catch let lost as PostgresConnectionLost where !lost.committing && attempt < 5 {
                // The pool can lend the same connection again before it has seen it close (its close is handled on
                // the connection's event loop): a short wait, longer each time, lets it open another.
                try await Task.sleep(for: .milliseconds(10 * attempt))
            } catch let lost as PostgresConnectionLost {
                throw lost.error
            } catch let error as PSQLError {
                throw PostgresUnavailable(description: PostgresWire.describe(error))
            }
        }
    }

    /// One attempt of a transaction, on a connection of the pool.
    private nonisolated(nonsending) func leasedTransaction<T>(
        readOnly: Bool, alone: Bool, _ body: (any SQLSession) async throws -> T
    ) async throws -> T {
        let (session, lease) = try await leaseSession()
        defer { giveBack(session, lease) }
        return try await session.transaction(readOnly: readOnly, alone: alone, body)
    }

    /// A session on a connection of the pool, with the statements the connection has prepared. The wait for the
    /// connection is bounded: when the pool hands none out within `connectionWait` (the server out of reach, every
    /// connection busy or stuck), the wait is given up and the attempt fails as the database not answering, so the
    /// command is answered instead of waiting without end. The connection is leased in a task of its own, which can
    /// be cancelled without cancelling the command, and holds the lease until `giveBack(_:_:)`.
    nonisolated(nonsending) func leaseSession() async throws -> (PostgresSession, PostgresLease) {
        let lease = PostgresLease()
        let holder = Task { [client] in
            do {
                try await client.withConnection { try await lease.hold($0) }
            } catch {
                lease.fail(error)
            }
        }
        let timer = MultiThreadedEventLoopGroup.singleton.any().scheduleTask(in: connectionWait.timeAmount) {
            if lease.expire() { holder.cancel() }
        }
        let connection: PostgresConnection
        do {
            connection = try await lease.connection()
            timer.cancel()
        } catch {
            timer.cancel()
            if lease.expired {
                throw PostgresUnavailable(
                    description: "no connection to the database at \(location) within \(connectionWait)")
            }
            throw error
        }
        let session = PostgresSession(connection, logger: Self.logger, database: self)
        session.prepared = statements.prepared(on: connection.id)
        return (session, lease)
    }

    /// Gives a session's connection back to the pool once its transaction is over, after asking it to prepare the
    /// statements it ran as written.
    func giveBack(_ session: PostgresSession, _ lease: PostgresLease) {
        if !session.connection.isClosed {
            statements.prepare(session.unprepared, on: session.connection, connections: maximumConnections)
        }
        lease.release()
    }

    func close() { running.cancel() }
}

extension Duration {
    /// The same span as NIO counts it.
    package var timeAmount: TimeAmount {
        let (seconds, attoseconds) = components
        return .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }
}
