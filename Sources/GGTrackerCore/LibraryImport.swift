import Foundation

/// One game of a library brought in from elsewhere (a Steam account, a CSV export), before it is matched to the
/// catalog: how it is named there and what the player kept about it.
package struct ImportItem: Hashable, Sendable {
    package enum Shelf: String, Sendable {
        case library, wishlist
    }

    /// Where it came from: the file's line, or the position in Steam's list.
    package var line: Int
    package var name: String
    package var year: Int?
    /// A catalog reference (`igdb:1942`), from GGTracker's own export.
    package var ref: GameRef?
    package var steamAppID: Int64?
    package var shelf: Shelf = .library
    /// nil: `playing` with hours played, else `backlog`.
    package var status: GameStatus?
    package var hours: Double?
    package var percent: Int?
    package var score: Int?
    package var favorite = false
    package var tags: [String] = []
    package var note: String?
    package var review: String?
    package var reviewIsSpoiler = false
    package var addedAt: Date?
    package var startedAt: Date?
    package var finishedAt: Date?

    package init(line: Int, name: String) {
        self.line = line
        self.name = name
    }

    /// What an import did with one game.
    package enum Outcome: Sendable {
        case added, updated, already
    }

    /// The entry once this item is brought in: a new one, or `existing` with only what it lacks filled in. What
    /// the player wrote (status, score, review, tags, note) is never replaced; hours and percent only go up.
    package func merged(into existing: LibraryEntry?, game: Game, at now: Date) -> (LibraryEntry, Outcome) {
        guard let existing else {
            let status = status ?? ((hours ?? 0) > 0 ? .playing : .backlog)
            var entry = LibraryEntry(game: game, status: status, at: addedAt ?? now)
            entry.hours = hours.flatMap { $0 > 0 ? $0 : nil }
            entry.percent = percent
            entry.score = score
            entry.favorite = favorite
            entry.tags = tags
            entry.note = note
            if let review {
                entry.review = review
                entry.reviewIsSpoiler = reviewIsSpoiler
                entry.reviewedAt = finishedAt ?? now
            }
            if let startedAt { entry.startedAt = startedAt }
            if let finishedAt { entry.finishedAt = finishedAt }
            entry.updatedAt = now
            return (entry, .added)
        }
        var entry = existing
        if let hours, hours > (entry.hours ?? 0) { entry.hours = hours }
        if let percent, percent > (entry.percent ?? -1) { entry.percent = percent }
        if entry.score == nil { entry.score = score }
        if entry.review == nil, let review {
            entry.review = review
            entry.reviewIsSpoiler = reviewIsSpoiler
            entry.reviewedAt = finishedAt ?? now
        }
        if entry.note == nil { entry.note = note }
        if entry.tags.isEmpty { entry.tags = tags }
        if favorite { entry.favorite = true }
        if entry.startedAt == nil { entry.startedAt = startedAt }
        if entry.finishedAt == nil { entry.finishedAt = finishedAt }
        guard entry != existing else { return (existing, .already) }
        entry.updatedAt = now
        return (entry, .updated)
    }
}

/// The catalog's game for an imported item, or, when none matches, the closest names (for the first few).
package enum ImportMatch: Sendable {
    case game(Game)
    case none(suggestions: [Game])

    package var game: Game? {
        if case .game(let game) = self { return game }
        return nil
    }
}

/// What an import did: games added (to the library or the wishlist), games that got something they lacked, games
/// already there as the import has them.
package struct ImportCounts: Equatable, Sendable {
    package var added = 0
    package var updated = 0
    package var already = 0
    package init() {}
}

/// A file an import cannot read: the line and the reason. Nothing of such a file is stored.
package struct ImportFileError: Error, Equatable, Sendable, CustomStringConvertible {
    package var line: Int
    package var reason: String

    package init(line: Int, _ reason: String) {
        self.line = line
        self.reason = reason
    }

    package var description: String { "line \(line): \(reason)" }
}

