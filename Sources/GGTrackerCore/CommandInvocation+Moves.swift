/// Values typed in the wrong place: a number where another option's text ends, and a word moved to the option it
/// was meant for.
extension CommandInvocation {
    /// The last word of a text option when it looks like a number (digits, with a point, a comma or a slash) that
    /// `option` does not take ("8.5" or "4/5" for a score of whole numbers out of 10), with that option's name; for
    /// a score typed in stars, the number and its word ("4.3 stars", "6 stars").
    func numberNotTaken(by option: OptionSpec, of spec: CommandSpec) -> (word: String, text: String)? {
        guard option.kind == .integer || option.kind == .number else { return nil }
        for text in spec.options where text.kind == .string && text.name != option.name {
            guard case .string(let value)? = options[text.name] else { continue }
            var words = value.split(whereSeparator: \.isWhitespace).map(String.init)
            guard var last = words.popLast() else { continue }
            // Stars written apart ("hades 4.3 stars"): the number and its word, alone or after a title.
            if option.starWords.contains(last.lowercased()), let number = words.popLast() {
                last = number + " " + last
            } else if words.count >= 3, words.suffix(2).map({ $0.lowercased() }) == ["out", "of"] {
                // "12 out of 10": the whole fraction, with the number it begins with.
                last = words.suffix(3).joined(separator: " ") + " " + last
            } else if words.isEmpty && option.starsScale(of: last) == nil {
                // A number alone may be the game's name ("1942"); "6/5" is not.
                continue
            }
            let number = last.split(separator: " ")[0]
            guard number.contains(where: \.isNumber), number.allSatisfy({ $0.isNumber || ".,/%".contains($0) })
            else { continue }
            return (last, text.name)
        }
        return nil
    }

    /// Values of options this command was not given, typed right after a game's name that starts the title, with
    /// words after them that fit no option: "celeste 9 amazing game" typed to `/rate` is Celeste with `score:9`, and
    /// "amazing game" left over. A value may carry its unit apart ("3 hours") and end with a comma ("9,"). Nil where
    /// no value follows the name, or nothing follows the values (the title's ending, read elsewhere).
    func valuesAfter(name: String, abbreviated: Bool) -> (options: [(name: String, value: OptionValue)], rest: String)?
    {
        guard let spec = leafSpec, var words = wordsAfter(name: name, abbreviated: abbreviated)?.map(String.init)
        else { return nil }
        var found: [(name: String, value: OptionValue)] = []
        let separators: Set<Character> = [",", ";"]
        reading: while !words.isEmpty {
            let word = Self.dropping(separators, atTheEndOf: words[0])
            let open = spec.options.filter { option in
                options[option.name] == nil && !option.isFreeText && option.kind != .user
                    && !found.contains { $0.name == option.name }
            }
            for option in open where PlayedHours.mayBe(word, option, of: spec) {
                // A unit written apart: "3 hours", "4.5 stars".
                if words.count >= 2,
                    case let unit = Self.dropping(separators, atTheEndOf: words[1]),
                    (PlayedHours.unitWords(of: option) + option.starWords).contains(unit.lowercased()),
                    let value = option.validValue(word + unit)
                {
                    found.append((option.name, value))
                    words.removeFirst(2)
                    continue reading
                }
                // A bare number is a score's (at most 10), never hours or a percent: "portal 2 …" is no Portal played 2 h.
                if let value = option.validValue(word),
                    option.carriesUnit(word) || !word.contains(where: \.isNumber)
                        || (option.maxValue ?? .infinity) <= 10
                {
                    found.append((option.name, value))
                    words.removeFirst()
                    continue reading
                }
            }
            break
        }
        // "9/10 - loved it": a dash or a colon between the values and the words is neither's.
        let rest = String(words.joined(separator: " ").drop { "-–—:,;".contains($0) || $0.isWhitespace })
        return found.isEmpty || rest.isEmpty ? nil : (found, rest)
    }

    /// A title as its ending is read: a sign written as people write it joined to its number (`signJoined`), and on
    /// `/add` the sign of hours played taken as they are meant (`plusDropped`).
    static func endingAsTyped(_ title: String, of spec: CommandSpec) -> String {
        plusDropped(signJoined(title, of: spec), of: spec)
    }

    /// `text` without the characters of `set` it ends with: "9," → "9", "10/10!" → "10/10".
    private static func dropping(_ set: Set<Character>, atTheEndOf text: String) -> String {
        String(text.reversed().drop(while: set.contains).reversed())
    }

