import Foundation

/// Parses a command typed as text — `/add title:Hollow Knight status:playing`, `!gg add Hollow Knight --status
/// playing`, `gg wishlist show @bob` — into the same `CommandInvocation` a Discord interaction produces, using the
/// command declarations. Text before the first option fills the command's first required option.
package enum TextCommandParser {
    package static func parse(_ line: String, fromComponent: Bool = false) throws(UsageError) -> CommandInvocation {
        var rest = Substring(line.trimmingCharacters(in: .whitespacesAndNewlines))
        for prefix in ["!gg", "/gg"] where rest.lowercased().hasPrefix(prefix) {
            let after = rest.dropFirst(prefix.count)
            if after.isEmpty || after.first!.isWhitespace { rest = after.drop { $0.isWhitespace } }
        }
        if rest.hasPrefix("/") { rest = rest.dropFirst() }
        guard let commandWord = nextWord(&rest) else {
            throw UsageError(
                "Type a command, for example \(code: "/search query:hollow knight"). \(code: "/help") lists them all.")
        }
        // "!gg add: hades", "!gg list, please": punctuation ending the command's word is no part of it.
        let commandName = commandWord.lowercased().trimmingCharacters(in: [":", ",", ".", "!", "?"])
        guard let command = CommandName(rawValue: commandName) else {
            throw unknownCommand(commandWord, named: commandName, rest: rest)
        }
        var path = [command.rawValue]
        var spec = command.spec
        while !spec.subcommands.isEmpty {
            var probe = rest
            guard let word = nextWord(&probe) else {
                // Nothing more: a group that can show something shows it ("!gg wishlist" is its show).
                guard
                    let shown = ["show", "list"].compactMap(spec.subcommand).first(where: {
                        !$0.options.contains(where: \.required)
                    })
                else { break }
                path.append(shown.name)
                spec = shown
                continue
            }
            guard let sub = spec.subcommand(word.lowercased()) else {
                try nearSubcommand(word, of: spec, path: path, rest: probe)
                try meantSubcommand(rest, of: spec, path: path)
                break
            }
            path.append(sub.name)
            spec = sub
            rest = probe
        }
        guard spec.subcommands.isEmpty else {
            // Let validation explain which subcommands exist.
            return CommandInvocation(path: path, fromComponent: fromComponent)
        }
        if let shelf = Self.namedShelf(path, rest) { (path, spec, rest) = shelf }
        if path == ["add"] { try scoreAfterAddsTitle(rest) }
        let usage = spec.usage(prefix: "/" + path.joined(separator: " "))
        var options: [String: OptionValue] = [:]
        rest = Substring(dashesAsFlags(String(rest), of: spec))
        let segments = split(String(rest), spec: spec)
        try refuseMistypedOption(in: segments, typed: String(rest), of: spec, path: path, usage: usage)
        if var positional = segments.positional {
            let first = spec.options.first(where: \.required) ?? spec.options.first
            try refuseUnknownOption(in: positional, member: first?.kind == .user, path: path, usage: usage)
            guard let target = first else {
                throw UsageError("\(code: "/\(path.joined(separator: " "))") takes no options.", usage: usage)
            }
            positional = withoutOwnName(positional, target: target)
            if segments.named.isEmpty { try namedWithoutColon(positional, target: target, of: spec, path: path) }
            let asked = Self.onlyAskedValue(positional, target: target, of: spec, named: segments.named)
            if asked == nil { try valueForTitle(positional, target: target, of: spec, path: path) }
            // Where the first option takes one word (a member, a choice), the words typed are spread over the
            // options they fit: "!gg list bob completed", "!gg leaderboard hours week", "!gg share revoke".
            let oneWord = target.kind == .user || target.kind == .boolean || !target.choices.isEmpty
            var misfit: (word: String, set: [String: OptionValue])?
            if let (name, value) = asked {
                options[name] = value
            } else if let quoted = try Self.quotedTitle(
                positional, target: target, of: spec, path: path, usage: usage)
            {
                options = quoted
            } else if oneWord, let spread = Self.spread(positional, over: spec, misfit: &misfit) {
                options = spread
            } else if oneWord, let (word, set) = misfit, !set.isEmpty,
                let open = spec.options.first(where: { set[$0.name] == nil && !$0.choices.isEmpty })
            {
                // "!gg leaderboard hours fortnight": the words that fit are taken, and the one that fits none is
                // refused as the value of the option left open, with its choices.
                options = set
                options[open.name] = try value(word, for: open, usage: usage)
            } else if target.name != "title", let (rest, name, number) = Self.trailingBareNumber(positional, of: spec) {
                // "!gg top rpg 2020": a year after a genre's name. A game's name may end with a number; a genre's
                // or a platform's whole name is read as such ("PlayStation 4") when no other option takes it.
                options[name] = number
                // "!gg top games of 2019": words saying "games" and words before the year are no genre's name.
                let named = CatalogFeatures.withoutGameWords(rest) ?? rest
                if !named.isEmpty { options[target.name] = try value(named, for: target, usage: usage) }
            } else if let (name, rest, number) = Self.nameThenNumber(positional, target: target, of: spec) {
                // "!gg challenge progress pages 2": the challenge's name, then the amount ("pages" alone: the
                // name, and the amount is said to be missing).
                options[target.name] = number
                options[name.name] = try value(rest, for: name, usage: usage)
            } else {
                options[target.name] = try value(positional, for: target, usage: usage)
            }
        }
        for (typed, typedText) in segments.named {
            // "hours:+2" adds to the hours played, as `add_hours` does ("hours:-2" takes them off), "percent:+10"
            // to the percent; where there is none (`/add`'s hours), "+2" is all, "-2" refused.
            let added = PercentDone.addingTo[typed]?.name ?? typed
            let plus = added != typed && PlayedHours.isSigned(typedText)
            let name = plus && spec.option(added) != nil ? added : typed
            let text = plus && name == typed && typedText.hasPrefix("+") ? String(typedText.dropFirst()) : typedText
            guard let option = spec.option(name) else { continue }
            if options[name] != nil {
                throw UsageError("\(code: "\(name)") is given twice.", usage: usage)
            }
            options[name] = try value(text, for: option, usage: usage)
        }
        return CommandInvocation(path: path, options: options, fromComponent: fromComponent)
    }

    /// Text typed for a number (the first required option) that is not one, read as the command's free-text
    /// option and the number it ends with, if any: "pages 2" → the name "pages", the amount 2; "pages" → the name.
    static func nameThenNumber(
        _ text: String, target: OptionSpec, of spec: CommandSpec
    ) -> (OptionSpec, String, OptionValue?)? {
        guard target.kind == .number || target.kind == .integer, target.reading(text) == nil,
            let name = spec.options.first(where: \.isFreeText)
        else { return nil }
        guard let (rest, number) = CommandInvocation.trailingValue(of: text, for: target) else {
            return (name, text, nil)
        }
        return (name, rest, number)
    }

    /// The last word of `text` as the value of an option that takes a bare whole number of four digits or more (a
    /// year), with the words before it. A smaller number after a name is likely the name's own ("PlayStation 2"),
    /// so a page is never read there.
    static func trailingBareNumber(_ text: String, of spec: CommandSpec) -> (String, String, OptionValue)? {
        var words = text.split(whereSeparator: \.isWhitespace).map(String.init)
        guard let last = words.popLast() else { return nil }
        for option in spec.options where option.takesBareNumber && (option.minValue ?? 0) >= 1000 {
            guard let value = option.validValue(last) else { continue }
            return (words.joined(separator: " "), option.name, value)
        }
        return nil
    }

    /// A mistyped subcommand ("!gg wishlist ad …") names the one it is nearest to; any other word is left for
    /// validation to explain which subcommands exist.
    private static func nearSubcommand(
        _ word: String, of spec: CommandSpec, path: [String], rest: Substring
    ) throws(UsageError) {
        guard let nearest = nearestNames(word, among: spec.subcommands.map(\.name), limit: 1).first else { return }
        let group = "/" + path.joined(separator: " ")
        throw UsageError(
            "\(code: group) has no subcommand \(code: word). Did you mean \(code: "\(group) \(nearest)")?",
            usage: spec.usage(prefix: group), meant: runnable("\(group) \(nearest)", rest))
    }

    /// Words after a group that start with none of its subcommands, offered back with the one they were likely
    /// meant for, when the command is then valid: "!gg wishlist Hades" → `/wishlist add title:Hades`, "!gg
    /// friend @bob" → `/friend add user:@bob`, "!gg browse genre:RPG" → `/browse genre name:RPG`. Never run.
    private static func meantSubcommand(_ rest: Substring, of spec: CommandSpec, path: [String]) throws(UsageError) {
        let text = rest.trimmingCharacters(in: .whitespaces)
        guard path.count == 1, let command = CommandName(rawValue: path[0]) else { return }
        let line: String
        if let colon = text.firstIndex(of: ":"), let sub = spec.subcommand(text[..<colon].lowercased()) {
            line = sub.name + " " + text[text.index(after: colon)...]
        } else if let sub = command.subcommand(forFreeText: text) {
            line = sub + " " + text
        } else {
            return
        }
        guard let guess = runnable("/\(command.rawValue)", Substring(line)) else { return }
        let group = "/" + command.rawValue
        throw UsageError(
            "\(code: group) needs a subcommand: \(spec.subcommands.map(\.name).joined(separator: ", ")). "
                + "Did you mean \(code: guess.commandLine)?",
            usage: spec.usage(prefix: group), meant: guess)
    }

    /// The words typed for a free-text option without its name before them, the option they go to anyway: "!gg
    /// profile set nickname Kat" is the nickname Kat, not "nickname Kat". Not a game's title or a search's words.
    private static func withoutOwnName(_ text: String, target: OptionSpec) -> String {
        let words = text.split(maxSplits: 1, whereSeparator: \.isWhitespace)
        guard target.isFreeText, !["title", "query"].contains(target.name), words.count == 2,
            words[0].lowercased() == target.name
        else { return text }
        return String(words[1])
    }

    /// An option's name typed as the first word without its colon, "!gg profile set bio I love RPGs", is offered
    /// back named (`/profile set bio:I love RPGs`) instead of stored as the nickname "bio I love RPGs". Not where
    /// the text is a game's title or a search, which such a word may start.
    private static func namedWithoutColon(
        _ text: String, target: OptionSpec, of spec: CommandSpec, path: [String]
    ) throws(UsageError) {
        guard !["title", "query"].contains(target.name) else { return }
        let words = text.split(maxSplits: 1, whereSeparator: \.isWhitespace)
        guard words.count == 2, let option = spec.option(words[0].lowercased()), option.kind != .boolean else {
            return
        }
        guard let value = option.isFreeText ? .string(String(words[1])) : option.reading(String(words[1])) else {
            return
        }
        let guess = CommandInvocation(path: path, options: [option.name: value])
        guard (try? guess.validated()) != nil else { return }
        throw UsageError(
            "\(code: option.name) is an option: did you mean \(code: guess.commandLine)?",
            usage: spec.usage(prefix: "/" + path.joined(separator: " ")), meant: guess)
    }

    /// A title that is only another option's value, "!gg add playing", names no game the caller meant (a search
    /// would find "Fallout: A Post Nuclear Role Playing Game"): they are asked for the game instead.
    private static func valueForTitle(
        _ text: String, target: OptionSpec, of spec: CommandSpec, path: [String]
    ) throws(UsageError) {
        let word = text.lowercased()
        guard target.name == "title",
            let option = spec.options.first(where: { $0.name != target.name && $0.choices.contains(word) })
        else { return }
        let command = "/" + path.joined(separator: " ")
        throw UsageError(
            "\(code: command) needs \(code: "title"): the game. “\(text)” is a \(code: option.name): "
                + "\(code: "\(command) title:<game> \(option.name):\(word)").",
            usage: spec.usage(prefix: command))
    }

    private static func nextWord(_ text: inout Substring) -> String? {
        text = text.drop { $0.isWhitespace }
        guard !text.isEmpty else { return nil }
        let word = text.prefix { !$0.isWhitespace }
        text = text.dropFirst(word.count)
        return String(word)
    }

    /// Splits the text after the command into positional text and `name:value` / `--name value` segments.
    /// A greedy option (free text such as a review) takes the rest of the line, but for other options written at
    /// its very end (`text:Great spoiler:true`, `--text Great --spoiler`, `--text Great --spoiler false`).
    private static func split(_ text: String, spec: CommandSpec) -> (positional: String?, named: [(String, String)]) {
        var (positional, named) = splitGreedy(text, spec: spec)
        guard let (greedyName, value) = named.last, spec.option(greedyName)?.greedy == true else {
            return (positional, named)
        }
        var rest = " " + value
        var trailing: [(String, String)] = []
        /// The option a trailing `name:value`, `--name` or `--name=value` word sets, with its value.
        func option(in word: Substring) -> (name: String, value: String)? {
            let dashed = word.hasPrefix("--")
            let body = dashed ? word.dropFirst(2) : word
            guard let separator = body.firstIndex(of: dashed ? "=" : ":") ?? (dashed ? body.endIndex : nil) else {
                return nil
            }
            let name = String(body[..<separator]).lowercased()
            guard name != greedyName, let option = spec.option(name), !option.greedy else { return nil }
            return (name, String(body[separator...].dropFirst()))
        }
        while let space = rest.lastIndex(where: \.isWhitespace) {
            let word = rest[rest.index(after: space)...]
            if let found = option(in: word) {
                trailing.insert(found, at: 0)
                rest = String(rest[..<space])
                continue
            }
            // `--name value` with a value the option takes from a short list: `--spoiler false`, `--status playing`.
            let before = rest[..<space]
            guard let previous = before.lastIndex(where: \.isWhitespace),
                let flag = option(in: before[before.index(after: previous)...]), flag.value.isEmpty,
                before[before.index(after: previous)...].hasPrefix("--"), let flagged = spec.option(flag.name),
                flagged.kind == .boolean
                    ? (try? Self.value(String(word), for: flagged, usage: "")) != nil
                    : flagged.choice(for: String(word)) != nil
            else { break }
            trailing.insert((flag.name, String(word)), at: 0)
            rest = String(before[..<previous])
        }
        named[named.count - 1].1 = clean(rest[...]) ?? ""
        return (positional, named + trailing)
    }

    private static func splitGreedy(
        _ text: String, spec: CommandSpec
    ) -> (positional: String?, named: [(String, String)]) {
        let names = Set(spec.options.map(\.name))
        var markers: [(range: Range<String.Index>, name: String)] = []
        var index = text.startIndex
        while index < text.endIndex {
            let atWordStart = index == text.startIndex || text[text.index(before: index)].isWhitespace
            if atWordStart {
                let word = text[index...].prefix { !$0.isWhitespace }
                if word.hasPrefix("--") {
                    let body = word.dropFirst(2)
                    let name = String(body.prefix { $0 != "=" }).lowercased()
                    if names.contains(name) {
                        let end = text.index(
                            index, offsetBy: 2 + name.count + (body.dropFirst(name.count).hasPrefix("=") ? 1 : 0))
                        markers.append((index..<end, name))
                    }
                } else if let colon = word.firstIndex(of: ":") {
                    let name = String(word[..<colon]).lowercased()
                    if names.contains(name) {
                        markers.append((index..<text.index(after: colon), name))
                    }
                }
                if let last = markers.last, last.range.lowerBound == index, spec.option(last.name)?.greedy == true {
                    break
                }
                index = text.index(index, offsetBy: max(1, word.count))
            } else {
                index = text.index(after: index)
            }
        }
        let head = markers.first.map { text[..<$0.range.lowerBound] } ?? text[...]
        let positional = clean(head)
        var named: [(String, String)] = []
        for (offset, marker) in markers.enumerated() {
            let end = offset + 1 < markers.count ? markers[offset + 1].range.lowerBound : text.endIndex
            named.append((marker.name, clean(text[marker.range.upperBound..<end]) ?? ""))
        }
        return (positional, named)
    }

    private static func clean(_ text: Substring) -> String? {
        var value = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if value.count >= 2, let first = value.first, first == value.last, first == "\"" || first == "'" || first == "“"
        {
            value = String(value.dropFirst().dropLast())
        } else if value.count >= 2, value.first == "“", value.last == "”" {
            value = String(value.dropFirst().dropLast())
        }
        return value.isEmpty ? nil : value
    }

    private static func value(_ text: String, for option: OptionSpec, usage: String) throws(UsageError) -> OptionValue {
        switch option.kind {
        case .string:
            // A choice as people type it ("comp", "finished"); anything else is refused by the option's check.
            return .string(option.choices.isEmpty ? text : option.choice(for: text) ?? text)
        case .integer:
            guard case .integer(let number)? = option.reading(text) else {
                throw UsageError("\(code: "\(option.name)") must be a whole number (got “\(text)”).", usage: usage)
            }
            return .integer(number)
        case .number:
            guard case .number(let number)? = option.reading(text) else {
                throw UsageError("\(code: "\(option.name)") must be a number (got “\(text)”).", usage: usage)
            }
            return .number(number)
        case .boolean:
            switch text.lowercased() {
            case "", "true", "yes", "1", "on": return .boolean(true)
            case "false", "no", "0", "off": return .boolean(false)
            default: throw UsageError("\(code: "\(option.name)") must be true or false.", usage: usage)
            }
        case .user:
            return .user(UserMention(id: mentionID(text)))
        case .attachment:
            throw UsageError(
                "\(code: "\(option.name)") is a file: attach it to the command on Discord (or, on the server, use \(code: "ggtracker import FILE --user …")).",
                usage: usage)
        case .channel:
            var id = text
            if id.hasPrefix("#") { id = String(id.dropFirst()) }
            return .channel(id)
        }
    }

    /// `@123` → `123`; `@ada:example.org` stays (a Matrix id). Platforms' own mention tokens are turned into
    /// this form by their adapters before a line is parsed.
    static func mentionID(_ text: String) -> String {
        var id = text
        if id.hasPrefix("@"), !id.contains(":") { id = String(id.dropFirst()) }
        return id
    }
}
