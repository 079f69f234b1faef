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
