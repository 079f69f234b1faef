import Foundation
import GRDB
import GRDBSQLite

/// A session on a GRDB connection: statements are prepared once per connection and reused.
final class SQLiteSession: SQLSession {
    let db: Database
    var dialect: SQLDialect { .sqlite }
    var changesCount: Int { db.changesCount }

    init(_ db: Database) { self.db = db }

    static func arguments(_ arguments: SQLArguments) -> StatementArguments {
        StatementArguments(
            arguments.values.map { value -> DatabaseValue in
                switch value {
                case .null: .null
                case .integer(let v): v.databaseValue
                case .real(let v): v.databaseValue
                case .text(let v): v.databaseValue
                case .blob(let v): v.databaseValue
                }
            })
    }

    func execute(_ sql: String, _ arguments: SQLArguments) async throws -> Int {
        try db.cachedStatement(sql: sql).execute(arguments: Self.arguments(arguments))
        return db.changesCount
    }

    func fetchAll(_ sql: String, _ arguments: SQLArguments) async throws -> [SQLRow] {
        var rows: [SQLRow] = []
        try step(sql, arguments) { rows.append($0) }
        return rows
    }

    func prefetch(_ sql: String, _ arguments: SQLArguments) async throws -> SQLPending {
        let rows = try await fetchAll(sql, arguments)
        return SQLPending { rows }
    }

    func forEach(_ sql: String, _ arguments: SQLArguments, _ body: (SQLRow) throws -> Void) async throws {
        try step(sql, arguments, body)
    }

    /// Steps the statement with SQLite's own calls, reading each column straight into an `SQLValue`: GRDB's row
    /// cursor would add an object per result and a generic decoding per column.
    private func step(_ sql: String, _ arguments: SQLArguments, _ body: (SQLRow) throws -> Void) throws {
        let statement = try db.cachedStatement(sql: sql)
        let columns = SQLColumns.of(sql, names: statement.columnNames)
        let width = Int32(columns.names.count)
        // The statement must outlive every use of its handle, and is left reset for its next use.
        try withExtendedLifetime(statement) {
            let handle = statement.sqliteStatement
            // GRDB leaves a statement it ran to be reset before its next use: arguments bind only once it is.
            sqlite3_reset(handle)
            defer { sqlite3_reset(handle) }
            try bind(arguments, to: handle, sql: sql)
            while true {
                let code = sqlite3_step(handle)
                if code == SQLITE_DONE { return }
                guard code == SQLITE_ROW else { throw Self.failure(code, in: db, sql: sql) }
                var values: [SQLValue] = []
                values.reserveCapacity(Int(width))
                for index in 0..<width {
                    values.append(Self.value(handle, index))
                }
                try body(SQLRow(values: values, columns: columns))
            }
        }
    }

    /// Binds the arguments with SQLite's own calls (GRDB would box each one first); SQLite copies text and blobs.
    private func bind(_ arguments: SQLArguments, to handle: OpaquePointer, sql: String) throws {
        guard Int(sqlite3_bind_parameter_count(handle)) == arguments.values.count else {
            throw DatabaseError(
                resultCode: .SQLITE_MISUSE,
                message: "\(arguments.values.count) arguments for \(sqlite3_bind_parameter_count(handle)) parameters",
                sql: sql)
        }
        let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
        for (offset, value) in arguments.values.enumerated() {
            let index = Int32(offset + 1)
            let code: Int32
            switch value {
            case .null: code = sqlite3_bind_null(handle, index)
            case .integer(let v): code = sqlite3_bind_int64(handle, index, v)
            case .real(let v): code = sqlite3_bind_double(handle, index, v)
            case .text(let v):
                // An empty buffer may have no address, which SQLite would bind as NULL.
                var text = v
                code = text.withUTF8 { utf8 in
                    guard let start = utf8.baseAddress else {
                        return sqlite3_bind_text(handle, index, "", 0, transient)
                    }
                    return sqlite3_bind_text(handle, index, start, Int32(utf8.count), transient)
                }
            case .blob(let v):
                code = v.withUnsafeBytes { bytes in
                    guard let start = bytes.baseAddress, !bytes.isEmpty else {
                        return sqlite3_bind_zeroblob(handle, index, 0)
                    }
                    return sqlite3_bind_blob(handle, index, start, Int32(bytes.count), transient)
                }
            }
            guard code == SQLITE_OK else { throw Self.failure(code, in: db, sql: sql) }
        }
    }

    /// The error of a statement stepped with SQLite's own calls, as GRDB reports one.
    static func failure(_ code: Int32, in db: Database, sql: String? = nil) -> DatabaseError {
        DatabaseError(
            resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(db.sqliteConnection)),
            sql: sql)
    }

    private static func value(_ handle: OpaquePointer, _ index: Int32) -> SQLValue {
        switch sqlite3_column_type(handle, index) {
        case SQLITE_NULL:
            return .null
        case SQLITE_INTEGER:
            return .integer(sqlite3_column_int64(handle, index))
        case SQLITE_FLOAT:
            return .real(sqlite3_column_double(handle, index))
        case SQLITE_TEXT:
            let count = Int(sqlite3_column_bytes(handle, index))
            guard let text = sqlite3_column_text(handle, index) else { return .text("") }
            return .text(String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self))
        default:
            let count = Int(sqlite3_column_bytes(handle, index))
            guard let blob = sqlite3_column_blob(handle, index) else { return .blob(Data()) }
            return .blob(Data(bytes: blob, count: count))
        }
    }
}

extension Array {
    /// The array in pieces of at most `size` elements, in order.
    func chunked(_ size: Int) -> [ArraySlice<Element>] {
        stride(from: 0, to: count, by: size).map { self[$0..<Swift.min($0 + size, count)] }
    }
}
