import Foundation
import GRDB
import GRDBSQLite
import Synchronization

/// A value as both backends store it: SQLite's storage classes, which PostgreSQL's column types used here map to.
package enum SQLValue: Sendable, Hashable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob(Data)
}

/// A Swift value that can be bound to a statement.
package protocol SQLBindable: Sendable {
    var sqlValue: SQLValue { get }
}

/// A Swift value that can be read from a result column. Conversions are lenient where the two backends differ
/// (PostgreSQL's `sum` of integers is a decimal, its `EXISTS` a boolean).
package protocol SQLReadable {
    static func read(_ value: SQLValue) -> Self?
}

extension Int64: SQLBindable, SQLReadable {
    package var sqlValue: SQLValue { .integer(self) }
    package static func read(_ value: SQLValue) -> Int64? {
        switch value {
        case .integer(let v): v
        case .real(let v): Int64(exactly: v.rounded(.towardZero))
        case .text(let v): Int64(v)
        case .null, .blob: nil
        }
    }
}

extension Int: SQLBindable, SQLReadable {
    package var sqlValue: SQLValue { .integer(Int64(self)) }
    package static func read(_ value: SQLValue) -> Int? { Int64.read(value).map { Int($0) } }
}

extension Double: SQLBindable, SQLReadable {
    package var sqlValue: SQLValue { .real(self) }
    package static func read(_ value: SQLValue) -> Double? {
        switch value {
        case .integer(let v): Double(v)
        case .real(let v): v
        case .text(let v): Double(v)
        case .null, .blob: nil
        }
    }
}

extension Bool: SQLBindable, SQLReadable {
    package var sqlValue: SQLValue { .integer(self ? 1 : 0) }
    package static func read(_ value: SQLValue) -> Bool? { Int64.read(value).map { $0 != 0 } }
}

extension String: SQLBindable, SQLReadable {
    package var sqlValue: SQLValue { .text(self) }
    package static func read(_ value: SQLValue) -> String? {
        switch value {
        case .text(let v): v
        case .integer(let v): String(v)
        case .real(let v): String(v)
        case .blob(let v): String(decoding: v, as: UTF8.self)
        case .null: nil
        }
    }
}

extension Data: SQLBindable, SQLReadable {
    package var sqlValue: SQLValue { .blob(self) }
    package static func read(_ value: SQLValue) -> Data? {
        switch value {
        case .blob(let v): v
        case .text(let v): Data(v.utf8)
        case .null, .integer, .real: nil
        }
    }
}

extension Optional: SQLReadable where Wrapped: SQLReadable {
    package static func read(_ value: SQLValue) -> Wrapped?? {
        if case .null = value { return .some(nil) }
        return Wrapped.read(value).map { .some($0) }
    }
}

/// A statement's arguments, written like GRDB's: `[id, name, nil]`.
package struct SQLArguments: ExpressibleByArrayLiteral, Sendable {
    package var values: [SQLValue]

    package init(arrayLiteral elements: (any SQLBindable)?...) {
        values = elements.map { $0?.sqlValue ?? .null }
    }

    package init(_ elements: [(any SQLBindable)?]) {
        values = elements.map { $0?.sqlValue ?? .null }
    }

    package static func + (lhs: SQLArguments, rhs: SQLArguments) -> SQLArguments {
        var sum = lhs
        sum.values += rhs.values
        return sum
    }
}

/// The column names of a result, shared by its rows.
package final class SQLColumns: Sendable {
    package let names: [String]
    let positions: [String: Int]

    package init(_ names: [String]) {
        self.names = names
        var positions: [String: Int] = [:]
        for (index, name) in names.enumerated() {
            // Found as written without a case conversion; any other spelling through the lowercased name.
            if positions[name] == nil { positions[name] = index }
            let lowercased = name.lowercased()
            if positions[lowercased] == nil { positions[lowercased] = index }
        }
        self.positions = positions
    }

    func position(of name: String) -> Int? {
        positions[name] ?? positions[name.lowercased()]
    }

    /// The columns of each statement text, worked out once per process rather than for every result; apart for
    /// each dialect, whose tables may order their columns differently (a copy between them runs both at once).
    private static let known = Mutex<[SQLDialect: [String: SQLColumns]]>([:])

    /// The columns of `sql`'s results. Only for statements whose text says what they return: not for a cursor's
    /// `FETCH`, whose text is the same for any query. Columns known that no longer `fit` the result (a `SELECT *`
    /// of a table another process changed) are worked out anew.
    static func of(
        _ sql: String, _ dialect: SQLDialect = .sqlite, names: @autoclosure () -> [String],
        fit: (SQLColumns) -> Bool = { _ in true }
    ) -> SQLColumns {
        if let columns = known.withLock({ $0[dialect]?[sql] }), fit(columns) { return columns }
        let columns = SQLColumns(names())
        known.withLock { known in
            // Statement texts are a fixed set, give or take the few built from a command's options.
            if known[dialect, default: [:]].count > 2_000 { known[dialect] = [:] }
            known[dialect, default: [:]][sql] = columns
        }
        return columns
    }
}

