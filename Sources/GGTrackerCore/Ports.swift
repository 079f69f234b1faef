import Foundation

/// The catalog's state, for `/admin catalog status` and `/about`.
package struct CatalogStatus: Hashable, Sendable {
    package var provider: String
    package var games: Int
    package var lastRefresh: Date?
    package var attribution: String
    /// True while a refresh runs.
    package var refreshing: Bool
    /// What the last refresh since start-up did.
    package var lastSummary: RefreshSummary?
    /// Provider facts worth showing: checkpoint, requests used.
    package var details: [String: String] = [:]

    package init(
        provider: String, games: Int, lastRefresh: Date?, attribution: String, refreshing: Bool = false,
        lastSummary: RefreshSummary? = nil
    ) {
        self.provider = provider
        self.games = games
        self.lastRefresh = lastRefresh
        self.attribution = attribution
        self.refreshing = refreshing
        self.lastSummary = lastSummary
    }
}

/// What a catalog refresh did.
package struct RefreshSummary: Hashable, Sendable {
    package var added: Int
    package var updated: Int
    package var skipped: Int
    package var duration: TimeInterval

    package init(added: Int, updated: Int, skipped: Int, duration: TimeInterval) {
        self.added = added
        self.updated = updated
        self.skipped = skipped
        self.duration = duration
    }

    /// "12 added, 35,435 updated, 0 skipped in 2.7 s".
    package var sentence: String {
        "\(Format.number(added)) added, \(Format.number(updated)) updated, \(Format.number(skipped)) skipped in "
            + String(format: "%.1f", duration) + " s"
    }
}

/// What a lookup found, and a word for the user when the catalog provider could not help.
package struct Lookup: Sendable {
    package var hits: [SearchHit]
    /// Games matching every word of the query that the age gate left out of `hits`.
    package var ageRestricted: Int
    /// `ageRestricted` is a lower bound: the search stopped counting (a query as common as "the").
    package var ageRestrictedIsPartial: Bool
    /// One of the games left out has every word as typed, no correction needed.
    package var ageRestrictedHasExactWords = false
    /// Set when the provider was needed but failed: the hits are what the local catalog has.
    package var providerProblem: String?
    package init(
        hits: [SearchHit], ageRestricted: Int = 0, ageRestrictedIsPartial: Bool = false, providerProblem: String? = nil
    ) {
        self.hits = hits
        self.ageRestricted = ageRestricted
        self.ageRestrictedIsPartial = ageRestrictedIsPartial
        self.providerProblem = providerProblem
    }
}

/// How far a refresh has come, for the terminal's progress bar and the chat's progress edits.
package struct RefreshProgress: Sendable {
    package var done: Int
    package var total: Int?
    package var elapsed: TimeInterval

    package init(done: Int, total: Int?, elapsed: TimeInterval) {
        self.done = done
        self.total = total
        self.elapsed = elapsed
    }

    package var rate: Double { elapsed > 0 ? Double(done) / elapsed : 0 }
    package var eta: TimeInterval? {
        guard let total, rate > 0 else { return nil }
        return Double(max(0, total - done)) / rate
    }
}

/// The game catalog as the features need it: search, details, rankings and facets.
/// Where imports read a library from: Steam's Web API, and files sent with a command. Failures are thrown as
/// `ImportSourceError` with words for the player.
package protocol LibrarySources: Sendable {
    /// The games a Steam account owns with hours played; `account` is a SteamID64, a profile address or the name
    /// in a profile's custom URL.
    func steamGames(of account: String) async throws -> [ImportItem]
    /// A file sent with a command, at most `limit` bytes.
    func download(_ attachment: Attachment, limit: Int) async throws -> Data
}

/// Why an import source gave nothing, said to the player. Nothing was imported.
package struct ImportSourceError: Error, Equatable, Sendable, CustomStringConvertible {
    package var message: String
    package init(_ message: String) { self.message = message }
    package var description: String { message }
}

