import Testing

@testable import GGTrackerCore

@Suite("Choosing a game from free text")
struct PickTests {
    func hit(
        _ id: Int64, _ name: String, score: Double, all: Bool = true, covers: Bool? = nil, exact: Bool = false,
        popularity: Double = 0, type: String? = nil
    ) -> SearchHit {
        SearchHit(
            game: Game(id: id, ref: GameRef(provider: "igdb", id: "\(id)"), name: name, gameType: type), score: score,
            matchedAllWords: all, exactName: exact, coversQuery: covers ?? all, popularity: popularity)
    }

    /// On the caller's shelves, the one game with every word as typed wins over those found only by correcting a
    /// word ("portal": Portal 2, not Postal III); two such games still ask.
    @Test func aShelfGameWithTheWordsAsTypedWinsOverCorrectedOnes() {
        let portal = hit(1, "Portal 2", score: 40)
        let postal = hit(2, "Postal III", score: 30, all: false, covers: true)
        #expect(TitlePick.fromShelves([postal, portal]) == .one(portal.game))
        let portalKnockoff = hit(3, "Portal Knights", score: 39)
        guard case .ambiguous(let games) = TitlePick.fromShelves([portal, portalKnockoff, postal]) else {
            Issue.record("expected a question")
            return
        }
        #expect(games.map(\.id) == [1, 3, 2])
    }

    @Test func aSingleExactNameWins() {
        let pick = TitlePick.fromCatalog([hit(1, "Hades", score: 50, exact: true), hit(2, "Hades II", score: 49)])
        #expect(pick == .one(hit(1, "Hades", score: 50).game))
    }

    @Test func namesakesWithoutAClearFavouriteAsk() {
        let pick = TitlePick.fromCatalog([
            hit(1, "Doom", score: 60, exact: true, popularity: 8.8),
            hit(2, "Doom", score: 58, exact: true, popularity: 8.4),
        ])
        guard case .ambiguous(let games) = pick else { Issue.record("expected a question"); return }
        #expect(games.map(\.id) == [1, 2])
    }

    @Test func aNamesakeWithTenTimesTheRatingsWins() {
        let pick = TitlePick.fromCatalog([
            hit(2, "Portal", score: 58, exact: true, popularity: 0.8),
            hit(1, "Portal", score: 60, exact: true, popularity: 7.9),
        ])
        #expect(pick == .one(hit(1, "Portal", score: 0).game))
    }

    @Test func mainGamesComeBeforeTheirPortsAmongNamesakes() {
        let pick = TitlePick.fromCatalog([
            hit(2, "BioShock", score: 70, exact: true, popularity: 6, type: "Port"),
            hit(1, "BioShock", score: 60, exact: true, popularity: 5.5, type: "Main Game"),
        ])
        #expect(pick == .one(hit(1, "BioShock", score: 0, type: "Main Game").game))
    }

    @Test func aClearLeaderWinsAndACloseSecondAsks() {
        #expect(
            TitlePick.fromCatalog([hit(1, "A", score: 50), hit(2, "B", score: 30)])
                == .one(hit(1, "A", score: 50).game))
        guard case .ambiguous = TitlePick.fromCatalog([hit(1, "A", score: 50), hit(2, "B", score: 48)]) else {
            Issue.record("expected a question")
            return
        }
    }

    @Test func typoCorrectedMatchesCountWhenTheyCoverTheQuery() {
        let corrected = TitlePick.fromCatalog([
            hit(1, "Hollow Knight", score: 50, all: false, covers: true), hit(2, "Hollow", score: 30, covers: false),
        ])
        #expect(corrected == .one(hit(1, "Hollow Knight", score: 0).game))
        let partial = TitlePick.fromCatalog([hit(1, "A", score: 30, all: false), hit(2, "B", score: 29, all: false)])
        guard case .none(let suggestions) = partial else { Issue.record("expected suggestions"); return }
        #expect(suggestions.count == 2)
        #expect(TitlePick.fromCatalog([]) == .none(suggestions: []))
    }

    /// "kingdom hearts 2.5": a better known game ranked first without every word does not hide the one with them all.
    @Test func theFirstResultWithEveryWordWins() {
        let hits = [
            hit(1, "Kingdom Hearts II", score: 50, all: false), hit(2, "Kingdom Hearts HD 2.5 Remix", score: 40),
        ]
        #expect(TitlePick.fromCatalog(hits) == .one(hits[1].game))
        let two = hits + [hit(3, "Kingdom Hearts HD 1.5 + 2.5 Remix", score: 38)]
        #expect(TitlePick.fromCatalog(two) == .ambiguous([hits[1].game, two[2].game]))
    }

    @Test func aNameMatchedOnlyThroughCorrectionsIsOfferedNotTaken() {
        let guess = [hit(1, "Astro Bot", score: 40, all: false, covers: true), hit(2, "Bot Vice", score: 20)]
        let isGuess = guess.enumerated().map { index, hit in
            var hit = hit
            hit.isGuess = index == 0
            return hit
        }
        guard case .none(let offered) = TitlePick.fromCatalog(isGuess) else {
            Issue.record("a guess should be offered")
            return
        }
        #expect(offered.map(\.id) == [1, 2])
        #expect(TitlePick.fromCatalog(isGuess, acceptingGuesses: true) == .one(guess[0].game))
    }

    @Test func theCallersShelvesDecideWhenOneGameMatches() {
        #expect(TitlePick.fromShelves([]) == nil)
        #expect(TitlePick.fromShelves([hit(1, "Portal", score: 40)]) == .one(hit(1, "Portal", score: 0).game))
        let two = TitlePick.fromShelves([
            hit(1, "Portal 2", score: 40), hit(2, "Portal", score: 50, exact: true),
        ])
        #expect(two == .one(hit(2, "Portal", score: 0).game))
        guard
            case .ambiguous(let games) = TitlePick.fromShelves([
                hit(1, "A b", score: 40), hit(2, "A c", score: 40),
            ])
        else { Issue.record("expected a question"); return }
        #expect(games.count == 2)
    }
}
