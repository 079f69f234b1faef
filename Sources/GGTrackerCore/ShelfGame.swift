import Foundation

/// A game on a player's shelves, with where it stands: its library status, or nil when it is only on the
/// wishlist, when the player last changed it (or wished for it), and whether it is one of their favorites.
package struct ShelfGame: Sendable {
    package var game: Game
    package var status: GameStatus?
    package var touchedAt: Date
    package var favorite: Bool

    package init(game: Game, status: GameStatus?, touchedAt: Date, favorite: Bool = false) {
        self.game = game
        self.status = status
        self.touchedAt = touchedAt
        self.favorite = favorite
    }

    /// Where the game comes among the player's games for `command` (lower first): for `/progress` the games being
    /// played, then paused, then the backlog; for `/review` the completed ones; for `/rate` the completed ones, then
    /// those being played; for `/wishlist remove` the wishlist; for the others the library before the wishlist.
    package func rank(for command: String) -> Int {
        switch (command, status) {
        case ("progress", .playing?): 0
        case ("progress", .paused?): 1
        case ("progress", .backlog?): 2
        case ("progress", .some): 3
        case ("review", .completed?), ("rate", .completed?): 0
        case ("review", .some): 1
        case ("rate", .playing?): 1
        case ("rate", .some): 2
        case ("wishlist remove", nil): 0
        case ("wishlist remove", .some): 1
        case (_, .some): 0
        case (_, nil): 4
        }
    }
}

extension LibraryStore {
    /// Every game in the player's library or on their wishlist.
    package func shelfGames(of player: PlayerID) async throws -> [Game] {
        try await recentShelves(of: player).map(\.game)
    }
}
