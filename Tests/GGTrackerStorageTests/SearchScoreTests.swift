import Foundation
import GGTrackerCore
import Testing

@testable import GGTrackerCatalog

/// A candidate is ranked by comparing term ids; these tests hold that ranking to the rules as they read over words.
@Suite("Ranking search candidates by term ids")
struct SearchScoreTests {
    static let queries = [
        "witch", "witcher 3", "the witcher iii", "witcher3", "hollowknight", "hollow knigt", "zeldda ocarina",
        "final fantasy 7", "final fantasy vii", "fnal fantasy vii", "baldurs gate iii", "baldurs gate 3", "of the",
        "the", "star wars ii", "star wars 2", "vii", "7", "2", "mario kart 8", "super maro odyssey", "half lfe 2",
        "grand theft auto san andreas", "call of duty", "portl 2", "sonic", "re", "a", "dark souls", "mincraft",
        "rdr2", "botw", "ff7", "gta", "ac valhalla", "kotor", "hollowkn", "ds 3", "gta vi", "cyberpunk 2",
    ]

    /// Every query against a spread of the bundled catalog's names: the same score, and the same verdicts (all
    /// words matched, exact name, query covered), as the rules give when applied to the words themselves.
    @Test func termIdsRankLikeTheWordsTheyStandFor() async throws {
        let catalog = await LoadedBundledCatalog.on(.sqlite)
        let search = catalog.index
        let index = search.names.snapshot
        let ranks = Array(0..<Int32(400)) + stride(from: 400, to: Int32(index.count), by: 17)
        var compared = 0
        var differing: [String] = []
        for text in Self.queries {
            let words = search.queryWords(text)
            let byTerms = SearchIndex.TermQuery(SearchIndex.RankedQuery(words), terms: index.terms)
            for rank in ranks {
                let name = index.nameWords[Int(index.nameStart[Int(rank)])..<Int(index.nameStart[Int(rank) + 1])]
                let popularity = Double(index.popularity[Int(rank)])
                let secondary = index.secondary[Int(rank)]
                let keywords = index.keywordTerms[
                    Int(index.keywordStart[Int(rank)])..<Int(index.keywordStart[Int(rank) + 1])]
                let ours = search.score(
                    name: name, keywords: keywords, popularity: popularity, secondary: secondary, query: byTerms)
                let expected = WordRules.score(
                    nameWords: index.nameWords(rank), keywords: keywords.map { index.terms.word(Int($0)) },
                    popularity: popularity, secondary: secondary, query: words,
                    isNameWord: { index.terms.id(of: Array($0.utf8)) != nil })
                compared += 1
                if ours.score != expected.score || ours.matchedAll != expected.matchedAll
                    || ours.exactName != expected.exactName || ours.coversQuery != expected.coversQuery
                    || ours.isGuess != expected.isGuess
                {
                    differing.append("\(text) / \(index.nameWords(rank)): \(ours.score) vs \(expected.score)")
                }
            }
        }
        #expect(compared > 50_000)
        #expect(differing.isEmpty, "\(differing.prefix(5))")
    }

    /// Games outside the index (a caller's own shelves) are ranked by the same rules, over terms made of their names.
    @Test func gamesOutsideTheIndexRankByTheSameRules() async throws {
        let catalog = await LoadedBundledCatalog.on(.sqlite)
        let search = catalog.index
        let names = [
            "Final Fantasy VII", "Final Fantasy 7 Remake", "The Witcher 3: Wild Hunt", "Hollow Knight", "Of the Sea",
            "Star Wars: Episode II", "Portal 2", "Witch It", "Mario Kart 8 Deluxe",
        ]
        let local = TermList.naming(names.map(TextNormalizer.words))
        for text in Self.queries {
            let words = search.queryWords(text)
            let query = SearchIndex.TermQuery(SearchIndex.RankedQuery(words), terms: local.terms)
            for (name, terms) in zip(names, local.names) {
                let ours = search.score(name: terms[...], popularity: 0, secondary: false, query: query)
                let expected = WordRules.score(
                    nameWords: TextNormalizer.words(name), popularity: 0, secondary: false, query: words,
                    isNameWord: { local.terms.id(of: Array($0.utf8)) != nil })
                #expect(ours.score == expected.score, "\(text) / \(name)")
                #expect(ours.exactName == expected.exactName, "\(text) / \(name)")
                #expect(ours.isGuess == expected.isGuess, "\(text) / \(name)")
            }
        }
    }
}

/// The ranking rules applied to a name's words as text, the way they are stated.
enum WordRules {
    static func score(
        nameWords: [String], keywords: [String] = [], popularity: Double, secondary: Bool,
        query words: [SearchIndex.QueryWord], isNameWord: (String) -> Bool
    ) -> SearchIndex.Match {
        var exact = 0.0
        var prefix = 0.0
        var typo = 0.0
        // Words matched as typed, numbers aside; a word some name has as typed, corrected to another.
        var typedWords = 0
        var correctedANameWord = false
        var matchedAll = true
        var missing = 0
        var used: [String] = []
        let counted = words.filter { !$0.isStopWord }
        for word in counted {
            if nameWords.contains(word.text) || word.twin.map(nameWords.contains) == true {
                exact += 1
                if !word.isWhole { typedWords += 1 }
                used.append(word.text)
                if let twin = word.twin { used.append(twin) }
            } else if !word.isWhole, let match = nameWords.first(where: { $0.hasPrefix(word.text) }) {
                prefix += 1
                typedWords += 1
                used.append(match)
            } else if let joined = nameWords.indices.dropLast().first(where: {
                nameWords[$0] + nameWords[$0 + 1] == word.text
            }) {
                exact += 1
                typedWords += 1
                used.append(nameWords[joined])
                used.append(nameWords[joined + 1])
            } else if keywords.contains(word.text) {
                // The game's initials or another of its keywords, as typed or as its start.
                exact += 1
                typedWords += 1
            } else if !word.isWhole && word.text.utf8.count >= 2
                && keywords.contains(where: { $0.hasPrefix(word.text) })
            {
                prefix += 1
                typedWords += 1
            } else if let position = word.corrections.firstIndex(where: nameWords.contains) {
                typo += position == 0 ? 1 : 0.75
                if isNameWord(word.text) { correctedANameWord = true }
                used.append(word.corrections[position])
                matchedAll = false
            } else {
                matchedAll = false
                missing += 1
            }
        }
        let n = Double(max(1, counted.count))
        var score = 40 * exact / n + 28 * prefix / n + 18 * typo / n
        let queryCore = TextNormalizer.canonicalCore(words.map(\.text))
        let nameCore = TextNormalizer.canonicalCore(nameWords)
        let exactName = !queryCore.isEmpty && queryCore == nameCore
        if exactName { score += 25 }
        if nameCore.starts(with: queryCore) { score += 8 }
        let extra = nameWords.filter { !TextNormalizer.isStopWord($0) && !used.contains($0) }.count
        score -= 1.5 * Double(extra)
        if secondary && extra > 0 { score -= SearchIndex.secondaryPenalty }
        score += 2.5 * popularity
        return SearchIndex.Match(
            score: score, matchedAll: matchedAll && !counted.isEmpty, exactName: exactName,
            coversQuery: missing == 0 && !counted.isEmpty,
            isGuess: typedWords == 0 && (correctedANameWord || typo == 0 || exact + prefix == 0),
            exactWords: exact == n && !counted.isEmpty, popularity: popularity)
    }
}
