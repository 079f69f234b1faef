import Foundation
import GGTrackerCore
import Synchronization
import Testing

@testable import GGTrackerStorage

/// On PostgreSQL a pooled connection's transaction ends with `COMMIT AND CHAIN`, so its next borrower finds a
/// transaction begun and sends no `BEGIN`; that transaction still sees everything committed before its first
/// statement, and keeps the access mode its borrower asks for.
@Suite("Transactions chained on a pooled PostgreSQL connection")
struct PostgresChainTests {
    /// A database whose pool has one connection, so every transaction borrows the same; another process's view of
    /// the same schema beside it. Nil without a server.
    func databases() async throws -> (AppDatabase, AppDatabase)? {
        guard let base = Backend.postgresURL else {
            #expect(ProcessInfo.processInfo.environment["CI"] == nil, "GGTRACKER_TEST_POSTGRES is not set")
            return nil
        }
        let schema = "t_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(16).lowercased()
        let url = base + (base.contains("?") ? "&" : "?") + "schema=\(schema)"
        return (try await AppDatabase.open(url, connections: 1), try await AppDatabase.open(url, connections: 1))
    }

    /// A table of the test's own, created from the other view.
    func makeTable(_ other: AppDatabase) async throws {
        try await other.write { db in try await db.execute("CREATE TABLE chain_probe (n integer)", []) }
    }

    func rows(_ database: AppDatabase) async throws -> Int {
        try await database.read { db in try await db.values("SELECT count(*) FROM chain_probe") as [Int] }.first ?? -1
    }

    func insert(_ database: AppDatabase) async throws {
        try await database.write { db in try await db.execute("INSERT INTO chain_probe VALUES (1)", []) }
    }

    /// Reads until the read's statement is prepared by the connection (it is once a transaction that ran it as
    /// written is over, which then ends with a plain COMMIT) and a read's transaction is the one chained to the
    /// read before: it then sends its statement and its end alone (a BEGIN, the read and a COMMIT before).
    /// Returns how many statements the last read sent.
    func warm(_ database: AppDatabase) async throws -> Int {
        var sent = 0
        for _ in 0..<50 where sent != 2 {
            let before = database.counters.postgresStatementsSent
            _ = try await rows(database)
            sent = database.counters.postgresStatementsSent - before
            if sent != 2 { try await Task.sleep(for: .milliseconds(20)) }
        }
        return sent
    }

    @Test func theNextTransactionSendsNoBeginAndSeesWhatWasCommittedMeanwhile() async throws {
        guard let (database, other) = try await databases() else { return }
        try await makeTable(other)
        #expect(try await warm(database) == 2)
        // A change committed elsewhere while the connection rested in its chained transaction is seen: the
        // snapshot is taken at the transaction's first statement, not when it was chained.
        try await insert(other)
        let before = database.counters.postgresStatementsSent
        #expect(try await rows(database) == 1)
        #expect(database.counters.postgresStatementsSent - before == 2)
        // A write chains too (here, from a read-only transaction to a read-write one), and what it commits is kept.
        try await insert(database)
        #expect(try await rows(other) == 2)
        #expect(try await rows(database) == 2)
    }

    @Test func aChainedTransactionKeepsTheAccessModeItsBorrowerAsks() async throws {
        guard let (database, other) = try await databases() else { return }
        try await makeTable(other)
        #expect(try await warm(database) == 2)
        // A write on the read-only transaction a read chained is made read-write first.
        let before = database.counters.postgresStatementsSent
        try await insert(database)
        #expect(database.counters.postgresStatementsSent - before == 3)
        #expect(try await rows(other) == 1)
        // A read (read-only) on the read-write transaction the write chained refuses a write and changes nothing.
        await #expect(throws: (any Error).self) {
            try await database.read { db in try await db.execute("DELETE FROM chain_probe", []) }
        }
        #expect(try await rows(other) == 1)
        // The connection serves the next transactions as usual.
        try await insert(database)
        #expect(try await rows(other) == 2)
        #expect(try await rows(database) == 2)
    }
}

