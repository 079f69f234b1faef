import Foundation

/// A day of the calendar as people type it: `2026-12-31` or `2026/12/31`, `Dec 31`, `31 December 2026`,
/// `December 31, 2026`, `today`, `tomorrow`, `friday`, `in 2 weeks`. A day without its year is the next such day
/// from today; weekdays and `in …` count from today. Days in UTC, like every date the bot keeps.
package enum TypedDay: Hashable, Sendable {
    case date(year: Int?, month: Int, day: Int)
    /// Days and months after today.
    case later(days: Int, months: Int)
    /// The first such weekday after today (1 is Sunday, as `Calendar` counts).
    case weekday(Int)

    private static let months = [
        "january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november",
        "december",
    ]
    private static let weekdays = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"]

    package init?(_ text: String) {
        let words = text.lowercased().split(whereSeparator: { $0.isWhitespace || $0 == "," }).map(String.init)
        switch words.count {
        case 1:
            if let parsed = Self.numeric(words[0]) ?? Self.named(words[0]) {
                self = parsed
                return
            }
        case 2 where words[0] == "next":
            guard let weekday = Self.weekday(words[1]) else { return nil }
            self = .weekday(weekday)
            return
        case 3 where words[0] == "in":
            guard let count = Int(words[1]), (1...3650).contains(count) else { return nil }
            switch words[2] {
            case "day", "days": self = .later(days: count, months: 0)
            case "week", "weeks": self = .later(days: 7 * count, months: 0)
            case "month",
                "months" where count <= 120:
                self = .later(days: 0, months: count)
            default: return nil
            }
            return
        default:
            break
        }
        guard let parsed = Self.withMonthName(words) else { return nil }
        self = parsed
    }

    /// Midnight UTC starting the day, counted from `now`; nil for a day the calendar does not have (Feb 29 of a
    /// year that has none).
    package func midnight(from now: Date) -> Date? {
        let calendar = Calendar.utc
        let today = calendar.startOfDay(for: now)
        switch self {
        case .later(let days, let months):
            return calendar.date(byAdding: DateComponents(month: months, day: days), to: today)
        case .weekday(let weekday):
            let ahead = (weekday - calendar.component(.weekday, from: today) + 6) % 7 + 1
            return calendar.date(byAdding: .day, value: ahead, to: today)
        case .date(let year?, let month, let day):
            return Self.day(year, month, day)
        case .date(nil, let month, let day):
            // This year's, unless it has passed; else the next year that has it (Feb 29).
            let year = calendar.component(.year, from: today)
            return (year...(year + 8)).lazy.compactMap { Self.day($0, month, day) }.first { $0 >= today }
        }
    }

    private static func day(_ year: Int, _ month: Int, _ day: Int) -> Date? {
        guard let date = Calendar.utc.date(from: DateComponents(year: year, month: month, day: day)),
            Calendar.utc.component(.day, from: date) == day
        else { return nil }
        return date
    }

    /// `2026-12-31`, `2026/12/31`: the year first, so no reader's order of day and month is guessed.
    private static func numeric(_ word: String) -> TypedDay? {
        let parts = word.split(separator: word.contains("/") ? "/" : "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, (1...2).contains(parts[1].count), (1...2).contains(parts[2].count),
            let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]),
            Self.day(year, month, day) != nil
        else { return nil }
        return .date(year: year, month: month, day: day)
    }

    private static func named(_ word: String) -> TypedDay? {
        switch word {
        case "today": return .later(days: 0, months: 0)
        case "tomorrow": return .later(days: 1, months: 0)
        default: return weekday(word).map(TypedDay.weekday)
        }
    }

    private static func weekday(_ word: String) -> Int? {
        guard word.count >= 3, let index = weekdays.firstIndex(where: { $0.hasPrefix(word) }) else { return nil }
        return index + 1
    }

    /// `Dec 31`, `31 dec`, `december 31st 2026`, `31 December, 2026`.
    private static func withMonthName(_ words: [String]) -> TypedDay? {
        guard (2...3).contains(words.count) else { return nil }
        var month: Int?
        var day: Int?
        var year: Int?
        for word in words {
            let trimmed = word.trimmingCharacters(in: ["."])
            if month == nil, trimmed.count >= 3, trimmed.allSatisfy(\.isLetter),
                let index = months.firstIndex(where: { $0.hasPrefix(trimmed) })
            {
                month = index + 1
                continue
            }
            var digits = Substring(trimmed)
            for suffix in ["st", "nd", "rd", "th"] where digits.hasSuffix(suffix) { digits = digits.dropLast(2) }
            guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }), let number = Int(digits) else {
                return nil
            }
            if day == nil, digits.count <= 2, (1...31).contains(number) {
                day = number
            } else if year == nil, digits.count == 4, digits == Substring(trimmed) {
                year = number
            } else {
                return nil
            }
        }
        guard let month, let day else { return nil }
        // February 29 is a day some years have.
        guard Self.day(year ?? 2000, month, day) != nil else { return nil }
        return .date(year: year, month: month, day: day)
    }
}
