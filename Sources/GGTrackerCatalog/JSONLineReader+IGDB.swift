import Foundation

extension JSONLineReader {
    /// Reads a game in IGDB's JSON shape straight into the fields `IGDBGameMapping` uses, without building a
    /// dictionary: the values are those `IGDBGameMapping.Fields(object(line))` would hold, and what is not one JSON
    /// object is refused in the same way. Fields the mapping does not read are checked and skipped.
    package func igdbFields(_ data: Data) throws(Malformed) -> IGDBGameMapping.Fields {
        try Self.document(data) { cursor throws(Malformed) in try cursor.igdbFields() }
    }
}

/// The mapping's keys by their length in bytes, to match a key without making a string of it.
private let keysByLength: [[(key: IGDBGameMapping.Key, bytes: [UInt8])]] = {
    var table = [[(key: IGDBGameMapping.Key, bytes: [UInt8])]](repeating: [], count: 32)
    for key in IGDBGameMapping.Key.allCases { table[key.rawValue.utf8.count].append((key, Array(key.rawValue.utf8))) }
    return table
}()

extension JSONLineReader.Cursor {
    typealias Fields = IGDBGameMapping.Fields

    mutating func igdbFields() throws(JSONLineReader.Malformed) -> Fields {
        var fields = Fields()
        try members { cursor, key throws(JSONLineReader.Malformed) in
            guard let key = cursor.mappingKey(key) else {
                _ = try cursor.value()
                return
            }
            cursor.skipSpace()
            switch key {
            case .id: fields.id = try cursor.integer()
            case .igdbID: fields.igdbID = try cursor.integer()
            case .aggregatedRatingCount: fields.aggregatedRatingCount = try cursor.integer()
            case .totalRatingCount: fields.totalRatingCount = try cursor.integer()
            case .firstReleaseDate: fields.firstReleaseDate = try cursor.real()
            case .releaseDate: fields.releaseDate = try cursor.real()
            case .updatedAt: fields.updatedAt = try cursor.real()
            case .aggregatedRating: fields.aggregatedRating = try cursor.real()
            case .name: fields.name = try cursor.text()
            case .slug: fields.slug = try cursor.text()
            case .summary: fields.summary = try cursor.text()
            case .url: fields.url = try cursor.text()
            case .coverURL: fields.coverURL = try cursor.text()
            case .genres: fields.genres = try cursor.names()
            case .platforms: fields.platforms = try cursor.names()
            case .modes: fields.modes = try cursor.names()
            case .themes: fields.themes = try cursor.names()
            case .engines: fields.engines = try cursor.names()
            case .developers: fields.developers = try cursor.names()
            case .publishers: fields.publishers = try cursor.names()
            case .involvedCompanies: fields.companies = try cursor.companies()
            case .cover: fields.coverImageID = try cursor.text(in: "image_id")
            case .gameType: fields.gameType = try cursor.text(in: "type")
            case .releaseDates, .timeToBeat, .ageRatings, .externalGames, .externalIDs:
                fields.set(key, try cursor.value())
            }
        }
        return fields
    }

    func mappingKey(_ key: Key) -> IGDBGameMapping.Key? {
        switch key {
        case .text(let text): return IGDBGameMapping.Key(rawValue: text)
        case .bytes(let range):
            guard range.count < keysByLength.count else { return nil }
            let start = bytes.baseAddress! + range.lowerBound
            for candidate in keysByLength[range.count]
            where candidate.bytes.withUnsafeBytes({ memcmp(start, $0.baseAddress!, range.count) }) == 0 {
                return candidate.key
            }
            return nil
        }
    }

    /// A number read as `IGDBGameMapping.int` reads it; nil for any other value.
    mutating func integer() throws(JSONLineReader.Malformed) -> Int? {
        guard atNumber else { return try null() ? nil : IGDBGameMapping.int(try value()) }
        switch try numberValue() {
        case .integer(let integer): return integer
        case .real(let real): return Int(exactly: real.rounded())
        }
    }

    /// A number read as `IGDBGameMapping.double` reads it; nil for any other value.
    mutating func real() throws(JSONLineReader.Malformed) -> Double? {
        guard atNumber else { return try null() ? nil : IGDBGameMapping.double(try value()) }
        switch try numberValue() {
        case .integer(let integer): return Double(integer)
        case .real(let real): return real
        }
    }

    /// A string; nil for any other value.
    mutating func text() throws(JSONLineReader.Malformed) -> String? {
        if peek == UInt8(ascii: "\"") { return try string() }
        if try null() { return nil }
        return try value() as? String
    }

    /// The string under `key` of an object (its last one); nil when the value is not an object or has none.
    mutating func text(in key: StaticString) throws(JSONLineReader.Malformed) -> String? {
        guard peek == UInt8(ascii: "{") else {
            _ = try value()
            return nil
        }
        var found: String?
        try members { cursor, member throws(JSONLineReader.Malformed) in
            if cursor.key(member, is: key) {
                cursor.skipSpace()
                found = try cursor.text()
            } else {
                _ = try cursor.value()
            }
        }
        return found
    }

    /// Names as `IGDBGameMapping.names` reads them: strings, or objects' `name`; empty ones and repeats left out.
    mutating func names() throws(JSONLineReader.Malformed) -> [String] {
        guard peek == UInt8(ascii: "[") else { return IGDBGameMapping.names(try value()) }
        var out: [String] = []
        try elements { cursor throws(JSONLineReader.Malformed) in
            cursor.skipSpace()
            let name: String?
            switch cursor.peek {
            case UInt8(ascii: "\""): name = try cursor.string()
            case UInt8(ascii: "{"): name = try cursor.text(in: "name")
            default:
                _ = try cursor.value()
                name = nil
            }
            if let name, !name.isEmpty, !out.contains(name) { out.append(name) }
        }
        return out
    }

    /// `involved_companies`: none unless it is an array of objects.
    mutating func companies() throws(JSONLineReader.Malformed) -> [Fields.Company] {
        guard peek == UInt8(ascii: "[") else {
            _ = try value()
            return []
        }
        var out: [Fields.Company] = []
        var allObjects = true
        try elements { cursor throws(JSONLineReader.Malformed) in
            cursor.skipSpace()
            guard cursor.peek == UInt8(ascii: "{") else {
                _ = try cursor.value()
                allObjects = false
                return
            }
            var company = Fields.Company()
            try cursor.members { cursor, member throws(JSONLineReader.Malformed) in
                cursor.skipSpace()
                if cursor.key(member, is: "company") {
                    company.name = try cursor.text(in: "name")
                } else if cursor.key(member, is: "developer") {
                    company.developer = try cursor.isTrue()
                } else if cursor.key(member, is: "publisher") {
                    company.publisher = try cursor.isTrue()
                } else {
                    _ = try cursor.value()
                }
            }
            out.append(company)
        }
        return allObjects ? out : []
    }

    /// Whether a number starts here.
    var atNumber: Bool {
        guard let byte = peek else { return false }
        return byte == UInt8(ascii: "-") || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
    }

    /// Reads `null` when it is next.
    mutating func null() throws(JSONLineReader.Malformed) -> Bool {
        guard peek == UInt8(ascii: "n") else { return false }
        try literal("null")
        return true
    }

    /// Whether the value is `true`.
    mutating func isTrue() throws(JSONLineReader.Malformed) -> Bool {
        try value() as? Bool == true
    }
}
