import GGTrackerCore
import Testing

@Suite("Pasted game pages")
struct GameLinkTests {
    @Test(
        arguments: [
            ("https://store.steampowered.com/app/620/Portal_2/", 620, "Portal 2"),
            ("http://store.steampowered.com/app/1145360", 1_145_360, ""),
            ("https://steamcommunity.com/app/570/discussions/", 570, ""),
            ("https://www.igdb.com/games/hades--1", nil, "hades"),
            (
                "https://igdb.com/games/the-legend-of-zelda-breath-of-the-wild", nil,
                "the legend of zelda breath of the wild"
            ),
            ("https://www.igdb.com/games/half-life-2", nil, "half life 2"),
        ] as [(String, Int64?, String)])
    func aStoreOrCatalogPageIsReadForItsGame(text: String, steamAppID: Int64?, name: String) throws {
        let link = try #require(GameLink(text))
        #expect(link.steamAppID == steamAppID && link.name == name)
    }

    @Test(arguments: [
        "Portal 2", "https://example.com/app/620", "https://store.steampowered.com/bundle/234",
        "https://store.steampowered.com/app/zero", "https://www.igdb.com/companies/valve", "ftp://igdb.com/games/x",
        "see https://store.steampowered.com/app/620",
    ])
    func anythingElseIsNoLink(text: String) {
        #expect(GameLink(text) == nil)
    }
}