    /// The number ending a title with its sign as people write it: a sign apart ("hades - 2h", "hades + 1 hour",
    /// "hades – 30 min"), or with its unit, a word for one ("hades add 2 hours", "hades another 2h", "hades minus 1h",
    /// "hades 2 more hours") is joined to it, as "-2h" and "+1 hour" are read; a mark after it is dropped ("celeste
    /// 10/10!"); hours "today" or "tonight" are a session, added. There a sign is no part of a name ("Tetris Plus 2", a
    /// bare number, keeps its word).
    private static func signJoined(_ text: String, of spec: CommandSpec) -> String {
        var words = text.split(whereSeparator: \.isWhitespace).map(String.init)
        let marks: Set<Character> = ["!", ".", "?"]
        if let last = words.last, last.count > 1, marks.contains(last.last!), last.first?.isNumber == true {
            words[words.count - 1] = Self.dropping(marks, atTheEndOf: last)
        }
        let units = spec.options.filter { !$0.units.isEmpty }
        // "3 hours today", "2h tonight": a session, hours added.
        if words.count >= 3, ["today", "tonight"].contains(words[words.count - 1].lowercased()) {
            let hours = units.filter { $0.units == OptionSpec.hourUnits }
            let apart = hours.contains { PlayedHours.unitWords(of: $0).contains(words[words.count - 2].lowercased()) }
            let number = words.count - (apart ? 3 : 2)
            if number >= 1, words[number].first?.isNumber == true,
                apart || hours.contains(where: { $0.carriesUnit(words[number]) })
            {
                words.removeLast()
                words[number] = "+" + words[number]
            }
        }
        let unitApart = words.last.map { last in
            units.contains { PlayedHours.unitWords(of: $0).contains(last.lowercased()) }
        }
        if unitApart == true, words.count >= 4, words[words.count - 2].lowercased() == "more",
            words[words.count - 3].first?.isNumber == true
        {
            words.remove(at: words.count - 2)
            words[words.count - 2] = "+" + words[words.count - 2]
        }
        let index = words.count - (unitApart == true ? 3 : 2)
        if index >= 1, words[index + 1].first?.isNumber == true {
            let withUnit = unitApart == true || units.contains { $0.carriesUnit(words[index + 1]) }
            let signs = ["+": "+", "-": "-", "–": "-", "−": "-"]
            let saying = ["add": "+", "another": "+", "plus": "+", "extra": "+", "minus": "-"]
            if let sign = signs[words[index]] ?? (withUnit ? saying[words[index].lowercased()] : nil) {
                words[index] = sign + words.remove(at: index + 1)
            }
        }
        return words.joined(separator: " ")
    }

    /// "+2h" ending `/add`'s title: where the command has hours (or a percent) but none to add to them, a "+" before
    /// the last number written with its unit is dropped, as `hours:+2` there is the hours played ("!gg add hades +2h" is
    /// Hades played 2 h, never Hades II). A signed number without its unit is given it ("+2" is "2h", "-2" is "-2h",
    /// refused as hours): with its sign, it is no part of a name.
    private static func plusDropped(_ text: String, of spec: CommandSpec) -> String {
        let totals = PercentDone.addingTo.filter { spec.option($0.key) != nil && spec.option($0.value.name) == nil }
        guard let total = totals.first.flatMap({ spec.option($0.key) }) else { return text }
        var words = text.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
        let unitApart = words.last.map { PlayedHours.unitWords(of: total).contains($0.lowercased()) } == true
        let index = words.count - (unitApart ? 2 : 1)
        guard words.count >= 2, index >= 1, PlayedHours.isSigned(words[index]),
            words[index].dropFirst().first?.isNumber == true
        else { return text }
        if !unitApart, !total.carriesUnit(words[index]) {
            guard Double(words[index].dropFirst()) != nil, let unit = total.units.min(by: { $0.count < $1.count })
            else { return text }
            words[index] += unit
        }
        if words[index].hasPrefix("+") { words[index].removeFirst() }
        return words.joined(separator: " ")
    }

    /// The options the title ends with (`optionsEndingTheTitle`) where every word of them is a number written with
    /// its unit or its sign, or a unit after a number ("hades 2h", "hades 3 hours 50%", "hades +2h", "hades 9/10"):
    /// so written, a number is no part of a name, whatever game the whole title names ("hades 2h" is no Hades II).
    package var unitEnding: (title: String, options: [(name: String, value: OptionValue)])? {
        guard let ending = optionsEndingTheTitle, case .string(let typed)? = options["title"], let spec = leafSpec
        else { return nil }
        let title = Self.endingAsTyped(typed, of: spec)
        let named = ending.title.split(whereSeparator: \.isWhitespace).count
        let words = title.split(whereSeparator: \.isWhitespace).dropFirst(named).map { $0.lowercased() }
        let measured = spec.options.filter { !$0.units.isEmpty }
        func isUnit(_ word: String) -> Bool { measured.contains { PlayedHours.unitWords(of: $0).contains(word) } }
        let written = words.indices.allSatisfy { index in
            let word = words[index]
            let number = word.drop { "+-".contains($0) }.first?.isNumber == true
            return (number && (PlayedHours.isSigned(word) || measured.contains { $0.carriesUnit(word) }))
                || (number && index + 1 < words.count && isUnit(words[index + 1]))
                || (index > 0 && isUnit(word))
        }
        return written && !words.isEmpty ? ending : nil
    }

