import Foundation

/// The words of every catalog name, kept in memory to correct typos in queries ("zeldda" → "zelda").
package final class Vocabulary: @unchecked Sendable {
    private let lock = NSLock()
    /// A word: where its bytes are in `bytes`, how many names use it, and the set of its letters and digits.
    typealias Entry = (start: Int32, length: Int32, count: Int32, letters: UInt64)
    /// Every word's bytes, one after another: one buffer instead of an array for each of 100,000s of words.
    private var bytes: [UInt8] = []
    private var entries: [Entry] = []
    /// Words (positions in `entries`) grouped by length and first byte, and by length and last byte
    /// (`length << 8 | byte`). Typos rarely touch both the first and the last letter, so only the words sharing
    /// one of them are compared.
    private var byFirst: [Int: [Int32]] = [:]
    private var byLast: [Int: [Int32]] = [:]

    /// One bit for each letter and digit a word contains. An edit changes at most two of these bits, so words
    /// whose sets differ by more than twice the allowed distance are skipped without computing it.
    static func letters(_ word: some Sequence<UInt8>) -> UInt64 {
        var mask: UInt64 = 0
        for byte in word {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"): mask |= 1 << UInt64(byte - UInt8(ascii: "a"))
            case UInt8(ascii: "0")...UInt8(ascii: "9"): mask |= 1 << UInt64(26 + byte - UInt8(ascii: "0"))
            default: mask |= 1 << 63
            }
        }
        return mask
    }

    package init() {}

    /// The words of the names in the index, with how many names use each.
    func load(from names: NameIndex.Snapshot) {
        var flat: [UInt8] = []
        var all: [Entry] = []
        var first: [Int: [Int32]] = [:]
        var last: [Int: [Int32]] = [:]
        for (term, count) in names.nameCounts.enumerated() where count > 0 {
            let word = names.terms.utf8(term)
            guard word.count >= 2, word.count <= 40 else { continue }
            all.append((Int32(flat.count), Int32(word.count), count, Self.letters(word)))
            flat += word
            first[word.count << 8 | Int(word.first!), default: []].append(Int32(all.count - 1))
            last[word.count << 8 | Int(flat[flat.count - 1]), default: []].append(Int32(all.count - 1))
        }
        lock.withLock {
            bytes = flat
            entries = all
            byFirst = first
            byLast = last
        }
    }

    /// Known words within a small edit distance of `word` (1 for 4–7 letters, 2 for longer), most used first.
    package func corrections(for word: String, limit: Int = 6) -> [String] {
        let query = Array(word.utf8)
        let maxDistance = query.count >= 8 ? 2 : 1
        // Known words have 2 to 40 bytes: a longer word is too far from every one of them.
        guard query.count >= 4, query.count <= 40 + maxDistance else { return [] }
        let letters = Self.letters(query)
        let (flat, entries, first, last) = lock.withLock { (bytes, self.entries, byFirst, byLast) }
        return flat.withUnsafeBufferPointer { buffer -> [String] in
            func word(_ entry: Entry) -> UnsafeBufferPointer<UInt8> {
                UnsafeBufferPointer(
                    rebasing: buffer[Int(entry.start)..<Int(entry.start) + Int(entry.length)])
            }
            var found: [(entry: Entry, distance: Int)] = []
            func consider(_ entry: Entry) {
                guard (entry.letters ^ letters).nonzeroBitCount <= 2 * maxDistance else { return }
                let candidate = word(entry)
                guard !candidate.elementsEqual(query) else { return }
                if let distance = boundedLevenshtein(query, candidate, limit: maxDistance) {
                    found.append((entry, distance))
                }
            }
            for length in max(2, query.count - maxDistance)...min(40, query.count + maxDistance) {
                for position in first[length << 8 | Int(query[0])] ?? [] { consider(entries[Int(position)]) }
                // Words that share only the last letter: those sharing the first were compared already.
                for position in last[length << 8 | Int(query[query.count - 1])] ?? []
                where buffer[Int(entries[Int(position)].start)] != query[0] {
                    consider(entries[Int(position)])
                }
            }
            found.sort { ($0.distance, -$0.entry.count) < ($1.distance, -$1.entry.count) }
            return found.prefix(limit).map { String(decoding: word($0.entry), as: UTF8.self) }
        }
    }
}
