import Foundation

/// An unknown command whose words name a game ("!gg hades", "!gg hollow night") offers that game's card first (for a
/// few namesakes, up to three), then the search.
struct UnknownCommandOffer {
    var bot: GGTrackerBot

    /// The answer to `error`; nil where it is no unknown command, or its words name no game or an age-restricted
    /// one. A lookup counts against the flood limits as a command does.
    func reply(to error: UsageError, from invoker: Invoker) async throws -> Reply? {
        guard let word = error.unknownWord, let search = error.search,
            case .string(let words)? = search.options["query"],
            bot.floodGuard?.admit(user: invoker.player.rawValue, server: invoker.community, at: bot.now()) == nil
        else { return nil }
        let games: [Game]
        switch try await bot.catalogPick(words) {
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
