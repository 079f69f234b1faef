import Foundation
import Testing

@testable import GGTrackerCore

/// Games offered together (a question's buttons, autocomplete) are told apart by a platform only where they share
/// a name: a game's platforms come in no known order, so naming one elsewhere says nothing true.
@Suite("Naming games offered together")
struct GameLabelTests {
    func game(_ id: Int64, _ name: String, _ year: Int, _ platforms: [String]) -> Game {
        Game(
            id: id, ref: GameRef(provider: "igdb", id: "\(id)"), name: name,
            releaseDate: Calendar.utc.date(from: DateComponents(year: year, month: 6, day: 1)), platforms: platforms)
    }

    @Test func aPlatformTellsNamesakesApartAndIsLeftOutElsewhere() {
        let games = [
            game(1, "Doom", 2016, ["PlayStation 4", "PC (Microsoft Windows)", "Xbox One"]),
            game(2, "Doom", 2001, ["Game Boy Advance"]),
            game(3, "Hollow Knight", 2017, ["Linux", "Nintendo Switch", "PC (Microsoft Windows)"]),
            // Namesakes on the same platforms: the first that not every other one is on.
            game(4, "Tetris", 1984, ["Electronika 60", "Arcade"]),
            game(5, "TETRIS", 1988, ["Electronika 60", "NES"]),
            game(6, "Celeste", 2018, []),
        ]
        #expect(
            GGTrackerBot.labels(games) == [
                "Doom (2016) · PlayStation 4 +2", "Doom (2001) · Game Boy Advance", "Hollow Knight (2017)",
                "Tetris (1984) · Arcade +1", "TETRIS (1988) · NES +1", "Celeste (2018)",
            ])
    }

    /// The card and a search's line list platforms by name, a maker's together, numbers in their order.
    @Test func platformsAreShownInAnOrderAReaderKnows() {
        let hollow = game(
            1, "Hollow Knight", 2017,
            [
                "Xbox Series X|S", "PlayStation 4", "Linux", "Nintendo Switch 2", "PC (Microsoft Windows)",
                "PlayStation 5", "Mac", "Wii U", "Xbox One", "Nintendo Switch",
            ])
        #expect(
            Format.platforms(hollow.platforms) == [
                "Linux", "Mac", "Nintendo Switch", "Nintendo Switch 2", "PC (Microsoft Windows)", "PlayStation 4",
                "PlayStation 5", "Wii U", "Xbox One", "Xbox Series X|S",
            ])
        #expect(GGTrackerBot.oneLine(hollow) == "Linux, Mac, Nintendo Switch, Nintendo Switch 2 +6")
        #expect(
            Format.platforms(["PlayStation 10", "playstation 2", "PlayStation"]) == [
                "PlayStation", "playstation 2", "PlayStation 10",
            ])
    }

    @Test func aNameEndingWithItsYearIsNotGivenASecond() {
        #expect(game(1, "Doom (2016)", 2016, []).displayName == "Doom (2016)")
        #expect(game(2, "Doom", 2016, []).displayName == "Doom (2016)")
        #expect(game(3, "Godzilla (2014)", 2015, []).displayName == "Godzilla (2014)")
        #expect(game(4, "1942 (x)", 1984, []).displayName == "1942 (x) (1984)")
        #expect(game(5, "Area (51)", 2005, []).displayName == "Area (51) (2005)")
    }
}

@Suite("A title typed with its year")
struct DatedTitleTests {
    @Test(arguments: [
        ("Doom (1993)", "Doom", 1993), ("Doom(1993)", "Doom", 1993), ("doom 2016", "doom", 2016),
        ("Cyberpunk 2077", "Cyberpunk", 2077), (" Hollow Knight (2017) ", "Hollow Knight", 2017),
    ])
    func readsTheNameAndTheYear(text: String, name: String, year: Int) throws {
        let dated = try #require(TitleQuery.nameAndYear(text))
        #expect(dated.name == name && dated.year == year)
    }

    @Test(arguments: [
        "1942", "(1993)", "Doom1993", "Doom (199)", "Portal 2", "Doom (1993", "Doom 1993)", "Doom ٢٠١٦", "Doom +123",
        "Doom -001",
    ])
    func otherTextIsNoDatedName(text: String) {
        #expect(TitleQuery.nameAndYear(text) == nil)
    }
}