/// The CSV exports an import reads.
package enum ImportFormat: String, CaseIterable, Sendable {
    case auto, grouvee, hltb, ggtracker

    package var label: String {
        switch self {
        case .auto: "automatic"
        case .grouvee: "Grouvee"
        case .hltb: "HowLongToBeat"
        case .ggtracker: "GGTracker"
        }
    }

    /// The largest file an import takes.
    package static let maxBytes = 5 << 20

    /// Reads a file in this format (`auto`: the one its header says) into items, or names the first line it
    /// cannot use.
    package func items(from data: Data) throws(ImportFileError) -> (ImportFormat, [ImportItem]) {
        guard data.count <= Self.maxBytes else {
            throw ImportFileError(line: 0, "the file is larger than 5 MB")
        }
        let rows = try CSVReader.rows(data)
        guard let header = rows.first else { throw ImportFileError(line: 1, "the file is empty") }
        let format = self == .auto ? try Self.detect(header.fields) : self
        let table = try CSVTable(header: header, rows: rows.dropFirst(), format: format)
        switch format {
        case .ggtracker: return (format, try table.map(GGTrackerCSV.item))
        case .grouvee: return (format, try table.map(GrouveeCSV.item))
        case .hltb: return (format, try table.map(HLTBCSV.item))
        case .auto: preconditionFailure("detect names a format")
        }
    }

    /// Which export a header line belongs to.
    static func detect(_ header: [String]) throws(ImportFileError) -> ImportFormat {
        let names = Set(header.map { $0.trimmingCharacters(in: .whitespaces) })
        for format in [ImportFormat.ggtracker, .grouvee, .hltb] where format.required.isSubset(of: names) {
            return format
        }
        throw ImportFileError(
            line: 1,
            "this is not a Grouvee, HowLongToBeat or GGTracker CSV export (its first line has \(Format.truncate(header.prefix(6).joined(separator: ", "), 120)))"
        )
    }

    /// The columns a file of this format must have.
    var required: Set<String> {
        switch self {
        case .ggtracker: ["shelf", "game", "name", "status", "hours", "score", "tags", "note", "review"]
        case .grouvee: ["id", "name", "shelves", "rating", "review", "dates", "release_date", "giantbomb_id"]
        case .hltb: ["Title", "Playing", "Backlog", "Completed", "Retired", "Progress", "Main Story", "Review"]
        case .auto: []
        }
    }
}

/// A CSV record and the line it starts on.
struct CSVRow {
    var line: Int
    var fields: [String]
}

