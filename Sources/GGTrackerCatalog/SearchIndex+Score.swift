import Foundation
import GGTrackerCore

extension SearchIndex {
    /// How well one game matched a query.
    struct Match {
        var score: Double
        var matchedAll: Bool
        var exactName: Bool
        var coversQuery: Bool
        var isGuess: Bool
        var exactWords: Bool
        var popularity: Double

        func hit(_ game: Game) -> SearchHit {
            SearchHit(
                game: game, score: score, matchedAllWords: matchedAll, exactName: exactName, coversQuery: coversQuery,
                isGuess: isGuess, exactWords: exactWords, popularity: popularity)
        }
    }

    /// What an add-on, edition, bundle or port loses against main games when its name has words the query
    /// does not name: about a prefix match on a two-word query.
    static let secondaryPenalty = 8.0

    /// A query's words with what ranking needs of them, worked out once per query rather than per candidate.
    struct RankedQuery {
        var words: [QueryWord]
        /// The words that count: stop words aside.
        var counted: [QueryWord]
        /// The query as a name (`TextNormalizer.canonicalCore`).
        var core: [String]

        init(_ words: [QueryWord]) {
            self.words = words
            counted = words.filter { !$0.isStopWord }
            core = TextNormalizer.canonicalCore(words.map(\.text))
        }
    }

    /// A ranked query looked up in one term list, so that a candidate, whose name is term ids of that list, is
    /// ranked by comparing numbers: no string is made for a candidate. A word of the query that is not a term can
    /// equal no word of a name, so it is simply left out.
    struct TermQuery {
        struct Word {
            /// The word and its numeral twin, when they are terms.
            var exact: Int32?
            var twin: Int32?
            /// The terms starting with the word (itself included); none for a number or a roman numeral, which
            /// match only whole ("gta vi" is not Vice City).
            var prefix: Range<Int32>
            var bytes: [UInt8]
            /// The typo corrections, closest first; nil for one that is not a term.
            var corrections: [Int32?]
            /// What matching it is worth against the query's other words: more for a word few games have.
            var weight = 1.0
        }

        let terms: TermList
        var counted: [Word]
        /// The query as a name (`TextNormalizer.canonicalCore`), word by word as `key(of:)` gives them.
        var core: [Int64]
        /// The stop words that are terms.
        var stopTerms: [Int32]
        /// The roman numerals (II to XVI) that are terms, with the key of their value in digits.
        var romanTerms: [(term: Int32, key: Int64)]

        /// `rarity` gives each counted word's weight (`SearchIndex.rarity`); without it, every word weighs the same.
        init(_ query: RankedQuery, terms: TermList, rarity: ((QueryWord) -> Double)? = nil) {
            self.terms = terms
            stopTerms = TextNormalizer.stopWords.compactMap { terms.id(of: Array($0.utf8)) }
            counted = query.counted.map { word in
                let bytes = Array(word.text.utf8)
                return Word(
                    exact: terms.id(of: bytes), twin: word.twin.flatMap { terms.id(of: Array($0.utf8)) },
                    prefix: word.isWhole ? 0..<0 : Int32(terms.lowerBound(bytes))..<Int32(terms.end(ofPrefix: bytes)),
                    bytes: bytes,
                    corrections: word.corrections.map { terms.id(of: Array($0.utf8)) }, weight: rarity?(word) ?? 1)
            }
            romanTerms = []
            core = []
            for (index, roman) in TextNormalizer.romans.enumerated() where index >= 1 {
                if let term = terms.id(of: Array(roman.utf8)) { romanTerms.append((term, key(of: String(index + 1)))) }
            }
            core = query.core.map { key(of: $0) }
        }

        /// A word of a canonical name as a number: its term id; a number no name writes in digits (a roman
        /// numeral's value) below zero; any other word that is not a term, a key no name word has.
        func key(of word: String) -> Int64 {
            if let term = terms.id(of: Array(word.utf8)) { return Int64(term) }
            if let value = Int(word), value >= 0, String(value) == word { return -Int64(value) - 1 }
            return Int64.min
        }

        /// The key of a name's word: a roman numeral stands for its value in digits.
        func key(of term: Int32) -> Int64 {
            for roman in romanTerms where roman.term == term { return roman.key }
            return Int64(term)
        }

        func isStopWord(_ term: Int32) -> Bool { stopTerms.contains(term) }

        /// Where two adjacent words of the name, joined, are the query word ("hollowknight").
        func joined(_ word: Word, in name: ArraySlice<Int32>) -> Int? {
            // Lengths first: most pairs are told apart without reading a byte.
            let start = terms.start
            return name.indices.dropLast().first { index in
                let first = Int(name[index])
                let second = Int(name[index + 1])
                let firstLength = Int(start[first + 1] - start[first])
                guard firstLength + Int(start[second + 1] - start[second]) == word.bytes.count else { return false }
                return word.bytes.starts(with: terms.utf8(first))
                    && word.bytes[firstLength...].elementsEqual(terms.utf8(second))
            }
        }
    }

