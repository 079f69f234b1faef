import Foundation
import GGTrackerCore

/// The words of every catalog name, kept in memory to correct typos in queries ("zeldda" → "zelda").
package final class Vocabulary: @unchecked Sendable {
    private let lock = NSLock()
    /// Words grouped by length and first byte, and by length and last byte (bucket `length << 8 | byte`). Typos
    /// rarely touch both the first and the last letter, so only the words sharing one of them are compared.
    private var byFirst = Buckets()
    private var byLast = Buckets()

    /// Words of 2 to 40 bytes are kept: buckets for lengths up to 40, each with 256 first (or last) bytes.
    static let bucketCount = 41 << 8

    /// Buckets of words of one length each, every bucket's words side by side: a scan reads memory in order.
    struct Buckets {
        /// Bucket `b` holds words `start[b] ..< start[b + 1]`.
        var start: [Int32] = []
        /// Where bucket `b`'s bytes begin in `bytes`; its words all have `b >> 8` bytes.
        var byteStart: [Int32] = []
        /// A word's set of letters (`letters(_:)`) and how many names use it.
        var letters: [UInt32] = []
        var counts: [Int32] = []
        var bytes: [UInt8] = []

        init() {}

        /// The index's name words of 2 to 40 bytes, grouped by bucket (`bucket` of the word), each bucket keeping
        /// the index's order. Filled in place, in two passes, without a temporary copy of every word.
        init(_ names: NameIndex.Snapshot, bucket: (ArraySlice<UInt8>) -> Int) {
            func forEachWord(_ body: (ArraySlice<UInt8>, Int32) -> Void) {
                for (term, count) in names.nameCounts.enumerated() where count > 0 {
                    let word = names.terms.utf8(term)
                    if word.count >= 2, word.count <= 40 { body(word, count) }
                }
            }
            start = [Int32](repeating: 0, count: Vocabulary.bucketCount + 1)
            forEachWord { word, _ in start[bucket(word) + 1] += 1 }
            byteStart = [Int32](repeating: 0, count: Vocabulary.bucketCount + 1)
            for index in 0..<Vocabulary.bucketCount {
                byteStart[index + 1] = byteStart[index] + start[index + 1] * Int32(index >> 8)
                start[index + 1] += start[index]
            }
            let words = Int(start[Vocabulary.bucketCount])
            letters = [UInt32](repeating: 0, count: words)
            counts = [Int32](repeating: 0, count: words)
            bytes = [UInt8](repeating: 0, count: Int(byteStart[Vocabulary.bucketCount]))
            var fill = start
            forEachWord { word, count in
                let index = bucket(word)
                let slot = Int(fill[index])
                fill[index] += 1
                letters[slot] = Vocabulary.letters(word)
                counts[slot] = count
                let offset = Int(byteStart[index]) + (slot - Int(start[index])) * word.count
                bytes.replaceSubrange(offset..<offset + word.count, with: word)
            }
        }
    }

    /// One bit for each letter, digits folded onto five bits, one for anything else. An edit changes at most two of
    /// these bits, so words whose sets differ by more than twice the allowed distance are skipped without
    /// computing it.
    static func letters(_ word: some Sequence<UInt8>) -> UInt32 {
        var mask: UInt32 = 0
        for byte in word {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"): mask |= 1 << UInt32(byte - UInt8(ascii: "a"))
            case UInt8(ascii: "0")...UInt8(ascii: "9"): mask |= 1 << UInt32(26 + (byte - UInt8(ascii: "0")) % 5)
            default: mask |= 1 << 31
            }
        }
        return mask
    }

    package init() {}

    /// The words of the names in the index, with how many names use each.
    func load(from names: NameIndex.Snapshot) {
        let byFirst = Buckets(names) { $0.count << 8 | Int($0.first!) }
        let byLast = Buckets(names) { $0.count << 8 | Int($0.last!) }
        lock.withLock {
            self.byFirst = byFirst
            self.byLast = byLast
        }
        // The vocabulary it replaces is freed now: give that memory back.
        returnFreeMemory()
    }

    /// Known words within a small edit distance of `word` (1 for 4–7 letters, 2 for longer), most used first.
    package func corrections(for word: String, limit: Int = 6) -> [String] {
        let query = Array(word.utf8)
        let maxDistance = query.count >= 8 ? 2 : 1
        // Known words have 2 to 40 bytes: a longer word is too far from every one of them.
        guard query.count >= 4, query.count <= 40 + maxDistance else { return [] }
        let letters = Self.letters(query)
        let (first, last) = lock.withLock { (byFirst, byLast) }
        guard !first.start.isEmpty else { return [] }
        let head = query[0]
        var found: [(word: String, distance: Int, count: Int32)] = []
        /// Compares the words of a bucket; with `otherFirst`, only those not starting as the query does.
        func scan(_ buckets: Buckets, _ bucket: Int, otherFirst: Bool) {
            let length = bucket >> 8
            buckets.bytes.withUnsafeBufferPointer { bytes in
                var offset = Int(buckets.byteStart[bucket])
                for slot in Int(buckets.start[bucket])..<Int(buckets.start[bucket + 1]) {
                    defer { offset += length }
                    guard (buckets.letters[slot] ^ letters).nonzeroBitCount <= 2 * maxDistance else { continue }
                    if otherFirst && bytes[offset] == head { continue }
                    let candidate = UnsafeBufferPointer(rebasing: bytes[offset..<offset + length])
                    guard !candidate.elementsEqual(query) else { continue }
                    if let distance = boundedLevenshtein(query, candidate, limit: maxDistance) {
                        found.append((String(decoding: candidate, as: UTF8.self), distance, buckets.counts[slot]))
                    }
                }
            }
        }
        for length in max(2, query.count - maxDistance)...min(40, query.count + maxDistance) {
            scan(first, length << 8 | Int(head), otherFirst: false)
            // Words that share only the last letter: those sharing the first were compared already.
            scan(last, length << 8 | Int(query[query.count - 1]), otherFirst: true)
        }
        found.sort { ($0.distance, -$0.count) < ($1.distance, -$1.count) }
        return found.prefix(limit).map(\.word)
    }
}
