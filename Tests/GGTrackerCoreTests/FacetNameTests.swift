import GGTrackerCore
import Testing

/// Genre, platform and mode names typed as people say them, against the catalog's own names.
@Suite("Facet names as typed")
struct FacetNameTests {
    static let genres = [
        "Adventure", "Arcade", "Card & Board Game", "Fighting", "Hack and slash/Beat 'em up", "Indie", "MOBA",
        "Music", "Pinball", "Platform", "Point-and-click", "Puzzle", "Quiz/Trivia", "Racing",
        "Real Time Strategy (RTS)", "Role-playing (RPG)", "Shooter", "Simulator", "Sport", "Strategy", "Tactical",
        "Turn-based strategy (TBS)", "Visual Novel",
    ]
    static let modes = [
        "Battle Royale", "Co-operative", "Massively Multiplayer Online (MMO)", "Multiplayer", "Single player",
        "Split screen",
    ]
    static let platforms = [
        "Mac", "New Nintendo 3DS", "Nintendo 3DS", "Nintendo 64", "Nintendo DS", "Nintendo DSi",
        "Nintendo GameCube", "Nintendo Switch", "Nintendo Switch 2", "PC (Microsoft Windows)", "PC-8800 Series",
        "PC-FX", "Playdate", "PlayStation", "PlayStation 2", "PlayStation 3", "PlayStation 4", "PlayStation 5",
        "PlayStation Portable", "PlayStation Vita", "Sega Mega Drive/Genesis", "Wii", "Wii U", "Windows Mixed Reality",
        "Windows Mobile", "Windows Phone", "Xbox", "Xbox 360", "Xbox One", "Xbox Series X|S",
    ]

    @Test(arguments: [
        ("rpg", "Role-playing (RPG)"), ("role playing", "Role-playing (RPG)"),
        ("ROLE-PLAYING (rpg)", "Role-playing (RPG)"),
        ("rts", "Real Time Strategy (RTS)"), ("sports", "Sport"), ("platformer", "Platform"), ("fps", "Shooter"),
        ("shooters", "Shooter"), ("simulation", "Simulator"), ("beat em up", "Hack and slash/Beat 'em up"),
        ("card game", "Card & Board Game"), ("point and click", "Point-and-click"), ("trivia", "Quiz/Trivia"),
        ("adventrue", "Adventure"),
    ])
    func genresAsTyped(_ typed: String, _ name: String) {
        #expect(FacetName.resolve(typed, among: Self.genres) == .found(name))
    }

    @Test(arguments: [
        ("coop", "Co-operative"), ("co-op", "Co-operative"), ("single", "Single player"),
        (
            "mmo",
            "Massively Multiplayer Online (MMO)"
        ), ("splitscreen", "Split screen"), ("multi", "Multiplayer"),
    ])
    func modesAsTyped(_ typed: String, _ name: String) {
        #expect(FacetName.resolve(typed, among: Self.modes) == .found(name))
    }

    @Test(arguments: [
        ("ps4", "PlayStation 4"), ("PS 4", "PlayStation 4"), ("playstation4", "PlayStation 4"),
        ("ps3", "PlayStation 3"),
        ("psx", "PlayStation"), ("vita", "PlayStation Vita"), ("switch", "Nintendo Switch"),
        ("switch 2", "Nintendo Switch 2"), ("pc", "PC (Microsoft Windows)"), ("windows", "PC (Microsoft Windows)"),
        ("genesis", "Sega Mega Drive/Genesis"), ("mega drive", "Sega Mega Drive/Genesis"), ("3ds", "Nintendo 3DS"),
        ("wiiu", "Wii U"), ("xbox", "Xbox"), ("xbox 1", "Xbox One"), ("series x", "Xbox Series X|S"),
        ("playstaton 4", "PlayStation 4"), ("gamecube", "Nintendo GameCube"),
        ("gamecub", "Nintendo GameCube"), ("nintendo swich", "Nintendo Switch"),
    ])
    func platformsAsTyped(_ typed: String, _ name: String) {
        #expect(FacetName.resolve(typed, among: Self.platforms) == .found(name))
    }

    /// A kept matcher answers as `resolve` does; without typos it takes names as typed only, and turns the rest down.
    @Test func aMatcherWithoutTyposTakesNamesAsTyped() {
        let platforms = FacetName.Matcher(Self.platforms)
        let genres = FacetName.Matcher(Self.genres)
        for (typed, name) in [
            ("ps4", "PlayStation 4"), ("switch", "Nintendo Switch"), ("switch 2", "Nintendo Switch 2"),
            ("pc", "PC (Microsoft Windows)"), ("genesis", "Sega Mega Drive/Genesis"), ("xbox 1", "Xbox One"),
            ("gamecube", "Nintendo GameCube"), ("playstation4", "PlayStation 4"), ("wiiu", "Wii U"),
        ] {
            #expect(platforms.resolve(typed, typos: false) == .found(name), "\(typed)")
            #expect(platforms.resolve(typed) == FacetName.resolve(typed, among: Self.platforms), "\(typed)")
        }
        for (typed, name) in [
            ("rpg", "Role-playing (RPG)"), ("platformer", "Platform"), ("card game", "Card & Board Game"),
        ] {
            #expect(genres.resolve(typed, typos: false) == .found(name), "\(typed)")
        }
        for typed in ["playstaton 4", "gamecub", "hunt", "wild hunt", "lfe 2"] {
            #expect(platforms.resolve(typed, typos: false) == .unknown, "\(typed)")
        }
        #expect(platforms.resolve("playstaton 4") == .found("PlayStation 4"))
    }

    @Test func severalFitOrNone() {
        guard case .several(let nintendo) = FacetName.resolve("nintendo", among: Self.platforms) else {
            Issue.record("“nintendo” should fit several platforms")
            return
        }
        #expect(nintendo.prefix(3) == ["Nintendo 3DS", "Nintendo 64", "Nintendo DS"])
        #expect(nintendo.count == 7 && nintendo.allSatisfy { $0.hasPrefix("Nintendo ") }, "\(nintendo)")
        // A number is never a typo: there is no PlayStation 9, and "ps3" is not "ps4".
        for typed in ["playstation 9", "ps9", "xyz", "", "  "] {
            #expect(FacetName.resolve(typed, among: Self.platforms) == .unknown, "\(typed)")
        }
        // A short name whose name the catalog does not have is not used.
        #expect(FacetName.resolve("ps4", among: ["PlayStation 3"]) == .unknown)
    }

    @Test func theClosestNamesAreSuggested() {
        #expect(FacetName.closest(to: "Platfromer", among: Self.genres, limit: 5) == ["Platform"])
        #expect(FacetName.closest(to: "Stratgey", among: Self.genres, limit: 5).first == "Strategy")
        #expect(FacetName.closest(to: "xyz", among: Self.platforms, limit: 5).isEmpty)
    }
}
