import Foundation
import GGTrackerCore
import GGTrackerStorage
import Testing

@Suite("A library's favorites listed, on SQLite and PostgreSQL")
struct FavoriteListTests {
    /// `/list favorites:true` keeps to the games marked favorite and counts them alone, with a status or a tag too;
    /// read with the caller as well, as `/list` of one's own library is.
    @Test(arguments: Backend.all)
    func aListOfFavoritesHoldsThemAndCountsThem(_ backend: Backend) async throws {
        let f = try await LibraryFixture(backend)
        let database = f.database
        let alice = try await f.player("alice")
        func keep(_ game: Game, _ status: GameStatus, favorite: Bool, tags: [String] = []) async throws {
            try await database.library.updateEntry(of: alice.id, game: game) { entry in
                var e = LibraryEntry(game: game, status: status, at: f.now)
                e.favorite = favorite
                e.tags = tags
                entry = e
            }
        }
        try await keep(f.celeste, .completed, favorite: true, tags: ["co-op"])
        try await keep(f.hades, .playing, favorite: false, tags: ["co-op"])
        func listed(_ status: GameStatus? = nil, tag: String? = nil) async throws -> LibraryPage {
            try await database.library.library(
                of: alice.id, status: status, sort: .name, includeMature: true, page: 1, pageSize: 10, tag: tag,
                favorites: true)
        }
        let all = try await listed()
        #expect(all.page.items.map(\.game.name) == ["Celeste"] && all.page.total == 1)
        #expect(all.statusCounts == [.completed: 1])
        let playing = try await listed(.playing)
        #expect(playing.page.items.isEmpty && playing.statusCounts == [.completed: 1])
        let coop = try await listed(tag: "co-op")
        #expect(coop.page.items.map(\.game.name) == ["Celeste"] && coop.statusCounts == [.completed: 1])
        let whole = try await database.library.library(
            of: alice.id, status: nil, sort: .name, includeMature: true, page: 1, pageSize: 10, tag: "co-op")
        #expect(whole.page.total == 2, "without the filter, every game")

        // With the caller, once seen (on PostgreSQL one statement).
        let listing = LibraryListing(status: nil, sort: .name, page: 1, pageSize: 10, favorites: true)
        _ = try await database.library.caller(f.invoker("alice"), at: f.now, naming: nil, listing: listing)
        let caller = try await database.library.caller(f.invoker("alice"), at: f.now, naming: nil, listing: listing)
        let page = try #require(caller.listed)
        #expect(page.page.items.map(\.game.name) == ["Celeste"] && page.statusCounts == [.completed: 1])
    }
}
