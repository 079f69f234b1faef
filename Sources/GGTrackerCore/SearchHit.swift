import Foundation

/// Which catalog games a command may show.
package struct CatalogFilter: Hashable, Sendable {
    package var platform: String?
    package var genre: String?
    package var year: Int?
    /// False hides games rated ESRB M/AO or PEGI 18.
    package var includeMature: Bool

    package init(platform: String? = nil, genre: String? = nil, year: Int? = nil, includeMature: Bool = true) {
        self.platform = platform
        self.genre = genre
        self.year = year
        self.includeMature = includeMature
    }
}

/// One search result with how well it matched.
package struct SearchHit: Hashable, Sendable {
    package var game: Game
    /// Higher is better; comparable within one search only.
    package var score: Double
    /// How widely rated the game is, on a log scale: a lead of 2 is about ten times the ratings.
    package var popularity: Double
    /// Every word of the query matched a word of the name exactly or as a prefix (no typo correction needed).
    package var matchedAllWords: Bool
    /// The normalised name equals the normalised query (stop words aside, numerals alike).
    package var exactName: Bool
    /// Every word of the query matched a word of the name, typo corrections included.
    package var coversQuery: Bool
    /// Every word of the query is a whole word of the name as typed (or its numeral twin, joined words or
    /// initials): no prefix, no correction.
    package var exactWords: Bool
    /// A guess, which only a command that shows the game takes: no word of the query matched a word of the name as
    /// typed but numbers, and every other one that matched is a correction of a word some name has ("botw" → "bot";
    /// "portal 3" → Postal III, whose III is the 3) or there is none ("0" → Yakuza 0). "portl 2" is no guess.
    package var isGuess: Bool

    package init(
        game: Game, score: Double, matchedAllWords: Bool, exactName: Bool, coversQuery: Bool? = nil,
        isGuess: Bool = false, exactWords: Bool = false, popularity: Double = 0
    ) {
        self.game = game
        self.score = score
        self.matchedAllWords = matchedAllWords
        self.exactName = exactName
        self.coversQuery = coversQuery ?? matchedAllWords
        self.isGuess = isGuess
        self.exactWords = exactWords
        self.popularity = popularity
    }
}
