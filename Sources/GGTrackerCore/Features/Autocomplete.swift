import Foundation

/// One autocomplete suggestion: what the user sees and the value the option gets.
package struct Choice: Equatable, Sendable {
    package var name: String
    package var value: String
    package init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}

/// What every list of suggestions keeps to.
enum Suggestions {
    static let maxChoices = 25

    /// Commands about a game on the caller's shelves, whose title suggestions start with the caller's games.
    static let aboutYourCopy: Set<String> = [
        "progress", "rate", "review", "favorite", "tag", "note", "remove", "wishlist remove",
    ]

    /// Whether every word typed starts a word of the name, in any order ("knight hol" starts Hollow Knight's);
    /// nothing typed matches every name.
    static func startsWords(of name: String, with text: String) -> Bool {
        let typed = FacetName.words(text)
        guard !typed.isEmpty else { return true }
        let words = FacetName.words(name)
        return typed.allSatisfy { prefix in words.contains { $0.hasPrefix(prefix) } }
    }
}

extension GGTrackerBot {

    /// Suggestions for the option being typed, served from the local catalog only.
    package func autocomplete(
        path: [String], option: String, text: String, from invoker: Invoker
    ) async throws -> [Choice] {
        switch option {
        case "title":
            let settings = try await store.library.settings(of: invoker.community)
            let showsMature = settings.showsMature(to: invoker)
            var games = try await catalog.autocomplete(text, includeMature: showsMature, limit: Suggestions.maxChoices)
            let command = path.joined(separator: " ")
            if Suggestions.aboutYourCopy.contains(command) {
                // The caller's own games first, those the command is most likely about first (for `/progress` the
                // ones being played), each kind the last changed first.
                let own = try await store.library.recentShelves(of: invoker.player)
                    .filter {
                        (showsMature || !$0.game.isMature) && Suggestions.startsWords(of: $0.game.name, with: text)
                    }
                    .enumerated().sorted {
                        ($0.element.rank(for: command), $0.offset) < ($1.element.rank(for: command), $1.offset)
                    }
                    .map(\.element.game)
                let refs = Set(own.map(\.ref))
                games = Array((own + games.filter { !refs.contains($0.ref) }).prefix(Suggestions.maxChoices))
            }
            return zip(games, Self.labels(games)).map { game, label in
                Choice(name: Format.truncate(label, 100), value: game.ref.description)
            }
        case "name" where path.first == "challenge":
            let needle = text.lowercased()
            // Except when joining, the caller's own challenges come first.
            let all = try await store.social.challenges(in: invoker.community, joinedBy: nil)
            let yours =
                path.dropFirst().first == "join"
                ? [] : Set(try await store.social.challenges(in: invoker.community, joinedBy: invoker.player).map(\.id))
            let fitting = all.filter { needle.isEmpty || $0.name.lowercased().contains(needle) }
            return (fitting.filter { yours.contains($0.id) } + fitting.filter { !yours.contains($0.id) })
                .prefix(Suggestions.maxChoices).map { Choice(name: Format.truncate($0.name, 100), value: $0.name) }
        case "tag":
            // The caller's own tags, the most used first: those starting with the text, then those containing it.
            let needle = BotCommand.listedTag(text) ?? ""
            let tags = try await store.library.tagCounts(of: invoker.player)
            let fitting =
                tags.filter { $0.tag.hasPrefix(needle) }
                + tags.filter { !$0.tag.hasPrefix(needle) && $0.tag.contains(needle) }
            return fitting.prefix(Suggestions.maxChoices).map {
                Choice(name: Format.truncate("\($0.tag) (\(Format.count($0.games, "game")))", 100), value: $0.tag)
            }
        case "command":
            let needle = text.lowercased().trimmingCharacters(in: ["/", " "])
            return CommandName.allCases.filter { needle.isEmpty || $0.rawValue.hasPrefix(needle) }.prefix(
                Suggestions.maxChoices
            )
            .map { Choice(name: "/\($0.rawValue) — \(Format.truncate($0.spec.summary, 80))", value: $0.rawValue) }
        case "platform", "genre", "name":
            let kind: FacetKind? =
                option == "name" ? path.dropFirst().first.flatMap(FacetKind.init) : FacetKind(rawValue: option)
            guard let kind else { return [] }
            // What the text means as people say it ("ps4", "rpg") first, then the names containing it.
            var names: [String] = []
            if !text.trimmingCharacters(in: .whitespaces).isEmpty {
                switch FacetName.resolve(text, among: try await catalog.facetNames(kind)) {
                case .found(let name): names = [name]
                case .several(let fitting): names = fitting
                case .unknown: break
                }
            }
            for name in try await catalog.facetNames(kind, matching: text, limit: Suggestions.maxChoices)
            where !names.contains(name) {
                names.append(name)
            }
            return names.prefix(Suggestions.maxChoices).map {
                Choice(name: Format.truncate($0, 100), value: Format.truncate($0, 100))
            }
        default:
            return []
        }
    }
}
