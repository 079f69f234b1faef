/// Option names typed wrong: a name given to a command that does not take it, and one a letter or two from a name
/// the command does take.
extension TextCommandParser {
    /// Every option name of every command.
    static let optionNames: Set<String> = {
        func names(_ spec: CommandSpec) -> [String] { spec.options.map(\.name) + spec.subcommands.flatMap(names) }
        return Set(CommandName.allCases.flatMap { names($0.spec) })
    }()

    /// The name of a word written as an option, `name:value`, `--name` or `--name=value`, lower-cased; nil for any
    /// other word, and for one ending with its colon ("Tag: The Power of Paint" is a title).
    static func optionName(of word: Substring) -> String? {
        let name: Substring
        if word.hasPrefix("--") {
            name = word.dropFirst(2).prefix { $0 != "=" }
        } else if let colon = word.firstIndex(of: ":"), word.index(after: colon) != word.endIndex {
            name = word[..<colon]
        } else {
            return nil
        }
        return name.isEmpty ? nil : name.lowercased()
    }

    /// `page:2` or `--page 2` given to a command without that option is a mistake, not text for its first option
    /// (it would otherwise be read as a user or a title). Names that are no option anywhere stay text
    /// ("Re:Zero", "Halo:Reach"), except where the words are a `member` (`/list`, `/stats`): `tag:rpg` is no
    /// member's name — those start with `@` or are a plain name.
    static func refuseUnknownOption(
        in text: String, member: Bool, path: [String], usage: String
    ) throws(UsageError) {
        for word in text.split(whereSeparator: \.isWhitespace) {
            guard let name = optionName(of: word),
                optionNames.contains(name) || (member && name.allSatisfy({ $0.isLetter || $0 == "_" }))
            else { continue }
            throw UsageError(
                "\(code: "/\(path.joined(separator: " "))") has no option \(code: "\(name)").", usage: usage)
        }
    }

    /// An option's name mistyped, `/tag title:Zelda tag:open world` (`tags`), `!gg add Celeste --stauts playing`:
    /// read as part of the title, it would find no game or the wrong one. The name nearest is offered, in the whole
    /// command when that is then valid. Free text (a review, a note) is not looked at: "Note:" may start a
    /// sentence there.
    static func refuseMistypedOption(
        in segments: (positional: String?, named: [(String, String)]), typed: String, of spec: CommandSpec,
        path: [String], usage: String
    ) throws(UsageError) {
        let texts =
            [segments.positional].compactMap { $0 }
            + segments.named.filter { spec.option($0.0)?.greedy != true }.map(\.1)
        let names = spec.options.map(\.name)
        for word in texts.flatMap({ $0.split(whereSeparator: \.isWhitespace) }) {
            guard let name = optionName(of: word), name.count >= 3, spec.option(name) == nil,
                let meant = nearestNames(name, among: names, limit: 1).first
            else { continue }
            let command = "/" + path.joined(separator: " ")
            let fixed =
                word.hasPrefix("--") ? "--" + meant + word.dropFirst(2 + name.count) : meant + word.drop { $0 != ":" }
            let retyped = typed.split(separator: " ", omittingEmptySubsequences: false)
                .map { $0 == word ? fixed : String($0) }.joined(separator: " ")
            var offer: RichText = "\(code: meant)"
            if let guess = try? parse(command + " " + retyped), (try? guess.validated()) != nil {
                offer = "\(code: guess.commandLine)"
            }
            throw UsageError("\(code: command) has no option \(code: name). Did you mean " + offer + "?", usage: usage)
        }
    }
}
