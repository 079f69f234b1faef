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
    /// Runs the transactions, on SQLite or PostgreSQL.
    package let executor: DatabaseExecutor
    var backend: DatabaseExecutor.Backend { executor.backend }
    /// Players recorded lately, so a command does not write just to say they were seen.
    let recentlySeen: RecentlySeen
    /// The delivery on whose behalf this view of the database writes (see `claiming(_:)`).
    let claim: DeliveryClaim?

    package init(_ writer: any DatabaseWriter) throws {
        executor = DatabaseExecutor(.sqlite(writer))
        recentlySeen = RecentlySeen()
        claim = nil
        try Migration.sqliteMigrator.migrate(writer)
    }

    init(postgres database: PostgresDatabase) {
        executor = DatabaseExecutor(.postgres(database))
        recentlySeen = RecentlySeen()
        claim = nil
    }

    private init(sharing database: AppDatabase, claim: DeliveryClaim, readsIdle: Duration, holdingChanges: Bool) {
        executor = database.executor.scoped(idle: readsIdle, holdingChanges: holdingChanges)
        recentlySeen = database.recentlySeen
        self.claim = claim
    }

    package var library: LibraryRecords {
        LibraryRecords(executor: executor, recentlySeen: recentlySeen, claim: claim)
    }
    package var social: SocialRecords { SocialRecords(executor: executor, claim: claim) }
    package var catalog: CatalogRecords { CatalogRecords(executor: executor) }
    package var catalogState: CatalogStateRecords { CatalogStateRecords(executor: executor) }
    package var steamApps: SteamAppRecords { SteamAppRecords(executor: executor) }
    package var deliveries: DeliveryRecords { DeliveryRecords(executor: executor) }
    package var leases: LeaseRecords { LeaseRecords(executor: executor) }
    /// What the bot reads and writes through, for one delivery's command (see `claiming(_:)`).
    package var stores: BotStore { BotStore(library: library, social: social) }

    /// The same database, for running one delivery's command (a Discord interaction, a Matrix event, a Slack
    /// request): every write with an effect a user asked for claims the delivery's id in its own transaction,
    /// so the change and the record that it was made commit together.
    /// On PostgreSQL the command's reads share one transaction, ended after `readsIdle` without a read (see
    /// `endReads()`). With `holdingChanges`, the change is made in that transaction too and held, uncommitted,
    /// until the answer to the delivery is kept with it (`DeliveryRecords.recordProcessed`); the caller then ends
    /// the command with `endReads()`, which rolls back a change still held.
    package func claiming(
        _ claim: DeliveryClaim, readsIdle: Duration = .milliseconds(20), holdingChanges: Bool = false
    ) -> AppDatabase {
        AppDatabase(sharing: self, claim: claim, readsIdle: readsIdle, holdingChanges: holdingChanges)
    }

    /// Ends the command: on PostgreSQL, a command's reads share one transaction until it writes or this is called,
    /// and a change still held is rolled back (see `DatabaseExecutor.scoped(idle:holdingChanges:)`).
    package func endReads() { executor.endReads() }

    /// Whether the command's change is held, uncommitted, for its answer (see `claiming(_:readsIdle:holdingChanges:)`).
    package var holdsChange: Bool { executor.holdsChange }

    /// Opens the database named by `GGTRACKER_DATABASE` or `--database` (see `DatabaseLocation`).
    package static func open(
        _ location: String, connections: Int = 10, connectionWait: Duration = .seconds(10)
    ) async throws -> AppDatabase {
        try await open(DatabaseLocation(location), connections: connections, connectionWait: connectionWait)
    }

    /// Opens the database, running its migrations. With `creating: false`, a SQLite file that does not exist is
    /// refused instead of created (a source to copy from must be there). On PostgreSQL, `connections` bounds the
    /// pool and `connectionWait` how long a transaction waits for one of its connections.
    package static func open(
        _ location: DatabaseLocation, creating: Bool = true, connections: Int = 10,
        connectionWait: Duration = .seconds(10)
    ) async throws -> AppDatabase {
        switch location {
        case .postgres(let postgres):
            return AppDatabase(
                postgres: try await PostgresDatabase.open(
                    location: postgres, maximumConnections: connections, connectionWait: connectionWait))
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
    /// - one reader connection per CPU the process may use (and one more),
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
        config.maximumReaderCount = Processors.usable + 1
        config.prepareDatabase { db in
            // 1 MB of page cache a connection: the pages a command reads are few, and the catalog is searched in
            // memory.
            try db.execute(sql: "PRAGMA cache_size = -1000")
            try db.execute(sql: "PRAGMA foreign_keys = ON")
        }
        let pool = try DatabasePool(path: path, configuration: config)
        // Set on the writer once the pool is open: the pool turns WAL mode on after the connection's own set-up, and
        // with it `synchronous = NORMAL`, under which a commit reaches the disk only at the next checkpoint.
        try pool.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA synchronous = FULL") }
        return try AppDatabase(pool)
    }

    /// An empty in-memory database, for tests.
    package static func inMemory() throws -> AppDatabase {
        var config = Configuration()
        config.prepareDatabase { db in try db.execute(sql: "PRAGMA foreign_keys = ON") }
        return try AppDatabase(DatabaseQueue(configuration: config))
    }

    package var dialect: SQLDialect { executor.dialect }

    package var isPostgres: Bool { dialect == .postgres }

    /// What the executor counted (round trips, statements, commits, read connections), for tests.
    package var counters: DatabaseCounters { DatabaseCounters(executor: executor) }

    /// The SQLite connection, for what only SQLite does (backups, the bulk catalog load, file checks).
    package var writer: any DatabaseWriter { executor.sqliteWriter }

    /// Reads in one snapshot (see `DatabaseExecutor`).
    package func read<T>(_ body: (any SQLSession) async throws -> T) async throws -> T {
        try await executor.read(body)
    }

    /// One write transaction.
    @discardableResult
    package func write<T: Sendable>(_ body: @Sendable (any SQLSession) async throws -> T) async throws -> T {
        try await executor.write(body)
    }
}

