/// Hours given to `/progress`: the total played (`hours:12`), or hours to add to those logged (`add_hours:2`, typed
/// `+2h`; `-2h` takes them off). A number written alone is a total.
package enum PlayedHours: Hashable, Sendable, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral {
    case total(Double)
    case added(Double)

    package init(integerLiteral value: Int) { self = .total(Double(value)) }
    package init(floatLiteral value: Double) { self = .total(value) }

    /// The most hours one game holds, as `hours` takes them.
    package static let most: Double = 20_000

    /// `/progress`'s option for hours to add, beside `hours`, the total: below zero, hours taken off.
    static let addedOption = OptionSpec(
        name: "add_hours", summary: "Hours to add to those played: a session (below 0 takes them off)",
        kind: .number, minValue: -most, maxValue: most, units: OptionSpec.hourUnits)

    /// Whether a word typed without an option's name may be `option`'s, on command `spec`: hours or a percent to add
    /// only with their sign ("+2h", "+10%", "-2h"; "2h" is the total), a total (`hours`, `percent`) only without one
    /// where the command can add to it, any word for any other option (`/add`'s "-2h" is hours, out of range).
    static func mayBe(_ word: String, _ option: OptionSpec, of spec: CommandSpec) -> Bool {
        if isAdded(option) { return isSigned(word) }
        guard let added = PercentDone.addingTo[option.name], spec.option(added.name) != nil else { return true }
        return !isSigned(word)
    }

    /// Whether a number is typed with its sign, "+" or "-": hours or a percent added, or taken off.
    static func isSigned(_ word: some StringProtocol) -> Bool {
        word.hasPrefix("+") || word.hasPrefix("-")
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
    /// count, a "-" makes them fewer ("-1h30" is -1.5). Nil for anything else, and for an option of another unit
    /// ("12h" is read as the hours it is).
    static func withMinutes(_ text: String, for option: OptionSpec) -> Double? {
        guard option.units == OptionSpec.hourUnits else { return nil }
        var typed = text.lowercased().filter { !$0.isWhitespace }
        let sign: Double = typed.hasPrefix("-") ? -1 : 1
        if isSigned(typed) { typed.removeFirst() }
        return minutesRead(typed).map { $0 * sign }
    }

    /// Hours written with minutes, without a sign: "1h30", "90min".
    private static func minutesRead(_ text: String) -> Double? {
        var typed = text
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

    /// The hours played after this change to `current`: never below none; nil where none were logged to take off.
    package func total(after current: Double?) -> Double? {
        switch self {
        case .total(let hours): hours
        case .added(let hours): current == nil && hours < 0 ? nil : max(0, (current ?? 0) + hours)
        }
    }

    /// What a change of hours did, said on the game's card: "2 h added: 12 h in all", "2 h taken off: 10 h in all";
    /// a session under an hour in minutes, as it was likely typed ("45 min added"). Nil for a total.
    func said(total: Double) -> String? {
        guard case .added(let change) = self else { return nil }
        let size = abs(change)
        let amount = size < 1 ? "\(Int((size * 60).rounded())) min" : Format.hours(size)
        return "\(amount) \(change < 0 ? "taken off" : "added"): \(Format.hours(total)) in all."
    }
}
