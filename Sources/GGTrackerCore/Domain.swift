import Foundation

/// A reference to a game in a catalog, as `provider:id` (`igdb:1942`, `gb:3030-20545`, `local:17`).
package struct GameRef: Hashable, Sendable, CustomStringConvertible, Codable {
    package var provider: String
    package var id: String

    package init(provider: String, id: String) {
        self.provider = provider
        self.id = id
    }

    /// Parses `provider:id`; nil for free text.
    package init?(_ text: String) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard let colon = trimmed.firstIndex(of: ":") else { return nil }
        let provider = String(trimmed[..<colon])
        let id = String(trimmed[trimmed.index(after: colon)...])
        guard GameRef.providers.contains(provider), !id.isEmpty,
            id.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") })
        else { return nil }
        self.provider = provider
        self.id = id
    }

    package static let providers: Set<String> = ["igdb", "gb", "local"]
    package var description: String { "\(provider):\(id)" }
}

/// Where a game stands in a player's library.
package enum GameStatus: String, CaseIterable, Sendable, Codable {
    case backlog, playing, paused, completed, dropped

    package var label: String { rawValue.capitalized }
    /// Where the game stands, said to its player: "it is on your backlog".
    package var yourState: String {
        switch self {
        case .backlog: "it is on your backlog"
        case .playing: "you are still playing it"
        case .paused: "you paused it"
        case .completed: "you completed it"
        case .dropped: "you dropped it"
        }
    }
    package var emoji: String {
        switch self {
        case .backlog: "📚"
        case .playing: "🎮"
        case .paused: "⏸️"
        case .completed: "✅"
        case .dropped: "🗑️"
        }
    }
}

/// A game of the local catalog, with every field the commands show.
/// How long players take to beat a game, in seconds: rushing through, playing normally, doing everything.
package struct TimeToBeat: Hashable, Sendable {
    package var hastily: Int?
    package var normally: Int?
    package var completely: Int?

    package init?(hastily: Int?, normally: Int?, completely: Int?) {
        guard hastily != nil || normally != nil || completely != nil else { return nil }
        self.hastily = hastily
        self.normally = normally
        self.completely = completely
    }
}

package struct Game: Hashable, Sendable {
    /// The catalog row id; stable for the life of the database.
    package var id: Int64
    package var ref: GameRef
    package var name: String
    package var slug: String?
    package var summary: String?
    package var releaseDate: Date?
    /// True when only the year of `releaseDate` is known.
    package var releaseYearOnly: Bool
    package var platforms: [String]
    package var genres: [String]
    /// Settings and subjects ("Fantasy", "Sci-Fi", "Horror").
    package var themes: [String]
    package var modes: [String]
    package var engines: [String]
    package var developers: [String]
    package var publishers: [String]
    /// Critic rating, 0–100.
    package var criticRating: Double?
    package var ratingCount: Int?
    package var coverImageID: String?
    /// Human label such as "ESRB M" or "PEGI 18".
    package var ageRating: String?
    /// Rated ESRB M/AO or PEGI 18: hidden outside age-restricted channels unless the age gate is off.
    package var isMature: Bool
    package var url: String?
    package var gameType: String?
    /// How long players take to beat it, when known (IGDB's `game_time_to_beats`).
    package var timeToBeat: TimeToBeat?

    package init(
        id: Int64, ref: GameRef, name: String, slug: String? = nil, summary: String? = nil,
        releaseDate: Date? = nil, releaseYearOnly: Bool = false, platforms: [String] = [], genres: [String] = [],
        modes: [String] = [], engines: [String] = [], developers: [String] = [], publishers: [String] = [],
        criticRating: Double? = nil, ratingCount: Int? = nil, coverImageID: String? = nil, ageRating: String? = nil,
        isMature: Bool = false, url: String? = nil, gameType: String? = nil, themes: [String] = []
    ) {
        self.themes = themes
        self.id = id
        self.ref = ref
        self.name = name
        self.slug = slug
        self.summary = summary
        self.releaseDate = releaseDate
        self.releaseYearOnly = releaseYearOnly
        self.platforms = platforms
        self.genres = genres
        self.modes = modes
        self.engines = engines
        self.developers = developers
        self.publishers = publishers
        self.criticRating = criticRating
        self.ratingCount = ratingCount
        self.coverImageID = coverImageID
        self.ageRating = ageRating
        self.isMature = isMature
        self.url = url
        self.gameType = gameType
    }

    /// The critic score (0–100, rounded) with the number of critics it comes from; nil unless both are known.
    package var criticScore: (score: Int, critics: Int)? {
        guard let rating = criticRating, let count = ratingCount, count > 0 else { return nil }
        return (Int(rating.rounded()), count)
    }

    /// IGDB's kinds of release that are not a game of their own: add-ons, editions, bundles, ports.
    package static let secondaryTypes: Set<String> = [
        "DLC", "DLC/Addon", "Expansion", "Bundle", "Expanded Game", "Port", "Pack", "Update", "Mod", "Episode",
        "Season", "Fork",
    ]

    package static func isSecondaryRelease(type: String?) -> Bool { type.map(secondaryTypes.contains) ?? false }

    /// A main game (or one whose kind is not known), as opposed to an add-on, edition, bundle or port.
    package var isMainGame: Bool { !Self.isSecondaryRelease(type: gameType) }

    package var releaseYear: Int? {
        releaseDate.map(Calendar.utcYear(of:))
    }

    /// "Doom (1993)": the name with the year, to tell namesakes apart. A name that already ends with a year in
    /// parentheses, as some catalogs write namesakes ("Doom (2016)"), is not given a second.
    package var displayName: String {
        guard let year = releaseYear else { return name }
        if name.utf8.last == UInt8(ascii: ")"), TitleQuery.nameAndYear(name) != nil { return name }
        return "\(name) (\(year))"
    }

    /// `coverImageID` is an IGDB image id, or a full https URL from another provider (Giant Bomb).
    package var coverURL: String? {
        coverImageID.map {
            $0.hasPrefix("https://") ? $0 : "https://images.igdb.com/igdb/image/upload/t_cover_big/\($0).jpg"
        }
    }

    package var thumbnailURL: String? {
        coverImageID.map {
            $0.hasPrefix("https://") ? $0 : "https://images.igdb.com/igdb/image/upload/t_thumb/\($0).jpg"
        }
    }
}