extension AppDatabase {
    /// Whether the database answers and every migration this version knows has run (`GET /readyz`).
    package func isReady() async throws -> Bool {
        let migrated: Bool
        switch backend {
        case .sqlite(let writer):
            migrated = try await writer.read { db in try Migration.sqliteMigrator.hasCompletedMigrations(db) }
        case .postgres: migrated = try await Migration.postgresIsComplete(executor)
        }
        guard migrated else { return false }
        // A database that answers reads but refuses writes (a full disk, a read-only file) cannot serve commands:
        // a small write is committed, as a command's would be.
        try await write { db in
            try await db.execute(
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
            try executor.readers?.close()
            try checkpoint()
            try writer.close()
        case .postgres(let database): database.close()
        }
    }

    /// An online, consistent copy of the whole database (SQLite's backup API), safe while serving.
    package func backup(to path: String) throws {
        guard !isPostgres else {
            throw RestoreError(description: "`db backup` copies a SQLite database; back PostgreSQL up with pg_dump")
        }
        guard !FileManager.default.fileExists(atPath: path) else {
            throw RestoreError(description: "\(path) already exists; choose a new file")
        }
        let destination = try DatabaseQueue(path: path)
        try writer.backup(to: destination)
        try destination.close()
    }

    /// Why a file cannot be backed up to or restored from.
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
            let known = Set(Migration.all.map(\.identifier))
            let applied = try String.fetchAll(db.cachedStatement(sql: "SELECT identifier FROM grdb_migrations"))
            if let unknown = applied.first(where: { !known.contains($0) }) {
                throw RestoreError(
                    description: "\(path) comes from a newer GGTracker (migration “\(unknown)”); upgrade first")
            }
        }
        try source.backup(to: writer)
        try Migration.sqliteMigrator.migrate(writer)
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
