import Foundation
import Testing

@testable import GGTrackerCore

/// The year shown beside a game's name ("Doom (1993)") is the calendar's, whatever the date.
@Suite("A release date's year")
struct YearTests {
    @Test func theYearIsTheCalendarsAcrossCenturiesLeapDaysAndNewYear() {
        // Around each New Year's Eve and leap day from 1890 to 2110, and every 9 days and 7 hours in between.
        var moments: [Date] = []
        var components = DateComponents()
        for year in 1890...2110 {
            for (month, day) in [(1, 1), (2, 28), (2, 29), (3, 1), (12, 31)] {
                components.year = year
                components.month = month
                components.day = day
                guard let date = Calendar.utc.date(from: components) else { continue }
                moments += [date, date.addingTimeInterval(-1), date.addingTimeInterval(86_399)]
            }
        }
        var t = -2_500_000_000.0
        while t < 4_500_000_000 {
            moments.append(Date(timeIntervalSince1970: t))
            t += 9 * 86_400 + 7 * 3_600
        }
        let wrong = moments.filter { Calendar.utcYear(of: $0) != Calendar.utc.component(.year, from: $0) }
        #expect(wrong.isEmpty, "\(wrong.prefix(5))")
        #expect(moments.count > 10_000)
    }

    @Test func aGameShowsItsReleaseYear() {
        let doom = Game(
            id: 1, ref: GameRef(provider: "igdb", id: "673"), name: "Doom",
            releaseDate: Date(timeIntervalSince1970: 755_740_800))  // 1993-12-10
        #expect(doom.displayName == "Doom (1993)")
        let undated = Game(id: 2, ref: GameRef(provider: "igdb", id: "1"), name: "Untitled")
        #expect(undated.displayName == "Untitled")
    }
}
