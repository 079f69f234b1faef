/// Which game a title typed as free text means, given what a search found.
enum TitlePick: Equatable {
    case one(Game)
    case ambiguous([Game])
    case none(suggestions: [Game])

    /// A lead in popularity that means about ten times the ratings (popularity counts ratings on a log scale).
    static let clearFavourite = 2.0

    /// Games on the caller's shelves that match the words: one is the answer, several with one exact name is that
    /// one, and so is the one with every word as typed among others found only by correcting one ("portal" is
    /// Portal 2 beside Postal III); several others are a question; none leaves the choice to the catalog.
    static func fromShelves(_ hits: [SearchHit]) -> TitlePick? {
        guard !hits.isEmpty else { return nil }
        if hits.count == 1 { return .one(hits[0].game) }
        let exact = hits.filter(\.exactName)
        if exact.count == 1 { return .one(exact[0].game) }
        let typed = hits.filter(\.matchedAllWords)
        if exact.isEmpty, typed.count == 1 { return .one(typed[0].game) }
        return .ambiguous((exact.isEmpty ? hits : exact).prefix(5).map(\.game))
    }

    /// The rule for free text over the catalog: an exact name wins — among namesakes, main games first, the most
    /// widely rated when it has about ten times the ratings of the next, else a question; otherwise the search's
    /// first result that matches every word (typos corrected) wins when no other such match is close; a close one
    /// asks; matches that miss a word are only suggestions: the first three the channel may show (without
    /// `showsMature`, not age-restricted ones), or when it may show none of them, those it may not.
    static func fromCatalog(_ hits: [SearchHit], acceptingGuesses: Bool = false, showsMature: Bool = true) -> TitlePick
    {
        guard !hits.isEmpty else { return .none(suggestions: []) }
        let exact = hits.filter(\.exactName)
        if !exact.isEmpty {
            let mains = exact.filter(\.game.isMainGame)
            let pool = (mains.isEmpty ? exact : mains).sorted { $0.popularity > $1.popularity }
            if pool.count == 1 || pool[0].popularity - pool[1].popularity >= clearFavourite {
                return .one(pool[0].game)
            }
            return .ambiguous(pool.prefix(5).map(\.game))
        }
        // The first result with every word, as `/search` shows them: "kingdom hearts 2.5" is Kingdom Hearts HD 2.5
        // Remix, not the better known Kingdom Hearts II ranked above it without the 5. A guess (`SearchHit.isGuess`:
        // "botw" is not "Astro Bot", "0" not Yakuza 0) is offered, not taken, unless the command only shows the game.
        let covering = hits.filter(\.coversQuery)
        guard let first = covering.first, acceptingGuesses || !first.isGuess else {
            let shown = hits.filter { showsMature || !$0.game.isMature }
            return .none(suggestions: Array((shown.isEmpty ? hits : shown).prefix(3).map(\.game)))
        }
        let close = covering.dropFirst().filter { $0.score >= first.score * 0.9 }
        return close.isEmpty ? .one(first.game) : .ambiguous(([first] + close).prefix(5).map(\.game))
    }
}
