extension CaseIterable where Self: RawRepresentable, RawValue == String {
    /// An option whose choices are these cases, with the other words people type for some of them (read as the case
    /// they are said of, as a status's "finished" is completed).
    static func option(_ name: String, _ summary: String, saying words: [(Self, [String])] = []) -> OptionSpec {
        var option = OptionSpec.string(name, summary, choices: allCases.map(\.rawValue))
        for (choice, said) in words { for word in said { option.choiceSynonyms[word] = choice.rawValue } }
        return option
    }
}
