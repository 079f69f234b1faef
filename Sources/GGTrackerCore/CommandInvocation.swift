import Foundation

/// An option's value as delivered by a platform, before the command is typed.
package enum OptionValue: Hashable, Sendable {
    case string(String)
    case integer(Int)
    case number(Double)
    case boolean(Bool)
    case user(UserMention)
    case channel(String)
    /// A file sent with the command (Discord's attachment option).
    case attachment(Attachment)
}

/// A file a platform holds for a command: where the bot downloads it, its name and size as the platform says.
package struct Attachment: Hashable, Sendable {
    package var url: String
    package var filename: String
    package var size: Int

    package init(url: String, filename: String, size: Int) {
        self.url = url
        self.filename = filename
        self.size = size
    }
}

extension OptionValue: ExpressibleByBooleanLiteral {
    package init(booleanLiteral value: Bool) { self = .boolean(value) }

    /// A game, as the `title` option takes it.
    package static func game(_ ref: GameRef) -> OptionValue { .string(ref.description) }
    package static func status(_ status: GameStatus) -> OptionValue { .string(status.rawValue) }
}

/// A command as a platform delivered it: the path of names (`["wishlist", "add"]`) and named option values.
package struct CommandInvocation: Hashable, Sendable {
    package var path: [String]
    package var options: [String: OptionValue]
    /// True when it came from a button, menu or modal of ours (its reply may replace the message pressed).
    package var fromComponent: Bool

    package init(path: [String], options: [String: OptionValue] = [:], fromComponent: Bool = false) {
        self.path = path
        self.options = options
        self.fromComponent = fromComponent
    }

    /// One of the declared commands with its options, for a button, a menu or a form to run: checked against the
    /// declarations (a path or option they do not have stops a debug build and the tests).
    package static func run(_ name: CommandName, _ options: [String: OptionValue] = [:]) -> CommandInvocation {
        declared(CommandInvocation(path: [name.rawValue], options: options))
    }

    /// A subcommand of a declared group (`/wishlist add`) with its options.
    package static func run(
        _ name: CommandName, _ subcommand: String?, _ options: [String: OptionValue] = [:]
    ) -> CommandInvocation {
        declared(CommandInvocation(path: [name.rawValue] + (subcommand.map { [$0] } ?? []), options: options))
    }

    private static func declared(_ invocation: CommandInvocation) -> CommandInvocation {
        assert((try? invocation.validated()) != nil, "\(invocation) does not match the command declarations")
        return invocation
    }

    /// The text command line that means the same: `/add title:igdb:1942 status:playing`.
    /// Buttons carry these, so a button runs through the same parser as typed text.
    package var commandLine: String {
        var parts = ["/" + path.joined(separator: " ")]
        guard let spec = leafSpec else { return parts[0] }
        for option in spec.options {
            guard let value = options[option.name] else { continue }
            parts.append("\(option.name):\(Self.text(of: value))")
        }
        return parts.joined(separator: " ")
    }

    /// A value as typed after its option's name.
    package static func text(of value: OptionValue) -> String {
        switch value {
        case .string(let s): s
        case .integer(let i): String(i)
        case .number(let d): d == d.rounded() ? String(Int(d)) : String(d)
        case .boolean(let b): b ? "true" : "false"
        // Written so the parser reads them back whatever the platform: `@` and `#` before an id.
        case .user(let u): u.id.hasPrefix("@") ? u.id : "@" + u.id
        case .channel(let c): "#" + c
        case .attachment(let a): a.filename
        }
    }

    /// The declaration of the command this invocation runs (its subcommand's, for a group); nil when the path
    /// names none.
    var leafSpec: CommandSpec? {
        guard let command = CommandName(rawValue: path.first ?? "") else { return nil }
        return Self.leaf(of: command.spec, path: Array(path.dropFirst()))
    }

    static func leaf(of spec: CommandSpec, path: [String]) -> CommandSpec? {
        var current = spec
        for name in path {
            guard let next = current.subcommand(name) else { return nil }
            current = next
        }
        return current.subcommands.isEmpty ? current : nil
    }
}

