import Foundation
import GGTrackerCore
import GGTrackerStorage
import Testing

@Suite("Game nights, on SQLite and PostgreSQL")
struct GameNightStorageTests {
    @Test(arguments: Backend.all)
    func aNightKeepsItsPlayersRoundsAndShelves(_ backend: Backend) async throws {
        let f = try await LibraryFixture(backend)
        let (database, now) = (f.database, f.now)
        let alice = try await database.library.recordPlayer(f.invoker("alice"), at: now)
        let bob = try await database.library.recordPlayer(f.invoker("bob"), at: now)
        _ = try await database.library.updateEntry(of: alice.id, game: f.celeste, community: "discord:1", at: now) {
            $0 = LibraryEntry(game: f.celeste, status: .completed, at: now)
        }
        _ = try await database.library.addToWishlist(bob.id, game: f.hades, community: "discord:1", at: now)

        let night = try await database.social.openGameNight(
            in: "discord:1", channel: "c1", host: alice.id, mode: .coop, maxHours: 6, at: now)
        #expect(night.players.map(\.id) == [alice.id] && night.round == 0 && night.maxHours == 6)
        #expect(night.expiresAt == now.addingTimeInterval(12 * 3600) && !night.isClosed)
        let joined = try await database.social.joinGameNight(night.id, player: bob.id, at: now.addingTimeInterval(1))
        #expect(joined.changed && joined.night.players.map(\.id) == [alice.id, bob.id])
        #expect(try await !database.social.joinGameNight(night.id, player: bob.id, at: now).changed)

        let first = try await database.social.advanceGameNight(night.id, first: true, mode: nil, maxHours: nil)
        #expect(first.night.round == 1)
        let marks = first.shelves.sorted { $0.player.rawValue < $1.player.rawValue }
        #expect(marks.map(\.game.name) == ["Celeste", "Hades"])
        #expect(marks.map(\.status) == [.completed, nil], "a wish has no status")
        #expect(marks.first?.game.genres == ["Platform"], "the games are read whole")
        #expect(
            try await database.social.advanceGameNight(night.id, first: false, mode: nil, maxHours: nil).night.round
                == 2)

        // A second night in the channel closes the first; another channel's night is its own.
        let second = try await database.social.openGameNight(
            in: "discord:1", channel: "c1", host: bob.id, mode: .any, maxHours: nil, at: now)
        let elsewhere = try await database.social.openGameNight(
            in: "discord:1", channel: "c2", host: alice.id, mode: .any, maxHours: nil, at: now)
        #expect(try await database.social.gameNight(id: night.id, in: "discord:1", channel: "c1")?.isClosed == true)
        #expect(try await database.social.gameNight(id: nil, in: "discord:1", channel: "c1")?.id == second.id)
        #expect(try await database.social.gameNight(id: nil, in: "discord:1", channel: "c2")?.id == elsewhere.id)
        #expect(try await database.social.gameNight(id: night.id, in: "discord:2", channel: "c1") == nil)
        let left = try await database.social.leaveGameNight(night.id, player: alice.id)
        #expect(left.changed && left.night.players.map(\.id) == [bob.id])
    }
}
