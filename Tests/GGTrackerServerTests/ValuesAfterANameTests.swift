import Foundation
import GGTrackerCore
import Testing

@testable import GGTrackerServer

/// "!gg rate celeste 9 amazing game": a score (or a status, hours with their unit, a percent) right after a game's
/// name, then words no option takes. No game has the whole title as its name: the game is offered with the values
/// read, the words left over are named, and nothing is stored until the offer is taken.
@Suite("Values typed after a game's name, with words after them")
struct ValuesAfterANameTests {
    /// The Matrix user of the hint tests, and their helpers: what a line is answered, and the user's copy of a game.
    let hints = TextHintTests()

    func body(_ harness: TestHarness, _ line: String) async throws -> String {
        try await hints.matrixBody(harness, line)
    }

    func entry(_ harness: TestHarness, igdb id: String) async throws -> LibraryEntry? {
        try await hints.entry(harness, igdb: id)
    }

    @Test(arguments: [
        ("!gg rate celeste 9 amazing game", "`score:9`", "“amazing game”", "!gg rate title:igdb:26226 score:9"),
        ("!gg rate celeste 9/10 - loved it", "`score:9`", "“loved it”", "!gg rate title:igdb:26226 score:9"),
        ("!gg rate celeste 9, loved it", "`score:9`", "“loved it”", "!gg rate title:igdb:26226 score:9"),
        ("!gg rate celeste 4.5 stars so good", "`score:9`", "“so good”", "!gg rate title:igdb:26226 score:9"),
        (
            "!gg progress celeste 5h almost there", "`hours:5`", "“almost there”",
            "!gg progress title:igdb:26226 hours:5"
        ),
        (
            "!gg add celeste playing since monday", "`status:playing`", "“since monday”",
            "!gg add title:igdb:26226 status:playing"
        ),
    ])
    func theGameIsOfferedWithTheValuesAndTheRestIsNamed(
        _ line: String, _ values: String, _ rest: String, _ hint: String
    ) async throws {
        let harness = try await TestHarness()
        // Hours go to a game on the shelves: Celeste is there for /progress.
        if line.contains("progress") { _ = try await body(harness, "!gg add Celeste") }
        let before = try await entry(harness, igdb: "26226")
        let offer = try await body(harness, line)
        #expect(offer.contains("Did you mean Celeste (2018) with \(values)?"), "\(offer)")
        #expect(offer.contains("\(rest) fits no option of"), "\(offer)")
        #expect(offer.contains("reply \(hint)"), "\(offer)")
        #expect(try await entry(harness, igdb: "26226") == before)
        // The hint, sent as written, does what was offered.
        let taken = try await body(harness, hint)
        #expect(taken.contains("alice") && taken.contains("Celeste (2018)"), "\(taken)")
        let after = try #require(try await entry(harness, igdb: "26226"))
        #expect(after.score == (values == "`score:9`" ? 9 : nil))
        #expect(after.hours == (values == "`hours:5`" ? 5 : nil))
        #expect(after.status == (values == "`score:9`" ? .completed : .playing))
    }

    /// A bare number after a name is a score's only: "celeste 5 almost there" typed to /progress is not offered as
    /// 5 hours.
    @Test func aBareNumberIsNoHours() async throws {
        let harness = try await TestHarness()
        let offer = try await body(harness, "!gg progress celeste 5 almost there")
        #expect(!offer.contains("hours:5"), "\(offer)")
        #expect(offer.contains("No game matches"), "\(offer)")
    }

    /// "!gg progress celeste 9": a whole number ending a title that names no game, where the rest names one, is
    /// offered as the hours played, never run (a sequel's number may be mistyped); with several games for the
    /// rest ("final fantasy 17") nothing is read into hours.
    @Test func aWholeNumberEndingATitleNamingNoGameIsOfferedAsHours() async throws {
        let harness = try await TestHarness()
        _ = try await body(harness, "!gg add Celeste")
        let offer = try await body(harness, "!gg progress celeste 9")
        #expect(offer.contains("Did you mean: Celeste (2018) with `hours:9`?"), "\(offer)")
        #expect(offer.contains("reply !gg progress title:igdb:26226 hours:9"), "\(offer)")
        #expect(try await entry(harness, igdb: "26226")?.hours == nil)
        let sequel = try await body(harness, "!gg progress final fantasy 17")
        #expect(sequel.contains("No game matches") && !sequel.contains("hours:17"), "\(sequel)")
        // With a decimal part, which names rarely have, it runs.
        _ = try await body(harness, "!gg progress celeste 4.5")
        #expect(try await entry(harness, igdb: "26226")?.hours == 4.5)
    }
}
