import PostgresNIO

/// An error the server reported (the connection is still sound).
struct PostgresServerError: Error, CustomStringConvertible {
    var state: String
    var message: String
    var description: String { "\(message) (\(state))" }

    /// A prepared statement the connection does not have, or whose plan no longer fits the tables (a migration
    /// changed them): the transaction is run again with statements prepared anew.
    var isStalePreparedStatement: Bool {
        state == "26000" || (state == "0A000" && message.contains("cached plan"))
    }

    /// The server's farewell as it ends the connection (an administrator's `pg_terminate_backend`, a shutdown,
    /// a session timeout: SQL state class 57P) or a connection failure it reports (class 08): it may come as the
    /// answer to a statement, and means the connection is gone rather than the statement refused.
    var endsConnection: Bool { state.hasPrefix("57P") || state.hasPrefix("08") }
}

/// The connection broke (the server went away, or closed it): what the transaction had not committed is gone.
struct PostgresConnectionLost: Error {
    var error: PostgresUnavailable
    /// The transaction's COMMIT had been sent: it may or may not have been applied.
    var committing: Bool
}
