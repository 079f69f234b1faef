import Foundation

extension LibraryFeatures {
    /// How many of the caller's games a question offers.
    static let gamesOffered = 5

    /// A command about one's own copy typed without the game (`!gg rate 9`, `!gg progress completed`, `!gg note`):
    /// the caller's games it is most likely about (`ShelfGame.rank(for:)`, each kind the last changed first; for
    /// `/remove` the wishlist too, for a status those not at it yet), as buttons that run it with what was typed.
    func askGame(_ c: Context) async throws -> Reply {
        let command = c.invocation.path.joined(separator: " ")
        let options = c.invocation.options
        let status: GameStatus? =
            if case .string(let text)? = options["status"] { GameStatus(rawValue: text) } else { nil }
        let shelves = try await bot.store.library.recentShelves(of: c.player.id)
        let library = shelves.filter { $0.status != nil }
        let games = shelves.filter { shelf in
            (shelf.status != nil || command == "remove") && (c.showsMature || !shelf.game.isMature)
                && (status == nil || shelf.status != status) && (command != "review" || shelf.status == .completed)
        }
        .enumerated().sorted { ($0.element.rank(for: command), $0.offset) < ($1.element.rank(for: command), $1.offset) }
        .prefix(Self.gamesOffered).map(\.element.game)
        let typed = bot.rerun(c, ["title": .string("<game>")])
        guard !games.isEmpty else {
            if command == "review", !library.isEmpty {
                return .notice(
                    "Which game? A review is for a game you have completed, and none of yours is yet: mark one with \(code: "/progress title:<game> status:completed"), then \(code: typed.commandLine)."
                )
            }
            return .notice(
                library.isEmpty
                    ? "Which game? Your library has none yet: add one with \(code: "/add title:<game>"), then \(code: typed.commandLine)."
                    : "Which game? Name it: \(code: typed.commandLine).")
        }
        // `/favorite` toggles: the favorites it would unmark are named, and marked on their buttons.
        let favorites =
            command == "favorite" ? library.filter { $0.favorite && (c.showsMature || !$0.game.isMature) } : []
        let names = favorites.prefix(10).map(\.game.name).joined(separator: ", ")
        var named: RichText = favorites.isEmpty ? "" : "Your favorites: \(Format.truncate(names, 500)). "
        // `/tag` names the tags in use, each a button that lists its games.
        let tags =
            command == "tag" && options["tags"] == nil ? try await bot.store.library.tagCounts(of: c.player.id) : []
        if !tags.isEmpty {
            let listed = tags.prefix(10).map { "\($0.tag) (\($0.games))" }.joined(separator: ", ")
            named = "Your tags: \(Format.truncate(listed, 500)); \(code: "/list tag:<tag>") lists a tag's games. "
        }
        return Reply(
            visibility: .invokerOnly,
            text:
                named
                + "\(Self.question(command, options: options, status: status)) Pick one of yours, or type \(code: typed.commandLine).",
            actions: [
                games.map { game in
                    let mark = favorites.contains { $0.game.id == game.id } ? "⭐ " : ""
                    return Action(
                        Format.truncate(mark + game.displayName, 80), bot.rerun(c, ["title": .game(game.ref)]))
                }
            ]
                + (tags.isEmpty
                    ? [] : [tags.prefix(5).map { Action("#\($0.tag)", .run(.list, ["tag": .string($0.tag)])) }]))
    }

    /// What the question asks, from what was typed.
    static func question(_ command: String, options: [String: OptionValue], status: GameStatus?) -> String {
        switch command {
        case "rate":
            guard case .integer(let score)? = options["score"] else { return "Which game do you want to rate?" }
            return "Which game gets \(Format.stars(score)) \(score)/10?"
        case "progress":
            switch status {
            case .playing?: return "Which game did you start?"
            case .completed?: return "Which game did you finish?"
            case .paused?: return "Which game are you pausing?"
            case .dropped?: return "Which game did you drop?"
            case .backlog?: return "Which game goes back to the backlog?"
            case nil:
                let given = ["hours", "percent", "add_hours", "add_percent"].contains { options[$0] != nil }
                return given ? "Which game is that for?" : "Which game do you want to update?"
            }
        case "favorite": return "Which game do you want to mark or unmark as a favorite?"
        case "tag":
            return options["tags"] == nil ? "Which game's tags do you want to see?" : "Which game gets those tags?"
        case "note":
            return options["text"] == nil ? "Which game's note do you want to see?" : "Which game is the note for?"
        case "remove": return "Which game do you want to remove?"
        case "review":
            return options["text"] == nil ? "Which game do you want to review?" : "Which game is the review for?"
        default: return "Which game?"
        }
    }
}