/// A connection of the pool can be closed by the server (an administrator, a restart) while it rests between
/// borrowers, and be lent once more before the pool notices: a statement sent on it fails, so the transaction runs
/// again on a new connection, instead of waiting for an answer that never comes.
extension PostgresChainTests {
    /// What `body` gives, or nil when it has not finished within `limit`: it is then left running, so a wait
    /// without end fails the test rather than holding up the run.
    func outcome<T: Sendable>(
        within limit: Duration, _ body: @escaping @Sendable () async throws -> T
    ) async -> Result<T, any Error>? {
        await withCheckedContinuation { continuation in
            let waiting = Mutex<CheckedContinuation<Result<T, any Error>?, Never>?>(continuation)
            @Sendable func finish(_ result: Result<T, any Error>?) {
                waiting.withLock { $0.take() }?.resume(returning: result)
            }
            Task {
                do { finish(.success(try await body())) } catch { finish(.failure(error)) }
            }
            Task {
                try? await Task.sleep(for: limit)
                finish(nil)
            }
        }
    }

    @Test func aStatementOnAConnectionAlreadyClosedFailsAtOnce() async throws {
        guard let (database, other) = try await databases() else { return }
        guard case .postgres(let postgres) = database.backend else {
            Issue.record("the database is not on PostgreSQL")
            return
        }
        try await makeTable(other)
        let (session, lease) = try await postgres.leaseSession()
        try await session.connection.close()
        let sent = await outcome(within: .seconds(20)) {
            try await session.transaction(readOnly: false) { db in
                try await db.execute("INSERT INTO chain_probe VALUES (1)", [])
            }
        }
        postgres.giveBack(session, lease)
        switch sent {
        case nil: Issue.record("a statement on a closed connection was never answered")
        case .success: Issue.record("a statement on a closed connection succeeded")
        case .failure(let error):
            #expect(error is PostgresConnectionLost, "\(error)")
        }
        // The database lends a new connection for the next transaction, which changes what it says.
        let inserted = await outcome(within: .seconds(20)) { try await self.insert(database) }
        #expect(inserted != nil)
        #expect(try await rows(other) == 1)
    }

    @Test func aWriteAfterTheServerEndedTheRestingConnectionRunsOnANewOne() async throws {
        guard let (database, other) = try await databases() else { return }
        try await makeTable(other)
        try await insert(other)
        let pid = try await database.read { db in try await db.values("SELECT pg_backend_pid()") as [Int] }.first ?? 0
        #expect(try await warm(database) == 2)
        let ended = try await other.read { db in
            try await db.values("SELECT count(pg_terminate_backend(CAST(? AS integer)))", [pid]) as [Int]
        }
        #expect(ended == [1])
        let inserted = await outcome(within: .seconds(20)) { try await self.insert(database) }
        #expect(inserted != nil, "the write was never answered")
        try inserted?.get()
        #expect(try await rows(database) == 2)
        #expect(try await rows(other) == 2)
    }
}

extension PostgresChainTests {
    @Test func aTransactionWhoseConnectionTheServerEndsMidStatementRunsAgainOnANewOne() async throws {
        guard let (database, other) = try await databases() else { return }
        try await makeTable(other)
        let attempts = Atomic<Int>(0)
        let written = await outcome(within: .seconds(60)) {
            try await database.write { db in
                try await db.execute("INSERT INTO chain_probe VALUES (1)", [])
                guard attempts.add(1, ordering: .relaxed).newValue == 1 else { return }
                // The first attempt's connection is ended by the server while its statement runs: once the server
                // shows it running (on a loaded machine a fixed delay could end it during the commit instead).
                let pid: Int = try await db.value("SELECT pg_backend_pid()") ?? 0
                Task {
                    while true {
                        try await Task.sleep(for: .milliseconds(50))
                        let running: [Int] = try await other.read { db in
                            try await db.values(
                                """
                                SELECT count(*) FROM pg_stat_activity
                                WHERE pid = CAST(? AS integer) AND state = 'active' AND query LIKE '%pg_sleep%'
                                """, [pid])
                        }
                        if running.first == 1 { break }
                    }
                    _ = try await other.read { db in
                        try await db.values("SELECT pg_terminate_backend(CAST(? AS integer))", [pid]) as [Bool]
                    }
                }
                try await db.execute("SELECT pg_sleep(30)", [])
            }
        }
        #expect(written != nil, "the write was never answered")
        try written?.get()
        #expect(attempts.load(ordering: .relaxed) == 2)
        #expect(try await rows(other) == 1)
    }
}
