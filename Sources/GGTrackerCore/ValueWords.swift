/// Words people write around hours, a percent or a status that say what it is, and are no part of the title before
/// it: "played 3h", "for 2 hours", "in 12 hours", "3 hours in", "at 50%", "50% done" (where "done" alone would be a
/// status), "beat it".
enum ValueWords {
    /// Words that may come right before a value of `option`.
    static func before(_ option: OptionSpec) -> Set<String> {
        // "finished celeste in 12 hours", "beat it after 30h": the hours the whole game took.
        if option.units == OptionSpec.hourUnits { return ["played", "for", "in", "after"] }
        return option.units.contains("%") ? ["at"] : []
    }

    /// Words that may come right after a value of `option`.
    static func after(_ option: OptionSpec) -> Set<String> {
        // "12h total", "12 hours in all", "12h overall": the total played.
        if option.units == OptionSpec.hourUnits { return ["played", "in", "total", "all", "overall", "altogether"] }
        if option.choices.contains(GameStatus.completed.rawValue) { return ["it"] }
        return option.units.contains("%") ? ["done", "complete", "completed", "finished", "through", "in"] : []
    }

    /// Whether `title`'s last word is one that comes after a value of `option`.
    static func endsAfterAValue(_ title: String, of option: OptionSpec) -> Bool {
        guard let last = title.split(whereSeparator: \.isWhitespace).last else { return false }
        return after(option).contains(last.lowercased())
    }
}
