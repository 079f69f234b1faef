import Foundation
import GGTrackerCore
import GGTrackerStorage
import Synchronization

/// The words of every catalog name, tokenised once and kept in memory in flat arrays, so a search or an
/// autocomplete over hundreds of thousands of games reads no table: games are numbered by popularity (rank 0 is
/// the most popular), every word lists the ranks of the games that have it, and a query walks those lists in
/// rank order until it has enough candidates. Only the games finally shown are read from the database.
package final class NameIndex: Sendable {
    struct Snapshot: Sendable {
        /// Every distinct word of names and keywords, sorted by bytes, so the words with a prefix are one range.
        var terms = TermList()
        /// Ranks of the games having term `t`: `postings[postingStart[t] ..< postingStart[t + 1]]`, ascending.
        var postingStart: [Int32] = [0]
        var postings: [Int32] = []
        /// The words of a game's name, as term ids, in order: `nameWords[nameStart[r] ..< nameStart[r + 1]]`.
        var nameStart: [Int32] = [0]
        var nameWords: [Int32] = []
        /// A game's keywords that are not words of its name (numeral twins, joined pairs):
        /// `keywordTerms[keywordStart[r] ..< keywordStart[r + 1]]`. With the name's words, all the game's terms.
        var keywordStart: [Int32] = [0]
        var keywordTerms: [Int32] = []
        var ids: [Int64] = []
        var popularity: [Float] = []
        var mature: [Bool] = []
        /// Add-ons, editions, bundles and ports (`Game.isSecondaryRelease`): ranked after main games.
        var secondary: [Bool] = []
        /// How many names use each term (for typo correction).
        var nameCounts: [Int32] = []
        /// (hash of the name's words, rank), sorted, to find games named exactly as a query. A 32-bit hash keeps
        /// this at 8 bytes a game; a rare collision only adds a candidate, which is ranked like the others.
        var exactNames: [(hash: UInt32, rank: Int32)] = []
        /// The catalog's generation the index was built from.
        var generation = -1

        var count: Int { ids.count }
    }

    private let current = Mutex(Snapshot())
    private let rebuilding = Mutex(false)

    package init() {}

    var snapshot: Snapshot { current.withLock { $0 } }

    /// The catalog's generation the index in use was built from.
    var generation: Int { current.withLock { $0.generation } }

    package var isEmpty: Bool { current.withLock { $0.count == 0 } }

    /// Whether the catalog changed since the index was built (another process imported or refreshed it).
    func refreshIfStale(_ database: AppDatabase, then done: @escaping @Sendable () -> Void) async {
        guard let generation = try? await database.catalogState.generation() else { return }
        refresh(unlessBuiltFrom: generation, database, then: done)
    }

    /// Rebuilds in the background when the catalog's generation (read by the caller) is not the one the index was
    /// built from; searches use the current index meanwhile.
    func refresh(
        unlessBuiltFrom generation: Int, _ database: AppDatabase, then done: @escaping @Sendable () -> Void
    ) {
        guard current.withLock({ $0.generation }) != generation else { return }
        let start = rebuilding.withLock { busy -> Bool in
            if busy { return false }
            busy = true
            return true
        }
        guard start else { return }
        Task.detached(priority: .utility) { [self] in
            try? await load(from: database)
            done()
            rebuilding.withLock { $0 = false }
        }
    }

    /// Games at least this popular (about a hundred ratings) are also found by their initials
    /// (`TextNormalizer.acronyms`): people abbreviate the games everyone knows, and only those.
    static let acronymPopularity = 4.0

    /// FNV-1a over the words joined by spaces, folded to 32 bits.
    static func hash(_ words: some Sequence<String>) -> UInt32 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        var first = true
        for word in words {
            if !first {
                hash = (hash ^ 0x20) &* 0x100_0000_01b3
            }
            first = false
            for byte in word.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        }
        return UInt32(truncatingIfNeeded: hash ^ (hash >> 32))
    }

    /// Reads every game's name and builds a new index, then swaps it in; searches meanwhile use the old one.
    package func load(from database: AppDatabase) async throws {
        var snapshot = Snapshot()
        // One pass over the games, streamed: words get provisional ids in order of appearance.
        var provisional: [String: Int32] = [:]
        var words: [String] = []
        var nameWords: [Int32] = []
        var nameStart: [Int32] = [0]
        var keywordTerms: [Int32] = []
        var keywordStart: [Int32] = [0]
        func id(_ word: String) -> Int32 {
            if let id = provisional[word] { return id }
            let id = Int32(words.count)
            provisional[word] = id
            words.append(word)
            return id
        }
        let generation = try await database.catalog.forEachName { row in
            let name = TextNormalizer.words(row.name)
            let ids = name.map(id)
            nameWords += ids
            nameStart.append(Int32(nameWords.count))
            var extra = Set<Int32>()
            for keyword in (row.keywords ?? "").split(separator: " ") { extra.insert(id(String(keyword))) }
            if (row.popularity ?? 0) >= Self.acronymPopularity {
                for acronym in TextNormalizer.acronyms(of: row.name) { extra.insert(id(acronym)) }
            }
            keywordTerms += extra.subtracting(ids)
            keywordStart.append(Int32(keywordTerms.count))
            snapshot.exactNames.append((Self.hash(TextNormalizer.canonicalCore(name)), Int32(snapshot.ids.count)))
            snapshot.ids.append(row.id)
            snapshot.popularity.append(Float(row.popularity ?? 0))
            snapshot.mature.append(row.mature ?? false)
            snapshot.secondary.append(Game.isSecondaryRelease(type: row.gameType))
        }
        snapshot.generation = generation
        // Sorted words, so a prefix is a range; provisional ids are mapped to sorted ones.
        provisional = [:]
        let (terms, order) = TermList.sorting(words)
        words = []
        snapshot.terms = terms
        var renumbered = [Int32](repeating: 0, count: order.count)
        for (sortedID, old) in order.enumerated() { renumbered[old] = Int32(sortedID) }
        snapshot.nameWords = nameWords.map { renumbered[Int($0)] }
        snapshot.nameStart = nameStart
        snapshot.keywordStart = keywordStart
        snapshot.keywordTerms = keywordTerms.map { renumbered[Int($0)] }
        nameWords = []
        keywordTerms = []
        let count = snapshot.ids.count
        var listCount = [Int32](repeating: 0, count: snapshot.terms.count)
        var nameCounts = [Int32](repeating: 0, count: snapshot.terms.count)
        for rank in 0..<count {
            snapshot.forEachTerm(of: Int32(rank)) { listCount[Int($0)] += 1 }
            let words = Int(snapshot.nameStart[rank])..<Int(snapshot.nameStart[rank + 1])
            for index in words where !snapshot.nameWords[words.lowerBound..<index].contains(snapshot.nameWords[index]) {
                nameCounts[Int(snapshot.nameWords[index])] += 1
            }
        }
        snapshot.nameCounts = nameCounts
        // Every word's list of games, ranks ascending, in one flat array.
        snapshot.postingStart = [0]
        snapshot.postingStart.reserveCapacity(snapshot.terms.count + 1)
        for n in listCount { snapshot.postingStart.append(snapshot.postingStart.last! + n) }
        var fill = Array(snapshot.postingStart.dropLast())
        // Filled in a local array: writing through `snapshot` while reading it would copy the array.
        var postings = [Int32](repeating: 0, count: Int(snapshot.postingStart.last!))
        for rank in 0..<count {
            snapshot.forEachTerm(of: Int32(rank)) { term in
                postings[Int(fill[Int(term)])] = Int32(rank)
                fill[Int(term)] += 1
            }
        }
        snapshot.postings = postings
        snapshot.exactNames.sort { ($0.hash, $0.rank) < ($1.hash, $1.rank) }
        current.withLock { $0 = snapshot }
        // Building took several times the index's size in temporary arrays; give that memory back.
        returnFreeMemory()
    }
}