extension Calendar {
    /// The year of a moment in UTC, by the proleptic Gregorian calendar: what `utc.component(.year, from:)` says,
    /// counted from the days since 1970 (every name shown with its year asks, and the calendar is slow to).
    package static func utcYear(of date: Date) -> Int {
        let days = Int((date.timeIntervalSince1970 / 86_400).rounded(.down))
        // Days since 0000-03-01, in 400-year eras that each repeat the calendar exactly.
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        // The year counted here starts in March: January and February belong to the next one.
        let monthFromMarch = (5 * dayOfYear + 2) / 153
        return yearOfEra + era * 400 + (monthFromMarch >= 10 ? 1 : 0)
    }

    package static let utc: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar
    }()
}

/// The platforms a command can arrive from.
package enum ChatPlatform: String, Sendable, Codable {
    case discord, matrix, slack, cli

    /// Whether text can be a channel id here: on Discord a snowflake (17 to 20 digits); on Slack a channel's id
    /// (`C0123ABCD`, `G…` for an older private one, `D…` a direct message: capitals and digits); elsewhere any text.
    package func isChannelID(_ id: String) -> Bool {
        switch self {
        case .discord:
            return (17...20).contains(id.utf8.count) && id.utf8.allSatisfy { (48...57).contains($0) }
        case .slack:
            return id.utf8.count >= 2 && "CGD".utf8.contains(id.utf8.first!)
                && id.utf8.allSatisfy { (48...57).contains($0) || (65...90).contains($0) }
        default:
            return !id.isEmpty
        }
    }
}

/// A player's id across the product: the platform and the platform's own user id, `discord:80351110224678912`.
package struct PlayerID: Hashable, Sendable, Codable, CustomStringConvertible {
    package var rawValue: String
    package init(_ rawValue: String) { self.rawValue = rawValue }
    package init(platform: ChatPlatform, userID: String) { self.rawValue = "\(platform.rawValue):\(userID)" }
    package var description: String { rawValue }
    /// The platform's own id, without the platform prefix.
    package var platformUserID: String {
        rawValue.firstIndex(of: ":").map { String(rawValue[rawValue.index(after: $0)...]) } ?? rawValue
    }
}

