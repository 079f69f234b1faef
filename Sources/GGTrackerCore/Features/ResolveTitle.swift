import Foundation

extension GGTrackerBot {
    /// Turns a `title` option into one catalog game: a reference is looked up, free text is searched.
    /// When two matches are close it asks the user to pick (buttons that re-run the command with the choice);
    /// when nothing matches it says so with up to three suggestions.
    func resolve(_ title: TitleQuery, _ c: Context) async throws -> Game {
        switch title {
        case .ref(let ref):
            guard let game = try await catalog.game(ref) else {
                throw ReplyError.notice("No game in the catalog has the id `\(ref)`. Try `/search`.")
            }
            guard c.showsMature || !game.isMature else {
                throw ReplyError.notice(
                    "That game is age-restricted (\(game.ageRating ?? "mature")); use an age-restricted channel.")
            }
            return game
        case .text(let text):
            let hits = try await catalog.lookup(text, filter: CatalogFilter(includeMature: c.showsMature), limit: 6)
                .hits
            switch Self.pick(from: hits) {
            case .one(let game):
                return game
            case .ambiguous(let games):
                let buttons = games.prefix(5).map { game in
                    Action(
                        Format.truncate(game.displayName + Self.platformHint(game), 80),
                        command: rerun(c, ["title": .string(game.ref.description)]), style: .primary)
                }
                throw ReplyError(
                    Reply(
                        visibility: .invokerOnly,
                        text: "More than one game matches “\(Format.escape(text))”. Which one do you mean?",
                        actions: [Array(buttons)]))
            case .none(let suggestions):
                if !c.showsMature, let hidden = try await matureMatch(text) {
                    throw ReplyError.notice(
                        "**\(Format.escape(hidden.displayName))** is age-restricted (\(hidden.ageRating ?? "mature")): use an age-restricted channel."
                    )
                }
                var message = "No game matches “\(Format.escape(Format.truncate(text, 100)))”."
                if suggestions.isEmpty {
                    message += " Check the spelling, or try `/search` with fewer words."
                    throw ReplyError.notice(message)
                }
                message +=
                    " Did you mean: "
                    + suggestions.map { "**\(Format.escape($0.displayName))**" }.joined(separator: ", ") + "?"
                let buttons = suggestions.map { game in
                    Action(
                        Format.truncate(game.displayName, 80),
                        command: rerun(c, ["title": .string(game.ref.description)]))
                }
                throw ReplyError(Reply(visibility: .invokerOnly, text: message, actions: [buttons]))
            }
        }
    }

    /// The game free text would have found had mature games been shown, so the refusal can say why.
    func matureMatch(_ text: String) async throws -> Game? {
        let hits = try await catalog.search(text, filter: CatalogFilter(includeMature: true), limit: 6)
        guard case .one(let game) = Self.pick(from: hits), game.isMature else { return nil }
        return game
    }

    enum Pick: Equatable {
        case one(Game)
        case ambiguous([Game])
        case none(suggestions: [Game])
    }

    /// The rule for free text: an exact name wins unless several games share it (namesakes: ask);
    /// otherwise the best hit wins when it matched every word and is clearly ahead; a close second asks.
    static func pick(from hits: [SearchHit]) -> Pick {
        guard let best = hits.first else { return .none(suggestions: []) }
        let exact = hits.filter(\.exactName)
        if exact.count == 1 { return .one(exact[0].game) }
        if exact.count > 1 { return .ambiguous(exact.map(\.game)) }
        let strong = hits.filter(\.matchedAllWords)
        if let top = strong.first {
            let close = strong.dropFirst().filter { $0.score >= top.score * 0.9 }
            return close.isEmpty ? .one(top.game) : .ambiguous([top.game] + close.map(\.game))
        }
        // Only typo-corrected matches: accept a clear winner, otherwise suggest.
        if hits.count == 1 || hits[1].score < best.score * 0.75 { return .one(best.game) }
        return .none(suggestions: Array(hits.prefix(3).map(\.game)))
    }

    static func platformHint(_ game: Game) -> String {
        guard let platform = game.platforms.first else { return "" }
        return " · " + platform + (game.platforms.count > 1 ? " +\(game.platforms.count - 1)" : "")
    }
}