extension NameIndex.Snapshot {
    /// The term ids starting with `prefix`.
    func range(prefix: String) -> Range<Int32> {
        let bytes = Array(prefix.utf8)
        return Int32(terms.lowerBound(bytes))..<Int32(terms.end(ofPrefix: bytes))
    }

    /// The id of exactly this term, as a range of one (or none).
    func range(exact word: String) -> Range<Int32> {
        let bytes = Array(word.utf8)
        let low = terms.lowerBound(bytes)
        return low < terms.count && terms.compare(low, bytes) == 0
            ? Int32(low)..<Int32(low + 1) : Int32(low)..<Int32(low)
    }

    /// How many games the ranges list, duplicates counted.
    func size(_ ranges: [Range<Int32>]) -> Int {
        ranges.reduce(0) { $0 + Int(postingStart[Int($1.upperBound)] - postingStart[Int($1.lowerBound)]) }
    }

    /// Every distinct term of a game: its name's words, then its other keywords.
    func forEachTerm(of rank: Int32, _ body: (Int32) -> Void) {
        let words = Int(nameStart[Int(rank)])..<Int(nameStart[Int(rank) + 1])
        for index in words {
            let term = nameWords[index]
            // Names seldom repeat a word; a repeat is skipped.
            if !nameWords[words.lowerBound..<index].contains(term) { body(term) }
        }
        for index in Int(keywordStart[Int(rank)])..<Int(keywordStart[Int(rank) + 1]) { body(keywordTerms[index]) }
    }

