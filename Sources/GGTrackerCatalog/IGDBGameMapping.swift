import Foundation
import GGTrackerCore
import GGTrackerStorage

/// Maps one game in IGDB's own `/v4/games` JSON shape (expanded fields) to a catalog record.
/// See https://api-docs.igdb.com/#game. Reference fields may be ids (ignored) or expanded objects.
package enum IGDBGameMapping {
    package struct Failure: Error, Equatable {
        package var message: String
    }

    package static func record(from object: [String: Any]) throws(Failure) -> CatalogRecord {
        try record(from: Fields(object))
    }

    package static func record(from fields: Fields) throws(Failure) -> CatalogRecord {
        guard let name = fields.name.map(trimmed), !name.isEmpty
        else {
            throw Failure(message: "a game needs a `name`")
        }
        let ref: GameRef
        if let id = fields.id ?? fields.igdbID {
            ref = GameRef(provider: "igdb", id: String(id))
        } else if let slug = fields.slug, !slug.isEmpty {
            ref = GameRef(provider: "local", id: slug)
        } else {
            throw Failure(message: "“\(name)” needs an `id` or a `slug`")
        }
        var game = Game(id: 0, ref: ref, name: name)
        game.slug = fields.slug
        game.summary = fields.summary.flatMap { $0.isEmpty ? nil : $0 }
        if let seconds = fields.firstReleaseDate ?? fields.releaseDate {
            game.releaseDate = Date(timeIntervalSince1970: seconds)
            // A release date known only to the year (IGDB date_format/category 2 = YYYY).
            let dates = fields.releaseDates as? [[String: Any]] ?? []
            game.releaseYearOnly =
                !dates.isEmpty
                && dates.allSatisfy { (int($0["date_format"]) ?? int($0["category"])) == 2 }
        }
        if let time = fields.timeToBeat as? [String: Any] {
            game.timeToBeat = timeToBeat(time)
        }
        game.genres = fields.genres
        game.platforms = fields.platforms
        game.modes = fields.modes
        game.themes = fields.themes
        game.engines = fields.engines
        for company in fields.companies {
            guard let name = company.name else { continue }
            if company.developer, !game.developers.contains(name) { game.developers.append(name) }
            if company.publisher, !game.publishers.contains(name) { game.publishers.append(name) }
        }
        // The flattened export shape: companies as plain names.
        for name in fields.developers where !game.developers.contains(name) { game.developers.append(name) }
        for name in fields.publishers where !game.publishers.contains(name) { game.publishers.append(name) }
        let aggregatedCount = fields.aggregatedRatingCount
        let totalCount = fields.totalRatingCount
        // A critic score only with the number of critics behind it (`total_rating` mixes in players' ratings).
        if let aggregated = fields.aggregatedRating, let aggregatedCount, aggregatedCount > 0 {
            game.criticRating = aggregated
            game.ratingCount = aggregatedCount
        }
        if let imageID = fields.coverImageID {
            game.coverImageID = imageID
        } else if let url = fields.coverURL {
            game.coverImageID = coverImageID(url: url)
        }
        // An edition, DLC or expansion with no age rating of its own is rated as its game.
        var ages = ageRating(fields.ageRatings)
        for parent in fields.parentAgeRatings where ages.label == nil { ages = ageRating(parent) }
        game.ageRating = ages.label
        game.isMature = ages.mature
        game.url = fields.url
        game.gameType = fields.gameType
        let updated = fields.updatedAt.map(Date.init(timeIntervalSince1970:))
        // Popularity: how many people rated it, on a log scale, with a nudge for rated main games.
        var popularity = 2 * log10(1 + Double(totalCount ?? 0)) + log10(1 + Double(aggregatedCount ?? 0))
        if game.criticRating != nil { popularity += 0.5 }
        if game.gameType == nil || game.gameType == "Main Game" { popularity += 0.3 }
        var record = CatalogRecord(
            game: game, keywords: TextNormalizer.keywords(for: name), popularity: popularity, updatedAt: updated)
        record.steamAppIDs = fields.externalGames + fields.externalIDs
        return record
    }

    /// Steam's app ids among a game's external ids: IGDB's `external_games` (source or legacy category 1 is
    /// Steam) or the flattened `external_ids` of the public dump, whose Steam entries are known by their store
    /// address (`https://store.steampowered.com/app/570`). None unless the value is an array of objects.
    static func steamAppIDs(_ value: Any?) -> [Int64] {
        guard let items = value as? [[String: Any]] else { return [] }
        var ids: [Int64] = []
        for item in items {
            let uid = item["uid"]
            let external = ExternalGame(
                source: int(item["external_game_source"]), category: int(item["category"]),
                store: item["store"] as? String, uidText: uid as? String, uidNumber: int(uid),
                url: item["url"] as? String)
            external.addSteamAppID(to: &ids)
        }
        return ids
    }

    /// The image id in a cover's address: the last part of its path up to its first dot
    /// (`//images.igdb.com/igdb/image/upload/t_thumb/co20gb.jpg` → `co20gb`).
    package static func coverImageID(url: String) -> String? {
        let bytes = url.utf8
        // Split by bytes: in ASCII a slash or a dot is always a character of its own.
        guard bytes.allSatisfy({ $0 < 0x80 }) else {
            return url.split(separator: "/").last?.split(separator: ".").first.map(String.init)
        }
        let slash = UInt8(ascii: "/")
        let dot = UInt8(ascii: ".")
        var end = bytes.endIndex
        while end > bytes.startIndex, bytes[bytes.index(before: end)] == slash { end = bytes.index(before: end) }
        var start = end
        while start > bytes.startIndex, bytes[bytes.index(before: start)] != slash {
            start = bytes.index(before: start)
        }
        while start < end, bytes[start] == dot { start = bytes.index(after: start) }
        let stop = bytes[start..<end].firstIndex(of: dot) ?? end
        return start < stop ? String(url[start..<stop]) : nil
    }

    /// What one of a game's external ids says, as read from its object: enough to tell a Steam app id.
    struct ExternalGame {
        var source: Int?
        var category: Int?
        var store: String?
        var uidText: String?
        var uidNumber: Int?
        var url: String?

        /// The Steam app id it names, if any (a positive one).
        var steamAppID: Int64? {
            let id: Int64?
            if (source ?? category) == 1 || store == "steam" {
                id = uidText.flatMap { Int64($0) } ?? uidNumber.map(Int64.init)
            } else if let url, let start = Self.afterSteamStore(in: url) {
                id = Int64(url[start...].prefix(while: \.isNumber))
            } else {
                id = nil
            }
            return id.flatMap { $0 > 0 ? $0 : nil }
        }

        /// Adds the Steam app id it names to `ids`, once.
        func addSteamAppID(to ids: inout [Int64]) {
            if let id = steamAppID, !ids.contains(id) { ids.append(id) }
        }

        static let steamStore = Array("store.steampowered.com/app/".utf8)

        /// Where the app id starts in a Steam store address, found by its bytes.
        static func afterSteamStore(in url: String) -> String.Index? {
            let utf8 = url.utf8
            var index = utf8.startIndex
            while let first = utf8[index...].firstIndex(of: steamStore[0]) {
                var end = first
                var matched = 0
                while matched < steamStore.count, end < utf8.endIndex, utf8[end] == steamStore[matched] {
                    matched += 1
                    end = utf8.index(after: end)
                }
                if matched == steamStore.count { return end }
                index = utf8.index(after: first)
            }
            return nil
        }
    }

    /// The text without surrounding white space; names nearly never have any, and then nothing is copied.
    static func trimmed(_ text: String) -> String {
        guard let first = text.unicodeScalars.first, let last = text.unicodeScalars.last,
            Self.mayBeWhitespace(first) || Self.mayBeWhitespace(last)
        else { return text }
        return text.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Whether a character may be white space: letters, digits and punctuation of ASCII are told apart without a
    /// look-up in Unicode's tables.
    static func mayBeWhitespace(_ scalar: Unicode.Scalar) -> Bool {
        !(0x21...0x7E).contains(scalar.value) && scalar.properties.isWhitespace
    }

    static func int(_ value: Any?) -> Int? {
        switch value {
        case let n as Int: n
        case let n as Double: Int(exactly: n.rounded())
        case let n as NSNumber: n.intValue
        default: nil
        }
    }

    static func double(_ value: Any?) -> Double? {
        switch value {
        case let n as Double: n
        case let n as Int: Double(n)
        case let n as NSNumber: n.doubleValue
        default: nil
        }
    }

    static func names(_ value: Any?) -> [String] {
        var out: [String] = []
        for item in value as? [Any] ?? [] {
            // `{"name": "Platform"}` as IGDB expands it, or the bare name of the flattened export shape.
            let name = item as? String ?? (item as? [String: Any])?["name"] as? String
            if let name, !name.isEmpty, !out.contains(name) { out.append(name) }
        }
        return out
    }

    // Legacy form: category 1 ESRB, 2 PEGI; rating 6 RP, 7 EC, 8 E, 9 E10+, 10 T, 11 M, 12 AO; 1–5 PEGI 3/7/12/16/18.
    static let legacyLabels: [Int: String] = [
        1: "PEGI 3", 2: "PEGI 7", 3: "PEGI 12", 4: "PEGI 16", 5: "PEGI 18", 6: "ESRB RP", 7: "ESRB EC", 8: "ESRB E",
        9: "ESRB E10+", 10: "ESRB T", 11: "ESRB M", 12: "ESRB AO",
    ]
    // Current form: organization 1 ESRB, 2 PEGI; rating_category ids of /age_rating_categories.
    static let categoryLabels: [Int: String] = [
        1: "ESRB RP", 2: "ESRB EC", 3: "ESRB E", 4: "ESRB E10+", 5: "ESRB T", 6: "ESRB M", 7: "ESRB AO", 8: "PEGI 3",
        9: "PEGI 7", 10: "PEGI 12", 11: "PEGI 16", 12: "PEGI 18",
    ]
    static let matureLabels: Set<String> = ["ESRB M", "ESRB AO", "PEGI 18"]

    /// The ESRB label when known (else PEGI), and whether any rating makes it mature.
    static func ageRating(_ value: Any?) -> (label: String?, mature: Bool) {
        var labels: [String] = []
        for item in value as? [[String: Any]] ?? [] {
            var label: String?
            if let category = item["rating_category"] {
                if let id = int(category) {
                    label = categoryLabels[id]
                } else if let object = category as? [String: Any], let rating = object["rating"] as? String {
                    let org =
                        (item["organization"] as? [String: Any])?["name"] as? String
                        ?? (int(item["organization"]) == 2 ? "PEGI" : "ESRB")
                    label = "\(org) \(rating)"
                }
            } else if let rating = int(item["rating"]) {
                label = legacyLabels[rating]
            }
            if let label { labels.append(label) }
        }
        let mature = labels.contains { matureLabels.contains($0) }
        return (labels.first { $0.hasPrefix("ESRB") } ?? labels.first, mature)
    }

    /// A `game_time_to_beats` row, or a game's `time_to_beat` object: seconds rushed, normal and complete (zero or
    /// missing is unknown).
    package static func timeToBeat(_ object: [String: Any]) -> TimeToBeat? {
        func seconds(_ key: String) -> Int? { int(object[key]).flatMap { $0 > 0 ? $0 : nil } }
        return TimeToBeat(hastily: seconds("hastily"), normally: seconds("normally"), completely: seconds("completely"))
    }
}
