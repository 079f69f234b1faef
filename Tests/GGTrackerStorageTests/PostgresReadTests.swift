import Foundation
import Testing

@testable import GGTrackerStorage

/// How reads run on PostgreSQL: a statement that a connection ran once is prepared on it and run by name from then
/// on (the answers stay the same, and a table changed since is read as it is now), and one command's reads share
/// one transaction until it writes or ends.
@Suite("Reads on PostgreSQL connections")
struct PostgresReadTests {
    /// A database whose pool has `connections` connections (one: every transaction runs on the same one); nil
    /// without a server.
    func open(connections: Int = 1) async throws -> AppDatabase? {
        guard let base = Backend.postgresURL else {
            #expect(ProcessInfo.processInfo.environment["CI"] == nil, "GGTRACKER_TEST_POSTGRES is not set")
            return nil
        }
        let schema = "t_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(16).lowercased()
        return try await AppDatabase.open(
            base + (base.contains("?") ? "&" : "?") + "schema=\(schema)", connections: connections)
    }

    @Test func aReadRunAgainIsRunByNameAndAnswersTheSame() async throws {
        guard let database = try await open() else { return }
        var answers: [[String]] = []
        for _ in 0..<3 {
            let row = try #require(
                try await database.read { db in
                    try await db.fetchOne(
                        """
                        SELECT /* kinds_of_values */ ? AS text, ? AS blob, ? AS big, ? AS fraction, ? AS nothing,
                            ?::bigint IS NULL AS is_null, 2.5::numeric AS exact, true AS yes, -42::int4 AS four,
                            7::int2 AS two, 'shelf'::varchar AS label, '{"a": 1}'::jsonb AS doc
                        """,
                        ["Pokémon 🎮", Data([0, 1, 255]), Int64.max, 0.25, nil as String?, nil as Int64?])
                })
            answers.append([
                row["text"] as String, (row["blob"] as Data).base64EncodedString(), "\(row["big"] as Int64)",
                "\(row["fraction"] as Double)", "\(row["nothing"] as String?)", "\(row["is_null"] as Bool)",
                "\(row["exact"] as Double)", "\(row["yes"] as Bool)", "\(row["four"] as Int64)",
                "\(row["two"] as Int64)",
                row["label"] as String, row["doc"] as String,
            ])
        }
        #expect(
            answers[0] == [
                "Pokémon 🎮", "AAH/", "\(Int64.max)", "0.25", "nil", "true", "2.5", "true", "-42", "7", "shelf",
                #"{"a": 1}"#,
            ])
        #expect(answers[1] == answers[0] && answers[2] == answers[0], "\(answers)")
        // The connection holds the read under a name of its own.
        let prepared: Int? = try await database.read { db in
            try await db.value(
                "SELECT count(*) FROM pg_prepared_statements WHERE statement LIKE ?", ["%kinds_of_values%"])
        }
        #expect(prepared == 1)
    }

    @Test func aPreparedReadOfATableThatChangedReadsItAsItIsNow() async throws {
        guard let database = try await open() else { return }
        try await database.write { db in
            try await db.execute("CREATE TABLE shelf (id BIGINT PRIMARY KEY, name TEXT NOT NULL)")
            try await db.execute("INSERT INTO shelf (id, name) VALUES (1, 'Celeste')")
        }
        for _ in 0..<2 {
            let names: [String] = try await database.read { db in try await db.values("SELECT name FROM shelf", []) }
            #expect(names == ["Celeste"])
            let rows = try await database.read { db in try await db.fetchAll("SELECT * FROM shelf", []) }
            #expect(rows.count == 1)
        }
        // The prepared `SELECT *` no longer fits the table: the server refuses it, and the read is run again.
        try await database.write { db in
            try await db.execute("ALTER TABLE shelf ADD COLUMN hours BIGINT NOT NULL DEFAULT 12")
        }
        let row = try #require(try await database.read { db in try await db.fetchOne("SELECT * FROM shelf", []) })
        #expect(row["name"] as String == "Celeste")
        #expect(row["hours"] as Int64 == 12)
    }

    @Test func aChangeSentWithoutWaitingIsRunByNameAndACountedOneAsWritten() async throws {
        guard let database = try await open() else { return }
        try await database.write { db in
            try await db.execute("CREATE TABLE shelf (id BIGINT PRIMARY KEY, hours BIGINT NOT NULL)")
            try await db.execute("INSERT INTO shelf (id, hours) VALUES (1, 0), (2, 0)")
        }
        let bump = "UPDATE shelf SET hours = hours + ? WHERE id = ?"
        for _ in 0..<3 {
            try await database.write { db in try await db.send(bump, [5, 1]) }
        }
        // How many rows a change touched is known only for a statement sent as written.
        let changed = try await database.write { db in try await db.execute(bump, [1, 2]) }
        #expect(changed == 1)
        let hours: [Int64] = try await database.read { db in
            try await db.values("SELECT hours FROM shelf ORDER BY id", [])
        }
        #expect(hours == [15, 1])
        let prepared: Int? = try await database.read { db in
            try await db.value(
                "SELECT count(*) FROM pg_prepared_statements WHERE statement LIKE ?", ["UPDATE shelf SET hours%"])
        }
        #expect(prepared == 1)
    }

    func players(_ database: AppDatabase) async throws -> Int {
        try await database.read { db in try await db.value("SELECT count(*) FROM players") ?? -1 }
    }

    func addPlayer(_ id: String, _ database: AppDatabase) async throws {
        try await database.write { db in
            try await db.execute(
                "INSERT INTO players (id, display_name, created_at, last_seen_at) VALUES (?, ?, 0, 0)", [id, id])
        }
    }

    @Test func aCommandsReadsSeeOneSnapshotUntilItEnds() async throws {
        guard let database = try await open(connections: 2) else { return }
        // Kept open however long the other command takes, on a busy machine.
        let command = database.claiming(DeliveryClaim(id: "interaction-1"), readsIdle: .seconds(30))
        #expect(try await players(command) == 0)
        // Another command commits meanwhile, on the other connection.
        try await addPlayer("ann", database)
        #expect(try await players(command) == 0, "the command's second read saw a change made after its first")
        command.endReads()
        #expect(try await players(command) == 1)
    }

    @Test func aCommandsWriteEndsItsReadsWhichThenSeeIt() async throws {
        guard let database = try await open(connections: 2) else { return }
        let command = database.claiming(DeliveryClaim(id: "interaction-1"), readsIdle: .seconds(30))
        #expect(try await players(command) == 0)
        try await addPlayer("ann", command)
        #expect(try await players(command) == 1)
        command.endReads()
    }

    @Test func aCommandBusyElsewhereGivesItsConnectionBack() async throws {
        guard let database = try await open() else { return }
        let command = database.claiming(DeliveryClaim(id: "interaction-1"))
        #expect(try await players(command) == 0)
        // The command never ends its reads (it waits on a provider, say); another gets the only connection soon.
        let start = ContinuousClock.now
        try await addPlayer("ann", database)
        #expect(ContinuousClock.now - start < .seconds(2))
        #expect(try await players(command) == 1)
    }

    /// A statement reading a table of its own transaction (a temporary one, dropped at the commit) cannot be
    /// prepared once the transaction is over: the server's refusal is kept, and the statement is sent as written
    /// from then on, answering each time.
    @Test func aStatementTheServerWillNotPrepareIsSentAsWrittenFromThenOn() async throws {
        guard let database = try await open() else { return }
        let sql = "SELECT count(*) AS n FROM shelf_scratch WHERE x > ?"
        for round in 0..<3 {
            let count: Int? = try await database.write { db in
                try await db.execute("CREATE TEMP TABLE shelf_scratch (x int8) ON COMMIT DROP", [])
                try await db.execute("INSERT INTO shelf_scratch VALUES (1), (2), (3)", [])
                return try await db.value(sql, [Int64(round)])
            }
            #expect(count == 3 - round)
        }
        guard case .postgres(let postgres) = database.backend else {
            Issue.record("the database is not on PostgreSQL")
            return
        }
        #expect(postgres.statements.statement(sql, [Int64(0)]).prepared == nil, "the refusal was not kept")
    }
}
