/// Hours given to `/progress`: the total played (`hours:12`), or hours to add to those logged (`add_hours:2`, typed
/// `+2h`). A number written alone is a total.
package enum PlayedHours: Hashable, Sendable, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral {
    case total(Double)
    case added(Double)

    package init(integerLiteral value: Int) { self = .total(Double(value)) }
    package init(floatLiteral value: Double) { self = .total(value) }

    /// The most hours one game holds, as `hours` takes them.
    package static let most: Double = 20_000

    /// `/progress`'s option for hours to add, beside `hours`, the total.
    static let addedOption = OptionSpec(
        name: "add_hours", summary: "Hours to add to those played: a session", kind: .number, minValue: 0,
        maxValue: most, units: OptionSpec.hourUnits)

    /// Whether a word typed without an option's name may be `option`'s: hours or a percent to add only with their
    /// "+" ("+2h", "+10%"; "2h" is the total), any word for any other option.
    static func mayBe(_ word: String, _ option: OptionSpec) -> Bool {
        !isAdded(option) || word.hasPrefix("+")
    }

    /// Whether `option` adds to a total (`add_hours`, `add_percent`).
    static func isAdded(_ option: OptionSpec) -> Bool {
        PercentDone.addingTo.values.contains { $0.name == option.name }
    }

    /// Words for minutes written after a number apart from it ("90 minutes").
    static let minuteWords: Set<String> = ["m", "min", "mins", "minute", "minutes"]

    /// Minute words, longest first, as a word's end is compared with them.
    private static let minuteEndings = minuteWords.sorted { $0.count > $1.count }

    /// The words a number of `option` may be followed by, apart from it: its units, and minutes for hours.
    static func unitWords(of option: OptionSpec) -> [String] {
        option.units + (option.units == OptionSpec.hourUnits ? minuteEndings : [])
    }

    /// Hours written with minutes for an option of hours, as people log a session: "1h30", "1hr30m", "1:30",
    /// "90min", "90 minutes" (joined by the reader) are 1.5, to the hundredth; a "+" before them is kept out of the
    /// count. Nil for anything else, and for an option of another unit ("12h" is read as the hours it is).
    static func withMinutes(_ text: String, for option: OptionSpec) -> Double? {
        guard option.units == OptionSpec.hourUnits else { return nil }
        var typed = text.lowercased().filter { !$0.isWhitespace }
        if typed.hasPrefix("+") { typed.removeFirst() }
        if let mark = typed.firstIndex(where: { $0 == "h" || $0 == ":" }) {
            // "1h30", "1hr30m", "1h30min", "1:30": the minutes are one or two digits, under 60.
            guard let hours = Int(typed[..<mark]) else { return nil }
            typed = String(typed[mark...].dropFirst().drop(while: \.isLetter))
            while let last = typed.last, last.isLetter { typed.removeLast() }
            guard (1...2).contains(typed.count), let minutes = Int(typed), minutes < 60 else { return nil }
            return ((Double(hours) + Double(minutes) / 60) * 100).rounded() / 100
        }
        guard let word = minuteEndings.first(where: { typed.hasSuffix($0) }),
            let minutes = Double(typed.dropLast(word.count).replacingOccurrences(of: ",", with: ".")),
            minutes.isFinite, minutes >= 0
        else { return nil }
        return (minutes / 60 * 100).rounded() / 100
    }

    /// The hours played after this change to `current`.
    package func total(after current: Double?) -> Double {
        switch self {
        case .total(let hours): hours
        case .added(let hours): (current ?? 0) + hours
        }
    }
}
