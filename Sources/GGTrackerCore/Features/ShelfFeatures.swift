import Foundation

/// The library and wishlist shelves: `/list`, `/wishlist add|remove|show`.
struct ShelfFeatures: Sendable {
    typealias Context = GGTrackerBot.Context
    let bot: GGTrackerBot

    /// `/wishlist add`: refused for games already in the library.
    func wishlistAdd(_ title: TitleQuery, _ c: Context) async throws -> Reply {
        let game = try await bot.resolve(title, c)
        switch try await bot.store.library.addToWishlist(
            c.player.id, game: game, community: c.invoker.community, at: c.now)
        {
        case .inLibrary(let status):
            return .notice(
                "\(bold: game.displayName) is already in your library (\(status.emoji) \(status.label)).")
        case .alreadyWishlisted:
            return .notice("\(bold: game.displayName) is already on your wishlist.")
        case .added:
            return Reply(
                cards: [
                    Card(
                        title: Format.truncate("\(c.player.shownName) wishlisted \(game.displayName)", 256),
                        url: game.url,
                        description: RichText(GGTrackerBot.oneLine(game)), thumbnailURL: game.thumbnailURL,
                        footer: game.ref.description,
                        color: Palette.wishlist)
                ],
                actions: [[Action("Add to library", .run(.add, ["title": .game(game.ref)]))]])
        }
    }

    /// `/wishlist remove`.
    func wishlistRemove(_ title: TitleQuery, _ c: Context) async throws -> Reply {
        let game = try await bot.resolve(title, c, scope: .ownShelves)
        guard try await bot.store.library.removeFromWishlist(c.player.id, game: game.id) else {
            // In the library instead: say where it is, and how to take it out of there.
            if let entry = try await bot.store.library.entry(of: c.player.id, game: game.id) {
                return .notice(
                    "\(bold: game.displayName) is not on your wishlist: it is in your library (\(entry.status.emoji) \(entry.status.label)). \(code: "/remove") takes it out."
                )
            }
            return .notice("\(bold: game.displayName) is not on your wishlist.")
        }
        return .notice("Took \(bold: game.displayName) off your wishlist.")
    }

    /// `/wishlist show`: ten per page.
    func wishlistShow(user: UserMention?, page: Int, _ c: Context) async throws -> Reply {
        let player = try await bot.targetPlayer(user, c)
        let result = try await bot.store.library.wishlist(
            of: player.id, includeMature: c.showsMature, page: page, pageSize: GGTrackerBot.pageSize)
        let owner = player.id == c.player.id ? "Your" : "\(player.shownName)'s"
        guard !result.items.isEmpty else {
            if let past = bot.pastTheLastPage(result) { return past }
            return .notice(
                player.id == c.player.id
                    ? "Your wishlist is empty. Add games with \(code: "/wishlist add")."
                    : "\(owner) wishlist is empty.")
        }
        let lines = result.items.map { item in
            "• \(item.game.displayName)"
                + (item.game.criticScore.map { " — critics \($0.score)" } ?? "")
        }
        let card = Card(
            title: "\(player.shownName)'s wishlist",
            description: RichText(lines.joined(separator: "\n")), thumbnailURL: player.avatarURL,
            footer: "\(Format.count(result.total, "game")) · page \(result.page)/\(result.pageCount)",
            color: Palette.wishlist)
        return Reply(
            delivery: c.invocation.fromComponent ? .updateMessage : .newMessage, cards: [card],
            actions: bot.pager(result, c, owner: player))
    }