/// RFC 4180 CSV: fields quoted when they hold commas, quotes or line breaks, quotes doubled; CRLF or LF line ends;
/// a UTF-8 byte order mark is skipped.
enum CSVReader {
    static func rows(_ data: Data) throws(ImportFileError) -> [CSVRow] {
        guard var text = String(data: data, encoding: .utf8) else {
            throw ImportFileError(line: 1, "the file is not UTF-8 text")
        }
        if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
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
            case ",":
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
                    throw ImportFileError(line: line, "a quoted field is followed by more text before the next comma")
                }
                field.unicodeScalars.append(c)
            }
        }
        if quoted { throw ImportFileError(line: rowLine, "a quoted field is never closed") }
        if !field.isEmpty || !fields.isEmpty { endRow() }
        return rows
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

    func map(_ transform: (Fields) throws(ImportFileError) -> ImportItem?) throws(ImportFileError) -> [ImportItem] {
        var items: [ImportItem] = []
        for row in rows {
            if let item = try transform(Fields(row: row, columns: columns)) { items.append(item) }
        }
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
            guard let value = Double(text), range.contains(value) else {
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

/// Dates as exports write them: ISO 8601 moments, `2024-02-09 15:54:48`, `2024-02-09`, all read as UTC.
enum ImportDates {
    static func parse(_ text: String) -> Date? {
        if let date = try? Date(text, strategy: .iso8601) { return date }
        let parts = text.split(whereSeparator: { $0 == " " || $0 == "T" })
        guard let day = parts.first else { return nil }
        let ymd = day.split(separator: "-").compactMap { Int($0) }
        guard ymd.count == 3, (1...12).contains(ymd[1]), (1...31).contains(ymd[2]) else { return nil }
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
}

/// GGTracker's own export (`/export`): what it wrote is read back exactly.
enum GGTrackerCSV {
    static func item(_ f: CSVTable.Fields) throws(ImportFileError) -> ImportItem? {
        guard let name = f["name"] else { throw f.fail("a game needs a name") }
        var item = ImportItem(line: f.line, name: name)
        item.ref = f["game"].flatMap(GameRef.init)
        item.year = try f.integer("year", in: 1950...2100)
        switch f["shelf"] ?? "library" {
        case "wishlist":
            item.shelf = .wishlist
            item.addedAt = try f.date("added_at")
            return item
        case "library": break
        case let other: throw f.fail("shelf “\(Format.truncate(other, 30))” is neither library nor wishlist")
        }
        if let status = f["status"] {
            guard let known = GameStatus(rawValue: status) else {
                throw f.fail(
                    "status “\(Format.truncate(status, 30))” is not one of \(GameStatus.allCases.map(\.rawValue).joined(separator: ", "))"
                )
            }
            item.status = known
        } else {
            item.status = .backlog
        }
        item.hours = try f.number("hours", in: 0...20_000)
        item.percent = try f.integer("percent", in: 0...100)
        item.score = try f.integer("score", in: 1...10)
        item.favorite = try f.flag("favorite")
        item.tags = try tags(f["tags"], f)
        item.note = try f.text("note", max: 1000)
        item.review = try f.text("review", max: 4000)
        item.reviewIsSpoiler = try f.flag("review_spoiler")
        item.addedAt = try f.date("added_at")
        item.startedAt = try f.date("started_at")
        item.finishedAt = try f.date("finished_at")
        return item
    }

    /// Tags separated by commas, as `/tag` takes them.
    static func tags(_ text: String?, _ f: CSVTable.Fields) throws(ImportFileError) -> [String] {
        var tags: [String] = []
        for piece in (text ?? "").split(separator: ",") {
            let tag = piece.trimmingCharacters(in: .whitespaces).lowercased()
            guard !tag.isEmpty, !tags.contains(tag) else { continue }
            guard Format.length(tag) <= BotCommand.maxTagLength else {
                throw f.fail(
                    "the tag “\(Format.truncate(tag, 40))” is longer than \(BotCommand.maxTagLength) characters")
            }
            tags.append(tag)
        }
        guard tags.count <= BotCommand.maxTags else {
            throw f.fail("a game has at most \(BotCommand.maxTags) tags; this one has \(tags.count)")
        }
        return tags
    }
}

/// Grouvee's export: `id,name,shelves,platforms,rating,review,dates,statuses,genres,franchises,developers,
/// publishers,release_date,url,giantbomb_id`, with shelves and play dates as JSON inside their fields.
enum GrouveeCSV {
    static func item(_ f: CSVTable.Fields) throws(ImportFileError) -> ImportItem? {
        guard let name = f["name"] else { throw f.fail("a game needs a name") }
        var item = ImportItem(line: f.line, name: name)
        item.year = try f.date("release_date").map { Calendar.utcYear(of: $0) }
        // Shelves: {"Played": {"date_added": "2017-01-31T14:30:39Z", "url": "…"}, …}
        let shelves = try json(f["shelves"], "shelves", f) as? [String: Any] ?? [:]
        let added = shelves.values.compactMap {
            (($0 as? [String: Any])?["date_added"] as? String).flatMap(ImportDates.parse)
        }
        item.addedAt = added.min()
        let names = Set(shelves.keys)
        if names.contains("Played") {
            item.status = .completed
        } else if names.contains("Playing") {
            item.status = .playing
        } else if names.contains("Backlog") {
            item.status = .backlog
        } else if names.contains("Wish List") || names.contains("Wishlist") {
            item.shelf = .wishlist
            return item
        } else {
            item.status = .backlog
        }
        if let rating = try f.number("rating", in: 0...5), rating > 0 { item.score = Int((rating * 2).rounded()) }
        item.review = try f.text("review", max: 4000)
        // Play-throughs: [{"date_started": "2019-01-02", "date_finished": "2019-02-03", "seconds_played": 36000, …}]
        let plays = try json(f["dates"], "dates", f) as? [[String: Any]] ?? []
        let seconds = plays.compactMap { ($0["seconds_played"] as? NSNumber)?.doubleValue }.reduce(0, +)
        if seconds > 0 { item.hours = (seconds / 360).rounded() / 10 }
        item.startedAt = plays.compactMap { ($0["date_started"] as? String).flatMap(ImportDates.parse) }.min()
        item.finishedAt = plays.compactMap { ($0["date_finished"] as? String).flatMap(ImportDates.parse) }.max()
        return item
    }

    static func json(_ text: String?, _ column: String, _ f: CSVTable.Fields) throws(ImportFileError) -> Any? {
        guard let text else { return nil }
        guard let value = try? JSONSerialization.jsonObject(with: Data(text.utf8)) else {
            throw f.fail("\(column) is not the JSON a Grouvee export holds there")
        }
        return value
    }
}

/// HowLongToBeat's export: one row per play-through, `X` in the list's column (Playing, Backlog, Replay,
/// Completed, Retired), times as `h:mm:ss` or `--`, a review score out of 100.
enum HLTBCSV {
    static let timeColumns = ["Progress", "Main Story", "Main + Extras", "Completionist", "Speed Any%", "Speed 100%"]

    static func item(_ f: CSVTable.Fields) throws(ImportFileError) -> ImportItem? {
        guard let name = f["Title"] else { throw f.fail("a game needs a title") }
        var item = ImportItem(line: f.line, name: name)
        let playing = try f.flag("Playing")
        let replay = try f.flag("Replay")
        if try f.flag("Completed") {
            item.status = .completed
        } else if playing || replay {
            item.status = .playing
        } else if try f.flag("Retired") {
            item.status = .dropped
        } else {
            item.status = .backlog
        }
        var longest = 0.0
        for column in timeColumns {
            guard let text = f[column], text != "--" else { continue }
            guard let seconds = duration(text) else {
                throw f.fail("\(column) “\(Format.truncate(text, 30))” is not a time")
            }
            longest = max(longest, seconds)
        }
        if longest > 0 { item.hours = (longest / 360).rounded() / 10 }
        if let score = try f.integer("Review", in: 0...100), score > 0 {
            item.score = max(1, Int((Double(score) / 10).rounded()))
        }
        item.review = try f.text("Review Notes", max: 4000)
        item.note = try f.text("General Notes", max: 1000)
        item.startedAt = try f.date("Start Date")
        item.finishedAt = try f.date("Completion Date")
        item.addedAt = try f.date("Added")
        return item
    }

    /// `8:35:30`, `46:30` or `32` (hours, minutes, seconds from the right) in seconds.
    static func duration(_ text: String) -> Double? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false).map { Int($0) }
        guard (1...3).contains(parts.count), parts.allSatisfy({ $0 != nil && $0! >= 0 }) else { return nil }
        return parts.reduce(0.0) { $0 * 60 + Double($1!) }
    }
}
