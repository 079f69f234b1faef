import Foundation

/// A player's whole library and wishlist as a file: what `/export` links to and `ggtracker export` writes.
package struct LibraryExport: Sendable {
    package enum Format: String, CaseIterable, Sendable {
        case csv, json

        package var contentType: String {
            switch self {
            case .csv: "text/csv; charset=utf-8"
            case .json: "application/json"
            }
        }
    }

    package var player: Player
    /// The library, most recently changed first.
    package var entries: [LibraryEntry]
    /// The wishlist, most recently wished first.
    package var wishlist: [WishlistItem]
    package var exportedAt: Date

    package init(player: Player, entries: [LibraryEntry], wishlist: [WishlistItem], exportedAt: Date) {
        self.player = player
        self.entries = entries
        self.wishlist = wishlist
        self.exportedAt = exportedAt
    }

    package func data(_ format: Format) throws -> Data {
        switch format {
        case .csv: Data(csv().utf8)
        case .json: try json()
        }
    }

    /// One row per library entry (`shelf` library) and per wish (`shelf` wishlist). `game` is the catalog's
    /// reference (`igdb:26226`); `name` and `year` say which game it is to a reader or another catalog; tags are
    /// separated by commas, which a tag never holds; moments are ISO 8601 in UTC.
    package static let csvColumns = [
        "shelf", "game", "name", "year", "status", "hours", "percent", "score", "favorite", "tags", "note", "review",
        "review_spoiler", "added_at", "started_at", "finished_at",
    ]

    /// RFC 4180 CSV with a header line and CRLF line ends.
    package func csv() -> String {
        var lines = [Self.csvColumns.joined(separator: ",")]
        for entry in entries {
            lines.append(
                Self.csvLine([
                    "library", entry.game.ref.description, Self.inert(entry.game.name), Self.year(entry.game),
                    entry.status.rawValue, entry.hours.map(Self.number) ?? "", entry.percent.map(String.init) ?? "",
                    entry.score.map(String.init) ?? "", entry.favorite ? "true" : "false",
                    Self.inert(entry.tags.joined(separator: ", ")), Self.inert(entry.note ?? ""),
                    Self.inert(entry.review ?? ""),
                    entry.reviewIsSpoiler ? "true" : "false", Self.moment(entry.addedAt),
                    entry.startedAt.map(Self.moment) ?? "", entry.finishedAt.map(Self.moment) ?? "",
                ]))
        }
        for item in wishlist {
            lines.append(
                Self.csvLine([
                    "wishlist", item.game.ref.description, Self.inert(item.game.name), Self.year(item.game), "", "",
                    "", "",
                    "false", "", "", "", "false", Self.moment(item.addedAt), "", "",
                ]))
        }
        return lines.joined(separator: "\r\n") + "\r\n"
    }

    /// Text a spreadsheet would run as a formula (starting with `=`, `+`, `-`, `@`, a tab or a carriage return,
    /// after any apostrophes) gets one more apostrophe in front, which spreadsheets show as plain text; an import
    /// takes that apostrophe off again (`restored`), so the file reads back exactly.
    package static func inert(_ text: String) -> String { runsAsFormula(text) ? "'" + text : text }

    /// The text an `inert` field stood for.
    package static func restored(_ text: String) -> String {
        text.hasPrefix("'") && runsAsFormula(text) ? String(text.dropFirst()) : text
    }

    /// Whether the text, after any apostrophes, starts as a spreadsheet formula does.
    static func runsAsFormula(_ text: String) -> Bool {
        text.first(where: { $0 != "'" }).map { "=+-@\t\r".contains($0) } ?? false
    }

    /// A field is quoted when it holds a comma, a quote or a line break, its quotes doubled.
    static func csvLine(_ fields: [String]) -> String {
        fields.map { field in
            guard field.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return field }
            return "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\""
        }.joined(separator: ",")
    }

    /// The same as JSON: the player, then `library` and `wishlist` arrays of objects with the CSV's fields (absent
    /// values left out), keys sorted.
    package func json() throws -> Data {
        func game(_ game: Game) -> [String: Any] {
            var object: [String: Any] = ["ref": game.ref.description, "name": game.name]
            if let year = Int(Self.year(game)) { object["year"] = year }
            return object
        }
        let library: [[String: Any]] = entries.map { entry in
            var object: [String: Any] = [
                "game": game(entry.game), "status": entry.status.rawValue, "favorite": entry.favorite,
                "tags": entry.tags, "added_at": Self.moment(entry.addedAt),
            ]
            object["hours"] = entry.hours
            object["percent"] = entry.percent
            object["score"] = entry.score
            object["note"] = entry.note
            if let review = entry.review {
                object["review"] = review
                object["review_spoiler"] = entry.reviewIsSpoiler
            }
            object["started_at"] = entry.startedAt.map(Self.moment)
            object["finished_at"] = entry.finishedAt.map(Self.moment)
            return object
        }
        let wishes: [[String: Any]] = wishlist.map { ["game": game($0.game), "added_at": Self.moment($0.addedAt)] }
        var player: [String: Any] = ["id": self.player.id.rawValue, "name": self.player.displayName]
        player["nickname"] = self.player.nickname
        player["bio"] = self.player.bio
        let document: [String: Any] = [
            "format": "ggtracker-export", "version": 1, "exported_at": Self.moment(exportedAt), "player": player,
            "library": library, "wishlist": wishes,
        ]
        let data = try JSONSerialization.data(withJSONObject: document, options: [.sortedKeys, .prettyPrinted])
        // An empty list is written `[]`, not opened over blank lines: a raw line break is never inside a string.
        return Data(
            String(decoding: data, as: UTF8.self)
                .replacingOccurrences(of: #"\[\n\s*\]"#, with: "[]", options: .regularExpression).utf8)
    }

    static func year(_ game: Game) -> String { game.releaseDate.map { String(Calendar.utcYear(of: $0)) } ?? "" }

    /// Hours as typed: 12, 6.5.
    static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }

    /// `2026-11-23T09:00:00Z`.
    package static func moment(_ date: Date) -> String { date.formatted(.iso8601) }
}
