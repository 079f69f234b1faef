import Foundation

/// An answer that ends a command early: a refusal, a question back, or a confirmation request.
package struct ReplyError: Error, Sendable {
    package var reply: Reply
    package init(_ reply: Reply) { self.reply = reply }
    package static func notice(_ text: RichText) -> ReplyError { ReplyError(.notice(text)) }
    package static func notice(_ text: String) -> ReplyError { ReplyError(.notice(text)) }
}

/// A title that names no game as typed but does without its last words, which set options the command lacks: the
/// command to run in its place (`/add title:igdb:14593 status:playing` for "!gg add hollow knight playing").
struct TitleReading: Error, Sendable {
    var invocation: CommandInvocation
}

/// A command about a game in the player's library named one that is not there: answered privately with an **Add it**
/// button (with `add`'s options), and told apart when the game is on the player's wishlist.
struct NotInLibrary: Error, Sendable {
    var player: PlayerID
    var game: Game
    var add: [String: OptionValue] = [:]

    func reply(wishlisted: Bool) -> Reply {
        let options = add.merging(["title": .game(game.ref)]) { $1 }
        return Reply(
            visibility: .invokerOnly,
            text: wishlisted
                ? "\(bold: game.displayName) is on your wishlist, not in your library yet: add it to your library first (it then leaves the wishlist)."
                : "\(bold: game.displayName) is not in your library yet: add it first.",
            actions: [[Action(wishlisted ? "Add to library" : "Add it", .run(.add, options), style: .primary)]])
    }
}

/// Everything the features need from persistence: a player's library, and the shared side.
package struct BotStore: Sendable {
    package var library: any LibraryStore
    package var social: any SocialStore

    package init(library: any LibraryStore, social: any SocialStore) {
        self.library = library
        self.social = social
    }
}

/// Facts about this installation shown by `/about`.
package struct BotInfo: Sendable {
    package var name: String
    package var version: String
    package var creators: String
    package var homepage: String?
    /// Where the bot's web pages are reached from outside, without a trailing slash.
    package var publicBaseURL: String

    package init(
        name: String = "GGTracker", version: String, creators: String = "the GGTracker team", homepage: String? = nil,
        publicBaseURL: String = "http://127.0.0.1:8080"
    ) {
        self.name = name
        self.version = version
        self.creators = creators
        self.homepage = homepage
        self.publicBaseURL = publicBaseURL
    }
}

