import Foundation

/// A CSV record and the line it starts on.
struct CSVRow {
    var line: Int
    var fields: [String]
}

/// RFC 4180 CSV: fields quoted when they hold commas, quotes or line breaks, quotes doubled; CRLF or LF line ends;
/// a UTF-8 byte order mark is skipped. The fields are parted by commas, or by the semicolons or tabs the header
/// line has more of: a spreadsheet saves CSV with semicolons where a comma is the decimal point.
enum CSVReader {
    static func rows(_ data: Data) throws(ImportFileError) -> [CSVRow] {
        guard var text = String(data: data, encoding: .utf8) else {
            throw ImportFileError(line: 1, "the file is not UTF-8 text")
        }
        if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
        let separator = separator(of: text)
        let separatorName = separator == ";" ? "semicolon" : separator == "\t" ? "tab" : "comma"
        var rows: [CSVRow] = []
        var fields: [String] = []
        var field = ""
        var quoted = false
        var afterQuote = false
        var line = 1
        var rowLine = 1
        var scalars = text.unicodeScalars.makeIterator()
        var pending: Unicode.Scalar? = nil
        func next() -> Unicode.Scalar? {
            if let p = pending {
                pending = nil
                return p
            }
            return scalars.next()
        }
        func endRow() {
            fields.append(field)
            field = ""
            if !(fields.count == 1 && fields[0].isEmpty) { rows.append(CSVRow(line: rowLine, fields: fields)) }
            fields = []
        }
        while let c = next() {
            if quoted {
                if c == "\"" {
                    if let following = next() {
                        if following == "\"" {
                            field.unicodeScalars.append("\"")
                        } else {
                            quoted = false
                            afterQuote = true
                            pending = following
                        }
                    } else {
                        quoted = false
                        afterQuote = true
                    }
                } else if c == "\r" {
                    // A line break inside a field is kept as "\n", however the file ends its lines.
                    continue
                } else {
                    if c == "\n" { line += 1 }
                    field.unicodeScalars.append(c)
                }
                continue
            }
            switch c {
            case separator:
                fields.append(field)
                field = ""
                afterQuote = false
            case "\r":
                continue
            case "\n":
                endRow()
                afterQuote = false
                line += 1
                rowLine = line
            case "\"" where field.isEmpty && !afterQuote:
                quoted = true
            default:
                if afterQuote {
                    throw ImportFileError(
                        line: line, "a quoted field is followed by more text before the next \(separatorName)")
                }
                field.unicodeScalars.append(c)
            }
        }
        if quoted { throw ImportFileError(line: rowLine, "a quoted field is never closed") }
        if !field.isEmpty || !fields.isEmpty { endRow() }
        return rows
    }

    /// The comma, semicolon or tab that parts the first line's fields: the one it has most of outside quotes, a
    /// comma when it has none.
    private static func separator(of text: String) -> Unicode.Scalar {
        var counts: [Unicode.Scalar: Int] = [",": 0, ";": 0, "\t": 0]
        var quoted = false
        for c in text.unicodeScalars {
            if c == "\"" { quoted.toggle() }
            if quoted { continue }
            if c == "\n" { break }
            counts[c]? += 1
        }
        let most = ([",", ";", "\t"] as [Unicode.Scalar]).max { counts[$0]! < counts[$1]! }!
        return counts[most]! > counts[","]! ? most : ","
    }
}

/// The rows of a file under its header: fields by column name.
struct CSVTable {
    var columns: [String: Int]
    var rows: ArraySlice<CSVRow>

    init(header: CSVRow, rows: ArraySlice<CSVRow>, format: ImportFormat) throws(ImportFileError) {
        var columns: [String: Int] = [:]
        for (index, name) in header.fields.enumerated() {
            columns[name.trimmingCharacters(in: .whitespaces)] = columns[name] ?? index
        }
        let missing = format.required.subtracting(columns.keys).sorted()
        guard missing.isEmpty else {
            throw ImportFileError(
                line: header.line,
                "a \(format.label) export has the column\(missing.count == 1 ? "" : "s") \(missing.joined(separator: ", ")), which this file lacks"
            )
        }
        self.columns = columns
        self.rows = rows
        let width = header.fields.count
        for row in rows where row.fields.count != width {
            throw ImportFileError(line: row.line, "it has \(row.fields.count) fields where the header has \(width)")
        }
    }

    func map(_ transform: (Fields) throws(ImportFileError) -> ImportItem) throws(ImportFileError) -> [ImportItem] {
        var items: [ImportItem] = []
        for row in rows { items.append(try transform(Fields(row: row, columns: columns))) }
        return items
    }

    /// One row's fields by column name, trimmed; empty fields are nil.
    struct Fields {
        var row: CSVRow
        var columns: [String: Int]

        var line: Int { row.line }

