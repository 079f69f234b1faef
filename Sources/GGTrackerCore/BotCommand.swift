import Foundation

/// A `title` option: a catalog reference chosen from autocomplete, or free text to resolve.
package enum TitleQuery: Hashable, Sendable {
    case ref(GameRef)
    case text(String)

    package init(_ raw: String) {
        let trimmed = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        self = GameRef(trimmed).map(TitleQuery.ref) ?? .text(trimmed)
    }
}

/// A tag edit from `/tag`: `roguelike` adds, `-roguelike` removes.
package enum TagChange: Hashable, Sendable {
    case add(String)
    case remove(String)
}

/// Every command, typed and validated. Features switch over this, never over strings.
package enum BotCommand: Hashable, Sendable {
    case catalog(CatalogCommand)
    case library(LibraryCommand)
    case social(SocialCommand)
    case info(InfoCommand)

    package static let maxTags = 20
    package static let maxTagLength = 32

    /// Types a validated invocation. Throws the user-facing message for anything the declarations cannot express.
    package init(_ invocation: CommandInvocation) throws(UsageError) {
        let spec = try invocation.validated()
        let o = TypedOptions(values: invocation.options)
        // Written out only for an error: most commands never need it.
        let usage = { spec.usage(prefix: "/" + invocation.path.joined(separator: " ")) }
        if invocation.options["title"] == nil, spec.option("title")?.askedWhenMissing == true {
            self = .library(.chooseGame(for: invocation.path[0]))
            return
        }
        switch invocation.path.joined(separator: " ") {
        case "search":
            self = .catalog(
                .search(query: o.string("query")!, platform: o.string("platform"), genre: o.string("genre")))
        case "game": self = .catalog(.game(o.title))
        case "top":
            self = .catalog(
                .top(genre: o.string("genre"), platform: o.string("platform"), year: o.int("year"), page: o.page))
        case "browse genre", "browse platform", "browse mode", "browse engine":
            self = .catalog(.browse(FacetKind(rawValue: invocation.path[1])!, name: o.string("name"), page: o.page))
        case "add":
            // Hours played without a status mean the game is started, as `/progress` reads them.
            let hours = o.number("hours")
            let status = o.string("status").flatMap(GameStatus.init) ?? ((hours ?? 0) > 0 ? .playing : .backlog)
            self = .library(.add(o.title, status: status, hours: hours))
        case "progress":
            let status = o.string("status").flatMap(GameStatus.init)
            let (total, added) = (o.number("hours"), o.number(PlayedHours.addedOption.name))
            if total != nil, added != nil {
                throw UsageError("Give \(code: "hours") (the total) or \(code: "add_hours"), not both.", usage: usage())
            }
            let hours = total.map(PlayedHours.total) ?? added.map(PlayedHours.added)
            let (share, addedShare) = (o.int("percent"), o.int(PercentDone.addedOption.name))
            if share != nil, addedShare != nil {
                throw UsageError(
                    "Give \(code: "percent") (the share done) or \(code: "add_percent"), not both.", usage: usage())
            }
            let percent = share.map(PercentDone.total) ?? addedShare.map(PercentDone.added)
            guard status != nil || hours != nil || percent != nil else {
                var message: RichText =
                    "Give at least one of \(code: "status"), \(code: "hours"), \(code: "add_hours"), \(code: "percent") or \(code: "add_percent")."
                // "!gg progress hades completed": the status written last, without its name, is offered back.
                // With nothing else written, the game's card asks where the player is with it.
                guard let meant = invocation.optionsEndingTheTitle.map(invocation.settingTheTitlesEnding) else {
                    self = .library(.progress(o.title, status: nil, hours: nil, percent: nil))
                    return
                }
                message += " Did you mean \(code: meant.commandLine)?"
                throw UsageError(message, usage: usage(), meant: meant, readsTheTitlesEnd: true)
            }
            self = .library(.progress(o.title, status: status, hours: hours, percent: percent))
        case "rate": self = .library(.rate(o.title, score: o.int("score")))
        case "review":
            let by = o.mention("by")
            if by != nil, o.string("text") != nil || o.bool("spoiler") != nil {
                throw UsageError(
                    "\(code: "by") shows someone's review: leave out \(code: "text") and \(code: "spoiler").",
                    usage: usage())
            }
            self = .library(.review(o.title, text: o.string("text"), spoiler: o.bool("spoiler"), by: by))
        case "wishlist add": self = .library(.wishlistAdd(o.title))
        case "wishlist remove": self = .library(.wishlistRemove(o.title))
        case "wishlist show": self = .library(.wishlistShow(user: o.user, page: o.page))
        case "favorite": self = .library(.favorite(o.title))
        case "tag":
            // Without tags it shows the game's tags.
            let changes = try o.string("tags").map { text throws(UsageError) in
                try BotCommand.tagChanges(text, usage: usage())
            }
            self = .library(.tag(o.title, changes: changes ?? []))
        case "note":
            let clear = o.bool("clear") ?? false
            if clear, o.string("text") != nil {
                throw UsageError(
                    "Give \(code: "text") to change the note or \(code: "clear:true") to delete it, not both.")
            }
            self = .library(.note(o.title, text: o.string("text"), clear: clear))
        case "remove": self = .library(.remove(o.title, confirmed: o.bool("confirm") ?? false))
        case "list":
            let tag = Self.listedTag(o.string("tag"))
            if let tag, tag.contains(",") {
                // The same list with its first tag, offered.
                var first = invocation
                first.options["tag"] = .string(String(tag.prefix { $0 != "," }))
                throw UsageError(
                    "\(code: "/list") keeps to one tag at a time. Did you mean \(code: first.commandLine)?",
                    usage: usage(), meant: first)
            }
            self = .library(
                .list(
                    user: o.user, status: o.string("status").flatMap(GameStatus.init),
                    sort: o.string("sort").flatMap(LibrarySort.init) ?? .recent, page: o.page,
                    tag: tag, favorites: o.bool("favorites") ?? false))
        case "export": self = .library(.export(o.string("format").flatMap(LibraryExport.Format.init) ?? .csv))
        case "import steam": self = .library(.importSteam(account: o.string("steam_id")!))
        case "import file":
            guard case .attachment(let file) = o.values["file"] else {
                throw UsageError("Attach your CSV export as \(code: "file").", usage: usage())
            }
            self = .library(.importFile(file, format: o.string("format").flatMap(ImportFormat.init) ?? .auto))
        case "profile show": self = .social(.profileShow(user: o.user))
        case "profile set":
            var changes: [ProfileField: String?] = [:]
            for field in ProfileField.allCases {
                if let value = o.string(field.rawValue) { changes[field] = value }
            }
            if let clearing = o.string("clear").flatMap(ProfileClearing.init) {
                if let both = clearing.fields.first(where: { changes[$0] != nil }) {
                    throw UsageError(
                        "Give \(code: both.rawValue) or \(code: "clear:\(clearing.rawValue)"), not both.",
                        usage: usage())
                }
                for field in clearing.fields { changes[field] = .some(nil) }
            }
            guard !changes.isEmpty else {
                throw UsageError(
                    "Give at least one of \(code: "nickname"), \(code: "avatar") or \(code: "bio"), or \(code: "clear") one.",
                    usage: usage())
            }
            if case .some(.some(let avatar)) = changes[.avatar] {
                guard let url = URL(string: avatar), url.scheme == "https", url.host?.isEmpty == false,
                    !avatar.contains(where: \.isWhitespace)
                else {
                    throw UsageError("\(code: "avatar") must be an https:// image URL.", usage: usage())
                }
            }
            self = .social(.profileSet(changes))
        case "stats": self = .social(.stats(user: o.user))
        case "compare": self = .social(.compare(user: o.user, with: o.mention("with")))
        case "leaderboard":
            self = .social(
                .leaderboard(
                    o.string("metric").flatMap(LeaderboardMetric.init) ?? .completed,
                    o.string("period").flatMap(Period.init) ?? .all))
        case "challenge create":
            let goal = o.number("goal")!
            guard goal > 0 else {
                throw UsageError("A challenge's \(code: "goal") must be more than 0.", usage: usage())
            }
            let ends = o.string("ends")!
            guard let day = TypedDay(ends) else {
                throw UsageError(TextShape.day.complaint(name: "ends", text: ends), usage: usage())
            }
            self = .social(
                .challengeCreate(
                    name: o.string("name")!, goal: goal, unit: o.string("unit").flatMap(ChallengeUnit.init) ?? .custom,
                    ends: day))
        case "challenge join": self = .social(.challengeJoin(name: o.string("name")))
        case "challenge leave": self = .social(.challengeLeave(name: o.string("name")))
        case "challenge progress":
            self = .social(.challengeProgress(name: o.string("name"), amount: o.number("amount")!))
        case "challenge show": self = .social(.challengeShow(name: o.string("name")))
        case "challenge list": self = .social(.challengeList)
        case "friend add": self = .social(.friendAdd(o.user))
        case "friend remove": self = .social(.friendRemove(o.user))
        case "friend list": self = .social(.friendList)
        case "activity": self = .social(.activity(user: o.user))
        case "upcoming": self = .social(.upcoming(user: o.user))
        case "recap": self = .social(.recap(user: o.user, year: o.int("year")))
        case "gamenight":
            let action = o.string("action").flatMap(GameNightAction.init) ?? .start
            if action == .join || action == .leave, o.string("mode") != nil || o.number("max_hours") != nil {
                throw UsageError(
                    "\(code: "mode") and \(code: "max_hours") are for starting a game night or picking, not for \(code: action.rawValue).",
                    usage: usage())
            }
            self = .social(
                .gameNight(
                    action, mode: o.string("mode").flatMap(GameNightMode.init), maxHours: o.number("max_hours"),
                    night: o.int("night").map(Int64.init)))
        case "share": self = .social(.share(revoke: o.bool("revoke") ?? false))
        case "help":
            // "/help wishlist add" is the help of /wishlist.
            let name = o.string("command")?.split(separator: " ").first.map(String.init)
            guard let name else {
                self = .info(.help(nil))
                return
            }
            guard let command = CommandName(rawValue: name.lowercased().trimmingCharacters(in: ["/"])) else {
                throw UsageError(
                    "There is no command \(code: "\(name)")." + CommandName.suggestion(for: name)
                        + " \(code: "/help") lists them all.", usage: usage())
            }
            self = .info(.help(command))
        case "about": self = .info(.about)
        case "account delete": self = .info(.accountDelete(confirmed: o.bool("confirm") ?? false))
        case "admin catalog refresh": self = .info(.adminCatalogRefresh(full: o.string("mode") == "full"))
        case "admin catalog status": self = .info(.adminCatalogStatus)
        case "admin settings":
            let channel: String? = if case .channel(let id) = invocation.options["announce_channel"] { id } else { nil }
            self = .info(
                .adminSettings(
                    announceChannel: channel, stopAnnouncing: o.bool("stop_announcing") ?? false,
                    ageGate: o.string("age_gate").flatMap(AgeGate.init)))
        default:
            throw UsageError("Unknown command \(code: "/\(invocation.path.joined(separator: " "))").", usage: usage())
        }
    }

    /// The command's name, for logs and metrics.
    package var name: String {
        switch self {
        case .catalog(let command): command.name
        case .library(let command): command.name
        case .social(let command): command.name
        case .info(let command): command.name
        }
    }
}

