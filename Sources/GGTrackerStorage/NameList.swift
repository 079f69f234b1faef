import Foundation

/// A list of names (platforms, genres, tags…) as the database stores it: a JSON array of strings.
enum NameList {
    /// A stored list of names (`["Platform","Indie"]`). Lists without escapes, nearly all of them, are split
    /// directly: this runs for six lists of every game read.
    static func decode(_ json: String?) -> [String] {
        guard let json, json != "[]" else { return [] }
        let bytes = Array(json.utf8)
        if bytes.first == UInt8(ascii: "["), bytes.last == UInt8(ascii: "]"), !bytes.contains(UInt8(ascii: "\\")) {
            // Without escapes no item holds a quote: the items are every other piece between quotes.
            let pieces = bytes.split(separator: UInt8(ascii: "\""), omittingEmptySubsequences: false)
            return stride(from: 1, to: pieces.count - 1, by: 2).map { String(decoding: pieces[$0], as: UTF8.self) }
        }
        guard let data = json.data(using: .utf8) else { return [] }
        return (try? JSONDecoder().decode([String].self, from: data)) ?? []
    }

    /// A list of names as a JSON array, written directly: this runs for seven lists of every imported game.
    static func encode(_ list: [String]) -> String {
        guard !list.isEmpty else { return "[]" }
        var out: [UInt8] = []
        out.reserveCapacity(list.reduce(2) { $0 + $1.utf8.count + 3 })
        append(list, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends a list of names as a JSON array.
    static func append(_ list: [String], to out: inout [UInt8]) {
        out.append(UInt8(ascii: "["))
        for (index, item) in list.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            out.append(UInt8(ascii: "\""))
            // A name with nothing to escape, nearly every one, is copied whole from where the string keeps it.
            let copied =
                item.utf8.withContiguousStorageIfAvailable { bytes in
                    guard bytes.allSatisfy({ $0 >= 0x20 && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") })
                    else { return false }
                    out.append(contentsOf: bytes)
                    return true
                } ?? false
            if !copied {
                for byte in item.utf8 {
                    switch byte {
                    case UInt8(ascii: "\""), UInt8(ascii: "\\"): out += [UInt8(ascii: "\\"), byte]
                    case 0x0A: out += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
                    case 0x0D: out += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
                    case 0x09: out += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
                    case ..<0x20: out += Array(String(format: "\\u%04x", byte).utf8)
                    default: out.append(byte)
                    }
                }
            }
            out.append(UInt8(ascii: "\""))
        }
        out.append(UInt8(ascii: "]"))
    }
}