package protocol GameCatalog: Sendable {
    /// The catalog's game for each imported item, in order: by Steam app id, then by catalog reference, then by
    /// name (stop words aside, numerals alike) and year. The first `suggesting` without a match come with the
    /// closest names.
    func match(_ items: [ImportItem], suggesting: Int) async throws -> [ImportMatch]
    /// The local catalog only; fast.
    func search(_ query: String, filter: CatalogFilter, limit: Int) async throws -> [SearchHit]
    /// The local catalog first; when it has too few good matches, the configured provider too (its answers are
    /// stored, so the same lookup later needs no provider call).
    func lookup(_ query: String, filter: CatalogFilter, limit: Int) async throws -> Lookup
    /// Ranks the given games (a player's shelves) against the query the way a search would, best first; only
    /// games that match every word of the query (typo corrections included) are returned.
    func rank(_ query: String, among games: [Game]) -> [SearchHit]
    /// Fast name-prefix suggestions for autocomplete; never waits on a provider. A suggestion may carry only
    /// what one shows: the game's name, release, platforms and reference (its summary and other lists empty).
    func autocomplete(_ text: String, includeMature: Bool, limit: Int) async throws -> [Game]
    func game(_ ref: GameRef) async throws -> Game?
    /// The game with every field its card shows, asking the provider when its search left some out.
    func details(of game: Game) async throws -> Game
    /// Best-rated games with at least `minimumRatings` critic ratings.
    func top(filter: CatalogFilter, minimumRatings: Int, page: Int, pageSize: Int) async throws -> Page<Game>
    func browse(
        _ kind: FacetKind, name: String, includeMature: Bool, page: Int, pageSize: Int
    ) async throws -> Page<Game>
    /// Facet names (genres, platforms…) starting with or containing `text`, most used first.
    func facetNames(_ kind: FacetKind, matching text: String, limit: Int) async throws -> [String]
    /// Every genre, platform, mode or engine name some game of the catalog has.
    func facetNames(_ kind: FacetKind) async throws -> [String]
    /// Which of the catalog's names of this kind a typed name means (`FacetName.resolve`; `typos: false`, only as
    /// typed), the names' forms kept.
    func facetName(_ kind: FacetKind, for typed: String, typos: Bool) async throws -> FacetName
    func status() async throws -> CatalogStatus
    /// Whether the catalog holds a game not out yet at `now`, one that can be wishlisted ahead of its release.
    func hasUnreleased(after now: Date) async throws -> Bool
    /// Refreshes and waits for the result (the terminal).
    func refresh(full: Bool) async throws -> RefreshSummary
    /// Starts a refresh in the background (chat, which must answer within seconds).
    /// False when one is already running: only one runs at a time.
    func startRefresh(
        full: Bool, progress: @escaping @Sendable (RefreshProgress) -> Void,
        finished: @escaping @Sendable (Result<RefreshSummary, any Error>) -> Void
    ) async throws -> Bool
}

/// Numbers about one library, for `/stats` and `/profile`.
package struct PlayerStats: Hashable, Sendable {
    package var statusCounts: [GameStatus: Int] = [:]
    package var genreCounts: [(String, Int)] = []
    /// Score (1–10) → how many games got it.
    package var scoreCounts: [Int: Int] = [:]
    package var totalHours: Double = 0
    package var mostPlayed: (name: String, hours: Double)? = nil
    package var reviews: Int = 0
    package var favorites: [String] = []
    package var wishlist: Int = 0

    package init() {}

    package var libraryCount: Int { statusCounts.values.reduce(0, +) }

    package static func == (lhs: PlayerStats, rhs: PlayerStats) -> Bool {
        lhs.statusCounts == rhs.statusCounts && lhs.genreCounts.map(\.0) == rhs.genreCounts.map(\.0)
            && lhs.genreCounts.map(\.1) == rhs.genreCounts.map(\.1) && lhs.scoreCounts == rhs.scoreCounts
            && lhs.totalHours == rhs.totalHours && lhs.reviews == rhs.reviews && lhs.favorites == rhs.favorites
            && lhs.wishlist == rhs.wishlist && lhs.mostPlayed?.name == rhs.mostPlayed?.name
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(libraryCount)
        hasher.combine(totalHours)
    }
}

