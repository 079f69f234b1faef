import Foundation

/// Turns names and queries into comparable words: lower case, accents folded, `&` as "and", punctuation dropped,
/// letters and digits split ("witcher3" → "witcher 3").
package enum TextNormalizer {
    /// Words that may be left out of a query without changing what it means.
    static let stopWords = ["the", "of", "a", "an", "and", "in", "on", "to", "for"]

    /// Words that say which release of a game is meant, not which game: "complete edition", "goty", "remastered".
    static let editionWords: Set<String> = [
        "edition", "deluxe", "complete", "definitive", "ultimate", "goty", "premium", "enhanced", "remastered",
        "remaster", "directors", "anniversary", "collectors", "hd", "bundle",
    ]

    /// Whether a word is one of `stopWords`: a length check and a few short comparisons, no hashing (this runs
    /// for every word of every candidate a search ranks).
    package static func isStopWord(_ word: String) -> Bool {
        word.utf8.count <= 3 && stopWords.contains(word)
    }

    package static func words(_ text: String) -> [String] {
        asciiWords(text) ?? foldedWords(text)
    }

    /// Any text: accents folded by Foundation, then split.
    package static func foldedWords(_ text: String) -> [String] {
        let folded = text.folding(options: [.diacriticInsensitive, .caseInsensitive, .widthInsensitive], locale: nil)
            .lowercased()
        var words: [String] = []
        var current = ""
        var lastWasDigit: Bool?
        func flush() {
            if !current.isEmpty { words.append(current) }
            current = ""
            lastWasDigit = nil
        }
        for scalar in folded.unicodeScalars {
            if scalar == "&" {
                flush()
                words.append("and")
            } else if scalar == "'" || scalar == "’" {
                continue  // "Baldur's" → "baldurs"
            } else if CharacterSet.alphanumerics.contains(scalar) {
                let isDigit = ("0"..."9").contains(Character(scalar))
                if let lastWasDigit, lastWasDigit != isDigit { flush() }
                current.unicodeScalars.append(scalar)
                lastWasDigit = isDigit
            } else {
                flush()
            }
        }
        flush()
        return words
    }

    /// The same rules for text that is all ASCII (most names and queries), without Foundation's folding.
    package static func asciiWords(_ text: String) -> [String]? {
        var words: [String] = []
        var current: [UInt8] = []
        current.reserveCapacity(16)
        var lastWasDigit: Bool?
        func flush() {
            if !current.isEmpty { words.append(String(decoding: current, as: UTF8.self)) }
            current.removeAll(keepingCapacity: true)
            lastWasDigit = nil
        }
        for byte in text.utf8 {
            guard byte < 0x80 else { return nil }
            switch byte {
            case UInt8(ascii: "&"):
                flush()
                words.append("and")
            case UInt8(ascii: "'"):
                continue
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "A")...UInt8(ascii: "Z"):
                let isDigit = byte <= UInt8(ascii: "9")
                if let lastWasDigit, lastWasDigit != isDigit { flush() }
                current.append(byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 32 : byte)
                lastWasDigit = isDigit
            default:
                flush()
            }
        }
        flush()
        return words
    }

    static let romans = [
        "i", "ii", "iii", "iv", "v", "vi", "vii", "viii", "ix", "x", "xi", "xii", "xiii", "xiv", "xv", "xvi",
    ]

    /// The other spelling of a sequel number: "vii" ↔ "7". Only II and up, so the word "I" stays a word.
    package static func numeralTwin(_ word: String) -> String? {
        if let value = romanValue(word) { return String(value) }
        if let n = Int(word), n >= 2, n <= romans.count { return romans[n - 1] }
        return nil
    }

    /// The value of a roman sequel number from II to XVI ("vii" → 7); nil for any other word, told apart by its
    /// length and letters before any comparison.
    static func romanValue(_ word: String) -> Int? {
        let utf8 = word.utf8
        guard utf8.count <= 4,
            utf8.allSatisfy({ $0 == UInt8(ascii: "i") || $0 == UInt8(ascii: "v") || $0 == UInt8(ascii: "x") }),
            let index = romans.firstIndex(of: word), index >= 1
        else { return nil }
        return index + 1
    }

    /// The words that decide whether two names are the same: stop words (a leading "The") left out and sequel
    /// numbers written in digits, so "The Witcher III" and "Witcher 3" are one name.
    package static func canonicalCore(_ words: [String]) -> [String] {
        words.compactMap { word in
            if isStopWord(word) { return nil }
            // A roman numeral is written in digits; a number stays as it is.
            return romanValue(word).map(String.init) ?? word
        }
    }

    /// Extra searchable words for a name: numeral twins and adjacent words joined ("hollowknight", "witcher3").
    package static func keywords(for name: String) -> String {
        let words = words(name)
        // Written as bytes: no string per joined pair. No word is empty, so neither is any keyword.
        var out: [UInt8] = []
        out.reserveCapacity(2 * name.utf8.count)
        for word in words {
            guard let twin = numeralTwin(word) else { continue }
            if !out.isEmpty { out.append(UInt8(ascii: " ")) }
            out += twin.utf8
        }
        for (a, b) in zip(words, words.dropFirst()) {
            if !out.isEmpty { out.append(UInt8(ascii: " ")) }
            out += a.utf8
            out += b.utf8
        }
        return String(decoding: out, as: UTF8.self)
    }
}

extension TextNormalizer {
    /// The initials people type for a well-known game ("rdr2", "botw", "ff7", "kotor", "gta5"), as search words:
    /// for each part of the name between colons or dashes, the initials of each run of words between numbers —
    /// three or more letters, or two right before a number ("ff" of "Final Fantasy VII", which "ff7" is split into
    /// with its "7"). Runs of one word give none; a roman numeral counts as a number.
    package static func acronyms(of name: String) -> [String] {
        var found: [String] = []
        for part in name.split(whereSeparator: { ":–—|/".contains($0) }).flatMap({ $0.components(separatedBy: " - ") })
        {
            var run = ""
            var runWords = 0
            func close(beforeNumber: Bool) {
                if runWords >= 2, run.count >= 3 || (beforeNumber && run.count == 2), !found.contains(run) {
                    found.append(run)
                }
                run = ""
                runWords = 0
            }
            for word in words(part) {
                if word.first!.isNumber || romanValue(word) != nil {
                    close(beforeNumber: true)
                } else {
                    run.append(word.first!)
                    runWords += 1
                }
            }
            close(beforeNumber: false)
        }
        return found
    }
}