    /// The games listed by any term in `ranges`, most popular first, each once, passing `accept`, at most
    /// `limit` of them: a merge of the terms' lists that stops as soon as it has enough.
    func merged(_ ranges: [Range<Int32>], limit: Int, accept: (Int32) -> Bool) -> [Int32] {
        // Heads of every list: (rank, term, position).
        var heap: [(rank: Int32, end: Int32, position: Int32)] = []
        for range in ranges {
            for term in range {
                let start = postingStart[Int(term)]
                let end = postingStart[Int(term) + 1]
                if start < end { heap.append((postings[Int(start)], end, start)) }
            }
        }
        func less(_ a: Int, _ b: Int) -> Bool { heap[a].rank < heap[b].rank }
        func siftDown(_ start: Int) {
            var parent = start
            while true {
                let left = 2 * parent + 1
                guard left < heap.count else { return }
                var child = left
                if left + 1 < heap.count, less(left + 1, left) { child = left + 1 }
                guard less(child, parent) else { return }
                heap.swapAt(child, parent)
                parent = child
            }
        }
        if heap.count > 1 { for index in stride(from: heap.count / 2 - 1, through: 0, by: -1) { siftDown(index) } }
        var out: [Int32] = []
        var last: Int32 = -1
        while !heap.isEmpty && out.count < limit {
            let rank = heap[0].rank
            let next = heap[0].position + 1
            if next < heap[0].end {
                heap[0].position = next
                heap[0].rank = postings[Int(next)]
            } else {
                heap[0] = heap[heap.count - 1]
                heap.removeLast()
            }
            if !heap.isEmpty { siftDown(0) }
            if rank != last {
                last = rank
                if accept(rank) { out.append(rank) }
            }
        }
        return out
    }

    /// The words of a game's name.
    func nameWords(_ rank: Int32) -> [String] {
        (Int(nameStart[Int(rank)])..<Int(nameStart[Int(rank) + 1])).map { terms.word(Int(nameWords[$0])) }
    }

    /// Games whose name, stop words aside and numerals alike, is exactly these words.
    func exactlyNamed(_ words: [String]) -> [Int32] {
        let hash = NameIndex.hash(TextNormalizer.canonicalCore(words))
        var low = 0
        var high = exactNames.count
        while low < high {
            let mid = (low + high) / 2
            if exactNames[mid].hash < hash { low = mid + 1 } else { high = mid }
        }
        var out: [Int32] = []
        while low < exactNames.count, exactNames[low].hash == hash, out.count < 20 {
            out.append(exactNames[low].rank)
            low += 1
        }
        return out
    }
}