    /// The options the title ends with (`optionsEndingTheTitle`) or starts with (`valuesLeading`), or on `/progress`
    /// without hours, hours where the title ends with a number alone: read only where the title as typed names no
    /// game. `offeredOnly`, a whole number ("celeste 9", or a score first: "9 celeste"; a sequel's number may be
    /// mistyped), whose reading is offered, never run; one with a decimal part ("hades 4.5"), which names rarely
    /// have, runs.
    package var endingOfATitleNamingNoGame:
        (title: String, options: [(name: String, value: OptionValue)], offeredOnly: Bool)?
    {
        if let ending = optionsEndingTheTitle { return (ending.title, ending.options, false) }
        if let leading = valuesLeading(self) { return leading }
        guard path == ["progress"], options["hours"] == nil, case .string(let title)? = options["title"],
            let last = title.split(whereSeparator: \.isWhitespace).last, last.first?.isNumber == true,
            let hours = leafSpec?.option("hours"), let (rest, value) = Self.trailingValue(of: title, for: hours)
        else { return nil }
        return (rest, [("hours", value)], !last.contains(where: { ".,".contains($0) }))
    }

    /// The title's last word when it is a number that the one option reading it, which the command was not given,
    /// does not take, with that option: typed with its unit ("hades 150%", "hades 30000h"), or with `alone`, the
    /// whole title, also a whole number near the option's range ("11" or "0" to `/rate`; `TypedNumber`).
    func numberOutOfRange(alone: Bool) -> TypedNumber? {
        guard case .string(let typed)? = options["title"], let spec = leafSpec else { return nil }
        let words = Self.endingAsTyped(typed, of: spec).split(whereSeparator: \.isWhitespace)
        guard let last = words.last.map(String.init), !alone || words.count == 1 else { return nil }
        let misfits = spec.options.filter { options[$0.name] == nil && PlayedHours.mayBe(last, $0, of: spec) }
            .map { TypedNumber(word: last, option: $0) }
            .filter { $0.isOutOfRange(bare: alone) }
        return misfits.count == 1 ? misfits[0] : nil
    }

    /// The same command with text option `text` cut to `rest` and `name` set to `value`: the last word of the text
    /// moved to the option it was meant for, as a guess to offer.
    func moving(_ text: String, to rest: String, setting name: String, _ value: OptionValue) -> CommandInvocation {
        var guess = self
        guess.options[text] = .string(rest)
        guess.options[name] = value
        return guess
    }
}

/// Values typed before the game's name, as the title's ending would give them: "12h hollow knight", "2 hours of
/// celeste", "+2h hades", "50% celeste", "9/10 celeste", with the name after them ("of", "on", "in" or "for" between
/// them left out). `offeredOnly`, a bare number first, read as a score (at most 10) to `/rate` ("9 celeste"): a name
/// may start with a number.
private func valuesLeading(
    _ invocation: CommandInvocation
) -> (title: String, options: [(name: String, value: OptionValue)], offeredOnly: Bool)? {
    guard case .string(let typed)? = invocation.options["title"], let spec = invocation.leafSpec else { return nil }
    let words = typed.split(whereSeparator: \.isWhitespace).map(String.init)
    guard words.count >= 2, let first = words[0].first, first.isNumber || "+-★".contains(first) else { return nil }
    for count in stride(from: min(4, words.count - 1), through: 1, by: -1) {
        var name = Array(words.dropFirst(count))
        if name.count >= 2, ["of", "on", "in", "for"].contains(name[0].lowercased()) { name.removeFirst() }
        var moved = invocation
        moved.options["title"] = .string((name + words.prefix(count)).joined(separator: " "))
        if let ending = moved.optionsEndingTheTitle, ending.title == name.joined(separator: " ") {
            return (ending.title, ending.options, false)
        }
    }
    guard
        let score = spec.options.first(where: {
            $0.kind == .integer && ($0.maxValue ?? .infinity) <= 10 && invocation.options[$0.name] == nil
        }),
        let value = score.validValue(words[0])
    else { return nil }
    return (words.dropFirst().joined(separator: " "), [(score.name, value)], true)
}