/// The catalog's commands: searching and browsing games.
package enum CatalogCommand: Hashable, Sendable {
    case search(query: String, platform: String?, genre: String?)
    case game(TitleQuery)
    case top(genre: String?, platform: String?, year: Int?, page: Int)
    /// Without a name, the kind's names.
    case browse(FacetKind, name: String?, page: Int)
}

/// A player's own shelves: the library and the wishlist.
package enum LibraryCommand: Hashable, Sendable {
    case add(TitleQuery, status: GameStatus, hours: Double?)
    case progress(TitleQuery, status: GameStatus?, hours: PlayedHours?, percent: PercentDone?)
    /// Without a score (typed `!gg rate hades`), the scores to pick from.
    case rate(TitleQuery, score: Int?)
    /// Writes the caller's review (`spoiler` nil keeps the flag it had), or with `by` shows that member's review.
    case review(TitleQuery, text: String?, spoiler: Bool?, by: UserMention?)
    case wishlistAdd(TitleQuery)
    case wishlistRemove(TitleQuery)
    case wishlistShow(user: UserMention?, page: Int)
    case favorite(TitleQuery)
    case tag(TitleQuery, changes: [TagChange])
    case note(TitleQuery, text: String?, clear: Bool)
    case remove(TitleQuery, confirmed: Bool)
    case list(
        user: UserMention?, status: GameStatus?, sort: LibrarySort, page: Int, tag: String? = nil,
        favorites: Bool = false)
    case export(LibraryExport.Format)
    case importSteam(account: String)
    case importFile(Attachment, format: ImportFormat)
    /// A command about one's own copy (its name) typed without its game (`!gg rate 9`): the caller's games to pick.
    case chooseGame(for: String)
}

