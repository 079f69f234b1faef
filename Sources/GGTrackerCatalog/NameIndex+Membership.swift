/// Whether a candidate game has one of a query word's terms (its prefix, twin and corrections), asked of every
/// game a search walks: by the game's terms or, when the word lists few enough games, by the game's rank.
enum Membership {
    case terms(TermSet)
    case ranks(RankSet)

    /// A word listing at most this many games (duplicates counted) is checked by rank: building the set reads
    /// those lists in order, and each check is then one bit where checking by terms reads the game's words from
    /// four arrays spread over memory.
    static let rankSetLimit = 50_000

    init(_ ranges: [Range<Int32>], in index: NameIndex.Snapshot, rankSetLimit: Int) {
        if index.size(ranges) <= rankSetLimit {
            self = .ranks(RankSet(ranges, in: index))
        } else {
            self = .terms(TermSet(ranges, terms: index.terms.count))
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
    /// Whether the game has one of the terms.
    func has(_ rank: Int32, _ set: TermSet) -> Bool {
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

/// Term ids, one bit each: whether a game has a term of a query word (its prefix, twin and corrections) costs
/// one bit test per word of the game, however many ranges the word matches.
struct TermSet {
    private var bits: [UInt64]

    init(_ ranges: [Range<Int32>], terms: Int) {
        bits = [UInt64](repeating: 0, count: terms / 64 + 1)
        for range in ranges {
            for term in range { bits[Int(term) >> 6] |= 1 << UInt64(term & 63) }
        }
    }

    func contains(_ term: Int32) -> Bool { bits[Int(term) >> 6] & (1 << UInt64(term & 63)) != 0 }
}

/// Game ranks, one bit each: the games listed by some terms.
struct RankSet {
    private var bits: [UInt64]

    init(_ ranges: [Range<Int32>], in index: NameIndex.Snapshot) {
        var bits = [UInt64](repeating: 0, count: index.count / 64 + 1)
        index.postings.withUnsafeBufferPointer { postings in
            for range in ranges {
                for position in Int(
                    index.postingStart[Int(range.lowerBound)])..<Int(index.postingStart[Int(range.upperBound)])
                {
                    let rank = postings[position]
                    bits[Int(rank) >> 6] |= 1 << UInt64(rank & 63)
                }
            }
        }
        self.bits = bits
    }

    func contains(_ rank: Int32) -> Bool { bits[Int(rank) >> 6] & (1 << UInt64(rank & 63)) != 0 }
}
