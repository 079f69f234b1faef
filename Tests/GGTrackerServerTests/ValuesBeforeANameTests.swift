import Foundation
import GGTrackerCore
import Testing

@testable import GGTrackerServer

/// "!gg progress 12h hollow knight", "!gg rate 9 celeste": values typed before a game's name. No game has the whole
/// title as its name: values written with their unit (or sign) are taken with the game the rest names, as they are
/// when written after it; a bare number first is offered as a score, never run, as a name may start with a number.
@Suite("Values typed before a game's name")
struct ValuesBeforeANameTests {
    /// The hint tests' Matrix user: what a line is answered (`matrixBody`), and the user's copy of a game (`entry`).
    let hints = TextHintTests()

    @Test(
        arguments: [
            ("!gg progress 12h hollow knight", "14593", 12.0, nil, nil),
            ("!gg progress 14 hours of hollow knight", "14593", 14, nil, nil),
            ("!gg progress 50% hollow knight", "14593", nil, 50, nil),
            ("!gg progress 3h 25% hollow knight", "14593", 3, 25, nil),
            ("!gg rate 9/10 hollow knight", "14593", nil, nil, 9),
            ("!gg add 3h portal 2", "72", 3, nil, nil),
        ] as [(String, String, Double?, Int?, Int?)])
    func valuesWithTheirUnitAreTakenWithTheGame(
        _ line: String, _ id: String, _ hours: Double?, _ percent: Int?, _ score: Int?
    ) async throws {
        let harness = try await TestHarness()
        if !line.contains("add") { _ = try await hints.matrixBody(harness, "!gg add Hollow Knight") }
        let answer = try await hints.matrixBody(harness, line)
        #expect(answer.contains("alice") && !answer.contains("No game matches"), "\(answer)")
        let stored = try #require(try await hints.entry(harness, igdb: id), "\(answer)")
        #expect(stored.hours == hours && stored.percent == percent && stored.score == score, "\(line)")
    }

    /// Hours added ("+2h hollow knight") are added to those played.
    @Test func signedHoursFirstAreAdded() async throws {
        let harness = try await TestHarness()
        _ = try await hints.matrixBody(harness, "!gg add Hollow Knight --hours 5")
        let answer = try await hints.matrixBody(harness, "!gg progress +2h hollow knight")
        #expect(answer.contains("2 h added: 7 h in all."), "\(answer)")
        #expect(try await hints.entry(harness, igdb: "14593")?.hours == 7)
    }

    /// "!gg rate 9 celeste": offered with the score, nothing stored until the offer is taken.
    @Test func aBareNumberFirstIsOfferedAsAScore() async throws {
        let harness = try await TestHarness()
        let offer = try await hints.matrixBody(harness, "!gg rate 9 celeste")
        #expect(offer.contains("Did you mean: Celeste (2018) with `score:9`?"), "\(offer)")
        #expect(offer.contains("reply !gg rate title:igdb:26226 score:9"), "\(offer)")
        #expect(try await hints.entry(harness, igdb: "26226") == nil)
        let taken = try await hints.matrixBody(harness, "!gg rate title:igdb:26226 score:9")
        #expect(taken.contains("rated Celeste (2018)"), "\(taken)")
        #expect(try await hints.entry(harness, igdb: "26226")?.score == 9)
    }

    /// A bare number before a name is no hours ("!gg progress 9 celeste"): a name may start with a number.
    @Test func aBareNumberFirstIsNoHours() async throws {
        let harness = try await TestHarness()
        _ = try await hints.matrixBody(harness, "!gg add Celeste")
        let bare = try await hints.matrixBody(harness, "!gg progress 9 celeste")
        #expect(!bare.contains("hours:9") && !bare.contains("updated"), "\(bare)")
        #expect(try await hints.entry(harness, igdb: "26226")?.hours == nil)
    }
}