/// A member of a server who has a game, for the game's card.
package struct GameOwner: Hashable, Sendable {
    package var player: Player
    package var status: GameStatus
    package var score: Int?
    package init(player: Player, status: GameStatus, score: Int?) {
        self.player = player
        self.status = status
        self.score = score
    }
}

/// What removing a game took: from which shelves, and the medals of running challenges it counted toward.
package struct Removal: Sendable, Equatable {
    package var library: Bool
    package var wishlist: Bool
    package var medalsTakenBack: [String] = []

    package init(library: Bool, wishlist: Bool, medalsTakenBack: [String] = []) {
        self.library = library
        self.wishlist = wishlist
        self.medalsTakenBack = medalsTakenBack
    }
}

/// A library entry before and after a change, the medals the change won and the challenges it counts toward.
package struct EntryChange: Sendable {
    package var before: LibraryEntry?
    package var after: LibraryEntry?
    /// Names of challenges whose goal this change reached.
    package var medals: [String]
    /// The server of each challenge in `medals`, in the same order, where its medal is announced.
    package var medalServers: [String] = []
    /// Names of running challenges whose medal this change took back (hours lowered below the goal).
    package var medalsTakenBack: [String] = []
    /// Running challenges that count what this change did, short of their goal, with the player's progress now.
    package var counted: [(challenge: Challenge, progress: Double)] = []
    /// Whether the game was on the wishlist, which a new entry takes it off.
    package var leftWishlist: Bool

    package init(before: LibraryEntry?, after: LibraryEntry?, medals: [String] = [], leftWishlist: Bool = false) {
        self.before = before
        self.after = after
        self.medals = medals
        self.leftWishlist = leftWishlist
    }
}

extension LibraryStore {
    /// The caller, and the game the command names by its id.
    package func caller(_ invoker: Invoker, at now: Date, naming named: GameRef?) async throws -> Caller {
        try await caller(invoker, at: now, naming: named, listing: nil)
    }

    /// A change outside any server (tools and tests).
    @discardableResult
    package func updateEntry(
        of player: PlayerID, game: Game, _ change: @Sendable (inout LibraryEntry?) throws -> Void
    ) async throws -> EntryChange {
        try await updateEntry(of: player, game: game, community: "", at: Date(), change)
    }

    package func addToWishlist(_ player: PlayerID, game: Game, at now: Date) async throws -> WishlistAddResult {
        try await addToWishlist(player, game: game, community: "", at: now)
    }
}

/// The outcome of putting a game on the wishlist.
package enum WishlistAddResult: Sendable {
    case added, alreadyWishlisted, inLibrary(GameStatus)
}

