import Foundation
import GGTrackerCatalog
import NIOCore

extension DiscordInteraction {
    /// Reads an interaction in the shape Discord sends for commands, buttons, menus and autocompletion straight from
    /// its bytes: the fields the bot uses, typed as they are read, every other member checked and skipped. Nil for
    /// anything else — a modal's components, resolved users or files, a number with a fraction or exponent, an
    /// escaped key, a field given twice, malformed JSON — which `JSONDecoder` then reads and judges.
    package static func read(_ bytes: UnsafeRawBufferPointer) -> DiscordInteraction? {
        try? JSONLineReader.document(bytes) { cursor throws(JSONLineReader.Malformed) in
            var reader = InteractionReader(cursor: cursor)
            defer { cursor = reader.cursor }
            return try reader.interaction()
        }
    }

    /// Reads the interaction from its bytes, or with `JSONDecoder` when they are not in the usual shape.
    static func decode(_ body: ByteBuffer) throws -> DiscordInteraction {
        if let interaction = body.withUnsafeReadableBytes(read) { return interaction }
        return try JSONDecoder().decode(DiscordInteraction.self, from: Data(buffer: body))
    }
}

extension DiscordInteraction.InteractionType {
    init(raw: Int) {
        self =
            switch raw {
            case 1: .ping
            case 2: .applicationCommand
            case 3: .messageComponent
            case 4: .autocomplete
            case 5: .modalSubmit
            default: .unknown(raw)
            }
    }
}

/// Reads the members of an interaction the bot uses, each typed as it is read, from a cursor over its bytes.
struct InteractionReader {
    typealias Malformed = JSONLineReader.Malformed
    var cursor: JSONLineReader.Cursor

    var peek: UInt8? { cursor.peek }
    func fail() -> Malformed { cursor.fail() }

    /// The cursor's members of an object, each read through a reader.
    mutating func members(
        _ body: (inout Self, JSONLineReader.Cursor.Key) throws(Malformed) -> Void
    ) throws(Malformed) {
        try cursor.members { cursor, key throws(Malformed) in
            var reader = Self(cursor: cursor)
            defer { cursor = reader.cursor }
            try body(&reader, key)
        }
    }

    /// The cursor's elements of an array, each read through a reader.
    mutating func elements(_ body: (inout Self) throws(Malformed) -> Void) throws(Malformed) {
        try cursor.elements { cursor throws(Malformed) in
            var reader = Self(cursor: cursor)
            defer { cursor = reader.cursor }
            try body(&reader)
        }
    }

    // The members read of each object, in the order the readers below number them.
    static let interactionKeys: [StaticString] = [
        "id", "application_id", "type", "data", "guild_id", "channel_id", "channel", "member", "user", "token",
    ]
    static let userKeys: [StaticString] = ["id", "username", "global_name"]
    static let memberKeys: [StaticString] = ["user", "nick", "permissions"]
    static let channelKeys: [StaticString] = ["id", "nsfw"]
    static let dataKeys: [StaticString] = [
        "name", "options", "custom_id", "component_type", "values", "resolved", "components", "type", "target_id",
    ]
    static let optionKeys: [StaticString] = ["name", "type", "value", "options", "focused"]

    /// Reads an object's members by name; a name met twice gives up.
    mutating func fields(
        _ names: [StaticString], _ body: (inout Self, Int) throws(Malformed) -> Void
    ) throws(Malformed) {
        var seen: UInt64 = 0
        try members { reader, key throws(Malformed) in
            guard case .bytes = key else { throw reader.fail() }
            guard let field = names.firstIndex(where: { reader.cursor.key(key, is: $0) }) else {
                try reader.skip()
                return
            }
            guard seen & (1 << field) == 0 else { throw reader.fail() }
            seen |= 1 << field
            try body(&reader, field)
        }
    }

    /// True and moves past it when the value is `null`.
    mutating func null() throws(Malformed) -> Bool {
        cursor.skipSpace()
        guard peek == UInt8(ascii: "n") else { return false }
        try cursor.literal("null")
        return true
    }

    mutating func text() throws(Malformed) -> String? {
        if try null() { return nil }
        guard peek == UInt8(ascii: "\"") else { throw fail() }
        return try cursor.string()
    }

    mutating func integer() throws(Malformed) -> Int? {
        if try null() { return nil }
        guard case .integer(let value) = try cursor.numberValue() else { throw fail() }
        return value
    }

    mutating func bool() throws(Malformed) -> Bool? {
        if try null() { return nil }
        if peek == UInt8(ascii: "t") {
            try cursor.literal("true")
            return true
        }
        try cursor.literal("false")
        return false
    }

