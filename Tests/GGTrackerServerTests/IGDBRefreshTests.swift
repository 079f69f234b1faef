import Foundation
import GGTrackerCatalog
import GGTrackerCore
import GGTrackerStorage
import Logging
import Testing

@testable import GGTrackerServer

@Suite("Refreshing the catalog from IGDB")
struct IGDBRefreshTests {
    func withFake(
        games: Int, _ body: @Sendable (FakeIGDBState, IGDBRefresh, AppDatabase, Int) async throws -> Void
    ) async throws {
        let state = FakeIGDBState(games: try fakeGames(count: games))
        try await fakeIGDB(state, clientID: "client", secret: "secret").test(.live) { fake in
            let port = try #require(fake.port)
            let database = try AppDatabase.inMemory()
            var logger = Logger(label: "igdb")
            logger.logLevel = .critical
            let client = IGDBClient(
                apiBase: "http://127.0.0.1:\(port)/v4", oauthBase: "http://127.0.0.1:\(port)/oauth2",
                clientID: "client",
                clientSecret: "secret", database: database, limiter: RateLimiter(perSecond: 4, maxInFlight: 8),
                logger: logger)
            try await body(state, IGDBRefresh(client: client, database: database), database, port)
        }
    }

    @Test(.timeLimit(.minutes(5)))
    func aFullRefreshOf5000GamesStaysWithinTheRateLimit() async throws {
        try await withFake(games: 5_000) { state, refresh, database, _ in
            let started = Date()
            let summary = try await refresh.run(full: true)
            let seconds = Date().timeIntervalSince(started)
            #expect(summary.added == 5_000 && summary.updated == 0)
            #expect(try await database.catalog.gameCount() == 5_000)
            #expect(await state.busiestSecond() <= 4)
            #expect(await state.tooManyRequests == 0)
            #expect(await state.maxInFlight <= 8)
            #expect(await state.tokensIssued == 1)
            // 11 requests (a count and 10 pages of 500) cannot finish faster than the limit allows.
            #expect(seconds >= 1.75)
            print("full refresh of 5000 games: \(String(format: "%.2f", seconds)) s, floor 5000/500/4 = 2.5 s of pages")
            let queries = await state.queries
            #expect(
                queries.contains {
                    $0.contains("limit 500") && $0.contains("sort id asc") && $0.contains("cover.image_id")
                })
        }
    }

    @Test(.timeLimit(.minutes(5)))
    func aRefreshKeepsEachGamesTimeToBeat() async throws {
        try await withFake(games: 600) { state, refresh, database, _ in
            await state.setTimesToBeat([
                ["id": 7, "game_id": 100_002, "hastily": 18_000, "normally": 36_000, "completely": 72_000, "count": 3],
                ["id": 8, "game_id": 100_550, "normally": 5_400, "count": 1],
            ])
            _ = try await refresh.run(full: true)
            func time(_ id: Int) async throws -> TimeToBeat? {
                try await database.catalog.game(GameRef(provider: "igdb", id: String(id)))?.timeToBeat
            }
            #expect(try await time(100_002) == TimeToBeat(hastily: 18_000, normally: 36_000, completely: 72_000))
            // On the second page, with only the usual time known.
            #expect(try await time(100_550) == TimeToBeat(hastily: nil, normally: 5_400, completely: nil))
            #expect(try await time(100_003) == nil)
            let asked = await state.queries.filter { $0.hasPrefix("fields game_id,hastily,normally,completely") }
            #expect(asked.count == 2, "one request a page of games")
        }
    }

    @Test(.timeLimit(.minutes(5)))
    func aRefreshKeepsSteamAppIDsForImports() async throws {
        try await withFake(games: 100) { state, refresh, database, _ in
            _ = try await refresh.run(full: true)
            #expect(await state.queries.contains { $0.contains("external_games.uid") })
            // Several fake games copy Portal 2's Steam id (620): it belongs to the last one stored.
            let portal = try #require(try await database.steamApps.games([620])[620])
            #expect(portal.name.hasPrefix("Portal 2 "))
            #expect(
                try await database.steamApps.games([367520])[367520]?.name.hasPrefix("Hollow Knight") == true
            )
        }
    }

    @Test(.timeLimit(.minutes(5)))
    func anIncrementalRefreshFetchesOnlyWhatChanged() async throws {
        try await withFake(games: 1_200) { state, refresh, database, _ in
            _ = try await refresh.run(full: false)
            await state.touch(ids: [100_001, 100_500, 101_100], updatedAt: 1_800_000_000)
            let before = await state.queries.count
            let summary = try await refresh.run(full: false)
            #expect(summary.added == 0 && summary.updated == 3)
            let queries = await state.queries.dropFirst(before).filter {
                !$0.contains("game_time_to_beats") && !$0.hasPrefix("fields game_id")
            }
            #expect(queries.allSatisfy { $0.contains("updated_at > 1700001200") })
            #expect(try await database.catalog.gameCount() == 1_200)
        }
    }

    /// IGDB often rates an edition only through its game (`version_parent`) and a DLC through `parent_game`: such a
    /// release is rated as its game, so the age gate hides it with it; a release's own rating comes first.
    @Test(.timeLimit(.minutes(5)))
    func aReleaseWithoutItsOwnAgeRatingIsRatedAsItsGame() async throws {
        try await withFake(games: 3) { state, refresh, database, _ in
            let mature: [[String: Int]] = [["organization": 1, "rating_category": 6]]
            await state.update(id: 100_001) {
                $0["age_ratings"] = nil
                $0["version_parent"] = ["id": 1942, "age_ratings": mature]
            }
            await state.update(id: 100_002) {
                $0["age_ratings"] = nil
                $0["parent_game"] = ["id": 7, "age_ratings": [["category": 2, "rating": 5]]]
            }
            await state.update(id: 100_003) {
                $0["age_ratings"] = [["organization": 1, "rating_category": 5]]
                $0["version_parent"] = ["id": 1942, "age_ratings": mature]
            }
            _ = try await refresh.run(full: true)
            func game(_ id: Int) async throws -> Game? {
                try await database.catalog.game(GameRef(provider: "igdb", id: String(id)))
            }
            let edition = try await game(100_001)
            #expect(edition?.ageRating == "ESRB M" && edition?.isMature == true)
            let dlc = try await game(100_002)
            #expect(dlc?.ageRating == "PEGI 18" && dlc?.isMature == true)
            let rated = try await game(100_003)
            #expect(rated?.ageRating == "ESRB T" && rated?.isMature == false)
            let asked = await state.queries.first { $0.contains("where") && $0.hasPrefix("fields") } ?? ""
            #expect(asked.contains("version_parent.age_ratings.rating_category"), "\(asked)")
        }
    }

    @Test(.timeLimit(.minutes(5)))
    func aRefreshKilledHalfWayResumesAndEndsWithEveryGameOnce() async throws {
        try await withFake(games: 3_000) { state, refresh, database, _ in
            let task = Task {
                try await refresh.run(full: true) { progress in
                    if progress.done >= 1_000 { withUnsafeCurrentTask { $0?.cancel() } }
                }
            }
            _ = await task.result
            let partial = try await database.catalog.gameCount()
            #expect(partial >= 1_000 && partial < 3_000)
            let before = await state.queries.count
            _ = try await refresh.run(full: true)
            #expect(try await database.catalog.gameCount() == 3_000)
            let resumed = await state.queries.dropFirst(before).first { $0.hasPrefix("fields") }
            #expect(resumed?.contains("id > \(100_000 + partial)") == true, "resumes after the last stored page")
        }
    }

    @Test(.timeLimit(.minutes(5)))
    func anExpiredTokenIsRenewedAndServerErrorsAreRetried() async throws {
        try await withFake(games: 1_500) { state, refresh, database, _ in
            await state.setTokenLifetime(2)
            await state.setFailNext(0)
            let summary = try await refresh.run(full: true)
            #expect(summary.added == 1_500)
            #expect(await state.tokensIssued >= 2)
            await state.setTokenLifetime(Int.max)
            await state.setFailNext(2)
            await state.touch(ids: [100_010], updatedAt: 1_900_000_000)
            let again = try await refresh.run(full: false)
            #expect(again.updated == 1)
            #expect(try await database.catalog.gameCount() == 1_500)
            // A flood of 429s: the client backs off and still finishes.
            await state.setFlood(3)
            await state.touch(ids: [100_020], updatedAt: 1_950_000_000)
            let flooded = try await refresh.run(full: false)
            #expect(flooded.updated == 1)
            #expect(await state.flood == 0)
        }
    }
}
