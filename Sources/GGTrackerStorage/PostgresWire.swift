import Foundation
import PostgresNIO

/// What crosses the wire to and from the server: a statement's values bound, its rows read back into the values
/// statements give, and what an error the client library reports means.
enum PostgresWire {
    static func bindings(_ arguments: SQLArguments) -> PostgresBindings {
        var binds = PostgresBindings(capacity: arguments.values.count)
        for value in arguments.values {
            switch value {
            case .null: binds.appendNull()
            case .integer(let v): binds.append(v)
            case .real(let v): binds.append(v)
            case .text(let v): binds.append(v)
            case .blob(let v): binds.append(ByteBuffer(bytes: v))
            }
        }
        return binds
    }

    static let lostConnection = "the connection to the database was lost"

    static func describe(_ error: any Error) -> String {
        if let error = error as? PSQLError {
            if let message = error.serverInfo?[.message] { return message }
            switch error.code {
            case .connectionError, .serverClosedConnection, .clientClosedConnection, .uncleanShutdown:
                return lostConnection
            default: return "\(error.code)"
            }
        }
        if let error = error as? IOError { return error.description }
        return "\(error)"
    }

    /// What the server answered, when an error is the server's answer to a statement; nil when the connection
    /// failed instead.
    static func serverError(_ error: any Error) -> PostgresServerError? {
        if let error = error as? PSQLError, let state = error.serverInfo?[.sqlState] {
            return PostgresServerError(state: state, message: error.serverInfo?[.message] ?? "\(error.code)")
        }
        // Prepared statements report errors in the client library's older terms.
        if case .server(let info) = error as? PostgresError, let state = info.fields[.sqlState] {
            return PostgresServerError(state: state, message: info.fields[.message] ?? "\(info)")
        }
        return nil
    }

    /// SQL states worth running a transaction again for: a serialization failure and a deadlock.
    static let retriable: Set<String> = ["40001", "40P01"]

    /// A statement's rows, their column names worked out once per statement text (`sql`; nil for a text that does
    /// not say what it returns, a cursor's `FETCH`).
    static func rows(of result: PostgresSession.Answer, sql: String?) throws -> [SQLRow] {
        guard let first = result.rows.first else { return [] }
        let columns =
            sql.map { sql in
                SQLColumns.of(sql, .postgres, names: first.map(\.columnName)) { known in
                    // The server describes every result: the names are checked, not worked out.
                    known.names.count == first.count && zip(known.names, first).allSatisfy { $0 == $1.columnName }
                }
            } ?? SQLColumns(first.map(\.columnName))
        // The client library marks a prepared statement's cells as text, while it asks the server for every column
        // in binary, and the server sends them so.
        let prepared = result.prepared
        let width = columns.names.count
        return try result.rows.map { row in
            var values: [SQLValue] = []
            values.reserveCapacity(width)
            for cell in row { values.append(try Self.value(of: cell, binary: prepared || cell.format == .binary)) }
            return SQLRow(values: values, columns: columns)
        }
    }

    /// A cell's value. The common types in binary are read from their bytes as PostgreSQL writes them (big-endian
    /// integers and IEEE doubles, UTF-8 text); others go through the client library's decoding.
    static func value(of cell: PostgresCell, binary: Bool) throws -> SQLValue {
        guard let bytes = cell.bytes else { return .null }
        if binary {
            let start = bytes.readerIndex
            switch cell.dataType {
            case .int8 where bytes.readableBytes == 8: return .integer(bytes.getInteger(at: start, as: Int64.self)!)
            case .int4 where bytes.readableBytes == 4:
                return .integer(Int64(bytes.getInteger(at: start, as: Int32.self)!))
            case .int2 where bytes.readableBytes == 2:
                return .integer(Int64(bytes.getInteger(at: start, as: Int16.self)!))
            case .float8 where bytes.readableBytes == 8:
                return .real(Double(bitPattern: bytes.getInteger(at: start, as: UInt64.self)!))
            case .bool where bytes.readableBytes == 1:
                return .integer(bytes.getInteger(at: start, as: UInt8.self)! == 0 ? 0 : 1)
            case .text, .varchar: return .text(String(buffer: bytes))
            case .bytea: return .blob(Data(buffer: bytes))
            default: break
            }
        }
        var cell = cell
        if binary { cell.format = .binary }
        switch cell.dataType {
        case .int2, .int4, .int8, .oid: return .integer(try cell.decode(Int64.self))
        case .float4, .float8: return .real(try cell.decode(Double.self))
        case .numeric: return .real(NSDecimalNumber(decimal: try cell.decode(Decimal.self)).doubleValue)
        case .bool: return .integer(try cell.decode(Bool.self) ? 1 : 0)
        case .bytea: return .blob(Data(buffer: try cell.decode(ByteBuffer.self)))
        default: return .text(try cell.decode(String.self))
        }
    }
}
