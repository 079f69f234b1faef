/// The kind of value an option takes. Raw values are Discord's application command option types.
package enum OptionKind: Sendable {
    case string, integer, boolean, user, channel, number, attachment

    package var label: String {
        switch self {
        case .string: "text"
        case .integer: "whole number"
        case .boolean: "true/false"
        case .user: "user"
        case .channel: "channel"
        case .number: "number"
        case .attachment: "file"
        }
    }
}

/// A form free text must take, checked with its option's other rules and shown in its usage.
package enum TextShape: Sendable {
    /// A day of the calendar: `YYYY-MM-DD`, or as people write it (`TypedDay`).
    case day

    /// How the usage line writes the value.
    var label: String { "YYYY-MM-DD" }

    func accepts(_ text: String) -> Bool { TypedDay(text) != nil }

    /// What is wrong with `text` for option `name`.
    func complaint(name: String, text: String) -> RichText {
        "\(code: name) must be a day: 2030-05-31, Dec 31, tomorrow, friday or in 2 weeks (got “\(Format.truncate(text, 40))”)."
    }
}

/// One option of a command, declared once and used for registration, parsing, help and validation.
package struct OptionSpec: Sendable {
    package var name: String
    package var summary: String
    package var kind: OptionKind
    package var required: Bool = false
    package var choices: [String] = []
    package var autocomplete: Bool = false
    package var minValue: Double? = nil
    package var maxValue: Double? = nil
    package var maxLength: Int? = nil
    /// Free text that may contain `word:` pairs of its own, so it is never split on option names.
    package var greedy: Bool = false
    /// The form the text must take, when it has one.
    package var shape: TextShape? = nil
    /// Other words people type for some of the choices ("finished" → completed), in lower case.
    package var choiceSynonyms: [String: String] = [:]

    /// The choice typed text stands for: the choice itself in any case, a synonym, or the start of only one choice
    /// (three letters at least; spaces and dashes as underscores): "comp" → completed, "hours" → hours_played,
    /// "weekly" → week.
    func choice(for text: String) -> String? {
        let typed = text.trimmingCharacters(in: .whitespaces).lowercased()
        if choices.contains(typed) { return typed }
        if let synonym = choiceSynonyms[typed] { return synonym }
        let joined = typed.replacingOccurrences(of: " ", with: "_").replacingOccurrences(of: "-", with: "_")
        if choices.contains(joined) { return joined }
        // "co-op" for coop; "weekly", "monthly": the choice it is said of.
        let undashed = typed.replacingOccurrences(of: "-", with: "")
        if choices.contains(undashed) { return undashed }
        if typed.hasSuffix("ly"), case let said = String(typed.dropLast(2)), choices.contains(said) { return said }
        guard joined.count >= 3 else { return nil }
        let starting = choices.filter { $0.hasPrefix(joined) }
        return starting.count == 1 ? starting[0] : nil
    }

    /// The summary without what it tells a Discord user of the picker ("The game: type to search the catalog" →
    /// "The game"), for a message that names what is missing.
    var summaryHead: String {
        guard let picker = summary.range(of: ": type to ") else { return summary }
        return String(summary[..<picker.lowerBound])
    }

    /// Text that lists values separated by commas (tags).
    package var commaList: Bool = false

    /// Units a number may be typed with ("12h", "50%", "8/10"), longest first.
    package var units: [String] = []

    /// A score out of 10 that may be typed out of five stars, as it is shown: "4/5", "4.5 stars", "★★★★½".
    package var fiveStars = false

    /// A required option that a typed command may leave out, to be asked for with its values (`!gg rate hades`: the
    /// scores to pick from); Discord always sends it.
    package var askedWhenMissing = false

    /// Words that end a number typed out of five stars ("4.5 stars"), for an option with `fiveStars`.
    var starWords: [String] { fiveStars ? ["stars", "star"] : [] }

    /// A number typed out of five stars as the score out of 10 it is ("4/5", "4,5 stars", "★★★★½" → 8, 9, 9); nil
    /// for anything else, for a number of stars that is no whole or half one, and without `fiveStars`.
    func starsReading(_ text: String) -> Int? {
        guard fiveStars else { return nil }
        let typed = text.lowercased().trimmingCharacters(in: .whitespaces)
        let stars: Double?
        if !typed.isEmpty, typed.allSatisfy({ "★☆½".contains($0) }) {
            stars = Double(typed.filter { $0 == "★" }.count) + (typed.contains("½") ? 0.5 : 0)
        } else if let scale = starsScale(of: typed) {
            stars = Double(
                typed.dropLast(scale.count).trimmingCharacters(in: .whitespaces).replacingOccurrences(
                    of: ",", with: "."))
        } else {
            stars = nil
        }
        guard let stars, stars.isFinite, stars >= 0, stars <= 5, (stars * 2).rounded() == stars * 2 else { return nil }
        return Int(stars * 2)
    }

    /// How `text` says it is a number of stars ("/5", "stars", "star"), for an option with `fiveStars`.
    func starsScale(of text: String) -> String? {
        guard fiveStars else { return nil }
        let typed = text.lowercased()
        return (["/5"] + starWords).first { typed.hasSuffix($0) && typed.count > $0.count }
    }

    /// Typed text without a unit this option's number may carry: "12 h" → "12".
    func withoutUnit(_ text: String) -> String {
        let lowered = text.lowercased()
        guard let unit = units.first(where: { lowered.hasSuffix($0) && lowered.count > $0.count }) else { return text }
        return String(text.dropLast(unit.count)).trimmingCharacters(in: .whitespaces)
    }

    /// A value typed with its unit, for help where commands are typed: "12h", "50%", "8/10"; nil without units.
    var typedExample: String? {
        guard let unit = units.min(by: { $0.count < $1.count }) else { return nil }
        let number = maxValue.map { $0 <= 10 ? "8" : $0 <= 100 ? "50" : "12" } ?? "12"
        // Hours or a percent to add are typed with their sign.
        return (PlayedHours.isAdded(self) ? "+" : "") + number + unit
    }

    /// Whether a word carries one of this option's units ("12h"): a number with its unit is this option's, where a
    /// bare one may be part of a name.
    func carriesUnit(_ word: String) -> Bool {
        !units.isEmpty && (withoutUnit(word) != word || PlayedHours.withMinutes(word, for: self) != nil)
    }

    /// Text of any words: no choices, no form (a day) and not a member — a name, a review, a note, tags.
    var isFreeText: Bool { kind == .string && choices.isEmpty && shape == nil }

    /// Whether a whole number typed alone is this option's: a number written without a unit, in a narrow range (a
    /// year, a page), where a member's id or a game's name is not expected.
    var takesBareNumber: Bool {
        guard kind == .integer, units.isEmpty, let minValue, let maxValue else { return false }
        return maxValue - minValue <= 100_000
    }

    /// Whether a word names this yes/no option ("confirm", "revoke"): typed alone, it means yes.
    func isNamed(by word: String) -> Bool { kind == .boolean && word.lowercased() == name }

    /// Typed text read as this option's value, as people type it: a number (with its unit, a decimal comma
    /// allowed), one of the choices (`choice(for:)`), or text of the option's form. Nil for anything else, and for
    /// other kinds (free text, members, files): those are read where they are typed.
    func reading(_ text: String) -> OptionValue? {
        switch kind {
        // "+2h" and "+10%" are hours and a percent to add, which a total (`hours`, `percent`) is not: `add_hours`
        // and `add_percent` take them ("-2h" too, where `PlayedHours.mayBe` tells; named, it is out of range).
        case _ where PercentDone.addingTo[name] != nil && text.hasPrefix("+"): nil
        case .integer: (Int(withoutUnit(text)) ?? starsReading(text)).map { .integer($0) }
        case .number:
            (PlayedHours.withMinutes(text, for: self)
                ?? Double(withoutUnit(text).replacingOccurrences(of: ",", with: "."))).flatMap {
                    $0.isFinite ? .number($0) : nil
                }
        case .string where !choices.isEmpty: choice(for: text).map { .string($0) }
        case .string where shape?.accepts(text) == true: .string(text)
        default: nil
        }
    }

    /// Typed text read as this option's value (`reading`) when the value is also one the option takes (in its
    /// range, one of its choices); nil otherwise.
    func validValue(_ text: String) -> OptionValue? {
        guard let value = reading(text), (try? check(value, usage: { "" })) != nil else { return nil }
        return value
    }

    static func string(
        _ name: String, _ summary: String, required: Bool = false, choices: [String] = [], autocomplete: Bool = false,
        maxLength: Int? = nil, greedy: Bool = false, shape: TextShape? = nil
    ) -> OptionSpec {
        OptionSpec(
            name: name, summary: summary, kind: .string, required: required, choices: choices,
            autocomplete: autocomplete, maxLength: maxLength, greedy: greedy, shape: shape)
    }

    static func title(_ summary: String = "The game: type to search the catalog") -> OptionSpec {
        .string("title", summary, required: true, autocomplete: true, maxLength: 200)
    }

    /// A game asked for, with the caller's own to pick from, when a typed command leaves it out ("!gg rate 9").
    static var askedTitle: OptionSpec {
        var title = title()
        title.askedWhenMissing = true
        return title
    }

    static func integer(_ name: String, _ summary: String, required: Bool = false, min: Int, max: Int) -> OptionSpec {
        OptionSpec(
            name: name, summary: summary, kind: .integer, required: required, minValue: Double(min),
            maxValue: Double(max))
    }

    static let hourUnits = ["hours", "hour", "hrs", "hr", "h"]

    /// `/rate`'s score: 1 to 10, typed with "/10" or in stars out of five, and asked for when a typed command
    /// leaves it out.
    static var score: OptionSpec {
        var score = integer("score", "1 to 10; shown as five stars", required: true, min: 1, max: 10)
        score.units = ["/10"]
        score.fiveStars = true
        score.askedWhenMissing = true
        return score
    }

    /// `/tag`'s tags: a list separated by commas, which may hold `word:` pairs of its own.
    static func tags() -> OptionSpec {
        var tags = OptionSpec.string("tags", "Comma-separated; -tag removes one", maxLength: 1000, greedy: true)
        tags.commaList = true
        return tags
    }

    /// A game's status, with the other words people use for each.
    static func status(_ summary: String) -> OptionSpec {
        GameStatus.option(
            "status", summary,
            saying: [
                (.completed, ["finished", "beaten", "beat", "done"]), (.playing, ["started"]),
                (.paused, ["on hold", "hold"]), (.dropped, ["abandoned", "quit"]),
            ])
    }

    static func page() -> OptionSpec {
        OptionSpec(name: "page", summary: "Page number", kind: .integer, minValue: 1, maxValue: 100_000)
    }

    static func confirm() -> OptionSpec {
        OptionSpec(name: "confirm", summary: "true to go ahead without the confirm button", kind: .boolean)
    }

    static func user(_ summary: String) -> OptionSpec {
        OptionSpec(name: "user", summary: summary, kind: .user)
    }
}

