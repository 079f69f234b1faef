import Foundation
import GGTrackerCatalog
import GGTrackerCore
import GGTrackerStorage
import Testing

@Suite("Upcoming wishes, on SQLite and PostgreSQL")
struct UpcomingStorageTests {
    @Test(arguments: Backend.all)
    func wishesNotOutYetAreGroupedByGameSoonestFirstAndScopedToTheServer(_ backend: Backend) async throws {
        let f = try await LibraryFixture(backend)
        let (database, now) = (f.database, f.now)  // October 2025
        let lines = """
            {"id":990001,"name":"Starfall Odyssey","first_release_date":4102444800}
            {"id":990002,"name":"Moonlit Harbor","first_release_date":1893456000}
            {"id":990003,"name":"Ashen Year","first_release_date":1735689600,"release_dates":[{"date_format":2}]}
            {"id":990004,"name":"Old Year","first_release_date":1704067200,"release_dates":[{"date_format":2}]}
            """
        // The fixture's catalog (released games) has nothing ahead of `now`; these games are.
        #expect(try await database.library.hasUnreleased(after: now) == false)
        _ = try await CatalogImporter(database: database).importData(Data(lines.utf8))
        #expect(try await database.library.hasUnreleased(after: now))
        // In 2101 only a year-only game of 2101 would be ahead: none.
        #expect(try await database.library.hasUnreleased(after: Date(timeIntervalSince1970: 4_133_980_800)) == false)
        func game(_ id: String) async throws -> Game {
            try #require(try await database.catalog.game(GameRef(provider: "igdb", id: id)))
        }
        let alice = try await database.library.recordPlayer(f.invoker("alice"), at: now)
        let bob = try await database.library.recordPlayer(f.invoker("bob"), at: now)
        let carol = try await database.library.recordPlayer(f.invoker("carol", community: "discord:2"), at: now)
        for (player, id, offset) in [
            (alice, "990001", 1.0), (bob, "990001", 2.0), (bob, "990002", 3.0), (alice, "990003", 4.0),
            (alice, "990004", 5.0), (alice, "26226", 6.0), (carol, "990002", 7.0),
        ] {
            _ = try await database.library.addToWishlist(
                player.id, game: try await game(id), at: now.addingTimeInterval(offset))
        }
        let upcoming = try await database.library.upcoming(
            in: "discord:1", of: nil, after: now, includeMature: false, limit: 15)
        // 2025 (known by its year only, and not over), 2030, 2100; 2024's year-only game and Celeste are out.
        #expect(upcoming.map(\.game.name) == ["Ashen Year", "Moonlit Harbor", "Starfall Odyssey"])
        #expect(upcoming.map { $0.wantedBy.map(\.displayName) } == [["alice"], ["bob"], ["alice", "bob"]])

        let bobs = try await database.library.upcoming(
            in: "discord:1", of: bob.id, after: now, includeMature: false, limit: 15)
        #expect(bobs.map(\.game.name) == ["Moonlit Harbor", "Starfall Odyssey"])
        let first = try await database.library.upcoming(
            in: "discord:1", of: nil, after: now, includeMature: false, limit: 1)
        #expect(first.map(\.game.name) == ["Ashen Year"])
        let elsewhere = try await database.library.upcoming(
            in: "discord:2", of: nil, after: now, includeMature: false, limit: 15)
        #expect(elsewhere.map { $0.wantedBy.map(\.displayName) } == [["carol"]])
    }

