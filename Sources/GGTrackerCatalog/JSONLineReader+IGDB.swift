import Foundation

extension JSONLineReader {
    /// Reads a game in IGDB's JSON shape straight into the fields `IGDBGameMapping` uses, without building a
    /// dictionary: the values are those `IGDBGameMapping.Fields(object(line))` would hold, and what is not one JSON
    /// object is refused in the same way. Fields the mapping does not read are checked and skipped.
    package func igdbFields(_ data: Data) throws(Malformed) -> IGDBGameMapping.Fields {
        try Self.document(data) { cursor throws(Malformed) in
            var reader = IGDBFieldsReader(cursor: cursor)
            defer { cursor = reader.cursor }
            return try reader.igdbFields()
        }
    }
}

/// The mapping's keys by their length in bytes, to match a key without making a string of it.
private let keysByLength: [[(key: IGDBGameMapping.Key, bytes: [UInt8])]] = {
    var table = [[(key: IGDBGameMapping.Key, bytes: [UInt8])]](repeating: [], count: 32)
    for key in IGDBGameMapping.Key.allCases { table[key.rawValue.utf8.count].append((key, Array(key.rawValue.utf8))) }
    return table
}()

/// Reads the members of a game in IGDB's shape that the mapping uses, from a cursor over its bytes.
struct IGDBFieldsReader {
    typealias Fields = IGDBGameMapping.Fields
    typealias Key = JSONLineReader.Cursor.Key
    var cursor: JSONLineReader.Cursor

    var peek: UInt8? { cursor.peek }

    /// The cursor's members of an object, each read through a reader.
    mutating func members(
        _ body: (inout Self, Key) throws(JSONLineReader.Malformed) -> Void
    )
        throws(JSONLineReader.Malformed)
    {
        try cursor.members { cursor, key throws(JSONLineReader.Malformed) in
            var reader = Self(cursor: cursor)
            defer { cursor = reader.cursor }
            try body(&reader, key)
        }
    }

    /// The cursor's elements of an array, each read through a reader.
    mutating func elements(
        _ body: (inout Self) throws(JSONLineReader.Malformed) -> Void
    )
        throws(JSONLineReader.Malformed)
    {
        try cursor.elements { cursor throws(JSONLineReader.Malformed) in
            var reader = Self(cursor: cursor)
            defer { cursor = reader.cursor }
            try body(&reader)
        }
    }

    mutating func igdbFields() throws(JSONLineReader.Malformed) -> Fields {
        var fields = Fields()
        try members { reader, key throws(JSONLineReader.Malformed) in
            guard let key = reader.mappingKey(key) else {
                _ = try reader.cursor.value()
                return
            }
            reader.cursor.skipSpace()
            switch key {
            case .id: fields.id = try reader.integer()
            case .igdbID: fields.igdbID = try reader.integer()
            case .aggregatedRatingCount: fields.aggregatedRatingCount = try reader.integer()
            case .totalRatingCount: fields.totalRatingCount = try reader.integer()
            case .firstReleaseDate: fields.firstReleaseDate = try reader.real()
            case .releaseDate: fields.releaseDate = try reader.real()
            case .updatedAt: fields.updatedAt = try reader.real()
            case .aggregatedRating: fields.aggregatedRating = try reader.real()
            case .name: fields.name = try reader.text()
            case .slug: fields.slug = try reader.text()
            case .summary: fields.summary = try reader.text()
            case .url: fields.url = try reader.text()
            case .coverURL: fields.coverURL = try reader.text()
            case .genres: fields.genres = try reader.names()
            case .platforms: fields.platforms = try reader.names()
            case .modes: fields.modes = try reader.names()
            case .themes: fields.themes = try reader.names()
            case .engines: fields.engines = try reader.names()
            case .developers: fields.developers = try reader.names()
            case .publishers: fields.publishers = try reader.names()
            case .involvedCompanies: fields.companies = try reader.companies()
            case .cover: fields.coverImageID = try reader.text(in: "image_id")
            case .gameType: fields.gameType = try reader.text(in: "type")
            case .externalGames: fields.externalGames = try reader.steamAppIDs()
            case .externalIDs: fields.externalIDs = try reader.steamAppIDs()
            case .releaseDates, .timeToBeat, .ageRatings, .parentGame, .versionParent:
                fields.set(key, try reader.cursor.value())
            }
        }
        return fields
    }

    func mappingKey(_ key: Key) -> IGDBGameMapping.Key? {
        switch key {
        case .text(let text): return IGDBGameMapping.Key(rawValue: text)
        case .bytes(let range):
            guard range.count < keysByLength.count else { return nil }
            let start = cursor.bytes.baseAddress! + range.lowerBound
            for candidate in keysByLength[range.count]
            where candidate.bytes.withUnsafeBytes({ memcmp(start, $0.baseAddress!, range.count) }) == 0 {
                return candidate.key
            }
            return nil
        }
    }

    /// A number read as `IGDBGameMapping.int` reads it; nil for any other value.
    mutating func integer() throws(JSONLineReader.Malformed) -> Int? {
        guard atNumber else { return try null() ? nil : IGDBGameMapping.int(try cursor.value()) }
        switch try cursor.numberValue() {
        case .integer(let integer): return integer
        case .real(let real): return Int(exactly: real.rounded())
        }
    }