    /// `/list`: a library, ten per page, with the status counts in the footer.
    func list(user: UserMention?, listing: LibraryListing, _ c: Context) async throws -> Reply {
        let player = try await bot.targetPlayer(user, c)
        let result: LibraryPage
        if player.id == c.player.id, let listed = c.listed {
            result = listed
        } else {
            result = try await bot.store.library.library(of: player.id, listing, includeMature: c.showsMature)
        }
        let (status, sort) = (listing.status, listing.sort)
        let name = player.shownName
        guard !result.page.items.isEmpty else {
            if let past = bot.pastTheLastPage(result.page) { return past }
            let hidden = result.hiddenMature > 0 ? " (\(result.hiddenMature) age-restricted hidden here)" : ""
            if let tag = listing.tag { return try await noneTagged(tag, status: status, of: player, hidden: hidden, c) }
            let scope = status.map { " with status \($0.rawValue)" } ?? ""
            if listing.favorites {
                return .notice(
                    (player.id == c.player.id ? "You have" : "\(name) has") + " no favorite games\(scope) yet\(hidden)."
                        + (player.id == c.player.id ? " Mark one with \(code: "/favorite title:<game>")." : ""))
            }
            return .notice(
                player.id == c.player.id
                    ? "Your library has no games\(scope) yet\(hidden). Add one with \(code: "/add")."
                    : "\(name)'s library has no games\(scope) yet\(hidden).")
        }
        let lines = result.page.items.map { entry -> RichText in
            var line: RichText = "\(entry.status.emoji) \(bold: Format.truncate(entry.game.displayName, 120))"
            var facts: [String] = []
            if let score = entry.score { facts.append(Format.stars(score)) }
            if let hours = Format.played(entry.hours) { facts.append(hours) }
            if let percent = entry.percent, percent > 0, entry.status != .completed { facts.append("\(percent)%") }
            if entry.favorite { facts.append("⭐") }
            if !facts.isEmpty { line += RichText(" — " + facts.joined(separator: " · ")) }
            return line
        }
        let total = result.statusCounts.values.reduce(0, +)
        let games =
            Format.count(total, listing.favorites ? "favorite" : "game") + (listing.tag.map { " tagged “\($0)”" } ?? "")
        var footer: String
        if let status {
            footer = "\(status.emoji) \(result.statusCounts[status] ?? 0) \(status.rawValue) of \(games)"
        } else {
            let counts = GameStatus.allCases.compactMap { s in result.statusCounts[s].map { "\(s.emoji) \($0)" } }
            footer = games + " · " + counts.joined(separator: " · ")
        }
        footer += " · page \(result.page.page)/\(result.page.pageCount)"
        if result.hiddenMature > 0 { footer += " · \(result.hiddenMature) age-restricted hidden" }
        let title =
            "\(name)'s library" + (listing.favorites ? " — ⭐ favorites" : "") + (status.map { " — \($0.label)" } ?? "")
            + (listing.tag.map { " — tagged “\($0)”" } ?? "")
            + (sort == .recent ? "" : " by \(sort.rawValue)")
        let card = Card(
            title: title, description: lines.joined(separator: "\n"), thumbnailURL: player.avatarURL, footer: footer,
            color: Palette.library)
        return Reply(
            delivery: c.invocation.fromComponent ? .updateMessage : .newMessage, cards: [card],
            actions: bot.pager(result.page, c, owner: player))
    }
}

extension ShelfFeatures {
    /// The answer to `/list tag:` that finds nothing: the tags the library does have, each a button that lists it.
    func noneTagged(
        _ tag: String, status: GameStatus?, of player: Player, hidden: String, _ c: Context
    ) async throws
        -> Reply
    {
        let own = player.id == c.player.id
        let whose = own ? "your library" : "\(player.shownName)'s library"
        let scope = status.map { " with status \($0.rawValue)" } ?? ""
        let tags = try await bot.store.library.tagCounts(of: player.id)
        guard !tags.isEmpty else {
            return .notice(
                "No game in \(whose) is tagged “\(tag)”\(scope)\(hidden): \(own ? "you have" : "they have") no tags yet."
                    + (own ? " Tag a game with \(code: "/tag title:… tags:\(tag)")." : ""))
        }
        let listed = tags.prefix(10).map { "\($0.tag) (\($0.games))" }.joined(separator: ", ")
        return Reply(
            visibility: .invokerOnly,
            text: "No game in \(whose) is tagged “\(tag)”\(scope)\(hidden). \(own ? "Your" : "Their") tags: \(listed).",
            actions: [
                tags.prefix(5).map { counted in
                    Action("#\(counted.tag)", bot.rerun(c, ["tag": .string(counted.tag), "page": nil, "status": nil]))
                }
            ])
    }
}