/// The domain: turns a typed command from an invoker into a `Reply`, using the catalog and the store.
package struct GGTrackerBot: Sendable {
    package var catalog: any GameCatalog
    package var store: BotStore
    package var info: BotInfo
    package var now: @Sendable () -> Date
    /// Per-user and per-server rate limits; nil for none.
    package var floodGuard: FloodGuard?
    /// Steam and attachment downloads for imports; nil when the installation has none.
    package var sources: (any LibrarySources)?
    /// Where announcements can be posted; nil where none can.
    package var announcers: (any AnnounceChannels)?

    package static let pageSize = 10

    package init(
        catalog: any GameCatalog, store: BotStore, info: BotInfo,
        now: @escaping @Sendable () -> Date = Date.init
    ) {
        self.catalog = catalog
        self.store = store
        self.info = info
        self.now = now
    }

    /// Parses and runs a command line typed as text (terminal, Matrix, Slack, buttons); `file` is one sent with it
    /// (on Matrix, the file a command answers), which `/import file` takes.
    package func respond(
        toLine line: String, from invoker: Invoker, fromComponent: Bool = false, file: Attachment? = nil
    ) async throws -> Reply {
        do {
            var invocation = try TextCommandParser.parse(line, fromComponent: fromComponent)
            if invocation.path == ["import", "file"], invoker.platform != .discord {
                guard let file else { return ImportFeatures.fileWithoutAttachment(invoker) }
                invocation.options["file"] = .attachment(file)
            }
            return try await respond(to: invocation, from: invoker)
        } catch let error as UsageError {
            return try await UnknownCommandOffer(bot: self).reply(to: error, from: invoker) ?? error.reply
        }
    }

    /// Validates and runs an invocation. User mistakes become private replies; other errors are thrown. A long
    /// command (an import) hands `progress` the answer so far, for platforms that can show it while it runs.
    package func respond(
        to invocation: CommandInvocation, from invoker: Invoker, progress: (@Sendable (Reply) -> Void)? = nil
    ) async throws -> Reply {
        if let floodGuard,
            let wait = floodGuard.admit(user: invoker.player.rawValue, server: invoker.community, at: now())
        {
            // A retried delivery answered before is given that answer again rather than told to slow down: the
            // caller's read finds it and stops there.
            _ = try await store.library.caller(invoker, at: now(), naming: nil)
            return .notice(
                "Easy there — that is a lot of commands in a short time. Try again in \(wait) s; nothing was changed.")
        }
        return try await run(invocation, from: invoker, progress: progress, rereading: true)
    }

    /// Runs an invocation; with `rereading`, one whose title ends with the options it lacks runs as so read
    /// ("!gg rate celeste 9" as `/rate title:celeste score:9`) where the title as typed names no game, and is
    /// offered where it names one ("!gg rate portal 2").
    private func run(
        _ invocation: CommandInvocation, from invoker: Invoker, progress: (@Sendable (Reply) -> Void)?,
        rereading: Bool
    ) async throws -> Reply {
        do {
            let command = try BotCommand(invocation)
            var context = try await makeContext(
                invocation: invocation, invoker: invoker, listing: command.listing(by: invoker))
            context.progress = progress
            context.rereadsTheTitle = rereading
            return try await handle(command, context)
        } catch let error as UsageError {
            guard rereading, error.readsTheTitlesEnd, let meant = error.meant,
                case .string(let title)? = invocation.options["title"]
            else { return error.reply }
            // "hades 2h", "hades +2h": a number with its unit or its sign is no part of a name, whatever game the
            // whole title names (Hades II).
            if invocation.unitEnding != nil {
                return try await run(meant, from: invoker, progress: progress, rereading: false)
            }
            var reply = error.reply
            switch try await catalogPick(title) {
            case .none: return try await run(meant, from: invoker, progress: progress, rereading: false)
            case .one(let game) where !game.isMature:
                // "!gg rate portal 2": the game the whole title names is offered beside the reading.
                var named = invocation
                named.options["title"] = .game(game.ref)
                reply.actions[0].append(Action(Format.truncate(game.displayName, 80), named))
            default: break
            }
            return reply
        } catch let error as TitleReading {
            return try await run(error.invocation, from: invoker, progress: progress, rereading: false)
        } catch let error as ReplyError {
            return error.reply
        } catch let error as NotInLibrary {
            return error.reply(wishlisted: try await store.library.isWishlisted(error.player, game: error.game.id))
        }
    }

    /// The game `title` names in the catalog, typo corrections included: none where no game has every word.
    func catalogPick(_ title: String) async throws -> TitlePick {
        let hits = try await catalog.lookup(title, filter: CatalogFilter(includeMature: true), limit: 10).hits
        return TitlePick.fromCatalog(hits, acceptingGuesses: true)
    }

    /// What every feature knows about the request.
    struct Context: Sendable {
        var invoker: Invoker
        var invocation: CommandInvocation
        var settings: CommunitySettings
        var player: Player
        var now: Date
        /// The game the command names by its catalog id, when it was read with the caller.
        var namedGame: Game? = nil
        /// Where a long command reports the answer so far; nil where the platform cannot show it.
        var progress: (@Sendable (Reply) -> Void)? = nil
        /// A title that names no game may be read again without its last words, as options (`TitleReading`).
        var rereadsTheTitle = false

        /// The page of the caller's library the command lists, when it was read with the caller.
        var listed: LibraryPage? = nil

        /// Mature games show in age-restricted channels, or everywhere when the server's age gate is off.
        var showsMature: Bool { settings.showsMature(to: invoker) }

        /// Who counts as an admin where the invoker writes, as each platform decides it.
        var whoIsAdmin: RichText {
            switch invoker.platform {
            case .discord:
                "members with Administrator or Manage Server, or ids the bot's operator lists in \(code: "GGTRACKER_ADMIN_IDS")."
            case .matrix:
                "room members with power level 50 or more, or ids the bot's operator lists in \(code: "GGTRACKER_ADMIN_IDS")."
            case .slack: "the Slack ids the bot's operator lists in \(code: "GGTRACKER_ADMIN_IDS")."
            case .cli: "run the command with \(code: "--admin")."
            }
        }

        /// Where a strict age gate shows mature games, on the invoker's platform. Only Discord marks a channel
        /// age-restricted; the terminal has a flag; on Matrix and Slack strict hides them everywhere.
        var whereStrictShowsMature: RichText {
            switch invoker.platform {
            case .discord: "only in age-restricted channels"
            case .cli: "only with \(code: "--age-restricted")"
            case .matrix, .slack: "hidden, since no room or channel here is age-restricted"
            }
        }

        /// How mature games come to show where the invoker writes (see `whereStrictShowsMature`): on Matrix and
        /// Slack once an admin turns the age gate off.
        var ageGateRemedy: RichText {
            switch invoker.platform {
            case .discord where invoker.isDirectMessage:
                "a direct message is never age-restricted: use an age-restricted channel of a server."
            case .discord: "use an age-restricted channel."
            case .cli: "run the command with \(code: "--age-restricted")."
            case .matrix, .slack:
                "here no channel is age-restricted: an admin can show such games everywhere with \(code: "/admin settings age_gate:off")."
            }
        }
    }

    func makeContext(
        invocation: CommandInvocation, invoker: Invoker, listing: LibraryListing?
    ) async throws -> Context {
        let now = now()
        // A title given by its catalog id (a button's, an autocomplete choice's) is read with the caller.
        let named: GameRef? =
            if case .string(let title) = invocation.options["title"], case .ref(let ref) = TitleQuery(title) {
                ref
            } else {
                nil
            }
        let caller = try await store.library.caller(invoker, at: now, naming: named, listing: listing)
        return Context(
            invoker: invoker, invocation: invocation, settings: caller.settings, player: caller.player, now: now,
            namedGame: caller.namedGame, listed: caller.listed)
    }

    func handle(_ command: BotCommand, _ c: Context) async throws -> Reply {
        if c.invoker.isDirectMessage, let name = CommandName(rawValue: command.name), name.spec.serverOnly {
            return .notice(
                "\(code: "/\(name.rawValue)") is about a server's members: run it in a server where \(info.name) is. In this direct message your own commands work: \(code: "/list"), \(code: "/add"), \(code: "/import"), \(code: "/export")…"
            )
        }
        if command.name == "admin" && !c.invoker.isAdmin {
            return .notice("Only admins can use \(code: "/admin"): " + c.whoIsAdmin)
        }
        switch command {
        case .catalog(let command): return try await handle(command, c)
        case .library(let command): return try await handle(command, c)
        case .social(let command): return try await handle(command, c)
        case .info(let command): return try await handle(command, c)
        }
    }

    func handle(_ command: CatalogCommand, _ c: Context) async throws -> Reply {
        switch command {
        case .search(let query, let platform, let genre):
            return try await CatalogFeatures(bot: self).search(query: query, platform: platform, genre: genre, c)
        case .game(let title): return try await CatalogFeatures(bot: self).gameDetails(title, c)
        case .top(let genre, let platform, let year, let page):
            return try await CatalogFeatures(bot: self).top(genre: genre, platform: platform, year: year, page: page, c)
        case .browse(let kind, let name, let page):
            return try await CatalogFeatures(bot: self).browse(kind, name: name, page: page, c)
        }
    }

    func handle(_ command: LibraryCommand, _ c: Context) async throws -> Reply {
        switch command {
        case .chooseGame: return try await LibraryFeatures(bot: self).askGame(c)
        case .add(let title, let status, let hours):
            return try await LibraryFeatures(bot: self).add(title, status: status, hours: hours, c)
        case .progress(let title, let status, let hours, let percent):
            return try await LibraryFeatures(bot: self).progress(
                title, status: status, hours: hours, percent: percent, c)
        case .rate(let title, let score): return try await LibraryFeatures(bot: self).rate(title, score: score, c)
        case .review(let title, let text, let spoiler, let by):
            if let by { return try await LibraryFeatures(bot: self).showReview(title, by: by, c) }
            return try await LibraryFeatures(bot: self).review(title, text: text, spoiler: spoiler, c)
        case .wishlistAdd(let title): return try await ShelfFeatures(bot: self).wishlistAdd(title, c)
        case .wishlistRemove(let title): return try await ShelfFeatures(bot: self).wishlistRemove(title, c)
        case .wishlistShow(let user, let page):
            return try await ShelfFeatures(bot: self).wishlistShow(user: user, page: page, c)
        case .favorite(let title): return try await LibraryFeatures(bot: self).favorite(title, c)
        case .tag(let title, let changes): return try await LibraryFeatures(bot: self).tag(title, changes: changes, c)
        case .note(let title, let text, let clear):
            return try await LibraryFeatures(bot: self).note(title, text: text, clear: clear, c)
        case .remove(let title, let confirmed):
            return try await LibraryFeatures(bot: self).remove(title, confirmed: confirmed, c)
        case .export(let format): return try await ShelfFeatures(bot: self).export(format, c)
        case .importSteam(let account): return try await ImportFeatures(bot: self).steam(account, c)
        case .importFile(let file, let format): return try await ImportFeatures(bot: self).file(file, format, c)
        case .list(let user, let status, let sort, let page, let tag, let favorites):
            let listing = LibraryListing(
                status: status, sort: sort, page: page, pageSize: Self.pageSize, tag: tag, favorites: favorites)
            return try await ShelfFeatures(bot: self).list(user: user, listing: listing, c)
        }
    }

    func handle(_ command: SocialCommand, _ c: Context) async throws -> Reply {
        switch command {
        case .upcoming(let user): return try await ShelfFeatures(bot: self).upcoming(user: user, c)
        case .recap(let user, let year): return try await RecapFeatures(bot: self).recap(user: user, year: year, c)
        case .gameNight(let action, let mode, let maxHours, let night):
            return try await GameNightFeatures(bot: self).gameNight(
                action, mode: mode, maxHours: maxHours, night: night, c)
        case .profileShow(let user): return try await PlayerFeatures(bot: self).profileShow(user: user, c)
        case .profileSet(let changes):
            return try await PlayerFeatures(bot: self).profileSet(changes, c)
        case .stats(let user): return try await PlayerFeatures(bot: self).stats(user: user, c)
        case .compare(let user, let other): return try await SocialFeatures(bot: self).compare(user, with: other, c)
        case .leaderboard(let metric, let period):
            return try await SocialFeatures(bot: self).leaderboard(metric, period, c)
        case .challengeCreate(let name, let goal, let unit, let ends):
            return try await ChallengeFeatures(bot: self).challengeCreate(
                name: name, goal: goal, unit: unit, ends: ends, c)
        case .challengeJoin(let name): return try await ChallengeFeatures(bot: self).challengeJoin(name: name, c)
        case .challengeLeave(let name): return try await ChallengeFeatures(bot: self).challengeLeave(name: name, c)
        case .challengeProgress(let name, let amount):
            return try await ChallengeFeatures(bot: self).challengeProgress(name: name, amount: amount, c)
        case .challengeShow(let name): return try await ChallengeFeatures(bot: self).challengeShow(name: name, c)
        case .challengeList: return try await ChallengeFeatures(bot: self).challengeList(c)
        case .friendAdd(let user): return try await SocialFeatures(bot: self).friendAdd(user, c)
        case .friendRemove(let user): return try await SocialFeatures(bot: self).friendRemove(user, c)
        case .friendList: return try await SocialFeatures(bot: self).friendList(c)
        case .activity(let user): return try await SocialFeatures(bot: self).activity(user: user, c)
        case .share(let revoke): return try await SocialFeatures(bot: self).share(revoke: revoke, c)
        }
    }

    func handle(_ command: InfoCommand, _ c: Context) async throws -> Reply {
        switch command {
        case .help(let name): return InfoFeatures(bot: self).help(name, c)
        case .about: return try await InfoFeatures(bot: self).about(c)
        case .accountDelete(let confirmed):
            return try await PlayerFeatures(bot: self).accountDelete(confirmed: confirmed, c)
        case .adminCatalogRefresh(let full): return try await InfoFeatures(bot: self).adminCatalogRefresh(full: full, c)
        case .adminCatalogStatus: return try await InfoFeatures(bot: self).adminCatalogStatus(c)
        case .adminSettings(let channel, let stop, let ageGate):
            return try await InfoFeatures(bot: self).adminSettings(
                announceChannel: channel, stopAnnouncing: stop, ageGate: ageGate, c)
        }
    }

    /// The player a `user` option names, or the caller. A library is visible in the servers where its owner used
    /// the bot: someone who never did here is refused with a friendly notice, as is someone unknown.
    func targetPlayer(
        _ user: UserMention?, _ c: Context, otherwise consequence: String = "so there is nothing to show"
    ) async throws -> Player {
        guard let user else { return c.player }
        let id = c.invoker.player(named: user)
        if id == c.player.id { return c.player }
        if let player = try await store.library.player(id),
            try await store.library.isMember(id, of: c.invoker.community)
        {
            return player
        }
        let name = user.displayName ?? user.id
        // "!gg list wishlist", "… favorites": a command's word, or another word for one, typed where a member goes.
        let word = user.id.lowercased()
        if let meant = CommandName(rawValue: word) ?? CommandName.otherWords[word]
            ?? (word.hasSuffix("s") ? CommandName(rawValue: String(word.dropLast())) : nil)
        {
            throw ReplyError.notice("“\(name)” is no member's name here. Did you mean \(code: "/" + meant.rawValue)?")
        }
        var text: RichText = "\(name) hasn't used GGTracker in this server yet, \(consequence)."
        // Slack sends "@bob" as it was typed when the command does not escape users: no member id to look up.
        if c.invoker.platform == .slack, !user.id.allSatisfy({ $0.isUppercase || $0.isNumber }) {
            text +=
                " If they have, Slack sent “@\(user.id)” as plain text: pick them from the list Slack shows as you "
                + "type @ (the app's \(code: "/gg") command needs “Escape channels, users, and links” ticked)."
        }
        throw ReplyError.notice(text)
    }

    /// A command line that runs this same command again with `changes` applied to its options.
    func rerun(_ c: Context, _ changes: [String: OptionValue?]) -> CommandInvocation {
        var invocation = c.invocation
        for (name, value) in changes { invocation.options[name] = value }
        invocation.fromComponent = false
        return invocation
    }
}
