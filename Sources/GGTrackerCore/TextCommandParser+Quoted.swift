import Foundation

extension TextCommandParser {
    /// `—status playing` as phones write `--status playing` (a dash made long by smart punctuation): an em or en
    /// dash starting a word that names one of the command's options is read as `--`. Elsewhere a dash is text.
    static func dashesAsFlags(_ text: String, of spec: CommandSpec) -> String {
        guard text.contains(where: { $0 == "—" || $0 == "–" }) else { return text }
        var words = text.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
        for index in words.indices {
            guard let first = words[index].first, first == "—" || first == "–" else { continue }
            let name = words[index].dropFirst().prefix { $0 != "=" }.lowercased()
            if spec.option(name) != nil { words[index] = "--" + words[index].dropFirst() }
        }
        return words.joined(separator: " ")
    }

    /// The quote that ends a title opened by each of these.
    static let closingQuotes: [Character: Character] = ["\"": "\"", "“": "”", "„": "“", "«": "»"]

    /// A title in quotes with words after it: `!gg rate "Portal 2" 8`, `!gg add "Hollow Knight" playing 5h`,
    /// `!gg review "Hades" Loved it`. The quotes say where the name ends, so the words after it are the command's
    /// other options, run as typed: each a value of an option not given, read from the end as `trailingValue` reads
    /// a title's ending (a number with or without its unit, a choice, a day, an option's name before its value) or a
    /// yes/no option's name; where they are not all such values, the text of the command's free-text option (a
    /// review, a note, tags). Nil when the text does not start with a quoted name followed by words.
    static func quotedTitle(
        _ text: String, target: OptionSpec, of spec: CommandSpec, path: [String], usage: String
    ) throws(UsageError) -> [String: OptionValue]? {
        guard target.name == "title", let open = text.first, let close = closingQuotes[open],
            let end = text.dropFirst().firstIndex(of: close)
        else { return nil }
        let name = text[text.index(after: text.startIndex)..<end].trimmingCharacters(in: .whitespaces)
        let after = text[text.index(after: end)...].trimmingCharacters(in: .whitespaces)
        guard !name.isEmpty, !after.isEmpty else { return nil }
        let title: [String: OptionValue] = [target.name: .string(name)]
        if let values = values(after, of: spec, given: title) { return values }
        if let free = spec.options.first(where: {
            $0.isFreeText && !$0.autocomplete && $0.name != target.name
        }) {
            return title.merging([free.name: .string(after)]) { first, _ in first }
        }
        throw UsageError(
            "After the title “\(Format.truncate(name, 100))”, “\(Format.truncate(after, 100))” is no value "
                + "\(code: "/" + path.joined(separator: " ")) takes: give each option by name, as the usage shows.",
            usage: usage)
    }

    /// Every word of `text` read as the value of an option not in `given`, from the last word back; nil when a word
    /// is left over.
    private static func values(
        _ text: String, of spec: CommandSpec, given: [String: OptionValue]
    ) -> [String: OptionValue]? {
        var options = given
        // "_" stands for the name before the words, which a title's ending needs.
        var rest = "_ " + text
        peeling: while rest != "_" {
            for option in spec.options where options[option.name] == nil {
                var words = rest.split(whereSeparator: \.isWhitespace)
                if option.isNamed(by: String(words.last!)) {
                    words.removeLast()
                    options[option.name] = .boolean(true)
                } else if let (before, value) = CommandInvocation.trailingValue(of: rest, for: option) {
                    words = before.split(whereSeparator: \.isWhitespace)
                    options[option.name] = value
                } else {
                    continue
                }
                rest = words.joined(separator: " ")
                continue peeling
            }
            return nil
        }
        return options
    }
}
