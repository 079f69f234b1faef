import Foundation

/// What one player did in one calendar year (UTC), as the store reads it; `/recap` and the share page's recap
/// show the same summary of it.
package struct YearRecap: Equatable, Sendable {
    package var year: Int
    /// The entries of the games played that year: completed, started, rated, reviewed or with hours logged then.
    package var entries: [LibraryEntry] = []
    /// Hours logged that year, by game id.
    package var hoursByGame: [Int64: Double] = [:]
    /// Every hour logged that year, on games still in the library or not.
    package var hours: Double = 0
    /// Games reviewed that year (a review rewritten counts once).
    package var reviewsWritten = 0
    /// Medals won that year, in the order they were won.
    package var medals: [Medal] = []
    /// Every year with anything recorded for the player, this one or not, first first: where other recaps are.
    package var yearsRecorded: [Int] = []

    package init(year: Int) { self.year = year }

    /// The first moment of the year and of the next one, UTC.
    package static func bounds(of year: Int) -> (start: Date, end: Date) {
        let calendar = Calendar.utc
        return (
            calendar.date(from: DateComponents(year: year, month: 1, day: 1))!,
            calendar.date(from: DateComponents(year: year + 1, month: 1, day: 1))!
        )
    }

    /// The year as a user may ask for it: from 1970 to the current one.
    package static func isAskable(_ year: Int, now: Date) -> Bool {
        (1970...Calendar.utcYear(of: now)).contains(year)
    }

    func isInYear(_ date: Date?) -> Bool {
        guard let date else { return false }
        let (start, end) = Self.bounds(of: year)
        return date >= start && date < end
    }

    /// Games finished that year, first finished first.
    package var completions: [LibraryEntry] {
        entries.filter { isInYear($0.finishedAt) }.sorted {
            ($0.finishedAt!, $0.game.name) < ($1.finishedAt!, $1.game.name)
        }
    }

    /// How many games were finished in each month, January first.
    package var completionsByMonth: [Int] {
        var months = [Int](repeating: 0, count: 12)
        for entry in completions { months[Calendar.utc.component(.month, from: entry.finishedAt!) - 1] += 1 }
        return months
    }

    /// The highest-scored game played that year; among equals, the one played longest that year, then by name.
    package var bestRated: LibraryEntry? {
        entries.filter { $0.score != nil }.min {
            ($1.score!, hoursByGame[$1.game.id] ?? 0, $0.game.name) < (
                $0.score!, hoursByGame[$0.game.id] ?? 0, $1.game.name
            )
        }
    }

    /// The genres with the most hours logged that year (or, with no hours, the most games played), with both: one,
    /// or all those level at the top by name (a single game's genres are all level).
    package var topGenres: (names: [String], hours: Double, games: Int)? {
        var totals: [String: (hours: Double, games: Int)] = [:]
        for entry in entries {
            for genre in entry.game.genres {
                totals[genre, default: (0, 0)].hours += hoursByGame[entry.game.id] ?? 0
                totals[genre, default: (0, 0)].games += 1
            }
        }
        guard let top = totals.values.max(by: { ($0.hours, $0.games) < ($1.hours, $1.games) }) else { return nil }
        let names = totals.filter { $0.value.hours == top.hours && $0.value.games == top.games }.keys.sorted()
        return (names, top.hours, top.games)
    }

    /// The longest game finished that year: by the hours on it, or else by its usual time to beat.
    package var longest: (entry: LibraryEntry, hours: Double)? {
        completions.compactMap { entry -> (LibraryEntry, Double)? in
            if let hours = entry.hours, hours > 0 { return (entry, hours) }
            return entry.game.timeToBeat?.normally.map { (entry, Double($0) / 3600) }
        }.max { ($0.1, $1.0.game.name) < ($1.1, $0.0.game.name) }
    }

    /// Nothing at all was recorded that year.
    package var isEmpty: Bool { entries.isEmpty && hours == 0 && reviewsWritten == 0 && medals.isEmpty }

    /// The same year without mature games, for channels that do not show them; says how many went.
    package func withoutMature() -> (recap: YearRecap, left: Int) {
        var recap = self
        recap.entries = entries.filter { !$0.game.isMature }
        return (recap, entries.count - recap.entries.count)
    }
}