extension CommandInvocation {
    /// Checks the invocation against the command declarations: known names, required options present,
    /// values of the declared kind, within their range, choice and length. Returns the leaf spec.
    package func validated() throws(UsageError) -> CommandSpec {
        guard let first = path.first, let command = CommandName(rawValue: first) else {
            throw UsageError.unknownCommand(path.first ?? "")
        }
        var spec = command.spec
        var prefix = "/" + first
        for name in path.dropFirst() {
            guard let next = spec.subcommand(name) else {
                throw UsageError(
                    "\(code: "\(prefix)") has no subcommand \(code: "\(name)").", usage: spec.usage(prefix: prefix))
            }
            spec = next
            prefix += " " + name
        }
        guard spec.subcommands.isEmpty else {
            throw UsageError(
                "\(code: "\(prefix)") needs a subcommand: \(spec.subcommands.map(\.name).joined(separator: ", ")).",
                usage: spec.usage(prefix: prefix))
        }
        // Written out only for an error: most commands never need it.
        let usage = { [spec, prefix] in spec.usage(prefix: prefix) }
        for (name, value) in options {
            guard var option = spec.option(name) else {
                throw UsageError("\(code: "\(prefix)") has no option \(code: "\(name)").", usage: usage())
            }
            // A title may run on into the free text the command was not given ("!gg review Hades <a long
            // review>"), read apart when the title is resolved.
            if name == "title", let most = option.maxLength,
                let text = spec.options.first(where: { $0.greedy && $0.isFreeText && options[$0.name] == nil })
            {
                option.maxLength = most + 1 + (text.maxLength ?? 0)
            }
            try option.check(value, usage: usage)
        }
        for option in spec.options where option.required && options[option.name] == nil {
            var message: RichText =
                "\(code: "\(prefix)") needs \(code: "\(option.name)"): \(Self.midSentence(option.summaryHead))."
            if let (guess, complete) = guessing(option, of: spec) {
                if complete {
                    message += " Did you mean \(code: guess.commandLine)?"
                    throw UsageError(
                        message, usage: usage(), meant: guess,
                        readsTheTitlesEnd: guess.options["title"] != options["title"])
                }
                // "Winter Sprint 3 games": the values read from the end leave another option out, which is named,
                // with the line as it was read so far.
                if let still = spec.options.first(where: { $0.required && guess.options[$0.name] == nil }) {
                    throw UsageError(
                        "\(code: "\(prefix)") needs \(code: "\(still.name)"): \(Self.midSentence(still.summaryHead))."
                            + " Read so far: \(code: guess.commandLine).", usage: usage())
                }
            }
            if let (word, text) = numberNotTaken(by: option, of: spec) {
                // "!gg rate hades 8.5": a number was typed, but not one the option takes.
                message +=
                    " “\(word)” was read as part of the \(text): \(code: option.name) takes "
                    + TypedNumber(word: word, option: option).whatTheOptionTakes + "."
            } else if option.askedWhenMissing, !names(.user, of: spec) {
                // Asked for among the caller's own games: not where the command is about another member's
                // (`!gg review by:@ada`).
                continue
            }
            throw UsageError(message, usage: usage())
        }
        return spec
    }

    /// Whether an option of that kind was given.
    func names(_ kind: OptionKind, of spec: CommandSpec) -> Bool {
        spec.options.contains { $0.kind == kind && options[$0.name] != nil }
    }

    /// The same command with `missing` (and any other option not given) taken from the last words of a text
    /// option, when each is a valid value for one and the command is then complete: "!gg rate celeste 9" typed
    /// without `score:` → `/rate title:celeste score:9`; "!gg challenge create Spring 5 custom 2027-03-01" → each
    /// value named. The last word goes to the last option it fits. Offered, or run where the title as typed names no
    /// game: "portal 2" may be the game's name. Not `complete` when the values read still leave another required
    /// option out ("Winter Sprint 3 games" without its last day).
    func guessing(_ missing: OptionSpec, of spec: CommandSpec) -> (CommandInvocation, complete: Bool)? {
        for option in spec.options where option.kind == .string && option.name != missing.name {
            guard case .string(var text)? = options[option.name] else { continue }
            var guess = self
            peeling: while true {
                for target in spec.options.reversed() where guess.options[target.name] == nil {
                    guard let (rest, value) = Self.trailingValue(of: text, for: target) else { continue }
                    guess = guess.moving(option.name, to: rest, setting: target.name, value)
                    text = rest
                    continue peeling
                }
                break
            }
            guard guess.options[missing.name] != nil else { continue }
            return (guess, spec.options.allSatisfy { !$0.required || guess.options[$0.name] != nil })
        }
        return nil
    }

