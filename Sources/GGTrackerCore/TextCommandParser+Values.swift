/// Words typed without option names, read as the values of the options they fit.
extension TextCommandParser {
    /// Words typed where a game goes that are only a value of one other option, when the game may be asked for:
    /// "!gg rate 9", "!gg rate ★★★★", "!gg progress completed", "!gg progress 50%" give the score, the status or the
    /// percent and no game, which is then asked for. A value two options take ("!gg progress 50": hours or percent)
    /// stays the title.
    static func onlyAskedValue(
        _ text: String, target: OptionSpec, of spec: CommandSpec, named: [(String, String)]
    ) -> (String, OptionValue)? {
        guard target.name == "title", target.askedWhenMissing else { return nil }
        let word = text.trimmingCharacters(in: .whitespaces)
        // "!gg tag #coop": hashtags alone are tags, for a game to be asked.
        let words = word.split(whereSeparator: \.isWhitespace)
        if spec.option("tags") != nil, !named.contains(where: { $0.0 == "tags" }), !words.isEmpty,
            words.allSatisfy({ $0.count > 1 && $0.hasPrefix("#") })
        {
            return ("tags", .string(word))
        }
        let fitting = spec.options.compactMap { option -> (String, OptionValue)? in
            guard option.name != target.name, !named.contains(where: { $0.0 == option.name }),
                PlayedHours.mayBe(word, option, of: spec)
            else { return nil }
            return option.validValue(word).map { (option.name, $0) }
        }
        return fitting.count == 1 ? fitting[0] : nil
    }

    /// Words typed without option names, each given to the first option not yet set that it fits: a choice (the
    /// whole text first: "on hold"), a yes/no option by its name, a number written with its unit, a tag written
    /// with "#", or else one member; words that say how ("by", "sorted") or name the caller ("me", "mine") are
    /// read past. Nil when a word fits none, or a second member would be needed.
    static func spread(_ text: String, over spec: CommandSpec) -> [String: OptionValue]? {
        var misfit: (word: String, set: [String: OptionValue])?
        return spread(text, over: spec, misfit: &misfit)
    }

    /// The same, keeping in `misfit` the first word that fits no option, with the options set before it.
    static func spread(
        _ text: String, over spec: CommandSpec, misfit: inout (word: String, set: [String: OptionValue])?
    ) -> [String: OptionValue]? {
        func fitting(_ word: String, _ set: [String: OptionValue]) -> (String, OptionValue)? {
            for option in spec.options where set[option.name] == nil {
                if option.isNamed(by: word) { return (option.name, .boolean(true)) }
                // "#co-op" is a tag (`BotCommand.listedTag` reads it without its "#").
                if option.name == "tag", word.count > 1, word.hasPrefix("#") { return (option.name, .string(word)) }
                // Choices, numbers with their unit, and a whole number where no unit is written and the range is
                // narrow (a year, a page): a member's id is never one.
                let bare = option.takesBareNumber && option.validValue(word) != nil
                guard !option.choices.isEmpty || option.carriesUnit(word) || bare, let value = option.reading(word)
                else { continue }
                return (option.name, value)
            }
            return nil
        }
        if let (name, value) = fitting(text, [:]) { return [name: value] }
        var set: [String: OptionValue] = [:]
        // A number and its unit written apart are one word: "2 hours".
        let units = Set(spec.options.flatMap { PlayedHours.unitWords(of: $0) })
        var words: [String] = []
        for word in text.split(whereSeparator: \.isWhitespace).map(String.init) {
            if units.contains(word.lowercased()), let number = words.last, Double(number) != nil {
                words[words.count - 1] = number + word
            } else if spec.option("tag") != nil, words.last?.lowercased() == "tagged" {
                // "!gg list tagged co-op": the tag, as "#co-op" is.
                words[words.count - 1] = "#" + word
            } else {
                words.append(word)
            }
        }
        for word in words {
            if let (name, value) = fitting(word, set) {
                set[name] = value
            } else if Self.spreadFillers.contains(word.lowercased()) {
                // "!gg list bob by hours", "!gg list me", "!gg compare bob and cara": no member's name.
                continue
            } else if let member = spec.options.first(where: { $0.kind == .user && set[$0.name] == nil }) {
                set[member.name] = .user(UserMention(id: mentionID(word)))
            } else {
                misfit = (word, set)
                return nil
            }
        }
        return set
    }

    /// Words spread over no option: how a list is ordered ("sorted by score"), the caller, the default member,
    /// words before a member ("stats for bob", "list of bob") and between two ("bob and cara", "me vs bob"), around a
    /// period ("this week", "all time"), before a most ("under 3h", "at most 2 hours") and a form ("as json").
    static let spreadFillers: Set<String> = [
        "by", "sorted", "sort", "ordered", "order", "me", "mine", "my", "myself", "with", "and", "vs", "versus", "&",
        "to", "this", "the", "time", "under", "max", "at", "most", "up", "of", "for", "as", "in",
    ]
}
