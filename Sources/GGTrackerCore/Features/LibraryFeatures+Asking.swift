import Foundation

extension LibraryFeatures {
    /// How many of the caller's games a question offers.
    static let gamesOffered = 5

    /// `/rate` typed without a game ("!gg rate 9", "!gg rate"): the caller's games most likely meant — completed,
    /// then being played, then the rest, each the last changed first — as buttons that rate it (with the score given)
    /// or ask for the score.
    func askGameToRate(score: Int?, _ c: Context) async throws -> Reply {
        let shelves = try await bot.store.library.recentShelves(of: c.player.id)
        let games = shelves.filter { $0.status != nil && (c.showsMature || !$0.game.isMature) }
            .enumerated().sorted {
                ($0.element.rank(for: "rate"), $0.offset) < ($1.element.rank(for: "rate"), $1.offset)
            }
            .prefix(Self.gamesOffered).map(\.element.game)
        let typed = "/rate title:<game>" + (score.map { " score:\($0)" } ?? "")
        guard !games.isEmpty else {
            return .notice(
                "Which game? Your library has none yet: add one with \(code: "/add title:<game>"), or name it: \(code: typed)."
            )
        }
        let question =
            score.map { "Which game gets \(Format.stars($0)) \($0)/10?" } ?? "Which game do you want to rate?"
        return Reply(
            visibility: .invokerOnly, text: "\(question) Pick one of yours, or type \(code: typed).",
            actions: [
                games.map { game in
                    var options: [String: OptionValue] = ["title": .game(game.ref)]
                    if let score { options["score"] = .integer(score) }
                    return Action(Format.truncate(game.displayName, 80), .run(.rate, options))
                }
            ])
    }
}