    /// Checks and skips any value.
    mutating func skip() throws(Malformed) {
        cursor.skipSpace()
        guard let byte = peek else { throw fail() }
        switch byte {
        case UInt8(ascii: "{"): try members { reader, _ throws(Malformed) in try reader.skip() }
        case UInt8(ascii: "["): try elements { reader throws(Malformed) in try reader.skip() }
        case UInt8(ascii: "\""): _ = try cursor.key()
        case UInt8(ascii: "t"): try cursor.literal("true")
        case UInt8(ascii: "f"): try cursor.literal("false")
        case UInt8(ascii: "n"): try cursor.literal("null")
        default: _ = try cursor.numberValue()
        }
    }

    mutating func interaction() throws(Malformed) -> DiscordInteraction {
        var id: String?
        var type: Int?
        var interaction = DiscordInteraction(id: "", type: .ping)
        try fields(Self.interactionKeys) {
            reader, field throws(Malformed) in
            switch field {
            case 0: id = try reader.text()
            case 1: interaction.applicationID = try reader.text()
            case 2: type = try reader.integer()
            case 3: interaction.data = try reader.null() ? nil : try reader.interactionData()
            case 4: interaction.guildID = try reader.text()
            case 5: interaction.channelID = try reader.text()
            case 6: interaction.channel = try reader.null() ? nil : try reader.channel()
            case 7: interaction.member = try reader.null() ? nil : try reader.member()
            case 8: interaction.user = try reader.null() ? nil : try reader.user()
            default: interaction.token = try reader.text()
            }
        }
        guard let id, let type else { throw fail() }
        interaction.id = id
        interaction.type = .init(raw: type)
        return interaction
    }

    mutating func user() throws(Malformed) -> DiscordInteraction.User {
        var user = DiscordInteraction.User(id: "")
        var id: String?
        try fields(Self.userKeys) { reader, field throws(Malformed) in
            switch field {
            case 0: id = try reader.text()
            case 1: user.username = try reader.text()
            default: user.globalName = try reader.text()
            }
        }
        guard let id else { throw fail() }
        user.id = id
        return user
    }

    mutating func member() throws(Malformed) -> DiscordInteraction.Member {
        var member = DiscordInteraction.Member()
        try fields(Self.memberKeys) { reader, field throws(Malformed) in
            switch field {
            case 0: member.user = try reader.null() ? nil : try reader.user()
            case 1: member.nick = try reader.text()
            default: member.permissions = try reader.text()
            }
        }
        return member
    }

    mutating func channel() throws(Malformed) -> DiscordInteraction.Channel {
        var id: String?
        var nsfw: Bool?
        try fields(Self.channelKeys) { reader, field throws(Malformed) in
            if field == 0 { id = try reader.text() } else { nsfw = try reader.bool() }
        }
        guard let id else { throw fail() }
        return DiscordInteraction.Channel(id: id, nsfw: nsfw)
    }

    mutating func interactionData() throws(Malformed) -> DiscordInteraction.InteractionData {
        var data = DiscordInteraction.InteractionData()
        try fields(Self.dataKeys) {
            reader, field throws(Malformed) in
            switch field {
            case 0: data.name = try reader.text()
            case 1: data.options = try reader.null() ? nil : try reader.options()
            case 2: data.customID = try reader.text()
            case 3: data.componentType = try reader.integer().map(DiscordComponentType.init(rawValue:))
            case 4:
                if try reader.null() { return }
                var values: [String] = []
                try reader.elements { reader throws(Malformed) in
                    guard let value = try reader.text() else { throw reader.fail() }
                    values.append(value)
                }
                data.values = values
            case 7: data.type = try reader.integer()
            case 8: data.targetID = try reader.text()
            default:
                // Resolved users and files, a modal's components: left to the decoder.
                throw reader.fail()
            }
        }
        return data
    }

    mutating func options() throws(Malformed) -> [DiscordInteraction.Option] {
        var options: [DiscordInteraction.Option] = []
        try elements { reader throws(Malformed) in
            guard try !reader.null() else { throw reader.fail() }
            var name: String?
            var type: Int?
            var option = DiscordInteraction.Option(name: "", type: .string)
            try reader.fields(Self.optionKeys) { reader, field throws(Malformed) in
                switch field {
                case 0: name = try reader.text()
                case 1: type = try reader.integer()
                case 2: option.value = try reader.optionValue()
                case 3: option.options = try reader.null() ? nil : try reader.options()
                default: option.focused = try reader.bool()
                }
            }
            guard let name, let type else { throw reader.fail() }
            option.name = name
            option.type = DiscordOptionType(rawValue: type)
            options.append(option)
        }
        return options
    }

    /// A string, an integer or a boolean; a number with a fraction or exponent is left to the decoder.
    mutating func optionValue() throws(Malformed) -> DiscordInteraction.OptionWireValue? {
        if try null() { return nil }
        switch peek {
        case UInt8(ascii: "\""): return .string(try cursor.string())
        case UInt8(ascii: "t"), UInt8(ascii: "f"): return try bool().map { .boolean($0) }
        default: return try integer().map { .integer($0) }
        }
    }
}