    @Test(arguments: Backend.all)
    func releaseAlertsAreDueOnceAndClaimedByOneProcess(_ backend: Backend) async throws {
        let f = try await LibraryFixture(backend)
        let (database, now) = (f.database, f.now)
        let released = Int(now.timeIntervalSince1970) - 3600
        _ = try await CatalogImporter(database: database).importData(
            Data(#"{"id":990021,"name":"Launch Day","first_release_date":\#(released)}"#.utf8))
        let game = try #require(try await database.catalog.game(GameRef(provider: "igdb", id: "990021")))
        let alice = try await database.library.recordPlayer(f.invoker("alice"), at: now)
        let bob = try await database.library.recordPlayer(f.invoker("bob"), at: now)
        _ = try await database.library.updateSettings(of: "discord:1", announceChannel: "777", ageGate: nil)
        _ = try await database.library.addToWishlist(alice.id, game: game, at: now.addingTimeInterval(-86_400))
        _ = try await database.library.addToWishlist(bob.id, game: game, at: now.addingTimeInterval(-80_000))
        // A Matrix room is its own announce channel; a Discord server without one gets no alert.
        let dan = try await database.library.recordPlayer(
            Invoker(
                platform: .matrix, userID: "@dan:localhost", displayName: "dan", community: "matrix:!games:localhost"),
            at: now)
        _ = try await database.library.addToWishlist(dan.id, game: game, at: now.addingTimeInterval(-86_400))
        let erin = try await database.library.recordPlayer(f.invoker("erin", community: "discord:3"), at: now)
        _ = try await database.library.addToWishlist(erin.id, game: game, at: now.addingTimeInterval(-86_400))
        let all = try await database.social.dueReleaseAlerts(at: now, since: now.addingTimeInterval(-3 * 86_400))
        #expect(all.map(\.community) == ["discord:1", "matrix:!games:localhost"])
        #expect(all.last?.channel == "!games:localhost" && all.last?.wishers == [dan.id])
        let due = all.filter { $0.community == "discord:1" }
        #expect(due.map(\.game.name) == ["Launch Day"])
        #expect(due.first?.wishers == [alice.id, bob.id])
        #expect(due.first?.channel == "777")
        let alert = try #require(due.first)
        #expect(try await database.social.claimReleaseAlert(alert, at: now))
        #expect(try await !database.social.claimReleaseAlert(alert, at: now), "claimed once")
        #expect(
            try await database.social.dueReleaseAlerts(at: now, since: now.addingTimeInterval(-86_400)).map(\.community)
                == ["matrix:!games:localhost"])
        // A claim given back (the post failed) is due again.
        try await database.social.unclaimReleaseAlert(alert)
        #expect(try await database.social.dueReleaseAlerts(at: now, since: now.addingTimeInterval(-86_400)).count == 2)
        // Too long ago for the window: not due.
        #expect(try await database.social.dueReleaseAlerts(at: now, since: now.addingTimeInterval(-60)).isEmpty)
    }

    /// A mature game's release is announced only where the server's age gate is off, as its other news is: whether
    /// the announce channel is age-restricted is not known.
    @Test(arguments: Backend.all)
    func aMatureGamesReleaseIsAnnouncedOnlyWhereTheAgeGateIsOff(_ backend: Backend) async throws {
        let f = try await LibraryFixture(backend)
        let (database, now) = (f.database, f.now)
        let released = Int(now.timeIntervalSince1970) - 3600
        let line =
            #"{"id":990022,"name":"Grim Night","first_release_date":\#(released),"age_ratings":[{"organization":1,"rating_category":6}]}"#
        _ = try await CatalogImporter(database: database).importData(Data(line.utf8))
        let game = try #require(try await database.catalog.game(GameRef(provider: "igdb", id: "990022")))
        #expect(game.isMature)
        for (name, community) in [("alice", "discord:1"), ("bob", "discord:2")] {
            let player = try await database.library.recordPlayer(f.invoker(name, community: community), at: now)
            _ = try await database.library.updateSettings(
                of: community, announceChannel: "7\(name.count)", ageGate: nil)
            _ = try await database.library.addToWishlist(player.id, game: game, at: now.addingTimeInterval(-86_400))
        }
        _ = try await database.library.updateSettings(of: "discord:2", announceChannel: nil, ageGate: .off)
        let due = try await database.social.dueReleaseAlerts(at: now, since: now.addingTimeInterval(-86_400))
        #expect(due.map(\.community) == ["discord:2"])
    }
}