extension ShelfFeatures {
    /// How many games `/upcoming` lists.
    static let upcomingLimit = 15

    /// `/upcoming`: games this server's members (or one of them) wishlisted that are not out yet, soonest first,
    /// each with who wants it.
    func upcoming(user: UserMention?, _ c: Context) async throws -> Reply {
        let only: Player? = if let user { try await bot.targetPlayer(user, c) } else { nil }
        let games = try await bot.store.library.upcoming(
            in: c.invoker.community, of: only?.id, after: c.now, includeMature: c.showsMature,
            limit: Self.upcomingLimit)
        let yours = only == nil || only?.id == c.player.id
        let whose =
            only.map { $0.id == c.player.id ? "your wishlist" : "\($0.shownName)'s wishlist" }
            ?? "this server's wishlists"
        guard !games.isEmpty else {
            // Only a wishlist the caller can fill gets the hint, and only when the catalog has such a game.
            var hint: RichText = ""
            if try await !bot.catalog.hasUnreleased(after: c.now) {
                hint = " The catalog holds no game that is not out yet, so none can be wishlisted ahead of its release."
            } else if yours {
                hint = " Wishlist a game that is not out yet with \(code: "/wishlist add")."
            }
            return .notice("Nothing on \(whose) has a release date ahead." + hint)
        }
        var lines: [RichText] = []
        for upcoming in games {
            let game = upcoming.game
            var line: RichText = "• \(bold: game.name) — "
            if let date = game.releaseDate {
                line +=
                    game.releaseYearOnly
                    ? RichText("some time in \(Format.date(date, yearOnly: true))")
                    : "\(relative: date) (\(Format.date(date)))"
            }
            line += RichText(" — wanted by " + Format.sentence(upcoming.wantedBy.map { $0.shownName }))
            lines.append(line)
        }
        return Reply(
            cards: [
                Card(
                    title: "Coming soon on \(whose)", description: lines.joined(separator: "\n"),
                    footer: Format.count(games.count, "game")
                        + (games.count == Self.upcomingLimit ? " (the soonest)" : ""),
                    color: Palette.wishlist)
            ])
    }
}

extension ShelfFeatures {
    /// How long an export link works.
    static let exportLifetime: TimeInterval = 15 * 60

    /// `/export`: a private link to the caller's whole library as CSV or JSON, for one download within 15 minutes.
    func export(_ format: LibraryExport.Format, _ c: Context) async throws -> Reply {
        let token = SocialFeatures.newShareToken()
        let expires = c.now.addingTimeInterval(Self.exportLifetime)
        try await bot.store.social.createExportLink(
            token, for: c.player.id, format: format, at: c.now, expiresAt: expires)
        let url = "\(bot.info.publicBaseURL)/export/\(token).\(format.rawValue)"
        var text: RichText =
            "Your export (\(format.rawValue.uppercased())) is ready: \(url)\nIt holds your library, wishlist, scores, hours, reviews, tags and notes. The link is yours alone: it works for one download and expires \(relative: expires)."
        if c.invoker.platform == .cli {
            let user =
                c.player.id.rawValue.contains(where: \.isWhitespace)
                ? "'\(c.player.id.rawValue)'" : c.player.id.rawValue
            let command =
                "ggtracker export --user \(user) --format \(format.rawValue) --output library.\(format.rawValue)"
            text += "\n\(SocialFeatures.servedLink) To write the file here instead: \(code: command)"
        }
        var reply = Reply(visibility: .invokerOnly, text: text)
        reply.isSecret = true
        return reply
    }
}

extension BotCommand {
    /// The page of the invoker's own library the command lists, for the store to read with the caller.
    func listing(by invoker: Invoker) -> LibraryListing? {
        guard case .library(.list(let user, let status, let sort, let page, let tag, let favorites)) = self else {
            return nil
        }
        if let user, invoker.player(named: user) != invoker.player { return nil }
        return LibraryListing(
            status: status, sort: sort, page: page, pageSize: GGTrackerBot.pageSize, tag: tag, favorites: favorites)
    }
}
