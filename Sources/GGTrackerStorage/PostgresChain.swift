import NIOCore
import PostgresNIO
import Synchronization

/// The transactions the pool's connections rest in between borrowers. A transaction of a pooled connection ends
/// with `COMMIT AND CHAIN`, which begins the next one at once with the same isolation level and access mode, so the
/// connection's next borrower finds its transaction begun and sends no `BEGIN`: one exchange with the server less
/// per transaction (postgres-nio sends a connection's statements one after another, each waiting for the answer to
/// the one before). The new transaction takes its snapshot at its first statement, so its borrower sees all that
/// was committed before; idle, it holds neither a snapshot nor a lock (the server lists it as "idle in
/// transaction").
final class PostgresChain: Sendable {
    /// A transaction begun on a connection by the end of the one before, with the server's answer to that end.
    struct Begun {
        let connection: PostgresConnection
        let answer: EventLoopFuture<Void>
        let readOnly: Bool
    }

    private let begun = Mutex<[PostgresConnection.ID: Begun]>([:])
    /// How many connections the pool keeps; entries of connections it closed are dropped past twice as many.
    let connections: Int

    init(connections: Int) { self.connections = connections }

    /// Notes that `connection`'s transaction ended in a new one, which `answer` confirms.
    func chained(_ connection: PostgresConnection, answer: EventLoopFuture<Void>, readOnly: Bool) {
        begun.withLock { begun in
            begun[connection.id] = Begun(connection: connection, answer: answer, readOnly: readOnly)
            if begun.count > 2 * connections {
                begun = begun.filter { !$0.value.connection.isClosed }
            }
        }
    }

    /// Whether `connection` rests in a transaction chained to its last.
    func rests(_ connection: PostgresConnection) -> Bool {
        begun.withLock { $0[connection.id] != nil }
    }

    /// The transaction `connection` rests in, if one was chained to the last; the borrower takes it over.
    func take(_ connection: PostgresConnection) -> Begun? {
        begun.withLock { $0.removeValue(forKey: connection.id) }
    }
}
