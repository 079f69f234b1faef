import Foundation
import Logging
import NIOCore
import PostgresNIO
import Synchronization

/// The statements a database's sessions send, and the statements each connection has prepared.
///
/// A statement sent as it is written is parsed, analysed and planned by the server every time; for the small
/// statements a command makes, that is most of the server's work. So a statement that reads or changes rows, the
/// first time a connection runs it, is sent as written and, once its transaction is over, prepared on that
/// connection (outside the transaction, so a statement the server will not prepare changes nothing); from then on,
/// the connection runs it by name with its arguments, in the same round trips as before — except where the caller
/// needs how many rows it changed (`execute`), which a statement run by name does not say. Its parameters are given
/// the types its arguments are bound with (`$1::int8`; a null's type is inferred, as for a statement sent as
/// written), so a text bound with other kinds of values is prepared again under another number.
final class PostgresStatements: Sendable {
    /// One statement text with one shape of arguments.
    struct Statement: Sendable {
        /// With `$1`, `$2`… for its `?`s.
        let numbered: String
        /// Its number among the prepared statements, with its text to prepare; nil when it is not prepared.
        let prepared: (id: Int, text: String)?
    }

    private struct Entry {
        var numbered: String
        var isPreparable: Bool
        /// The prepared statement for each shape of arguments (see `shape(of:)`).
        var shapes: [UInt64: Statement] = [:]
    }

    private struct State {
        var entries: [String: Entry] = [:]
        var nextID = 1
        /// Statements the server would not prepare, never asked again.
        var refused: Set<Int> = []
        var connections: [Int: Connection] = [:]
    }

    /// What one connection has prepared, and when it was last lent.
    private struct Connection {
        var ready: [Int: PreparedQuery] = [:]
        /// Sent to the server and not answered yet.
        var pending: Set<Int> = []
        var used: ContinuousClock.Instant
    }

    private let state = Mutex(State())
    /// Texts past this many (a statement written with a varying number of `?`s, say) start the table again.
    private static let capacity = 2_000
    /// Arguments of one statement that fit in a shape (3 bits each).
    private static let maximumArguments = 21

    /// How a statement is sent: its numbered text and, when it can be prepared (and the server did not refuse
    /// to), its prepared form.
    func statement(_ sql: String, _ arguments: SQLArguments) -> Statement {
        let shape = Self.shape(of: arguments)
        return state.withLock { state in
            if let entry = state.entries[sql] {
                guard entry.isPreparable, let shape else { return Statement(numbered: entry.numbered, prepared: nil) }
                if let statement = entry.shapes[shape] {
                    guard let prepared = statement.prepared, state.refused.contains(prepared.id) else {
                        return statement
                    }
                    return Statement(numbered: statement.numbered, prepared: nil)
                }
            }
            if state.entries.count >= Self.capacity {
                // Their numbers are not used again: what connections prepared under them goes too.
                state.entries.removeAll()
                state.connections.removeAll()
            }
            var entry = state.entries[sql] ?? Entry(numbered: Self.numbered(sql), isPreparable: Self.isPreparable(sql))
            guard entry.isPreparable, let shape else {
                state.entries[sql] = entry
                return Statement(numbered: entry.numbered, prepared: nil)
            }
            let statement = Statement(
                numbered: entry.numbered, prepared: (state.nextID, Self.numbered(sql, typedAs: arguments)))
            state.nextID += 1
            entry.shapes[shape] = statement
            state.entries[sql] = entry
            return statement
        }
    }

    /// The statements a connection has prepared, while one transaction uses it.
    func prepared(on connection: Int) -> [Int: PreparedQuery] {
        state.withLock { $0.connections[connection]?.ready ?? [:] }
    }

