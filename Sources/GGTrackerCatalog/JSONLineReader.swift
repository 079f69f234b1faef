import Foundation

/// Reads one JSON object from bytes into native Swift values — `String`, `Int` (integer literals that fit),
/// `Double`, `Bool`, `[Any]`, `[String: Any]`, and `NSNull` for null — the shape `IGDBGameMapping` reads.
/// Foundation's `JSONSerialization` produces bridged `NSNumber`s and `NSString`s that cost more to cast than to
/// parse; this reader is several times faster on catalog lines. Values of top-level keys not in `keep` are read and
/// checked like the others but not stored.
package struct JSONLineReader {
    package struct Malformed: Error, CustomStringConvertible {
        var offset: Int
        package var description: String { "malformed JSON at byte \(offset + 1)" }
    }

    let keep: Set<String>?

    package init(keep: Set<String>? = nil) {
        self.keep = keep
    }

    func object(_ bytes: UnsafeRawBufferPointer) throws(Malformed) -> [String: Any] {
        var cursor = Cursor(bytes: bytes)
        cursor.skipSpace()
        guard cursor.peek == UInt8(ascii: "{") else { throw Malformed(offset: cursor.position) }
        let value = try cursor.object(keep: keep)
        cursor.skipSpace()
        guard cursor.atEnd else { throw Malformed(offset: cursor.position) }
        return value
    }

    package func object(_ data: Data) throws(Malformed) -> [String: Any] {
        let result = data.withUnsafeBytes { bytes -> Result<[String: Any], Malformed> in
            do throws(Malformed) { return .success(try object(bytes)) } catch { return .failure(error) }
        }
        return try result.get()
    }

    struct Cursor {
        let bytes: UnsafeRawBufferPointer
        var position = 0
        var depth = 0

        var atEnd: Bool { position >= bytes.count }
        var peek: UInt8? { position < bytes.count ? bytes[position] : nil }

        func fail() -> Malformed { Malformed(offset: position) }

        mutating func skipSpace() {
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
            case UInt8(ascii: "{"): return try object(keep: nil)
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

        mutating func literal(_ word: StaticString) throws(Malformed) {
            let length = word.utf8CodeUnitCount
            guard position + length <= bytes.count else { throw fail() }
            for offset in 0..<length where bytes[position + offset] != word.utf8Start[offset] { throw fail() }
            position += length
        }

        mutating func object(keep: Set<String>?) throws(Malformed) -> [String: Any] {
            depth += 1
            defer { depth -= 1 }
            guard depth <= 64 else { throw fail() }
            try expect(UInt8(ascii: "{"))
            var out: [String: Any] = [:]
            skipSpace()
            if peek == UInt8(ascii: "}") {
                position += 1
                return out
            }
            while true {
                skipSpace()
                guard peek == UInt8(ascii: "\"") else { throw fail() }
                let key = try string()
                try expect(UInt8(ascii: ":"))
                let value = try value()
                if keep?.contains(key) ?? true { out[key] = value }
                skipSpace()
                guard let next = peek else { throw fail() }
                position += 1
                if next == UInt8(ascii: "}") { return out }
                guard next == UInt8(ascii: ",") else { throw fail() }
            }
        }

        mutating func array() throws(Malformed) -> [Any] {
            depth += 1
            defer { depth -= 1 }
            guard depth <= 64 else { throw fail() }
            try expect(UInt8(ascii: "["))
            var out: [Any] = []
            skipSpace()
            if peek == UInt8(ascii: "]") {
                position += 1
                return out
            }
            while true {
                out.append(try value())
                skipSpace()
                guard let next = peek else { throw fail() }
                position += 1
                if next == UInt8(ascii: "]") { return out }
                guard next == UInt8(ascii: ",") else { throw fail() }
            }
        }

        mutating func string() throws(Malformed) -> String {
            position += 1  // the opening quote
            let start = position
            // The common case: no escapes, the bytes between the quotes are the string.
            while position < bytes.count {
                let byte = bytes[position]
                if byte == UInt8(ascii: "\"") {
                    let slice = UnsafeRawBufferPointer(rebasing: bytes[start..<position])
                    position += 1
                    guard let text = String(validating: slice, as: UTF8.self) else { throw fail() }
                    return text
                }
                if byte == UInt8(ascii: "\\") { break }
                if byte < 0x20 { throw fail() }
                position += 1
            }
            var out = Array(bytes[start..<position])
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

        /// A number as JSON writes it: `-`, digits without leading zeros, optional fraction and exponent.
        mutating func number() throws(Malformed) -> Any {
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
            let text = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
            if isInteger, let integer = Int(text) { return integer }
            guard let double = Double(text) else { throw fail() }
            return double
        }
    }
}