    /// A number read as `IGDBGameMapping.double` reads it; nil for any other value.
    mutating func real() throws(JSONLineReader.Malformed) -> Double? {
        guard atNumber else { return try null() ? nil : IGDBGameMapping.double(try cursor.value()) }
        switch try cursor.numberValue() {
        case .integer(let integer): return Double(integer)
        case .real(let real): return real
        }
    }

    /// A string; nil for any other value.
    mutating func text() throws(JSONLineReader.Malformed) -> String? {
        if peek == UInt8(ascii: "\"") { return try cursor.string() }
        if try null() { return nil }
        return try cursor.value() as? String
    }

    /// The string under `key` of an object (its last one); nil when the value is not an object or has none.
    mutating func text(in key: StaticString) throws(JSONLineReader.Malformed) -> String? {
        guard peek == UInt8(ascii: "{") else {
            _ = try cursor.value()
            return nil
        }
        var found: String?
        try members { reader, member throws(JSONLineReader.Malformed) in
            if reader.cursor.key(member, is: key) {
                reader.cursor.skipSpace()
                found = try reader.text()
            } else {
                _ = try reader.cursor.value()
            }
        }
        return found
    }

    /// Names as `IGDBGameMapping.names` reads them: strings, or objects' `name`; empty ones and repeats left out.
    mutating func names() throws(JSONLineReader.Malformed) -> [String] {
        guard peek == UInt8(ascii: "[") else { return IGDBGameMapping.names(try cursor.value()) }
        var out: [String] = []
        try elements { reader throws(JSONLineReader.Malformed) in
            reader.cursor.skipSpace()
            let name: String?
            switch reader.peek {
            case UInt8(ascii: "\""): name = try reader.cursor.string()
            case UInt8(ascii: "{"): name = try reader.text(in: "name")
            default:
                _ = try reader.cursor.value()
                name = nil
            }
            if let name, !name.isEmpty, !out.contains(name) { out.append(name) }
        }
        return out
    }

    /// `involved_companies`: none unless it is an array of objects.
    mutating func companies() throws(JSONLineReader.Malformed) -> [Fields.Company] {
        var out: [Fields.Company] = []
        var company = Fields.Company()
        let allObjects = try objects { reader, member throws(JSONLineReader.Malformed) in
            if reader.cursor.key(member, is: "company") {
                company.name = try reader.text(in: "name")
            } else if reader.cursor.key(member, is: "developer") {
                company.developer = try reader.isTrue()
            } else if reader.cursor.key(member, is: "publisher") {
                company.publisher = try reader.isTrue()
            } else {
                _ = try reader.cursor.value()
            }
        } end: {
            out.append(company)
            company = Fields.Company()
        }
        return allObjects ? out : []
    }

    /// Steam's app ids as `IGDBGameMapping.steamAppIDs` finds them in the parsed value: none unless it is an array
    /// of objects.
    mutating func steamAppIDs() throws(JSONLineReader.Malformed) -> [Int64] {
        var ids: [Int64] = []
        var external = IGDBGameMapping.ExternalGame()
        let allObjects = try objects { reader, member throws(JSONLineReader.Malformed) in
            if reader.cursor.key(member, is: "external_game_source") {
                external.source = try reader.integer()
            } else if reader.cursor.key(member, is: "category") {
                external.category = try reader.integer()
            } else if reader.cursor.key(member, is: "store") {
                external.store = try reader.text()
            } else if reader.cursor.key(member, is: "url") {
                external.url = try reader.text()
            } else if reader.cursor.key(member, is: "uid") {
                let text = reader.peek == UInt8(ascii: "\"")
                external.uidText = text ? try reader.cursor.string() : nil
                external.uidNumber = text ? nil : try reader.integer()
            } else {
                _ = try reader.cursor.value()
            }
        } end: {
            external.addSteamAppID(to: &ids)
            external = IGDBGameMapping.ExternalGame()
        }
        return allObjects ? ids : []
    }

    /// Reads an array of objects: each member of each object through `member` (the cursor at its value), then
    /// `end` after each object. False when the value is not an array, or holds anything but objects (all of it
    /// read all the same).
    mutating func objects(
        member: (inout Self, Key) throws(JSONLineReader.Malformed) -> Void, end: () -> Void
    ) throws(JSONLineReader.Malformed) -> Bool {
        guard peek == UInt8(ascii: "[") else {
            _ = try cursor.value()
            return false
        }
        var allObjects = true
        try elements { reader throws(JSONLineReader.Malformed) in
            reader.cursor.skipSpace()
            guard reader.peek == UInt8(ascii: "{") else {
                _ = try reader.cursor.value()
                allObjects = false
                return
            }
            try reader.members { reader, key throws(JSONLineReader.Malformed) in
                reader.cursor.skipSpace()
                try member(&reader, key)
            }
            end()
        }
        return allObjects
    }

    /// Whether a number starts here.
    var atNumber: Bool {
        guard let byte = peek else { return false }
        return byte == UInt8(ascii: "-") || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
    }

    /// Reads `null` when it is next.
    mutating func null() throws(JSONLineReader.Malformed) -> Bool {
        guard peek == UInt8(ascii: "n") else { return false }
        try cursor.literal("null")
        return true
    }

    /// Whether the value is `true`.
    mutating func isTrue() throws(JSONLineReader.Malformed) -> Bool {
        try cursor.value() as? Bool == true
    }
}