/// One result row, read by position (fastest) or by column name.
package struct SQLRow: Sendable {
    package let values: [SQLValue]
    package let columns: SQLColumns

    package init(values: [SQLValue], columns: SQLColumns) {
        self.values = values
        self.columns = columns
    }

    package var count: Int { values.count }

    package subscript<T: SQLReadable>(_ index: Int) -> T {
        guard let value = T.read(values[index]) else {
            preconditionFailure("column \(columns.names[index]) holds \(values[index]), not \(T.self)")
        }
        return value
    }

    package subscript<T: SQLReadable>(_ name: String) -> T {
        guard let index = columns.position(of: name) else {
            preconditionFailure("no column \(name) in \(columns.names)")
        }
        return self[index]
    }
}

/// Which SQL the database speaks, where the two differ.
package enum SQLDialect: Sendable {
    case sqlite, postgres

    /// `column = ?`, ignoring case (facet names: SQLite's column is declared NOCASE).
    package func equalsIgnoringCase(_ column: String) -> String {
        self == .sqlite ? "\(column) = ?" : "lower(\(column)) = lower(?)"
    }

    /// The case-insensitive LIKE.
    package var like: String { self == .sqlite ? "LIKE" : "ILIKE" }

    /// A condition that `column` is one of the numbers in the JSON array bound to its `?`.
    package func inJSONArray(_ column: String) -> String {
        self == .sqlite
            ? "\(column) IN (SELECT value FROM json_each(?))"
            : "\(column) IN (SELECT value::bigint FROM json_array_elements_text(?::json))"
    }
}

/// A connection inside a transaction (or a read), whatever the backend. Its statements are awaited: PostgreSQL's
/// wait on the network without holding a thread, SQLite's run at once on the connection's thread.
package protocol SQLSession: AnyObject {
    var dialect: SQLDialect { get }
    /// How many rows the last statement run with `execute` changed.
    var changesCount: Int { get }
    /// Runs a statement; returns how many rows it changed.
    @discardableResult
    func execute(_ sql: String, _ arguments: SQLArguments) async throws -> Int
    func fetchAll(_ sql: String, _ arguments: SQLArguments) async throws -> [SQLRow]
    /// Sends a statement without waiting for its answer: on PostgreSQL it goes out at once and shares a round trip
    /// with the next statement waited for, which also reports its failure (at the latest, the commit).
    func prefetch(_ sql: String, _ arguments: SQLArguments) async throws -> SQLPending
    /// Hands each row to `body` as it is read, without holding the whole result.
    func forEach(_ sql: String, _ arguments: SQLArguments, _ body: (SQLRow) throws -> Void) async throws
    /// Keeps something read in this transaction for a later statement of the same transaction, which then need not
    /// read it again: on PostgreSQL a read a command is sure to need is sent with its first one. Whatever the
    /// transaction then writes forgets it. SQLite, whose reads cost no round trip, keeps nothing.
    func remember(_ key: String, _ value: any Sendable)
    /// What `remember(_:_:)` kept under this key in this transaction, if anything.
    func recall(_ key: String) -> (any Sendable)?
}

extension SQLSession {
    package func remember(_ key: String, _ value: any Sendable) {}
    package func recall(_ key: String) -> (any Sendable)? { nil }
}

/// A statement sent without waiting: its rows, read when needed.
package struct SQLPending: Sendable {
    let read: @Sendable () async throws -> [SQLRow]

    package func rows() async throws -> [SQLRow] { try await read() }

    /// The first column of the first row, as `SQLSession.value` reads it.
    package func value<T: SQLReadable>() async throws -> T? {
        guard let value = try await rows().first?.values.first, value != .null else { return nil }
        return T.read(value)
    }
}

extension SQLSession {
    @discardableResult
    package func execute(_ sql: String) async throws -> Int { try await execute(sql, []) }

    /// Runs a statement whose answer is not needed, sent without waiting (see `prefetch`).
    package func send(_ sql: String, _ arguments: SQLArguments) async throws {
        _ = try await prefetch(sql, arguments)
    }

    package func fetchAll(_ sql: String) async throws -> [SQLRow] { try await fetchAll(sql, []) }

    package func fetchOne(_ sql: String, _ arguments: SQLArguments = []) async throws -> SQLRow? {
        try await fetchAll(sql, arguments).first
    }

    /// The first column of the first row; nil when there is no row or it holds NULL.
    package func value<T: SQLReadable>(_ sql: String, _ arguments: SQLArguments = []) async throws -> T? {
        try await prefetch(sql, arguments).value()
    }

    /// The first column of every row, NULLs left out.
    package func values<T: SQLReadable>(_ sql: String, _ arguments: SQLArguments = []) async throws -> [T] {
        try await fetchAll(sql, arguments).compactMap { row in row.values.first.flatMap(T.read) }
    }
}
