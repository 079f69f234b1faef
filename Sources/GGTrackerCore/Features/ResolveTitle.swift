import Foundation

extension GGTrackerBot {
    /// Which games a `title` is looked for among first.
    enum TitleScope {
        /// Any game of the catalog (`/game`, `/add`, `/wishlist add`).
        case catalog
        /// A command about the caller's own entries (`/progress`, `/rate`, `/review`, `/favorite`, `/tag`, `/note`,
        /// `/remove`, `/wishlist remove`): games on the caller's shelves that match come first.
        case ownShelves
    }

    /// Turns a `title` option into the one game the caller meant, in this order: a catalog reference is that game;
    /// for commands about the caller's entries, a single matching game on their shelves; an exact name (a clear
    /// favourite among namesakes, or else a question); the search's first result when it matches every word and is
    /// clearly ahead (main games rank before add-ons, editions and bundles); otherwise a question or "no game
    /// matches" with suggestions. Free text is resolved over the whole catalog and the age gate applied to the
    /// answer, so a game the channel may not show is refused by name and never swapped for another one.
    func resolve(_ title: TitleQuery, _ c: Context, scope: TitleScope = .catalog) async throws -> Game {
        switch title {
        case .ref(let ref):
            if let game = c.namedGame, game.ref == ref { return try visible(game, c) }
            guard let game = try await catalog.game(ref) else {
                throw ReplyError.notice("No game in the catalog has the id \(code: "\(ref)"). Try \(code: "/search").")
            }
            return try visible(game, c)
        case .text(let text):
            if scope == .ownShelves {
                let shelf = catalog.rank(text, among: try await store.library.shelfGames(of: c.player.id))
                if let pick = Self.pickFromShelves(shelf) { return try gated(pick, text, c) }
            }
            let lookup = try await catalog.lookup(text, filter: CatalogFilter(includeMature: true), limit: 10)
            let pick = Self.pick(from: lookup.hits)
            // Nothing found locally while the provider could not be asked: say that, not "no game matches".
            if case .none(let suggestions) = pick, suggestions.isEmpty, let problem = lookup.providerProblem {
                throw ReplyError.notice(problem)
            }
            return try gated(pick, text, c)
        }
    }

    /// The game, unless the channel may not show it.
    func visible(_ game: Game, _ c: Context) throws -> Game {
        guard c.showsMature || !game.isMature else {
            throw ReplyError.notice(
                "\(bold: game.displayName) is age-restricted (\(game.ageRating ?? "mature")) and cannot be shown in this channel; use an age-restricted channel."
            )
        }
        return game
    }

    /// Applies the age gate to a pick and turns questions and misses into the private reply that asks or explains.
    func gated(_ pick: Pick, _ text: String, _ c: Context) throws -> Game {
        let shown = Format.truncate(text, 100)
        switch pick {
        case .one(let game):
            return try visible(game, c)
        case .ambiguous(let games):
            let allowed = games.filter { c.showsMature || !$0.isMature }
            let hidden = games.filter { !c.showsMature && $0.isMature }
            let restricted =
                hidden.map { RichText([.bold($0.displayName)]) }.joined(separator: ", ")
                + (hidden.count == 1 ? " is" : " are") + " age-restricted in this channel"
            guard !allowed.isEmpty else {
                throw ReplyError.notice("“\(shown)”: \(restricted); use an age-restricted channel.")
            }
            let buttons = allowed.prefix(5).map { game in
                Action(
                    Format.truncate(game.displayName + Self.platformHint(game), 80),
                    rerun(c, ["title": .string(game.ref.description)]), style: .primary)
            }
            var message: RichText = "More than one game matches “\(shown)”. Which one do you mean?"
            if !hidden.isEmpty { message += " (\(restricted).)" }
            throw ReplyError(Reply(visibility: .invokerOnly, text: message, actions: [Array(buttons)]))
        case .none(let found):
            let suggestions = found.filter { c.showsMature || !$0.isMature }
            var message: RichText = "No game matches “\(shown)”."
            if suggestions.isEmpty {
                if found.isEmpty {
                    throw ReplyError.notice(
                        message + " Check the spelling, or try \(code: "/search") with fewer words.")
                }
                throw ReplyError.notice(
                    message
                        + " The closest ones are age-restricted in this channel; try \(code: "/search") with other words."
                )
            }
            message +=
                " Did you mean: "
                + suggestions.map { RichText([.bold($0.displayName)]) }.joined(separator: ", ") + "?"
            let buttons = suggestions.map { game in
                Action(
                    Format.truncate(game.displayName, 80), rerun(c, ["title": .string(game.ref.description)]))
            }
            throw ReplyError(Reply(visibility: .invokerOnly, text: message, actions: [buttons]))
        }
    }

    enum Pick: Equatable {
        case one(Game)
        case ambiguous([Game])
        case none(suggestions: [Game])
    }

    /// A lead in popularity that means about ten times the ratings (popularity counts ratings on a log scale).
    static let clearFavourite = 2.0

    /// Games on the caller's shelves that match the words: one is the answer, several with one exact name is that
    /// one, several others are a question; none leaves the choice to the catalog.
    static func pickFromShelves(_ hits: [SearchHit]) -> Pick? {
        guard !hits.isEmpty else { return nil }
        if hits.count == 1 { return .one(hits[0].game) }
        let exact = hits.filter(\.exactName)
        if exact.count == 1 { return .one(exact[0].game) }
        return .ambiguous((exact.isEmpty ? hits : exact).prefix(5).map(\.game))
    }

    /// The rule for free text over the catalog: an exact name wins — among namesakes, main games first, the most
    /// widely rated when it has about ten times the ratings of the next, else a question; otherwise the search's
    /// first result wins when it matches every word (typos corrected) and no other such match is close; a close one
    /// asks; matches that miss a word are only suggestions.
    static func pick(from hits: [SearchHit]) -> Pick {
        guard let best = hits.first else { return .none(suggestions: []) }
        let exact = hits.filter(\.exactName)
        if !exact.isEmpty {
            let mains = exact.filter(\.game.isMainGame)
            let pool = (mains.isEmpty ? exact : mains).sorted { $0.popularity > $1.popularity }
            if pool.count == 1 || pool[0].popularity - pool[1].popularity >= clearFavourite {
                return .one(pool[0].game)
            }
            return .ambiguous(pool.prefix(5).map(\.game))
        }
        guard best.coversQuery else { return .none(suggestions: Array(hits.prefix(3).map(\.game))) }
        let close = hits.dropFirst().filter { $0.coversQuery && $0.score >= best.score * 0.9 }
        return close.isEmpty ? .one(best.game) : .ambiguous(([best] + close).prefix(5).map(\.game))
    }

    static func platformHint(_ game: Game) -> String {
        guard let platform = game.platforms.first else { return "" }
        return " · " + platform + (game.platforms.count > 1 ? " +\(game.platforms.count - 1)" : "")
    }
}