    /// The last word of `text` as a valid value of `option` (a number in its range, one of its choices), with the
    /// words before it: ("celeste", 9) from "celeste 9" for a score. A unit written apart from its number ("20
    /// hours") and the option's name written before its value ("status completed") go with it. Nil when it is not
    /// one, or nothing precedes it.
    package static func trailingValue(of text: String, for option: OptionSpec) -> (rest: String, value: OptionValue)? {
        var words = text.split(whereSeparator: \.isWhitespace).map(String.init)
        guard words.count >= 2 else { return nil }
        // "3 hours in", "50% done": a word after the value that says what it is.
        if words.count >= 3, ValueWords.endsAfterAValue(text, of: option),
            let found = trailingValue(of: words.dropLast().joined(separator: " "), for: option)
        {
            return found
        }
        // A day written in words: "Dec 31", "31 December 2027", "in 2 weeks", after "by" or "until" too.
        if option.shape != nil {
            for count in stride(from: min(4, words.count - 1), through: 2, by: -1) {
                var day = words.suffix(count)
                if Self.beforeADay.contains(day.first!.lowercased()) { day.removeFirst() }
                if let value = option.validValue(day.joined(separator: " ")) {
                    return (words.dropLast(count).joined(separator: " "), value)
                }
            }
        }
        // A choice of two words written apart: "games completed" for games_completed.
        if words.count >= 3, case let joined = words.suffix(2).joined(separator: "_").lowercased(),
            option.choices.contains(joined)
        {
            return (words.dropLast(2).joined(separator: " "), .string(joined))
        }
        // "8 out of 10", "4 out of 5": a score as a fraction, for an option that reads one; or none ("12 out of 10"
        // is no score of 10).
        if words.count >= 5, words[words.count - 3].lowercased() == "out", words[words.count - 2].lowercased() == "of",
            case let fraction = words[words.count - 4] + "/" + words[words.count - 1], option.reading(fraction) != nil
        {
            guard let value = option.validValue(fraction) else { return nil }
            return (words.dropLast(4).joined(separator: " "), value)
        }
        var word = words.removeLast()
        // The option's name joined to its value as in other programs ("celeste score=9").
        if word.lowercased().hasPrefix(option.name + "=") { word.removeFirst(option.name.count + 1) }
        if (PlayedHours.unitWords(of: option) + option.starWords).contains(word.lowercased()), words.count >= 2,
            option.reading(words.last! + word) != nil
        {
            word = words.removeLast() + word
        }
        guard let value = option.validValue(word), !words.isEmpty else { return nil }
        // Its name before it ("hours 20"), or a word that says what it is ("played 3h", "at 50%").
        if words.count >= 2,
            words.last!.lowercased() == option.name || ValueWords.before(option).contains(words.last!.lowercased())
        {
            words.removeLast()
        }
        return (words.joined(separator: " "), value)
    }

    /// Words that may come before a day ending a line ("by Dec 31"), and are no part of the text before it.
    static let beforeADay: Set<String> = ["by", "until", "till", "ends", "ending"]

    /// Options this command has and was not given, which the last words of its title set: "celeste playing" typed
    /// as `/add`'s title ends with `status:playing`, "portal 2 20h 50%" as `/progress`'s with `hours:20` and
    /// `percent:50`, "hades status completed" with `status:completed`. The title without them comes first.
    package var optionsEndingTheTitle: (title: String, options: [(name: String, value: OptionValue)])? {
        guard case .string(var title)? = options["title"], let spec = leafSpec else { return nil }
        title = Self.endingAsTyped(title, of: spec)
        var found: [(name: String, value: OptionValue)] = []
        peeling: while true {
            // An option whose value the last word says what it is comes first: "50% done" is a percent, not a status.
            let saying = spec.options.filter { ValueWords.endsAfterAValue(title, of: $0) }
            for option in saying + spec.options.filter({ o in !saying.contains { $0.name == o.name } })
            where options[option.name] == nil && !found.contains(where: { $0.name == option.name }) {
                guard
                    let (rest, value) = Self.ending(of: title, for: option, of: spec)
                        ?? Self.bareNumber(ending: title, for: option, of: spec, given: options)
                else { continue }
                title = rest
                found.insert((option.name, value), at: 0)
                continue peeling
            }
            break
        }
        return found.isEmpty ? nil : (title, found)
    }

    /// The words of the title after a game's name that starts it, for the free-text option this command was not
    /// given: "hades loved it" typed to `/review` is Hades with `text:loved it`, "hades roguelike" to `/tag` Hades
    /// with `tags:roguelike`. Names are compared by their letters and digits, word by word. `abbreviated`, the name's
    /// first words are enough ("stardew farm plans" is Stardew Valley's), one of them four letters at least.
    package func textAfter(name: String, abbreviated: Bool = false) -> (name: String, value: OptionValue)? {
        guard let spec = leafSpec,
            let option = spec.options.first(where: { $0.greedy && $0.kind == .string && options[$0.name] == nil }),
            let words = wordsAfter(name: name, abbreviated: abbreviated)
        else { return nil }
        return (option.name, .string(words.joined(separator: " ")))
    }

    /// The words of the title after a game's name that starts it (`textAfter`), at least one.
    func wordsAfter(name: String, abbreviated: Bool) -> [Substring]? {
        guard case .string(let title)? = options["title"] else { return nil }
        let nameWords = nameKeys(of: name)
        let titleWords = title.split(whereSeparator: \.isWhitespace)
        let named =
            abbreviated ? zip(titleWords.map(nameKey), nameWords).prefix(while: { $0 == $1 }).count : nameWords.count
        guard named > 0, titleWords.count > named,
            titleWords.prefix(named).map(nameKey) == Array(nameWords.prefix(named)),
            named == nameWords.count || nameWords.prefix(named).contains(where: { $0.count >= 4 })
        else { return nil }
        return Array(titleWords.dropFirst(named))
    }