/// Persistent state the features read and write. Every write is one transaction.
package protocol LibraryStore: Sendable {
    /// What every command starts from, in one transaction: the invoker recorded as a player with their server
    /// membership, the settings of the server they write from, and the catalog's game the command names by its
    /// id (`named`), read in the same round trip when it can be, and the page of the caller's library the command
    /// lists (`listing`), read with them when it can be.
    func caller(
        _ invoker: Invoker, at now: Date, naming named: GameRef?, listing: LibraryListing?
    ) async throws
        -> Caller
    func player(_ id: PlayerID) async throws -> Player?
    /// Whether the player has used the bot in this server (Discord guild, Matrix room, Slack workspace).
    func isMember(_ player: PlayerID, of community: String) async throws -> Bool
    func entry(of player: PlayerID, game: Int64) async throws -> LibraryEntry?
    /// Reads the entry (nil when the game is not in the library), lets `change` edit it, and saves the result,
    /// all in one transaction. Setting it to nil deletes it; creating it takes the game off the wishlist. The
    /// events the change means are recorded for `community`, and medals of challenges it completes are awarded,
    /// in the same transaction. An error thrown by `change` rolls everything back.
    @discardableResult
    func updateEntry(
        of player: PlayerID, game: Game, community: String, at now: Date,
        _ change: @Sendable (inout LibraryEntry?) throws -> Void
    ) async throws -> EntryChange
    func addToWishlist(
        _ player: PlayerID, game: Game, community: String, at now: Date
    ) async throws -> WishlistAddResult
    func isWishlisted(_ player: PlayerID, game: Int64) async throws -> Bool
    /// Every game in the player's library or on their wishlist, with where it stands, the one last changed (or
    /// wished for) first.
    func recentShelves(of player: PlayerID) async throws -> [ShelfGame]
    /// The tags of the player's library, each with how many games have it: the most used first, then by name.
    func tagCounts(of player: PlayerID) async throws -> [(tag: String, games: Int)]
    func removeFromWishlist(_ player: PlayerID, game: Int64) async throws -> Bool
    func wishlist(of player: PlayerID, includeMature: Bool, page: Int, pageSize: Int) async throws -> Page<WishlistItem>
    /// Games on the wishlists of a server's members (or of one of them) whose release is still ahead of `now`
    /// (a game known only by its year: that year not over), soonest first, at most `limit` games.
    func upcoming(
        in community: String, of player: PlayerID?, after now: Date, includeMature: Bool, limit: Int
    ) async throws -> [UpcomingGame]
    /// Removes the game from the library and the wishlist, with the player's news about it (what periods, challenges
    /// and recaps counted of it goes too, and the medal of a running challenge whose goal is then no longer reached);
    /// says which shelves held it.
    func removeEverywhere(_ player: PlayerID, game: Int64, at now: Date) async throws -> Removal
    /// A page of the library with the status counts. Its entries carry what a line of the list shows and no more:
    /// status, hours, percent, score, favorite mark and dates, and of each game its id, name, release and age
    /// restriction (no review, note or tags; no summary, facets or cover). With `listing.tag`, only the games with
    /// that tag, and their counts; with `listing.favorites`, only the favorites.
    func library(of player: PlayerID, _ listing: LibraryListing, includeMature: Bool) async throws -> LibraryPage
    /// The player's numbers; the most played game and the favorites only among games a channel that shows mature
    /// games or not (`includeMature`) may name.
    func stats(of player: PlayerID, includeMature: Bool) async throws -> PlayerStats
    /// The player's library and wishlist, whole; nil for a player never seen.
    func export(of player: PlayerID, at now: Date) async throws -> LibraryExport?
    /// Brings matched games into the player's library and wishlist, never replacing what the player wrote; records
    /// the player under `displayName` when never seen.
    func importItems(
        _ items: [(item: ImportItem, game: Game)], for player: PlayerID, displayName: String, at now: Date
    ) async throws -> ImportCounts
    /// What the player did in the calendar year (UTC): the games played then, hours, reviews and medals.
    func recap(of player: PlayerID, year: Int) async throws -> YearRecap
    /// Sets each field given to its value, or clears it (nil); the others stay as they are.
    func updateProfile(_ player: PlayerID, _ changes: [ProfileField: String?]) async throws -> Player
    /// Erases everything stored about the player; returns how many records went.
    func deleteAccount(_ player: PlayerID) async throws -> Int
    func settings(of community: String) async throws -> CommunitySettings
    /// Sets the settings given and leaves the others; `stopAnnouncing` clears the announce channel.
    func updateSettings(
        of community: String, announceChannel: String?, stopAnnouncing: Bool, ageGate: AgeGate?
    ) async throws -> CommunitySettings
    /// Members of the server who have the game in their library.
    func owners(of game: Int64, in community: String) async throws -> [GameOwner]
}
