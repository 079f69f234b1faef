import Foundation

/// Writes Discord's response JSON straight into bytes: the same document `JSONEncoder` makes of these types (the
/// same keys, absent values left out), without building an intermediate tree for every reply on the hot path.
struct JSONWriter {
    private(set) var bytes: [UInt8] = []
    private var needsComma = false

    init() { bytes.reserveCapacity(1024) }

    var data: Data { Data(bytes) }

    mutating func object(_ body: (inout JSONWriter) -> Void) {
        separate()
        bytes.append(UInt8(ascii: "{"))
        needsComma = false
        body(&self)
        bytes.append(UInt8(ascii: "}"))
        needsComma = true
    }

    mutating func array<S: Sequence>(_ elements: S, _ body: (inout JSONWriter, S.Element) -> Void) {
        separate()
        bytes.append(UInt8(ascii: "["))
        needsComma = false
        for element in elements { body(&self, element) }
        bytes.append(UInt8(ascii: "]"))
        needsComma = true
    }

    /// A key of the object being written; its value follows.
    mutating func key(_ name: StaticString) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        name.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(contentsOf: [UInt8(ascii: "\""), UInt8(ascii: ":")])
        needsComma = false
    }

    mutating func string(_ text: String) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { utf8 in
            // Runs without anything to escape are copied whole.
            var run = 0
            for (index, byte) in utf8.enumerated()
            where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[run..<index]))
                escape(byte)
                run = index + 1
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[run...]))
        }
        bytes.append(UInt8(ascii: "\""))
        needsComma = true
    }

    private mutating func escape(_ byte: UInt8) {
        switch byte {
        case UInt8(ascii: "\""): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
        case UInt8(ascii: "\\"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
        case UInt8(ascii: "\n"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
        case UInt8(ascii: "\r"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
        case UInt8(ascii: "\t"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
        default:
            bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0")])
            bytes.append(Self.hexDigit(byte >> 4))
            bytes.append(Self.hexDigit(byte & 15))
        }
    }

    mutating func integer(_ value: Int) {
        separate()
        bytes.append(contentsOf: String(value).utf8)
        needsComma = true
    }

    mutating func bool(_ value: Bool) {
        separate()
        bytes.append(contentsOf: (value ? "true" : "false").utf8)
        needsComma = true
    }

    /// A key and an array of objects, when there is an array.
    mutating func field<S: Sequence>(
        _ name: StaticString, _ elements: S?, _ body: (inout JSONWriter, S.Element) -> Void
    ) {
        guard let elements else { return }
        key(name)
        array(elements) { w, element in w.object { w in body(&w, element) } }
    }

    mutating func field(_ name: StaticString, _ value: String?) {
        guard let value else { return }
        key(name)
        string(value)
    }

    mutating func field(_ name: StaticString, _ value: Int?) {
        guard let value else { return }
        key(name)
        integer(value)
    }

    mutating func field(_ name: StaticString, _ value: Bool?) {
        guard let value else { return }
        key(name)
        bool(value)
    }

    private static func hexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "a") + value - 10
    }

    /// A key and a value that writes itself, when there is one.
    mutating func field(_ name: StaticString, _ value: (some JSONWritable)?) {
        guard let value else { return }
        key(name)
        value.write(to: &self)
    }

    /// A key and an array of values that write themselves, when there is an array.
    mutating func field(_ name: StaticString, _ elements: [some JSONWritable]?) {
        guard let elements else { return }
        key(name)
        array(elements) { w, element in element.write(to: &w) }
    }

    private mutating func separate() {
        if needsComma { bytes.append(UInt8(ascii: ",")) }
    }
}

/// A value written by `JSONWriter`.
protocol JSONWritable {
    func write(to w: inout JSONWriter)
}

extension DiscordResponse {
    /// The response as Discord reads it.
    var json: Data {
        var writer = JSONWriter()
        writer.object { w in
            w.key("type")
            w.integer(type.rawValue)
            guard let data else { return }
            w.key("data")
            switch data {
            case .message(let message): message.write(to: &w)
            case .modal(let modal): modal.write(to: &w)
            case .autocomplete(let choices):
                w.object { w in
                    w.field("choices", choices) { w, choice in
                        w.field("name", choice.name)
                        w.field("value", choice.value)
                    }
                }
            }
        }
        return writer.data
    }
}

extension DiscordMessage: JSONWritable {
    func write(to w: inout JSONWriter) {
        w.object { w in
            w.field("content", content)
            w.field("embeds", embeds)
            w.field("components", components)
            w.field("flags", flags)
            w.key("allowed_mentions")
            w.object { w in
                w.key("parse")
                w.array(allowedMentions.parse) { w, kind in w.string(kind) }
                if let users = allowedMentions.users {
                    w.key("users")
                    w.array(users) { w, id in w.string(id) }
                }
            }
        }
    }
}

extension DiscordMessage.Embed: JSONWritable {
    func write(to w: inout JSONWriter) {
        w.object { w in
            w.field("title", title)
            w.field("url", url)
            w.field("description", description)
            w.field("color", color)
            w.field("thumbnail", thumbnail)
            w.field("image", image)
            w.field("fields", fields) { w, field in
                w.field("name", field.name)
                w.field("value", field.value)
                w.field("inline", field.inline)
            }
            w.field("footer", footer)
        }
    }
}

extension DiscordComponent: JSONWritable {
    func write(to w: inout JSONWriter) {
        w.object { w in
            w.field("type", type.rawValue)
            w.field("style", style)
            w.field("label", label)
            w.field("custom_id", customID)
            w.field("disabled", disabled)
            w.field("placeholder", placeholder)
            w.field("options", options) { w, option in
                w.field("label", option.label)
                w.field("value", option.value)
                w.field("description", option.description)
            }
            w.field("components", components)
            w.field("component", component?.value)
            w.field("max_length", maxLength)
            w.field("required", required)
            w.field("value", value)
        }
    }
}

extension DiscordModal: JSONWritable {
    func write(to w: inout JSONWriter) {
        w.object { w in
            w.field("custom_id", customID)
            w.field("title", title)
            w.field("components", components)
        }
    }
}

extension DiscordMessage.Embed.Media: JSONWritable {
    func write(to w: inout JSONWriter) { w.object { w in w.field("url", url) } }
}

extension DiscordMessage.Embed.Footer: JSONWritable {
    func write(to w: inout JSONWriter) { w.object { w in w.field("text", text) } }
}
