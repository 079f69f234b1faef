import Foundation

extension GGTrackerBot {
    /// An unknown command whose words name a game ("!gg hades", "!gg hollow night") offers that game's card first
    /// (for a few namesakes, up to three), then the search. Nil where the words name no game or an age-restricted
    /// one; a lookup counts against the flood limits as a command does.
    func unknownCommandNamingAGame(_ error: UsageError, from invoker: Invoker) async throws -> Reply? {
        guard let word = error.unknownWord, let search = error.search,
            case .string(let words)? = search.options["query"],
            floodGuard?.admit(user: invoker.player.rawValue, server: invoker.community, at: now()) == nil
        else { return nil }
        let games: [Game]
        switch try await catalogPick(words) {
        case .one(let game): games = [game]
        case .ambiguous(let namesakes): games = namesakes
        case .none: return nil
        }
        // Where the age gate may hide one, the search says what it hides ("!gg doom").
        guard !games.contains(where: \.isMature) else { return nil }
        let shown = Array(games.prefix(3))
        var reply = Reply.notice(UsageError.unknownCommand(word, search: search, games: shown).message)
        reply.actions = [
            shown.enumerated().map { index, game in
                let card = CommandInvocation(path: ["game"], options: ["title": .game(game.ref)])
                return Action(Format.truncate(game.displayName, 80), card, style: index == 0 ? .primary : .secondary)
            } + [Action("Search", search)]
        ]
        return reply
    }
}
