import Foundation

/// GGTracker's own export (`/export`): what it wrote is read back exactly.
enum GGTrackerCSV {
    static func item(_ f: CSVTable.Fields) throws(ImportFileError) -> ImportItem {
        guard let name = f["name"].map(LibraryExport.restored) else { throw f.fail("a game needs a name") }
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
        item.tags = try tags(f["tags"].map(LibraryExport.restored), f)
        item.note = try f.text("note", max: 1000).map(LibraryExport.restored)
        item.review = try f.text("review", max: 4000).map(LibraryExport.restored)
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
    static func item(_ f: CSVTable.Fields) throws(ImportFileError) -> ImportItem {
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

    static func item(_ f: CSVTable.Fields) throws(ImportFileError) -> ImportItem {
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
