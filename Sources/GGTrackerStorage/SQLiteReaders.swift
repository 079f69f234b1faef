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
    private let configuration: Configuration
    private let limit: Int
    private let state = Mutex(State())

    /// Connections to the file of `pool`, with its settings but read-only, at most as many as its readers.
    init(_ pool: DatabasePool) {
        path = pool.path
        var configuration = pool.configuration
        configuration.readonly = true
        configuration.label = "ggtracker.reader"
        self.configuration = configuration
        limit = pool.configuration.maximumReaderCount
    }

    /// How many connections are open, for tests.
    var count: Int { state.withLock { $0.readers.count } }

    /// Runs `body` on the calling thread's connection, opened at its first read; `otherwise` when the thread has
    /// none to lend (the limit reached, a read already running on it, the connections closed).
    func read<T>(_ body: (Database) throws -> T, otherwise: () throws -> T) throws -> T {
        guard let reader = try reader(for: UInt(pthread_self())), !reader.busy else { return try otherwise() }
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

    /// The thread's connection, opened now if it has none and the limit allows (under the lock: it happens at most
    /// `limit` times).
    private func reader(for thread: UInt) throws -> Reader? {
        try state.withLock { state -> Reader? in
            guard !state.closed else { return nil }
            if let reader = state.readers[thread] { return reader }
            guard state.readers.count < limit else { return nil }
            let reader = Reader(try DatabaseQueue(path: path, configuration: configuration))
            state.readers[thread] = reader
            return reader
        }
    }
}
