import Foundation
import Testing

@testable import GGTrackerCore

@Suite("A day typed as people write it")
struct TypedDayTests {
    /// Saturday, 28 November 2026, 10:30 UTC.
    let now = Date(timeIntervalSince1970: 1_795_861_800)

    func day(_ text: String) -> String? {
        guard let typed = TypedDay(text), let date = typed.midnight(from: now) else { return nil }
        return date.formatted(.iso8601.year().month().day())
    }

    @Test func theClockIsASaturday() {
        #expect(Calendar.utc.component(.weekday, from: now) == 7)
        #expect(now.formatted(.iso8601.year().month().day()) == "2026-11-28")
    }

    @Test(arguments: [
        ("2026-12-31", "2026-12-31"), ("2027/3/1", "2027-03-01"), ("Dec 31", "2026-12-31"),
        ("31 December", "2026-12-31"), ("december 31st, 2027", "2027-12-31"), ("1 Jan", "2027-01-01"),
        ("Nov 28", "2026-11-28"), ("Nov 27", "2027-11-27"), ("sept 5", "2027-09-05"), ("Feb 29", "2028-02-29"),
        ("today", "2026-11-28"), ("tomorrow", "2026-11-29"), ("friday", "2026-12-04"), ("next sat", "2026-12-05"),
        ("Sunday", "2026-11-29"), ("in 3 days", "2026-12-01"), ("in 2 weeks", "2026-12-12"),
        ("in 1 month", "2026-12-28"),
    ])
    func readsTheDay(text: String, expected: String) {
        #expect(day(text) == expected)
    }

    @Test(arguments: [
        "31/12/2026", "12/31", "2027-02-30", "Feb 30", "next fortnight", "in 0 days", "in two weeks", "Dec", "31",
        "ju 4", "Dec 31 2026 2027", "2026-12-31T00:00", "", "Dec +5", "Dec 31 +202",
    ])
    func refusesWhatIsNoDay(text: String) {
        #expect(TypedDay(text) == nil)
    }
}