    /// A bare number ending the title right after another option's choice ("celeste playing 5"), for the first
    /// number option the command was not given: after a status it is no part of the name. `/progress`'s is hours
    /// (its percent is typed with "%"); the offer names it, and is never run.
    private static func bareNumber(
        ending title: String, for option: OptionSpec, of spec: CommandSpec, given: [String: OptionValue]
    ) -> (rest: String, value: OptionValue)? {
        let open = spec.options.filter { ($0.kind == .integer || $0.kind == .number) && given[$0.name] == nil }
        guard open.first?.name == option.name, let (rest, value) = trailingValue(of: title, for: option),
            let before = rest.split(whereSeparator: \.isWhitespace).last,
            spec.options.contains(where: {
                $0.name != option.name && !$0.choices.isEmpty && given[$0.name] == nil
                    && $0.reading(String(before)) != nil
            })
        else { return nil }
        return (rest, value)
    }

    /// The same command with the options its title ends with (`optionsEndingTheTitle`) given by name.
    func settingTheTitlesEnding(_ ending: (title: String, options: [(name: String, value: OptionValue)])) -> Self {
        var guess = self
        guess.options["title"] = .string(ending.title)
        for (name, value) in ending.options { guess.options[name] = value }
        return guess
    }

    /// `option`'s value at the end of `title`, with the title before it.
    private static func ending(
        of title: String, for option: OptionSpec, of spec: CommandSpec
    ) -> (rest: String, value: OptionValue)? {
        // "3 hours in", "50% done": the value is before the word that says what it is.
        if ValueWords.endsAfterAValue(title, of: option) {
            let words = title.split(whereSeparator: \.isWhitespace)
            return words.count >= 3 ? ending(of: words.dropLast().joined(separator: " "), for: option, of: spec) : nil
        }
        let last = String(title.split(whereSeparator: \.isWhitespace).last ?? "")
        // A list after the title ("hades roguelike, co-op"): from the word before its first comma on.
        if option.commaList, let comma = title.firstIndex(of: ",") {
            let head = title[..<comma]
            guard let space = head.lastIndex(where: \.isWhitespace) else { return nil }
            let rest = head[..<space].trimmingCharacters(in: .whitespaces)
            let list = title[space...].trimmingCharacters(in: .whitespaces)
            return rest.isEmpty ? nil : (rest, .string(list))
        }
        // A yes/no option named last ("portal 2 confirm") is that option, yes.
        if option.isNamed(by: last) {
            let rest = String(title.dropLast(last.count)).trimmingCharacters(in: .whitespaces)
            return rest.isEmpty ? nil : (rest, .boolean(true))
        }
        // A choice, a number written with its unit ("50%", "12h", "12 hours") or after the option's name ("hours
        // 12", "percent 50", "hours=12"): a bare number may be part of a name.
        let words = title.split(whereSeparator: \.isWhitespace)
        let named =
            words.count >= 3 && words[words.count - 2].lowercased() == option.name
            || last.lowercased().hasPrefix(option.name + "=")
        // "+2" is hours added to those played ("-2" taken off), never part of a name; "2h" is the total. The
        // number is the word before a unit written apart ("+10 %").
        let unitApart = PlayedHours.unitWords(of: option).contains(last.lowercased())
        let number = unitApart && words.count >= 2 ? String(words[words.count - 2]) : last
        let added = PlayedHours.isAdded(option) && PlayedHours.isSigned(number)
        guard
            PlayedHours.mayBe(number, option, of: spec),
            !option.choices.isEmpty || option.carriesUnit(last) || unitApart || named || added
        else { return nil }
        return trailingValue(of: title, for: option)
    }

    /// A summary written to start a sentence, continuing one: its first letter in lower case unless the first
    /// word is an abbreviation ("The CSV file" → "the CSV file", "IGDB id" stays).
    static func midSentence(_ summary: String) -> String {
        let first = summary.prefix { !$0.isWhitespace }
        guard let head = first.first, first.dropFirst().allSatisfy({ !$0.isUppercase }) else { return summary }
        return head.lowercased() + summary.dropFirst()
    }
}

/// A word of a name as names are compared: its letters and digits, in lower case ("Hades:" → "hades").
func nameKey(_ word: Substring) -> String { String(word.lowercased().filter { $0.isLetter || $0.isNumber }) }

/// The words of a name as names are compared (`nameKey`), leaving out those of no letter or digit ("-").
func nameKeys(of name: String) -> [String] {
    name.split(whereSeparator: \.isWhitespace).map(nameKey).filter { !$0.isEmpty }
}