    /// Ranks a candidate: words matched exactly beat prefixes, which beat typo corrections, each word counting by
    /// its weight, so that of two names with some of the words, the one with the rarer ones comes first ("hades
    /// deluxe edition": Hades before Distraint: Deluxe Edition); an exact name and
    /// a name that starts with the query win; extra words in the name cost a little, more for an add-on,
    /// edition, bundle or port; popularity breaks ties. `name` is the name's words as term ids of the query's
    /// term list; names have a few words, so they are searched in place. A word that no name word matches may
    /// match one of the game's `keywords` (its initials, "rdr" of "Red Dead Redemption 2", or joined words) as
    /// typed or as its start. It runs for up to 300 candidates a search: the name words a match used are kept on
    /// the stack, not in an array of their own.
    func score(
        name: ArraySlice<Int32>, keywords: ArraySlice<Int32> = [], popularity: Double, secondary: Bool,
        query: TermQuery
    ) -> Match {
        // Each query word uses at most two of the name's words.
        withUnsafeTemporaryAllocation(of: Int32.self, capacity: 2 * query.counted.count + 1) { used in
            score(
                name: name, keywords: keywords, popularity: popularity, secondary: secondary, query: query, used: used)
        }
    }

    private func score(
        name: ArraySlice<Int32>, keywords: ArraySlice<Int32>, popularity: Double, secondary: Bool, query: TermQuery,
        used: UnsafeMutableBufferPointer<Int32>
    ) -> Match {
        var exact = 0.0
        var prefix = 0.0
        var typo = 0.0
        var exactWords = 0
        // Words matched as typed, numbers aside, and whether a word that is some name's word as typed was corrected
        // to another: a name with no word as typed but numbers is a guess ("0" is no more Yakuza 0 than any other
        // game; "portal 3" is Postal III only by a guess, though its 3 is III), unless what it corrected is no word
        // of any name ("portl 2" is Portal 2).
        var typedWords = 0
        var correctedAWord = false
        var matchedAll = true
        var missing = 0
        var usedCount = 0
        func use(_ term: Int32) {
            used[usedCount] = term
            usedCount += 1
        }
        for word in query.counted {
            if word.exact.map(name.contains) == true || word.twin.map(name.contains) == true {
                exact += word.weight
                exactWords += 1
                if !word.prefix.isEmpty { typedWords += 1 }
                if let term = word.exact { use(term) }
                if let twin = word.twin { use(twin) }
            } else if let match = name.first(where: word.prefix.contains) {
                prefix += word.weight
                typedWords += 1
                use(match)
            } else if let joined = query.joined(word, in: name) {
                exact += word.weight
                exactWords += 1
                typedWords += 1
                use(name[joined])
                use(name[joined + 1])
            } else if word.exact.map(keywords.contains) == true {
                exact += word.weight
                exactWords += 1
                typedWords += 1
            } else if word.bytes.count >= 2 && keywords.contains(where: word.prefix.contains) {
                prefix += word.weight
                typedWords += 1
            } else if let position = word.corrections.firstIndex(where: { $0.map(name.contains) == true }),
                let fix = word.corrections[position]
            {
                // Corrections come closest and most used first: the likeliest reading earns the most.
                typo += (position == 0 ? 1 : 0.75) * word.weight
                if word.exact != nil { correctedAWord = true }
                use(fix)
                matchedAll = false
            } else {
                matchedAll = false
                missing += 1
            }
        }
        let n = query.counted.isEmpty ? 1 : query.counted.reduce(0) { $0 + $1.weight }
        var score = 40 * exact / n + 28 * prefix / n + 18 * typo / n
        // The name's canonical words against the query's: equal, or starting with them.
        let core = query.core
        var length = 0
        var startsWithQuery = true
        var extra = 0
        for term in name where !query.isStopWord(term) {
            if length < core.count && startsWithQuery && query.key(of: term) != core[length] { startsWithQuery = false }
            length += 1
            if !used[..<usedCount].contains(term) { extra += 1 }
        }
        startsWithQuery = startsWithQuery && length >= core.count
        let exactName = !core.isEmpty && startsWithQuery && length == core.count
        if exactName { score += 25 }
        if startsWithQuery { score += 8 }
        score -= 1.5 * Double(extra)
        if secondary && extra > 0 { score -= Self.secondaryPenalty }
        score += 2.5 * popularity
        return Match(
            score: score, matchedAll: matchedAll && !query.counted.isEmpty, exactName: exactName,
            coversQuery: missing == 0 && !query.counted.isEmpty,
            isGuess: typedWords == 0 && (correctedAWord || typo == 0 || exact + prefix == 0),
            exactWords: exactWords == query.counted.count && !query.counted.isEmpty, popularity: popularity)
    }
}

extension TermList {
    /// The id of exactly this word, if it is a term.
    func id(of word: [UInt8]) -> Int32? {
        let low = lowerBound(word)
        return low < count && compare(low, word) == 0 ? Int32(low) : nil
    }

    /// Names of games outside the index as term ids of a list made of their own words.
    static func naming(_ names: [[String]]) -> (terms: TermList, names: [[Int32]]) {
        var distinct: [String] = []
        var position: [String: Int] = [:]
        let positions = names.map { words in
            words.map { word in
                if let known = position[word] { return known }
                position[word] = distinct.count
                distinct.append(word)
                return distinct.count - 1
            }
        }
        let (terms, order) = sorting(distinct)
        var id = [Int32](repeating: 0, count: distinct.count)
        for (sorted, original) in order.enumerated() { id[original] = Int32(sorted) }
        return (terms, positions.map { $0.map { id[$0] } })
    }
}