        subscript(_ name: String) -> String? {
            guard let index = columns[name], index < row.fields.count else { return nil }
            let value = row.fields[index].trimmingCharacters(in: .whitespacesAndNewlines)
            return value.isEmpty ? nil : value
        }

        func fail(_ reason: String) -> ImportFileError { ImportFileError(line: line, reason) }

        func number(_ name: String, in range: ClosedRange<Double>) throws(ImportFileError) -> Double? {
            guard let text = self[name] else { return nil }
            // A decimal comma, as a spreadsheet writes it in many languages: "12,5".
            let decimal = text.filter { $0 == "," }.count == 1 && !text.contains(".")
            guard let value = Double(decimal ? text.replacingOccurrences(of: ",", with: ".") : text),
                range.contains(value)
            else {
                throw fail(
                    "\(name) “\(Format.truncate(text, 30))” is not a number from \(Int(range.lowerBound)) to \(Int(range.upperBound))"
                )
            }
            return value
        }

        func integer(_ name: String, in range: ClosedRange<Int>) throws(ImportFileError) -> Int? {
            guard let text = self[name] else { return nil }
            guard let value = Int(text), range.contains(value) else {
                throw fail(
                    "\(name) “\(Format.truncate(text, 30))” is not a whole number from \(range.lowerBound) to \(range.upperBound)"
                )
            }
            return value
        }

        func date(_ name: String) throws(ImportFileError) -> Date? {
            guard let text = self[name] else { return nil }
            guard let date = ImportDates.parse(text) else {
                if ImportDates.isAmbiguous(text) {
                    throw fail(
                        "\(name) “\(Format.truncate(text, 30))” could have its day or its month first; write it as 2024-02-09"
                    )
                }
                throw fail("\(name) “\(Format.truncate(text, 30))” is not a date")
            }
            return date
        }

        func flag(_ name: String) throws(ImportFileError) -> Bool {
            switch self[name]?.lowercased() {
            case nil, "false", "no", "0": return false
            case "true", "yes", "1", "x": return true
            case let other?: throw fail("\(name) “\(Format.truncate(other, 30))” is not true or false")
            }
        }

        /// Text the bot keeps (notes, reviews), within the length its commands allow.
        func text(_ name: String, max: Int) throws(ImportFileError) -> String? {
            guard let text = self[name] else { return nil }
            guard Format.length(text) <= max else {
                throw fail("\(name) is \(Format.length(text)) characters long; at most \(max) are kept")
            }
            return text
        }
    }
}

/// Dates as exports write them: ISO 8601 moments, `2024-02-09 15:54:48`, `2024-02-09`; and as a spreadsheet saves
/// them again: `09.02.2024 15:54` (the day first), `09/02/2024` or `02/09/2024` when a number over 12 tells the day
/// from the month. All read as UTC.
enum ImportDates {
    static func parse(_ text: String) -> Date? {
        if let date = try? Date(text, strategy: .iso8601) { return date }
        let parts = text.split(whereSeparator: { $0 == " " || $0 == "T" })
        guard let day = parts.first, let ymd = yearMonthDay(day) else { return nil }
        guard (1...12).contains(ymd[1]), (1...31).contains(ymd[2]) else { return nil }
        var components = DateComponents(year: ymd[0], month: ymd[1], day: ymd[2])
        if parts.count > 1 {
            let hms = parts[1].prefix(8).split(separator: ":").compactMap { Int($0) }
            guard hms.count >= 2 else { return nil }
            components.hour = hms[0]
            components.minute = hms[1]
            components.second = hms.count > 2 ? hms[2] : 0
        }
        return Calendar.utc.date(from: components)
    }

    /// A day written with slashes whose day and month could be either way round: `03/04/2024`.
    static func isAmbiguous(_ text: String) -> Bool {
        guard let day = text.split(separator: " ").first, let n = numbers(day, by: "/") else { return false }
        return n[2] > 31 && (1...12).contains(n[0]) && (1...12).contains(n[1]) && n[0] != n[1]
    }

    /// Year, month and day of `2024-02-09`, `09.02.2024`, or `09/02/2024` and `02/09/2024` when they can be told.
    private static func yearMonthDay(_ day: Substring) -> [Int]? {
        if let n = numbers(day, by: "-") { return n }
        if let n = numbers(day, by: "."), n[2] > 31 { return [n[2], n[1], n[0]] }
        guard let n = numbers(day, by: "/"), n[2] > 31 else { return nil }  // a year last, written whole
        if n[0] > 12 { return [n[2], n[1], n[0]] }
        if n[1] > 12 || n[0] == n[1] { return [n[2], n[0], n[1]] }
        return nil
    }

    /// The three whole numbers `separator` parts the day into; nil for anything else.
    private static func numbers(_ day: Substring, by separator: Character) -> [Int]? {
        let parts = day.split(separator: separator, omittingEmptySubsequences: false)
        let numbers = parts.compactMap { Int($0) }
        return parts.count == 3 && numbers.count == 3 ? numbers : nil
    }
}
