/// Words typed where a game goes that are only another option's value.
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
        let fitting = spec.options.compactMap { option -> (String, OptionValue)? in
            guard option.name != target.name, !named.contains(where: { $0.0 == option.name }) else { return nil }
            return option.validValue(word).map { (option.name, $0) }
        }
        return fitting.count == 1 ? fitting[0] : nil
    }
}
