import Foundation
import GGTrackerCore
import GRDB
import Logging
import Synchronization

/// The database: owns the connections, the schema migrations, and the domain-speaking reads and writes.
/// Every write is one transaction, committed before the caller replies. It is a SQLite file (one server) or a
/// PostgreSQL database (several replicas sharing it); the SQL is written once, with the few differences in
/// `SQLDialect`.
package final class AppDatabase: Sendable {
    enum Backend: Sendable {
        case sqlite(any DatabaseWriter)
        case postgres(PostgresPool)
    }

    let backend: Backend
    /// Players recorded lately, so a command does not write just to say they were seen.
    let recentlySeen = RecentlySeen()

    package init(_ writer: any DatabaseWriter) throws {
        backend = .sqlite(writer)
        try Self.migrator.migrate(writer)
    }

    init(postgres pool: PostgresPool) throws {
        backend = .postgres(pool)
        try pool.withConnection { connection in
            try PostgresMigrations.migrate(
                PostgresSession(connection, logger: Self.postgresLogger), schema: pool.location.schema)
        }
    }

    static let postgresLogger = Logger(label: "ggtracker.postgres")

    /// Opens the database named by `GGTRACKER_DATABASE` or `--database` (see `DatabaseLocation`).
    package static func open(_ location: String, connections: Int = 10) throws -> AppDatabase {
        try open(DatabaseLocation(location), connections: connections)
    }

    /// Opens the database, running its migrations. With `creating: false`, a SQLite file that does not exist is
    /// refused instead of created (a source to copy from must be there).
    package static func open(
        _ location: DatabaseLocation, creating: Bool = true, connections: Int = 10
    ) throws -> AppDatabase {
        switch location {
        case .postgres(let postgres):
            return try AppDatabase(postgres: PostgresPool(location: postgres, maximumConnections: connections))
        case .sqlite(let path):
            guard creating || FileManager.default.fileExists(atPath: path) else {
                throw InvalidDatabaseLocation(description: "there is no SQLite database at \(path)")
            }
            return try open(path: path)
        }
    }

    /// The on-disk database used when serving:
    /// - `journal_mode = WAL`: readers never wait for the writer, and a commit appends to the log;
    /// - `synchronous = FULL`: each commit is flushed to disk (fsync of the log) before it returns, so a write
    ///   the bot has acknowledged survives the process being killed and the machine losing power;
    /// - one reader connection per core (and one more),
    /// - a busy timeout of 5 s, so a command waits for a long catalog write rather than failing;
    /// - SQLite's automatic checkpoint (every 1000 pages of log), plus a truncating checkpoint every hour and
    ///   at shutdown, so the log stays small.
    package static func open(path: String) throws -> AppDatabase {
        do {
            return try openFile(path)
        } catch let error as DatabaseError {
            let reason =
                [.SQLITE_READONLY, .SQLITE_CANTOPEN, .SQLITE_PERM].contains(error.resultCode)
                ? " (the file or its folder cannot be written: check the permissions and the free space)" : ""
            throw InvalidDatabaseLocation(
                description: "cannot open the database at \(path)\(reason): \(error.message ?? "\(error)")")
        } catch let error as CocoaError {
            throw InvalidDatabaseLocation(
                description: "cannot open the database at \(path): \(error.localizedDescription)")
        }
    }

    static func openFile(_ path: String) throws -> AppDatabase {
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent()
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var config = Configuration()
        config.busyMode = .timeout(5)
        // Reads run on the calling thread and the server runs about one task per core, so more readers than cores
        // would only hold more page caches in memory.
        config.maximumReaderCount = ProcessInfo.processInfo.activeProcessorCount + 1
        config.prepareDatabase { db in
            // 1 MB of page cache a connection: the pages a command reads are few, and the catalog is searched in
            // memory.
            try db.execute(sql: "PRAGMA cache_size = -1000")
            try db.execute(sql: "PRAGMA synchronous = FULL")
            try db.execute(sql: "PRAGMA foreign_keys = ON")
        }
        let pool = try DatabasePool(path: path, configuration: config)
        return try AppDatabase(pool)
    }

    /// An empty in-memory database, for tests.
    package static func inMemory() throws -> AppDatabase {
        var config = Configuration()
        config.prepareDatabase { db in try db.execute(sql: "PRAGMA foreign_keys = ON") }
        return try AppDatabase(DatabaseQueue(configuration: config))
    }

    package var dialect: SQLDialect {
        switch backend {
        case .sqlite: .sqlite
        case .postgres: .postgres
        }
    }

    package var isPostgres: Bool { dialect == .postgres }

    /// The SQLite connection, for what only SQLite does (backups, the bulk catalog load, file checks).
    package var writer: any DatabaseWriter {
        guard case .sqlite(let writer) = backend else {
            preconditionFailure("a SQLite-only operation was used on a PostgreSQL database")
        }
        return writer
    }

    package var reader: any DatabaseReader { writer }

    /// Reads in one snapshot. SQLite reads on the calling thread: the reads a command makes take microseconds, and
    /// handing each one to another thread and back costs more than the read itself. PostgreSQL's wait on the
    /// network on a thread of the connection pool.
    package func read<T: Sendable>(_ body: (any SQLSession) throws -> T) async throws -> T {
        switch backend {
        case .sqlite: return try readNow(body)
        case .postgres(let pool): return try await pool.run { try self.readNow(body) }
        }
    }

    /// A read that waits on the calling thread (for code that is not async).
    package func readNow<T>(_ body: (any SQLSession) throws -> T) throws -> T {
        switch backend {
        case .sqlite(let writer): return try writer.read { db in try body(SQLiteSession(db)) }
        case .postgres(let pool):
            return try pool.withConnection { connection in
                try PostgresSession(connection, logger: Self.postgresLogger).transaction(readOnly: true, body)
            }
        }
    }

    /// One write transaction.
    package func write<T: Sendable>(_ body: @Sendable (any SQLSession) throws -> T) async throws -> T {
        switch backend {
        case .sqlite(let writer): return try await writer.write { db in try body(SQLiteSession(db)) }
        case .postgres(let pool): return try await pool.run { try self.writeNow(body) }
        }
    }

    /// A write transaction that waits on the calling thread (for code that is not async).
    package func writeNow<T>(_ body: (any SQLSession) throws -> T) throws -> T {
        switch backend {
        case .sqlite(let writer): return try writer.write { db in try body(SQLiteSession(db)) }
        case .postgres(let pool):
            return try pool.withConnection { connection in
                try PostgresSession(connection, logger: Self.postgresLogger).transaction(readOnly: false, body)
            }
        }
    }

    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1: players, communities, catalog, library") { db in
            try db.execute(
                sql: """
                    CREATE TABLE players (
                        id TEXT PRIMARY KEY NOT NULL,
                        display_name TEXT NOT NULL,
                        nickname TEXT,
                        avatar_url TEXT,
                        bio TEXT,
                        created_at DOUBLE NOT NULL,
                        last_seen_at DOUBLE NOT NULL
                    );
                    CREATE TABLE communities (
                        id TEXT PRIMARY KEY NOT NULL,
                        age_gate TEXT NOT NULL DEFAULT 'strict',
                        announce_channel TEXT,
                        created_at DOUBLE NOT NULL
                    );
                    CREATE TABLE memberships (
                        community_id TEXT NOT NULL REFERENCES communities(id) ON DELETE CASCADE,
                        player_id TEXT NOT NULL REFERENCES players(id) ON DELETE CASCADE,
                        last_seen_at DOUBLE NOT NULL,
                        PRIMARY KEY (community_id, player_id)
                    ) WITHOUT ROWID;
                    CREATE INDEX memberships_player ON memberships(player_id);

                    CREATE TABLE games (
                        id INTEGER PRIMARY KEY AUTOINCREMENT,
                        provider TEXT NOT NULL,
                        provider_id TEXT NOT NULL,
                        slug TEXT,
                        name TEXT NOT NULL,
                        keywords TEXT NOT NULL DEFAULT '',
                        summary TEXT,
                        release_date DOUBLE,
                        release_year_only BOOLEAN NOT NULL DEFAULT 0,
                        platforms TEXT NOT NULL DEFAULT '[]',
                        genres TEXT NOT NULL DEFAULT '[]',
                        modes TEXT NOT NULL DEFAULT '[]',
                        engines TEXT NOT NULL DEFAULT '[]',
                        developers TEXT NOT NULL DEFAULT '[]',
                        publishers TEXT NOT NULL DEFAULT '[]',
                        critic_rating DOUBLE,
                        rating_count INTEGER,
                        cover_image_id TEXT,
                        age_rating TEXT,
                        mature BOOLEAN NOT NULL DEFAULT 0,
                        url TEXT,
                        game_type TEXT,
                        popularity DOUBLE NOT NULL DEFAULT 0,
                        updated_at DOUBLE,
                        UNIQUE (provider, provider_id)
                    );
                    CREATE INDEX games_rating ON games(critic_rating DESC) WHERE critic_rating IS NOT NULL;
                    CREATE INDEX games_popularity ON games(popularity DESC);
                    CREATE TABLE game_facets (
                        kind TEXT NOT NULL,
                        name TEXT NOT NULL COLLATE NOCASE,
                        game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
                        PRIMARY KEY (kind, name, game_id)
                    ) WITHOUT ROWID;
                    CREATE INDEX game_facets_game ON game_facets(game_id);
                    CREATE VIRTUAL TABLE games_fts USING fts5(
                        name, keywords, content='games', content_rowid='id',
                        tokenize='unicode61 remove_diacritics 2', prefix='2 3'
                    );
                    CREATE TRIGGER games_ai AFTER INSERT ON games BEGIN
                        INSERT INTO games_fts(rowid, name, keywords) VALUES (new.id, new.name, new.keywords);
                    END;
                    CREATE TRIGGER games_ad AFTER DELETE ON games BEGIN
                        INSERT INTO games_fts(games_fts, rowid, name, keywords) VALUES ('delete', old.id, old.name, old.keywords);
                    END;
                    CREATE TRIGGER games_au AFTER UPDATE OF name, keywords ON games BEGIN
                        INSERT INTO games_fts(games_fts, rowid, name, keywords) VALUES ('delete', old.id, old.name, old.keywords);
                        INSERT INTO games_fts(rowid, name, keywords) VALUES (new.id, new.name, new.keywords);
                    END;
                    CREATE VIRTUAL TABLE games_vocab USING fts5vocab(games_fts, 'col');
                    CREATE TABLE catalog_meta (key TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL);

                    CREATE TABLE library_entries (
                        player_id TEXT NOT NULL REFERENCES players(id) ON DELETE CASCADE,
                        game_id INTEGER NOT NULL REFERENCES games(id),
                        status TEXT NOT NULL,
                        hours DOUBLE,
                        percent INTEGER,
                        score INTEGER,
                        review TEXT,
                        reviewed_at DOUBLE,
                        favorite BOOLEAN NOT NULL DEFAULT 0,
                        tags TEXT NOT NULL DEFAULT '[]',
                        note TEXT,
                        added_at DOUBLE NOT NULL,
                        started_at DOUBLE,
                        finished_at DOUBLE,
                        updated_at DOUBLE NOT NULL,
                        PRIMARY KEY (player_id, game_id)
                    ) WITHOUT ROWID;
                    CREATE INDEX library_game ON library_entries(game_id);
                    CREATE TABLE wishlist (
                        player_id TEXT NOT NULL REFERENCES players(id) ON DELETE CASCADE,
                        game_id INTEGER NOT NULL REFERENCES games(id),
                        added_at DOUBLE NOT NULL,
                        PRIMARY KEY (player_id, game_id)
                    ) WITHOUT ROWID;

                    CREATE TABLE processed_interactions (
                        id TEXT PRIMARY KEY NOT NULL,
                        response BLOB NOT NULL,
                        created_at DOUBLE NOT NULL
                    );
                    CREATE TABLE pending_commands (
                        id TEXT PRIMARY KEY NOT NULL,
                        command TEXT NOT NULL,
                        created_at DOUBLE NOT NULL
                    );
                    """)
        }
        migrator.registerMigration("v2: events, friends, challenges, share links") { db in
            try db.execute(
                sql: """
                    CREATE TABLE events (
                        id INTEGER PRIMARY KEY AUTOINCREMENT,
                        community_id TEXT NOT NULL,
                        player_id TEXT NOT NULL REFERENCES players(id) ON DELETE CASCADE,
                        kind TEXT NOT NULL,
                        game_id INTEGER REFERENCES games(id),
                        amount DOUBLE,
                        detail TEXT,
                        created_at DOUBLE NOT NULL
                    );
                    CREATE INDEX events_community ON events(community_id, created_at);
                    CREATE INDEX events_player ON events(player_id, kind, created_at);
                    CREATE TABLE friends (
                        player_id TEXT NOT NULL REFERENCES players(id) ON DELETE CASCADE,
                        friend_id TEXT NOT NULL REFERENCES players(id) ON DELETE CASCADE,
                        created_at DOUBLE NOT NULL,
                        PRIMARY KEY (player_id, friend_id)
                    ) WITHOUT ROWID;
                    CREATE TABLE challenges (
                        id INTEGER PRIMARY KEY AUTOINCREMENT,
                        community_id TEXT NOT NULL,
                        name TEXT NOT NULL,
                        name_key TEXT NOT NULL,
                        goal DOUBLE NOT NULL,
                        unit TEXT NOT NULL,
                        starts_at DOUBLE NOT NULL,
                        ends_at DOUBLE NOT NULL,
                        created_by TEXT NOT NULL,
                        created_at DOUBLE NOT NULL,
                        UNIQUE (community_id, name_key)
                    );
                    CREATE TABLE challenge_participants (
                        challenge_id INTEGER NOT NULL REFERENCES challenges(id) ON DELETE CASCADE,
                        player_id TEXT NOT NULL REFERENCES players(id) ON DELETE CASCADE,
                        joined_at DOUBLE NOT NULL,
                        custom_progress DOUBLE NOT NULL DEFAULT 0,
                        medal_at DOUBLE,
                        PRIMARY KEY (challenge_id, player_id)
                    ) WITHOUT ROWID;
                    CREATE INDEX challenge_participants_player ON challenge_participants(player_id);
                    CREATE TABLE share_tokens (
                        token TEXT PRIMARY KEY NOT NULL,
                        player_id TEXT NOT NULL UNIQUE REFERENCES players(id) ON DELETE CASCADE,
                        created_at DOUBLE NOT NULL
                    );
                    """)
        }
        migrator.registerMigration("v3: provider lookups") { db in
            try db.execute(
                sql: """
                    CREATE TABLE provider_lookups (
                        provider TEXT NOT NULL,
                        query TEXT NOT NULL,
                        looked_up_at DOUBLE NOT NULL,
                        PRIMARY KEY (provider, query)
                    ) WITHOUT ROWID;
                    """)
        }
        migrator.registerMigration("v4: delivery claims") { db in
            // A delivery is claimed inside the transaction of the change it causes; the answer is stored
            // afterwards, so `response` is empty while a claimed delivery is being answered.
            try db.execute(
                sql: """
                    CREATE TABLE processed_interactions_v4 (
                        id TEXT PRIMARY KEY NOT NULL,
                        attempt TEXT,
                        response BLOB,
                        created_at DOUBLE NOT NULL
                    );
                    INSERT INTO processed_interactions_v4 (id, response, created_at)
                        SELECT id, response, created_at FROM processed_interactions;
                    DROP TABLE processed_interactions;
                    ALTER TABLE processed_interactions_v4 RENAME TO processed_interactions;
                    CREATE INDEX processed_interactions_created ON processed_interactions(created_at);
                    CREATE INDEX pending_commands_created ON pending_commands(created_at);
                    """)
        }
        migrator.registerMigration("v5: names searched in memory, facets by number") { db in
            // Searches go through the in-memory name index; the full-text table only cost imports time and disk.
            // A game's facets are pairs of numbers, which load several times faster than (kind, name, game) rows.
            try db.execute(
                sql: """
                    DROP TRIGGER games_ai;
                    DROP TRIGGER games_ad;
                    DROP TRIGGER games_au;
                    DROP TABLE games_vocab;
                    DROP TABLE games_fts;
                    CREATE TABLE facets (
                        id INTEGER PRIMARY KEY,
                        kind TEXT NOT NULL,
                        name TEXT NOT NULL COLLATE NOCASE,
                        UNIQUE (kind, name)
                    );
                    INSERT INTO facets (kind, name) SELECT DISTINCT kind, name FROM game_facets ORDER BY kind, name;
                    CREATE TABLE game_facets_v5 (
                        facet_id INTEGER NOT NULL REFERENCES facets(id),
                        game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
                        PRIMARY KEY (facet_id, game_id)
                    ) WITHOUT ROWID;
                    INSERT OR IGNORE INTO game_facets_v5 (facet_id, game_id)
                        SELECT f.id, gf.game_id FROM game_facets gf JOIN facets f ON f.kind = gf.kind AND f.name = gf.name;
                    DROP TABLE game_facets;
                    ALTER TABLE game_facets_v5 RENAME TO game_facets;
                    CREATE INDEX game_facets_game ON game_facets(game_id);
                    """)
        }
        migrator.registerMigration("v6: leases") { db in
            // Work that must run in one process at a time however many share the database (a catalog
            // refresh): the holder renews its lease while it works; a lease not renewed in time expires.
            try db.execute(
                sql: """
                    CREATE TABLE leases (
                        name TEXT PRIMARY KEY NOT NULL,
                        holder TEXT NOT NULL,
                        expires_at DOUBLE NOT NULL
                    );
                    """)
        }
        migrator.registerMigration("v7: request budgets") { db in
            // Calls to a provider counted per second across every process sharing the database, so replicas
            // together keep to the provider's rate limit.
            try db.execute(
                sql: """
                    CREATE TABLE request_budget (
                        name TEXT NOT NULL,
                        second INTEGER NOT NULL,
                        used INTEGER NOT NULL,
                        PRIMARY KEY (name, second)
                    ) WITHOUT ROWID;
                    """)
        }
        migrator.registerMigration("v8: themes") { db in
            try db.execute(sql: "ALTER TABLE games ADD COLUMN themes TEXT NOT NULL DEFAULT '[]'")
        }
        return migrator
    }
}

