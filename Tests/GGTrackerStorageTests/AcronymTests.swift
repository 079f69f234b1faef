import GGTrackerCatalog
import Testing

/// The initials a well-known game is found by.
@Suite("Initials of game names")
struct AcronymTests {
    @Test(
        arguments: [
            ("Red Dead Redemption 2", ["rdr"]),
            ("The Legend of Zelda: Breath of the Wild", ["tloz", "botw"]),
            ("Final Fantasy VII", ["ff"]),
            ("Baldur's Gate III", ["bg"]),
            ("Grand Theft Auto V", ["gta"]),
            ("Star Wars: Knights of the Old Republic", ["kotor"]),
            ("Call of Duty: Modern Warfare 2", ["cod", "mw"]),
            ("Mario Kart 8 Deluxe", ["mk"]),
            ("The Witcher 3: Wild Hunt - Blood and Wine", ["tw", "baw"]),
            ("World of Warcraft", ["wow"]),
            ("Hollow Knight", []),
            ("Portal 2", []),
            ("Celeste", []),
        ] as [(String, [String])])
    func initialsOfEachPart(_ name: String, _ expected: [String]) {
        #expect(TextNormalizer.acronyms(of: name) == expected)
    }
}