/// Who sent a command, where, and with which rights. Built by the platform adapter from a verified request.
package struct Invoker: Sendable {
    package var platform: ChatPlatform
    package var player: PlayerID
    package var displayName: String
    /// The server (Discord guild, Matrix room, Slack workspace) the command came from.
    package var community: String
    package var channel: String?
    /// Discord `channel.nsfw`: age-restricted channels may show mature games.
    package var channelIsAgeRestricted: Bool
    package var isAdmin: Bool
    /// A direct message with the bot (Discord's bot DM): no server, the caller its only member.
    package var isDirectMessage: Bool

    package init(
        platform: ChatPlatform, userID: String, displayName: String, community: String, channel: String? = nil,
        channelIsAgeRestricted: Bool = false, isAdmin: Bool = false, isDirectMessage: Bool = false
    ) {
        self.platform = platform
        self.player = PlayerID(platform: platform, userID: userID)
        self.displayName = displayName
        self.community = community
        self.channel = channel
        self.channelIsAgeRestricted = channelIsAgeRestricted
        self.isAdmin = isAdmin
        self.isDirectMessage = isDirectMessage
    }

    /// The player a `user` option names, on the invoker's platform; on Matrix a bare name ("bob") is that user on
    /// the invoker's homeserver (`@bob:example.org`).
    package func player(named user: UserMention) -> PlayerID {
        let own = player.platformUserID
        let server = platform == .matrix && !user.id.contains(":") ? own.firstIndex(of: ":") : nil
        return PlayerID(platform: platform, userID: server.map { "@" + user.id + own[$0...] } ?? user.id)
    }
}

/// A user named in a command option (a mention or a plain id).
package struct UserMention: Hashable, Sendable {
    package var id: String
    package var displayName: String?
    package init(id: String, displayName: String? = nil) {
        self.id = id
        self.displayName = displayName
    }
}

/// One game on a player's library shelf.
package struct LibraryEntry: Hashable, Sendable {
    package var game: Game
    package var status: GameStatus
    package var hours: Double?
    package var percent: Int?
    package var score: Int?
    package var review: String?
    package var reviewedAt: Date?
    /// The review gives the story away: it is shown hidden until clicked.
    package var reviewIsSpoiler = false
    package var favorite: Bool
    package var tags: [String]
    package var note: String?
    package var addedAt: Date
    package var startedAt: Date?
    package var finishedAt: Date?
    package var updatedAt: Date

    package init(game: Game, status: GameStatus, at now: Date) {
        self.game = game
        self.status = status
        self.favorite = false
        self.tags = []
        self.addedAt = now
        self.updatedAt = now
        if status == .playing { startedAt = now }
        if status == .completed { finishedAt = now }
    }

    /// Moves to `status`, stamping the start and finish times the first time they happen.
    package mutating func setStatus(_ newStatus: GameStatus, at now: Date) {
        if newStatus == .playing, startedAt == nil { startedAt = now }
        if newStatus == .completed {
            if finishedAt == nil || status != .completed { finishedAt = now }
            percent = 100
        }
        status = newStatus
    }

    /// The status that progress given without one means: 100% is completed, and hours or a percent on a backlog
    /// game mean it was started. Nil when the status stays.
    package func statusImplied(hours newHours: Double?, percent newPercent: Int?) -> GameStatus? {
        if newPercent == 100, status != .completed { return .completed }
        let played = (newHours ?? 0) > (hours ?? 0) || (newPercent ?? 0) > (percent ?? 0)
        return status == .backlog && played ? .playing : nil
    }
}

/// A game on a player's wishlist shelf.
package struct WishlistItem: Hashable, Sendable {
    package var game: Game
    package var addedAt: Date
    package init(game: Game, addedAt: Date) {
        self.game = game
        self.addedAt = addedAt
    }
}

/// A wishlisted game not out yet, with the members of one server who want it (earliest wish first).
package struct UpcomingGame: Hashable, Sendable {
    package var game: Game
    package var wantedBy: [Player]
    package init(game: Game, wantedBy: [Player]) {
        self.game = game
        self.wantedBy = wantedBy
    }
}

/// A player's profile as stored.
package struct Player: Hashable, Sendable {
    package var id: PlayerID
    package var displayName: String
    package var nickname: String?
    package var avatarURL: String?
    package var bio: String?
    package var createdAt: Date

    package init(
        id: PlayerID, displayName: String, nickname: String? = nil, avatarURL: String? = nil, bio: String? = nil,
        createdAt: Date
    ) {
        self.id = id
        self.displayName = displayName
        self.nickname = nickname
        self.avatarURL = avatarURL
        self.bio = bio
        self.createdAt = createdAt
    }

    package var shownName: String { nickname ?? displayName }
}

/// How a library list is ordered.
package enum LibrarySort: String, CaseIterable, Sendable {
    case recent, score, hours, name
}

/// One page of a longer list.
package struct Page<Item: Sendable>: Sendable {
    package var items: [Item]
    package var page: Int
    package var pageCount: Int
    package var total: Int
    package init(items: [Item], page: Int, pageCount: Int, total: Int) {
        self.items = items
        self.page = page
        self.pageCount = pageCount
        self.total = total
    }
}

/// Facets of the catalog a user can browse by.
package enum FacetKind: String, CaseIterable, Sendable {
    case genre, platform, mode, engine
}
