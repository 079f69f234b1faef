/// What a database's executor counted since it opened, read by tests that check how a command used the database.
package struct DatabaseCounters {
    let executor: DatabaseExecutor

    /// The times a command waited for PostgreSQL (0 on SQLite), each for the statements sent since the wait
    /// before.
    package var postgresRoundTrips: Int {
        guard case .postgres(let database) = executor.backend else { return 0 }
        return database.roundTrips.load(ordering: .relaxed)
    }

    /// Statements sent to PostgreSQL, waited for or not (0 on SQLite): each is an exchange with the server on its
    /// connection, one after another.
    package var postgresStatementsSent: Int {
        guard case .postgres(let database) = executor.backend else { return 0 }
        return database.statementsSent.load(ordering: .relaxed)
    }

    /// Read connections of a SQLite file opened for the threads that read (see `SQLiteReaders`).
    package var sqliteReadConnections: Int { executor.readers?.count ?? 0 }

    /// Commits made on SQLite (0 on PostgreSQL): writes that arrived together share one.
    package var sqliteCommits: Int { executor.sqliteCommits }
}