/// Sorted words in one byte buffer — word `t` is `bytes[start[t] ..< start[t + 1]]` — ordered by their UTF-8
/// bytes: half the memory of an array of strings, and no allocation for each long word.
struct TermList: Sendable {
    var bytes: [UInt8] = []
    var start: [Int32] = [0]

    var count: Int { start.count - 1 }

    /// The words sorted, and for each position the index in `words` it came from.
    static func sorting(_ words: [String]) -> (TermList, [Int]) {
        var unsorted = TermList()
        for word in words { unsorted.append(word.utf8) }
        let order = unsorted.bytes.withUnsafeBufferPointer { buffer in
            words.indices.sorted { unsorted.compare($0, $1, in: buffer) < 0 }
        }
        var sorted = TermList()
        sorted.bytes.reserveCapacity(unsorted.bytes.count)
        sorted.start.reserveCapacity(unsorted.start.count)
        for index in order {
            sorted.append(unsorted.bytes[Int(unsorted.start[index])..<Int(unsorted.start[index + 1])])
        }
        return (sorted, order)
    }

    mutating func append(_ word: some Collection<UInt8>) {
        bytes += word
        start.append(Int32(bytes.count))
    }

    func word(_ t: Int) -> String {
        String(decoding: bytes[Int(start[t])..<Int(start[t + 1])], as: UTF8.self)
    }

    /// The bytes of word `t`.
    func utf8(_ t: Int) -> ArraySlice<UInt8> { bytes[Int(start[t])..<Int(start[t + 1])] }

    private func compare(_ a: Int, _ b: Int, in buffer: UnsafeBufferPointer<UInt8>) -> Int32 {
        let aStart = Int(start[a])
        let aLength = Int(start[a + 1]) - aStart
        let bStart = Int(start[b])
        let bLength = Int(start[b + 1]) - bStart
        let common = memcmp(buffer.baseAddress! + aStart, buffer.baseAddress! + bStart, min(aLength, bLength))
        return common != 0 ? common : Int32(aLength - bLength).signum()
    }

    /// Word `t` against `word` by bytes: negative, zero or positive.
    func compare(_ t: Int, _ word: [UInt8]) -> Int32 {
        bytes.withUnsafeBufferPointer { buffer in
            word.withUnsafeBufferPointer { other in
                let length = Int(start[t + 1] - start[t])
                let common = min(length, other.count)
                let result =
                    common == 0 ? 0 : memcmp(buffer.baseAddress! + Int(start[t]), other.baseAddress!, common)
                return result != 0 ? result : Int32(length - other.count).signum()
            }
        }
    }

    /// The first word not ordered before `word`.
    func lowerBound(_ word: [UInt8]) -> Int {
        var low = 0
        var high = count
        while low < high {
            let mid = (low + high) / 2
            if compare(mid, word) < 0 { low = mid + 1 } else { high = mid }
        }
        return low
    }

    /// The first word after every word starting with `prefix`.
    func end(ofPrefix prefix: [UInt8]) -> Int {
        var low = lowerBound(prefix)
        var high = count
        while low < high {
            let mid = (low + high) / 2
            if utf8(mid).starts(with: prefix) { low = mid + 1 } else { high = mid }
        }
        return low
    }
}

/// Returns memory the process has freed to the system. The C allocator keeps freed memory for reuse, and after a
/// burst of requests or an index build that can be megabytes nobody uses.
package func returnFreeMemory() {
    #if os(Linux)
        _ = mallocTrim(0)
    #endif
}

#if os(Linux)
    /// glibc's `malloc_trim`.
    @_silgen_name("malloc_trim")
    private func mallocTrim(_ pad: Int) -> Int32
#endif