    /// Prepares on a connection, after its transaction, the statements it ran as written; each is kept for the
    /// connection once the server has prepared it, and one the server refuses is never asked again (a connection
    /// that fails meanwhile refuses nothing). Connections the pool closed while idle are never said to be gone:
    /// those not lent for a minute are forgotten when the table grows.
    func prepare(
        _ statements: [(id: Int, text: String)], on connection: PostgresConnection, connections: Int
    ) {
        let now = ContinuousClock.now
        let id = connection.id
        let new = state.withLock { state in
            if state.connections.count > 2 * connections + 8 {
                state.connections = state.connections.filter { now - $0.value.used < .seconds(60) }
            }
            var known = state.connections[id] ?? Connection(used: now)
            known.used = now
            var new: [(id: Int, text: String)] = []
            for statement in statements where known.ready[statement.id] == nil {
                if known.pending.insert(statement.id).inserted { new.append(statement) }
            }
            state.connections[id] = known
            return new
        }
        for statement in new {
            connection.prepare(query: statement.text).whenComplete { [self] result in
                state.withLock { state in
                    state.connections[id]?.pending.remove(statement.id)
                    switch result {
                    case .success(let prepared): state.connections[id]?.ready[statement.id] = prepared
                    case .failure(let error):
                        if PostgresWire.serverError(error) != nil { state.refused.insert(statement.id) }
                    }
                }
            }
        }
    }

    /// Forgets every statement and what each connection prepared: the server said one is missing, or that its plan
    /// no longer fits the tables (a migration changed them). Statements are prepared again under new names.
    func forget() {
        state.withLock { state in
            state.entries.removeAll()
            state.connections.removeAll()
        }
    }

    /// Statements that read or change rows; others (`DECLARE`, `SET`, schema changes) cannot be prepared.
    static func isPreparable(_ sql: String) -> Bool {
        let word = sql.drop(while: \.isWhitespace).prefix(while: \.isLetter).uppercased()
        return ["SELECT", "INSERT", "UPDATE", "DELETE", "WITH"].contains(word)
    }

    /// The kinds of a statement's arguments, 3 bits each; nil when there are too many to prepare it.
    static func shape(of arguments: SQLArguments) -> UInt64? {
        guard arguments.values.count <= maximumArguments else { return nil }
        var shape: UInt64 = 1
        for value in arguments.values {
            shape = shape << 3 | UInt64(kind(value))
        }
        return shape
    }

    private static func kind(_ value: SQLValue) -> UInt8 {
        switch value {
        case .null: 0
        case .integer: 1
        case .real: 2
        case .text: 3
        case .blob: 4
        }
    }

    /// The type a parameter is bound with, as written after it (empty for a null).
    private static func cast(_ value: SQLValue) -> String {
        switch value {
        case .null: ""
        case .integer: "::int8"
        case .real: "::float8"
        case .text: "::text"
        case .blob: "::bytea"
        }
    }

    /// `?` → `$1`, `$2`… outside quoted text; with `arguments`, each followed by its type.
    static func numbered(_ sql: String, typedAs arguments: SQLArguments? = nil) -> String {
        var out = ""
        out.reserveCapacity(sql.utf8.count + 8)
        var number = 0
        var quote: Character?
        for character in sql {
            if let open = quote {
                if character == open { quote = nil }
                out.append(character)
            } else if character == "'" || character == "\"" {
                quote = character
                out.append(character)
            } else if character == "?" {
                number += 1
                out += "$\(number)"
                if let arguments, number <= arguments.values.count { out += cast(arguments.values[number - 1]) }
            } else {
                out.append(character)
            }
        }
        return out
    }

    /// The arguments as the prepared statement's execution takes them.
    static func data(_ arguments: SQLArguments) -> [PostgresData] {
        arguments.values.map { value in
            switch value {
            case .null: PostgresData.null
            case .integer(let v): PostgresData(int64: v)
            case .real(let v): PostgresData(double: v)
            case .text(let v): PostgresData(string: v)
            case .blob(let v): PostgresData(bytes: v)
            }
        }
    }
}
