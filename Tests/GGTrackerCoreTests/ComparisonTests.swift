import Foundation
import Testing

@testable import GGTrackerCore

/// What `/compare` names as two players' biggest disagreement.
@Suite("Comparing two libraries")
struct ComparisonTests {
    static func comparison(_ scores: [(Int, Int)]) -> LibraryComparison {
        let shared = scores.enumerated().map { index, pair in
            let game = Game(id: Int64(index + 1), ref: GameRef(provider: "igdb", id: "\(index + 1)"), name: "G\(index)")
            var left = LibraryEntry(game: game, status: .completed, at: Date())
            var right = left
            left.score = pair.0
            right.score = pair.1
            return (game: game, left: left, right: right)
        }
        return LibraryComparison(
            shared: shared, leftFinishedRightWants: [], rightFinishedLeftWants: [], leftCount: scores.count,
            rightCount: scores.count)
    }

    @Test func theBiggestDisagreementIsAWholeStarApartAmongSeveralGames() {
        // Two games, 3 and 1 points apart: the first is named.
        #expect(Self.comparison([(9, 6), (7, 8)]).biggestDisagreement?.game.name == "G0")
        // One game both rated: nothing to choose from, however far apart.
        #expect(Self.comparison([(10, 2)]).biggestDisagreement == nil)
        // A point apart at most: no disagreement to name.
        #expect(Self.comparison([(8, 7), (6, 6)]).biggestDisagreement == nil)
        #expect(Self.comparison([(8, 7), (6, 6)]).compatibility == 94)
    }
}