/// The group: profiles, comparisons, leaderboards, challenges, friends, news, share links.
package enum SocialCommand: Hashable, Sendable {
    case profileShow(user: UserMention?)
    /// Each field given is set to its value or cleared (nil).
    case profileSet([ProfileField: String?])
    case stats(user: UserMention?)
    /// Without `user` (typed `!gg compare`), the members to pick from.
    case compare(user: UserMention?, with: UserMention?)
    case leaderboard(LeaderboardMetric, Period)
    case challengeCreate(name: String, goal: Double, unit: ChallengeUnit, ends: TypedDay)
    /// Without a name (typed `!gg challenge join`), the challenges to pick from.
    case challengeJoin(name: String?)
    case challengeLeave(name: String?)
    /// Without a name, the running challenge the caller is in.
    case challengeProgress(name: String?, amount: Double)
    case challengeShow(name: String?)
    case challengeList
    /// Without a member (typed `!gg friend add`), the ones to pick from.
    case friendAdd(UserMention?)
    case friendRemove(UserMention?)
    case friendList
    case activity(user: UserMention?)
    case upcoming(user: UserMention?)
    /// `year` nil: the current one.
    case recap(user: UserMention?, year: Int?)
    /// `night` nil: the latest night in the channel.
    /// `mode` and `maxHours` start a night (the mode multiplayer when not given) or change what a pick looks for.
    case gameNight(GameNightAction, mode: GameNightMode?, maxHours: Double?, night: Int64?)
    case share(revoke: Bool)
}

