/// Whether a candidate game has one of a query word's terms (its prefix, twin and corrections), asked of every
/// game a search walks: by the game's terms or, when the word lists few enough games, by the game's rank.
enum Membership {
    /// The query word's term ids, checked against the game's terms.
    case terms(BitSet)
    /// The ranks of the games the query word's terms list.
    case ranks(BitSet)

    /// A word listing at most this many games (duplicates counted) is checked by rank: building the set reads
    /// those lists in order, and each check is then one bit where checking by terms reads the game's words from
    /// four arrays spread over memory.
    static let rankSetLimit = 50_000

    init(_ ranges: [Range<Int32>], in index: NameIndex.Snapshot, rankSetLimit: Int) {
        if index.size(ranges) <= rankSetLimit {
            self = .ranks(.ranks(ranges, in: index))
        } else {
            self = .terms(.terms(ranges, in: index))
        }
    }

    func contains(_ rank: Int32, in index: NameIndex.Snapshot) -> Bool {
        switch self {
        case .terms(let set): index.has(rank, set)
        case .ranks(let set): set.contains(rank)
        }
    }
}

extension NameIndex.Snapshot {
    /// Whether the game has one of the terms in `set`.
    func has(_ rank: Int32, _ set: BitSet) -> Bool {
        for index in Int(nameStart[Int(rank)])..<Int(nameStart[Int(rank) + 1]) where set.contains(nameWords[index]) {
            return true
        }
        for index in Int(keywordStart[Int(rank)])..<Int(keywordStart[Int(rank) + 1])
        where set.contains(keywordTerms[index]) {
            return true
        }
        return false
    }
}

/// Numbers from 0 up to a bound, one bit each: term ids (whether a game has a term of a query word costs one bit
/// test per word of the game, however many ranges the word matches) or game ranks.
struct BitSet {
    private var bits: [UInt64]

    init(upTo count: Int) { bits = [UInt64](repeating: 0, count: count / 64 + 1) }

    mutating func insert(_ value: Int32) { bits[Int(value) >> 6] |= 1 << UInt64(value & 63) }

    func contains(_ value: Int32) -> Bool { bits[Int(value) >> 6] & (1 << UInt64(value & 63)) != 0 }

    /// The term ids in the ranges.
    static func terms(_ ranges: [Range<Int32>], in index: NameIndex.Snapshot) -> BitSet {
        var set = BitSet(upTo: index.terms.count)
        for range in ranges {
            for term in range { set.insert(term) }
        }
        return set
    }

    /// The ranks of the games the terms in the ranges list.
    static func ranks(_ ranges: [Range<Int32>], in index: NameIndex.Snapshot) -> BitSet {
        var set = BitSet(upTo: index.count)
        index.postings.withUnsafeBufferPointer { postings in
            for range in ranges {
                let lists =
                    Int(index.postingStart[Int(range.lowerBound)])..<Int(index.postingStart[Int(range.upperBound)])
                for position in lists { set.insert(postings[position]) }
            }
        }
        return set
    }
}