/// A command or subcommand: its options, or its subcommands when it is a group.
package struct CommandSpec: Sendable {
    package var name: String
    package var summary: String
    package var options: [OptionSpec] = []
    package var subcommands: [CommandSpec] = []
    /// Only server admins may run it; registered with `default_member_permissions` too.
    package var adminOnly: Bool = false
    /// About a server's members (rankings, challenges, friends, game nights, admin): offered in servers only, and
    /// refused in a direct message with the bot, where the caller is the only member.
    package var serverOnly: Bool = false
    /// Example invocations, shown by `/help`.
    package var examples: [String] = []
    /// A longer explanation shown by `/help <command>`.
    package var details: String? = nil

    package func subcommand(_ name: String) -> CommandSpec? {
        subcommands.first { $0.name == name }
    }

    package func option(_ name: String) -> OptionSpec? {
        options.first { $0.name == name }
    }

    /// Usage line: `/add title:<text> [status:<backlog|…>] [hours:<number>]`.
    package func usage(prefix: String) -> String {
        if !subcommands.isEmpty {
            return subcommands.map { $0.usage(prefix: "\(prefix) \($0.name)".trimmingCharacters(in: .whitespaces)) }
                .joined(separator: "\n")
        }
        let parts = options.map { option -> String in
            let value =
                !option.choices.isEmpty
                ? "<\(option.choices.joined(separator: "|"))>" : "<\(option.shape?.label ?? option.kind.label)>"
            let part = "\(option.name):\(value)"
            return option.required ? part : "[\(part)]"
        }
        return ([prefix] + parts).joined(separator: " ")
    }
}

