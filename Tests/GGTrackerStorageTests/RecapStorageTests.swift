import Foundation
import GGTrackerCore
import GGTrackerStorage
import Testing

@Suite("A year in review, on SQLite and PostgreSQL")
struct RecapStorageTests {
    static func day(_ year: Int, _ month: Int, _ day: Int) -> Date {
        Calendar.utc.date(from: DateComponents(year: year, month: month, day: day, hour: 12))!
    }

    @Test(arguments: Backend.all)
    func aYearHoldsWhatWasPlayedFinishedReviewedAndWonThen(_ backend: Backend) async throws {
        let f = try await LibraryFixture(backend)
        let database = f.database
        let alice = try await database.library.recordPlayer(f.invoker("alice"), at: Self.day(2024, 1, 1))
        let bob = try await database.library.recordPlayer(f.invoker("bob"), at: Self.day(2024, 1, 1))
        func change(
            _ player: Player, _ game: Game, at date: Date, _ edit: @escaping @Sendable (inout LibraryEntry) -> Void
        ) async throws {
            _ = try await database.library.updateEntry(of: player.id, game: game, community: "discord:1", at: date) {
                var entry = $0 ?? LibraryEntry(game: game, status: .backlog, at: date)
                edit(&entry)
                $0 = entry
            }
        }
        // Hades: finished in December 2024, five more hours in January 2026.
        try await change(alice, f.hades, at: Self.day(2024, 12, 20)) {
            $0.setStatus(.completed, at: Self.day(2024, 12, 20))
            $0.hours = 10
            $0.score = 7
        }
        // Celeste: started in March 2025, finished, rated and reviewed in June, which wins a medal.
        guard
            case .created = try await database.social.createChallenge(
                in: "discord:1", name: "Finish one", goal: 1, unit: .gamesCompleted, startsAt: Self.day(2025, 6, 1),
                endsAt: Self.day(2025, 12, 31), createdBy: alice.id)
        else {
            Issue.record("the challenge was not created")
            return
        }
        try await change(alice, f.celeste, at: Self.day(2025, 3, 2)) {
            $0.setStatus(.playing, at: Self.day(2025, 3, 2))
            $0.hours = 5
        }
        try await change(alice, f.celeste, at: Self.day(2025, 6, 15)) {
            $0.setStatus(.completed, at: Self.day(2025, 6, 15))
            $0.hours = 20
            $0.score = 9
            $0.review = "Kind and hard."
        }
        try await change(alice, f.hades, at: Self.day(2026, 1, 10)) { $0.hours = 15 }
        // Bob's year is his own.
        try await change(bob, f.hades, at: Self.day(2025, 5, 1)) {
            $0.setStatus(.completed, at: Self.day(2025, 5, 1))
            $0.hours = 30
        }

        let year2025 = try await database.library.recap(of: alice.id, year: 2025)
        #expect(year2025.entries.map(\.game.name) == ["Celeste"])
        #expect(year2025.completions.map(\.game.name) == ["Celeste"])
        #expect(year2025.hours == 20 && year2025.hoursByGame == [f.celeste.id: 20])
        #expect(year2025.reviewsWritten == 1)
        #expect(year2025.medals.map(\.challenge) == ["Finish one"])
        #expect(year2025.completionsByMonth == [0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0])
        #expect(year2025.bestRated?.game.name == "Celeste")
        #expect(year2025.topGenres?.names == ["Platform"] && year2025.topGenres?.hours == 20)
        #expect(year2025.longest?.entry.game.name == "Celeste" && year2025.longest?.hours == 20)

        let year2024 = try await database.library.recap(of: alice.id, year: 2024)
        #expect(year2024.completions.map(\.game.name) == ["Hades"] && year2024.hours == 10)
        #expect(year2024.completionsByMonth.last == 1 && year2024.medals.isEmpty)

        // Played, not finished: the hours count, the completion stays in 2024.
        let year2026 = try await database.library.recap(of: alice.id, year: 2026)
        #expect(year2026.entries.map(\.game.name) == ["Hades"] && year2026.completions.isEmpty)
        #expect(year2026.hours == 5 && year2026.reviewsWritten == 0 && !year2026.isEmpty)

        #expect(try await database.library.recap(of: alice.id, year: 2023).isEmpty)
        let bobs = try await database.library.recap(of: bob.id, year: 2025)
        #expect(bobs.completions.map(\.game.name) == ["Hades"] && bobs.hours == 30 && bobs.medals.isEmpty)

        // Each recap says which years have anything, whichever year it is of.
        for year in [2023, 2024, 2025, 2026] {
            #expect(try await database.library.recap(of: alice.id, year: year).yearsRecorded == [2024, 2025, 2026])
        }
        #expect(bobs.yearsRecorded == [2025])
        // An import brings the days games were started and finished, with no events of those years.
        let cara = try await database.library.recordPlayer(f.invoker("cara"), at: Self.day(2026, 1, 1))
        var item = ImportItem(line: 2, name: "Celeste")
        item.status = .completed
        item.startedAt = Self.day(2018, 11, 30)
        item.finishedAt = Self.day(2019, 1, 2)
        _ = try await database.library.importItems(
            [(item: item, game: f.celeste)], for: cara.id, displayName: "cara", at: Self.day(2026, 1, 1))
        #expect(try await database.library.recap(of: cara.id, year: 2026).yearsRecorded == [2018, 2019])
    }
}
