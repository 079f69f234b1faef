import Foundation

/// Reads one JSON object from bytes into native Swift values — `String`, `Int` (integer literals that fit),
/// `Double`, `Bool`, `[Any]`, `[String: Any]`, and `NSNull` for null — the shape `IGDBGameMapping` reads.
/// Foundation's `JSONSerialization` produces bridged `NSNumber`s and `NSString`s that cost more to cast than to
/// parse; this reader is several times faster on catalog lines. The import reads lines into typed fields instead
/// (`igdbFields`), on the same cursor.
package struct JSONLineReader {
    package struct Malformed: Error, CustomStringConvertible {
        package var offset: Int
        package var description: String { "malformed JSON at byte \(offset + 1)" }
    }

    package init() {}

    package func object(_ data: Data) throws(Malformed) -> [String: Any] {
        try Self.document(data) { cursor throws(Malformed) in try cursor.object() }
    }

    /// Reads one JSON object that is the whole of `bytes`, space around it aside: `read` starts at its `{`, and
    /// anything after it is refused.
    package static func document<T>(
        _ bytes: UnsafeRawBufferPointer, _ read: (inout Cursor) throws(Malformed) -> T
    ) throws(Malformed) -> T {
        var cursor = Cursor(bytes: bytes)
        cursor.skipSpace()
        guard cursor.peek == UInt8(ascii: "{") else { throw cursor.fail() }
        let value = try read(&cursor)
        cursor.skipSpace()
        guard cursor.atEnd else { throw cursor.fail() }
        return value
    }

    static func document<T>(_ data: Data, _ read: (inout Cursor) throws(Malformed) -> T) throws(Malformed) -> T {
        let result = data.withUnsafeBytes { bytes -> Result<T, Malformed> in
            do throws(Malformed) { return .success(try document(bytes, read)) } catch { return .failure(error) }
        }
        return try result.get()
    }

    package enum Number {
        case integer(Int)
        case real(Double)
    }

    package struct Cursor {
        let bytes: UnsafeRawBufferPointer
        var position = 0
        var depth = 0

        package init(bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

        package var atEnd: Bool { position >= bytes.count }
        package var peek: UInt8? { position < bytes.count ? bytes[position] : nil }

        package func fail() -> Malformed { Malformed(offset: position) }

        package mutating func skipSpace() {
            while position < bytes.count {
                switch bytes[position] {
                case 0x20, 0x0A, 0x0D, 0x09: position += 1
                default: return
                }
            }
        }

        mutating func expect(_ byte: UInt8) throws(Malformed) {
            skipSpace()
            guard peek == byte else { throw fail() }
            position += 1
        }

        mutating func value() throws(Malformed) -> Any {
            skipSpace()
            guard let byte = peek else { throw fail() }
            switch byte {
            case UInt8(ascii: "{"): return try object()
            case UInt8(ascii: "["): return try array()
            case UInt8(ascii: "\""): return try string()
            case UInt8(ascii: "t"):
                try literal("true")
                return true
            case UInt8(ascii: "f"):
                try literal("false")
                return false
            case UInt8(ascii: "n"):
                try literal("null")
                return NSNull()
            default: return try number()
            }
        }

        package mutating func literal(_ word: StaticString) throws(Malformed) {
            let length = word.utf8CodeUnitCount
            guard position + length <= bytes.count else { throw fail() }
            for offset in 0..<length where bytes[position + offset] != word.utf8Start[offset] { throw fail() }
            position += length
        }

        mutating func object() throws(Malformed) -> [String: Any] {
            var out: [String: Any] = [:]
            try members { cursor, key throws(Malformed) in
                let key = cursor.text(key)
                out[key] = try cursor.value()
            }
            return out
        }

        mutating func array() throws(Malformed) -> [Any] {
            var out: [Any] = []
            try elements { cursor throws(Malformed) in out.append(try cursor.value()) }
            return out
        }

        /// Reads an object, calling `body` at each member with its key, after the colon; `body` reads the value.
        package mutating func members(_ body: (inout Cursor, Key) throws(Malformed) -> Void) throws(Malformed) {
            depth += 1
            defer { depth -= 1 }
            guard depth <= 64 else { throw fail() }
            try expect(UInt8(ascii: "{"))
            skipSpace()
            if peek == UInt8(ascii: "}") {
                position += 1
                return
            }
            while true {
                skipSpace()
                guard peek == UInt8(ascii: "\"") else { throw fail() }
                let key = try key()
                try expect(UInt8(ascii: ":"))
                try body(&self, key)
                skipSpace()
                guard let next = peek else { throw fail() }
                position += 1
                if next == UInt8(ascii: "}") { return }
                guard next == UInt8(ascii: ",") else { throw fail() }
            }
        }

        /// Reads an array, calling `body` to read each element.
        package mutating func elements(_ body: (inout Cursor) throws(Malformed) -> Void) throws(Malformed) {
            depth += 1
            defer { depth -= 1 }
            guard depth <= 64 else { throw fail() }
            try expect(UInt8(ascii: "["))
            skipSpace()
            if peek == UInt8(ascii: "]") {
                position += 1
                return
            }
            while true {
                try body(&self)
                skipSpace()
                guard let next = peek else { throw fail() }
                position += 1
                if next == UInt8(ascii: "]") { return }
                guard next == UInt8(ascii: ",") else { throw fail() }
            }
        }

        /// A member's key: its bytes when it has no escapes (checked to be UTF-8), else the text they spell.
        package enum Key {
            case bytes(Range<Int>)
            case text(String)
        }

        package mutating func key() throws(Malformed) -> Key {
            guard let plain = try plainString() else { return .text(try string()) }
            if !plain.ascii && String(validating: slice(plain.range), as: UTF8.self) == nil { throw fail() }
            return .bytes(plain.range)
        }

        func slice(_ range: Range<Int>) -> UnsafeRawBufferPointer { UnsafeRawBufferPointer(rebasing: bytes[range]) }

        /// The bytes of the string at the cursor when it has no escapes (not yet checked to be UTF-8 unless ASCII),
        /// the cursor then after its closing quote; nil, the cursor not moved, when it has an escape.
        mutating func plainString() throws(Malformed) -> (range: Range<Int>, ascii: Bool)? {
            let start = position + 1
            var scan = start
            var high: UInt8 = 0
            while scan < bytes.count {
                let byte = bytes[scan]
                if byte == UInt8(ascii: "\"") {
                    position = scan + 1
                    return (start..<scan, high < 0x80)
                }
                if byte == UInt8(ascii: "\\") { return nil }
                if byte < 0x20 { throw Malformed(offset: scan) }
                high |= byte
                scan += 1
            }
            return nil
        }

        func text(_ key: Key) -> String {
            switch key {
            case .text(let text): text
            case .bytes(let range): String(decoding: slice(range), as: UTF8.self)
            }
        }

        /// Whether the key is `word` (plain ASCII).
        package func key(_ key: Key, is word: StaticString) -> Bool {
            switch key {
            case .text(let text):
                return text.utf8.elementsEqual(
                    UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount))
            case .bytes(let range):
                return range.count == word.utf8CodeUnitCount
                    && memcmp(bytes.baseAddress! + range.lowerBound, word.utf8Start, range.count) == 0
            }
        }

        package mutating func string() throws(Malformed) -> String {
            // The common case: no escapes, the bytes between the quotes are the string.
            if let plain = try plainString() {
                // ASCII needs no check.
                if plain.ascii { return String(decoding: slice(plain.range), as: UTF8.self) }
                guard let text = String(validating: slice(plain.range), as: UTF8.self) else { throw fail() }
                return text
            }
            position += 1  // the opening quote
            var out: [UInt8] = []
            while true {
                guard let byte = peek else { throw fail() }
                position += 1
                switch byte {
                case UInt8(ascii: "\""):
                    guard let text = String(validating: out, as: UTF8.self) else { throw fail() }
                    return text
                case UInt8(ascii: "\\"):
                    guard let escape = peek else { throw fail() }
                    position += 1
                    switch escape {
                    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(escape)
                    case UInt8(ascii: "b"): out.append(0x08)
                    case UInt8(ascii: "f"): out.append(0x0C)
                    case UInt8(ascii: "n"): out.append(0x0A)
                    case UInt8(ascii: "r"): out.append(0x0D)
                    case UInt8(ascii: "t"): out.append(0x09)
                    case UInt8(ascii: "u"):
                        var scalar = try hex4()
                        if (0xD800..<0xDC00).contains(scalar) {
                            // A high surrogate must be followed by an escaped low one.
                            guard peek == UInt8(ascii: "\\"), position + 1 < bytes.count,
                                bytes[position + 1] == UInt8(ascii: "u")
                            else { throw fail() }
                            position += 2
                            let low = try hex4()
                            guard (0xDC00..<0xE000).contains(low) else { throw fail() }
                            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                        } else if (0xDC00..<0xE000).contains(scalar) {
                            throw fail()
                        }
                        guard let unicode = Unicode.Scalar(scalar) else { throw fail() }
                        out += Array(String(Character(unicode)).utf8)
                    default: throw fail()
                    }
                default:
                    if byte < 0x20 { throw fail() }
                    out.append(byte)
                }
            }
        }

        mutating func hex4() throws(Malformed) -> UInt32 {
            guard position + 4 <= bytes.count else { throw fail() }
            var value: UInt32 = 0
            for _ in 0..<4 {
                let byte = bytes[position]
                let digit: UInt8
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
                case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
                case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
                default: throw fail()
                }
                value = value << 4 | UInt32(digit)
                position += 1
            }
            return value
        }

        mutating func number() throws(Malformed) -> Any {
            switch try numberValue() {
            case .integer(let integer): integer
            case .real(let real): real
            }
        }

        /// A number as JSON writes it: `-`, digits without leading zeros, optional fraction and exponent. An integer
        /// that fits is an `Int`.
        package mutating func numberValue() throws(Malformed) -> Number {
            let start = position
            if peek == UInt8(ascii: "-") { position += 1 }
            func digits() -> Int {
                let from = position
                while let byte = peek, byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") { position += 1 }
                return position - from
            }
            let integerStart = position
            let integerDigits = digits()
            guard integerDigits > 0 else { throw fail() }
            if integerDigits > 1 && bytes[integerStart] == UInt8(ascii: "0") { throw fail() }
            var isInteger = true
            if peek == UInt8(ascii: ".") {
                position += 1
                isInteger = false
                guard digits() > 0 else { throw fail() }
            }
            if peek == UInt8(ascii: "e") || peek == UInt8(ascii: "E") {
                position += 1
                isInteger = false
                if peek == UInt8(ascii: "+") || peek == UInt8(ascii: "-") { position += 1 }
                guard digits() > 0 else { throw fail() }
            }
            if isInteger && integerDigits <= 18 {
                // Fits in an Int whatever the digits.
                var value = 0
                for index in integerStart..<position { value = value &* 10 &+ Int(bytes[index] &- UInt8(ascii: "0")) }
                return .integer(start == integerStart ? value : -value)
            }
            let text = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
            if isInteger, let integer = Int(text) { return .integer(integer) }
            guard let double = Double(text) else { throw fail() }
            return .real(double)
        }
    }
}