extension CommandName {
    /// The declaration with where the command may run.
    var placedDeclaration: CommandSpec {
        var spec = declaration
        spec.serverOnly = isAboutTheServer
        return spec
    }

    /// The commands about a server's members rather than the caller's own games (`CommandSpec.serverOnly`).
    var isAboutTheServer: Bool {
        switch self {
        case .compare, .leaderboard, .challenge, .friend, .activity, .upcoming, .gamenight, .admin: true
        default: false
        }
    }
}

extension OptionSpec {
    func check(_ value: OptionValue, usage: () -> String) throws(UsageError) {
        switch (kind, value) {
        case (.string, .string(let text)):
            let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
            if required && trimmed.isEmpty {
                throw UsageError("\(code: "\(name)") must not be empty.", usage: usage())
            }
            if !choices.isEmpty && !choices.contains(trimmed.lowercased()) {
                throw UsageError(
                    "\(code: "\(name)") must be one of: \(choices.joined(separator: ", ")) (got “\(trimmed)”).",
                    usage: usage())
            }
            if text.unicodeScalars.contains("\u{0}") {
                throw UsageError(
                    "\(code: "\(name)") contains a NUL character (\\0), which cannot be stored; remove it and try again.",
                    usage: usage())
            }
            if let shape, !trimmed.isEmpty, !shape.accepts(trimmed) {
                throw UsageError(shape.complaint(name: name, text: trimmed), usage: usage())
            }
            if let maxLength, Format.length(text) > maxLength {
                throw UsageError(
                    "\(code: "\(name)") is \(Format.length(text)) characters long; the limit is \(maxLength).",
                    usage: usage())
            }
        case (.integer, .integer(let number)):
            try checkRange(Double(number), usage: usage)
        case (.number, .number(let number)):
            guard number.isFinite else { throw UsageError("\(code: "\(name)") must be a number.", usage: usage()) }
            try checkRange(number, usage: usage)
        case (.number, .integer(let number)):
            try checkRange(Double(number), usage: usage)
        case (.boolean, .boolean), (.user, .user), (.channel, .channel), (.attachment, .attachment):
            break
        default:
            throw UsageError("\(code: "\(name)") must be a \(kind.label).", usage: usage())
        }
    }

    private func checkRange(_ number: Double, usage: () -> String) throws(UsageError) {
        let low = minValue.map { $0 == $0.rounded() ? String(Int($0)) : String($0) }
        let high = maxValue.map { $0 == $0.rounded() ? String(Int($0)) : String($0) }
        if let minValue, number < minValue {
            if let high { throw UsageError("\(code: "\(name)") must be between \(low!) and \(high).", usage: usage()) }
            throw UsageError("\(code: "\(name)") must be at least \(low!).", usage: usage())
        }
        if let maxValue, number > maxValue {
            if let low { throw UsageError("\(code: "\(name)") must be between \(low) and \(high!).", usage: usage()) }
            throw UsageError("\(code: "\(name)") must be at most \(high!).", usage: usage())
        }
    }
}