/// Help, the bot itself, the account, and the admins' commands.
package enum InfoCommand: Hashable, Sendable {
    case help(CommandName?)
    case about
    case accountDelete(confirmed: Bool)
    case adminCatalogRefresh(full: Bool)
    case adminCatalogStatus
    case adminSettings(announceChannel: String?, stopAnnouncing: Bool, ageGate: AgeGate?)
}

extension CatalogCommand {
    /// The command's name, for logs and metrics.
    package var name: String {
        switch self {
        case .search: "search"
        case .game: "game"
        case .top: "top"
        case .browse: "browse"
        }
    }
}

extension LibraryCommand {
    /// The command's name, for logs and metrics.
    package var name: String {
        switch self {
        case .add: "add"
        case .progress: "progress"
        case .rate: "rate"
        case .review: "review"
        case .wishlistAdd, .wishlistRemove, .wishlistShow: "wishlist"
        case .favorite: "favorite"
        case .tag: "tag"
        case .note: "note"
        case .remove: "remove"
        case .list: "list"
        case .export: "export"
        case .importSteam, .importFile: "import"
        case .chooseGame(let command): command
        }
    }
}

extension SocialCommand {
    /// The command's name, for logs and metrics.
    package var name: String {
        switch self {
        case .profileShow, .profileSet: "profile"
        case .stats: "stats"
        case .compare: "compare"
        case .leaderboard: "leaderboard"
        case .challengeCreate, .challengeJoin, .challengeLeave, .challengeProgress, .challengeShow, .challengeList:
            "challenge"
        case .friendAdd, .friendRemove, .friendList: "friend"
        case .activity: "activity"
        case .upcoming: "upcoming"
        case .recap: "recap"
        case .gameNight: "gamenight"
        case .share: "share"
        }
    }
}

extension InfoCommand {
    /// The command's name, for logs and metrics.
    package var name: String {
        switch self {
        case .help: "help"
        case .about: "about"
        case .accountDelete: "account"
        case .adminCatalogRefresh, .adminCatalogStatus, .adminSettings: "admin"
        }
    }
}
