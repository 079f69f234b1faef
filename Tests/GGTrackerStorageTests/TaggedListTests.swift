import Foundation
import GGTrackerCore
import GGTrackerStorage
import Testing

@Suite("A library listed by tag, on SQLite and PostgreSQL")
struct TaggedListTests {
    /// `/list tag:` keeps to the games with that tag, matched whole (LIKE's wildcards in a tag are its own
    /// letters), and counts them alone; read with the caller too, as `/list` of one's own library is.
    @Test(arguments: Backend.all)
    func aListByTagHoldsTheGamesWithThatTagAndCountsThem(_ backend: Backend) async throws {
        let f = try await LibraryFixture(backend)
        let database = f.database
        let alice = try await f.player("alice")
        func tag(_ game: Game, _ status: GameStatus, _ tags: [String]) async throws {
            try await database.library.updateEntry(of: alice.id, game: game) { entry in
                var e = LibraryEntry(game: game, status: status, at: f.now)
                e.tags = tags
                entry = e
            }
        }
        try await tag(f.celeste, .completed, ["co-op", "100%_done"])
        try await tag(f.hades, .playing, ["co-op-ish", "roguelike"])
        func listed(_ tag: String, status: GameStatus? = nil) async throws -> LibraryPage {
            try await database.library.library(
                of: alice.id, status: status, sort: .name, includeMature: true, page: 1, pageSize: 10, tag: tag)
        }
        let coop = try await listed("co-op")
        #expect(coop.page.items.map(\.game.name) == ["Celeste"] && coop.page.total == 1)
        #expect(coop.statusCounts == [.completed: 1])
        #expect(try await listed("co").page.items.isEmpty, "a tag is matched whole")
        #expect(try await listed("100%_done").page.items.map(\.game.name) == ["Celeste"])
        #expect(try await listed("100__done").page.items.isEmpty)
        #expect(try await listed("1%").page.items.isEmpty)
        let none = try await listed("roguelike", status: .completed)
        #expect(none.page.items.isEmpty && none.statusCounts == [.playing: 1])

        // With the caller, once seen (on PostgreSQL one statement).
        let listing = LibraryListing(status: nil, sort: .name, page: 1, pageSize: 10, tag: "roguelike")
        _ = try await database.library.caller(f.invoker("alice"), at: f.now, naming: nil, listing: listing)
        let caller = try await database.library.caller(f.invoker("alice"), at: f.now, naming: nil, listing: listing)
        let page = try #require(caller.listed)
        #expect(page.page.items.map(\.game.name) == ["Hades"] && page.statusCounts == [.playing: 1])
        let counts = try await database.library.tagCounts(of: alice.id)
        #expect(
            counts.map(\.tag) == ["100%_done", "co-op", "co-op-ish", "roguelike"] && counts.allSatisfy { $0.games == 1 }
        )
    }
}
