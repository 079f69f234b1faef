import Foundation
import GRDB
import Synchronization

/// Read connections to a SQLite file, one for each thread that reads, up to a limit. A read on GRDB's reader pool
/// takes a connection from the pool under a lock and first reads the schema's version in a transaction of its own
/// (two more file locks, taken and released), so that GRDB's schema cache notices a migration; the stores read
/// with statements of their own, which SQLite prepares again itself when the schema changed. A thread's connection
/// is used by that thread alone, one read at a time: a read made while another runs on the same thread, or on a
/// thread past the limit, goes to the pool. The connections are kept here, not in the threads' own storage, so
/// that they are closed with the database, never by a thread as it ends; a connection whose thread ended serves the
/// next thread given the same identity.
final class SQLiteReaders: Sendable {
    /// A thread's connection, used by that thread only.
    private final class Reader: @unchecked Sendable {
        let queue: DatabaseQueue
        var busy = false
        init(_ queue: DatabaseQueue) { self.queue = queue }
    }

    private struct State {
        var readers: [UInt: Reader] = [:]
        var closed = false
    }

    private let path: String
    private let limit: Int
    private let state = Mutex(State())

    /// Connections to the file at `path`, at most `limit` of them.
    init(path: String, limit: Int) {
        self.path = path
        self.limit = limit
    }

    /// How many connections are open, for tests.
    var count: Int { state.withLock { $0.readers.count } }

    /// Runs `body` on the calling thread's connection, opened at its first read; `otherwise` when the thread has
    /// none to lend (the limit reached, a read already running on it, the connections closed).
    func read<T>(_ body: (Database) throws -> T, otherwise: () throws -> T) throws -> T {
        guard let reader = try reader(for: UInt(pthread_self())), !reader.busy else {
            return try otherwise()
        }
        reader.busy = true
        defer { reader.busy = false }
        return try reader.queue.inDatabase(body)
    }

    /// Closes every connection; later reads go to the pool.
    func close() throws {
        let readers = state.withLock { state -> [Reader] in
            state.closed = true
            defer { state.readers = [:] }
            return Array(state.readers.values)
        }
        for reader in readers { try reader.queue.close() }
    }

    private enum Found {
        case reader(Reader)
        case open
        case none
    }

    private func reader(for thread: UInt) throws -> Reader? {
        let found = state.withLock { state -> Found in
            if state.closed { return .none }
            if let reader = state.readers[thread] { return .reader(reader) }
            return state.readers.count < limit ? .open : .none
        }
        switch found {
        case .reader(let reader): return reader
        case .none: return nil
        case .open: break
        }
        var configuration = Configuration()
        configuration.readonly = true
        configuration.busyMode = .timeout(5)
        configuration.label = "ggtracker.reader"
        configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA cache_size = -1000") }
        let reader = Reader(try DatabaseQueue(path: path, configuration: configuration))
        let kept = state.withLock { state in
            guard !state.closed, state.readers[thread] == nil, state.readers.count < limit else { return false }
            state.readers[thread] = reader
            return true
        }
        guard kept else {
            try reader.queue.close()
            return nil
        }
        return reader
    }
}
