import Foundation

/// Who runs a command, from where, and what the command reads next when that was read with them: the game it
/// names by id, the page of their own library it lists.
package struct Caller: Sendable {
    package var player: Player
    package var settings: CommunitySettings
    /// The catalog's game with the id the command names; nil when none was asked for, or it was not read here
    /// (the command then resolves its title as usual).
    package var namedGame: Game?
    /// The page of the caller's library the command lists (`LibraryListing`), as `LibraryStore.library` reads it
    /// with the mature games the caller's channel may show; nil when none was asked for, or it was not read here
    /// (the command then reads it as usual).
    package var listed: LibraryPage?

    package init(player: Player, settings: CommunitySettings, namedGame: Game? = nil, listed: LibraryPage? = nil) {
        self.player = player
        self.settings = settings
        self.namedGame = namedGame
        self.listed = listed
    }
}

/// A page of the caller's own library that a command lists, for the store to read with the caller.
package struct LibraryListing: Sendable {
    package var status: GameStatus?
    package var sort: LibrarySort
    package var page: Int
    package var pageSize: Int
    /// Only the games with this tag (lower-case, as tags are stored).
    package var tag: String?
    /// Only the games marked favorite.
    package var favorites: Bool

    package init(
        status: GameStatus?, sort: LibrarySort, page: Int, pageSize: Int, tag: String? = nil, favorites: Bool = false
    ) {
        self.status = status
        self.sort = sort
        self.page = page
        self.pageSize = pageSize
        self.tag = tag
        self.favorites = favorites
    }
}

/// A library page with the counts shown in its footer.
package struct LibraryPage: Sendable {
    package var page: Page<LibraryEntry>
    package var statusCounts: [GameStatus: Int]
    /// Entries left out because they are mature games and the channel may not show them.
    package var hiddenMature: Int

    package init(page: Page<LibraryEntry>, statusCounts: [GameStatus: Int], hiddenMature: Int) {
        self.page = page
        self.statusCounts = statusCounts
        self.hiddenMature = hiddenMature
    }
}

extension Invoker {
    /// The community of a direct message with the bot on Discord: the player's own, of which they are the only
    /// member. Its news shows in the feed of every server the player is a member of (`SocialStore.activity`).
    package static func directMessageCommunity(ofDiscordUser userID: String) -> String { "discord:dm:" + userID }

    /// Every direct message's community, as a `LIKE` pattern.
    package static let directMessageCommunities = "discord:dm:%"
}