extension AppDatabase {
    /// Whether the database answers and every migration this version knows has run (`GET /readyz`).
    package func isReady() async throws -> Bool {
        let migrated: Bool
        switch backend {
        case .sqlite(let writer):
            migrated = try await writer.read { db in try Self.migrator.hasCompletedMigrations(db) }
        case .postgres: migrated = try await read { db in try PostgresMigrations.isComplete(db) }
        }
        guard migrated else { return false }
        // A database that answers reads but refuses writes (a full disk, a read-only file) cannot serve commands:
        // a small write is committed, as a command's would be.
        try await write { db in
            try db.execute(
                "INSERT INTO catalog_meta (key, value) VALUES ('readiness.checked_at', ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                [String(Date().timeIntervalSince1970)])
        }
        return true
    }

    /// Bytes on disk: the database file and its write-ahead log (0 in memory or on PostgreSQL).
    package func fileSize() -> Int64 {
        guard case .sqlite(let writer) = backend, let path = (writer as? DatabasePool)?.path else { return 0 }
        return [path, path + "-wal"].reduce(0) { total, file in
            total + ((try? FileManager.default.attributesOfItem(atPath: file)[.size] as? Int64) ?? 0)
        }
    }

    /// Moves everything in the write-ahead log into the main file and empties the log.
    package func checkpoint() throws {
        guard case .sqlite(let writer) = backend, writer is DatabasePool else { return }
        try writer.writeWithoutTransaction { db in _ = try db.checkpoint(.truncate) }
    }

    /// Checkpoints and closes the connections; for shutdown.
    package func close() throws {
        switch backend {
        case .sqlite(let writer):
            try checkpoint()
            try writer.close()
        case .postgres(let pool): pool.close()
        }
    }

    /// An online, consistent copy of the whole database (SQLite's backup API), safe while serving.
    package func backup(to path: String) throws {
        guard !isPostgres else {
            throw RestoreError(description: "`db backup` copies a SQLite database; back PostgreSQL up with pg_dump")
        }
        guard !FileManager.default.fileExists(atPath: path) else {
            throw DatabaseError(message: "\(path) already exists; choose a new file")
        }
        let destination = try DatabaseQueue(path: path)
        try writer.backup(to: destination)
        try destination.close()
    }

    /// Why a file cannot be restored.
    package struct RestoreError: Error, CustomStringConvertible {
        package var description: String
    }

    /// Replaces this database's whole content with a backup's, after checking the backup is a sound GGTracker
    /// database of this version or an older one (whose schema is then brought up to date). Meant for a stopped
    /// server: a running one keeps what it had cached.
    package func restore(from path: String) throws {
        guard !isPostgres else {
            throw RestoreError(description: "`db restore` fills a SQLite database; restore PostgreSQL with pg_restore")
        }
        guard FileManager.default.fileExists(atPath: path) else {
            throw RestoreError(description: "\(path) does not exist")
        }
        var configuration = Configuration()
        configuration.readonly = true
        let source: DatabaseQueue
        do { source = try DatabaseQueue(path: path, configuration: configuration) } catch {
            throw RestoreError(description: "\(path) is not a SQLite database: \(error)")
        }
        defer { try? source.close() }
        try source.read { db in
            guard (try? String.fetchOne(db.cachedStatement(sql: "PRAGMA quick_check"))) == "ok" else {
                throw RestoreError(description: "\(path) is damaged (SQLite's check failed)")
            }
            guard try db.tableExists("grdb_migrations"), try db.tableExists("library_entries") else {
                throw RestoreError(description: "\(path) is not a GGTracker database")
            }
            let known = Set(Self.migrator.migrations)
            let applied = try String.fetchAll(db.cachedStatement(sql: "SELECT identifier FROM grdb_migrations"))
            if let unknown = applied.first(where: { !known.contains($0) }) {
                throw RestoreError(
                    description: "\(path) comes from a newer GGTracker (migration “\(unknown)”); upgrade first")
            }
        }
        try source.backup(to: writer)
        try Self.migrator.migrate(writer)
        try checkpoint()
    }
}

/// Who was recorded when, kept in memory for `recordPlayer`.
final class RecentlySeen: Sendable {
    static let interval: TimeInterval = 600
    private let seen = Mutex<[String: Date]>([:])

    func isFresh(_ key: String, at now: Date) -> Bool {
        seen.withLock { ($0[key]).map { now.timeIntervalSince($0) < Self.interval && $0 <= now } ?? false }
    }

    func saw(_ key: String, at now: Date) {
        seen.withLock { seen in
            if seen.count > 100_000 { seen.removeAll(keepingCapacity: true) }
            seen[key] = now
        }
    }
}
