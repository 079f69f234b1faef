import Foundation

/// The catalog: `/search`, `/game`, `/top`, `/browse`.
struct CatalogFeatures: Sendable {
    typealias Context = GGTrackerBot.Context
    let bot: GGTrackerBot

    /// `/search`: up to ten matches as cards with covers, and menus to add, wishlist or open one.
    func search(
        query: String, platform typedPlatform: String?, genre typedGenre: String?, _ c: Context
    )
        async throws -> Reply
    {
        let platform = try await facet(.platform, typedPlatform, option: "platform", c)
        let genre = try await facet(.genre, typedGenre, option: "genre", c)
        var filter = CatalogFilter(platform: platform, genre: genre, includeMature: c.showsMature)
        var lookup = try await bot.catalog.lookup(query, filter: filter, limit: 10)
        var query = query
        /// Searches the words before the last ones under a narrower filter, kept where that finds games with every
        /// word (or hides some): the last words were the filter's, not the name's.
        func narrowed(to name: String, _ narrower: CatalogFilter) async throws {
            var found = try await bot.catalog.lookup(name, filter: narrower, limit: 10)
            found.hits = found.hits.filter(\.coversQuery)
            if !found.hits.isEmpty || found.ageRestricted > 0 { (lookup, query, filter) = (found, name, narrower) }
        }
        // "doom 1993": where no game has every word, a year ending the words is the release year.
        if !lookup.hits.contains(where: \.coversQuery), let (name, year) = TitleQuery.nameAndYear(query) {
            var dated = filter
            dated.year = year
            try await narrowed(to: name, dated)
        }
        // "zelda switch": where no game has every word, last words naming a platform or a genre not given are it.
        if !lookup.hits.contains(where: \.coversQuery), lookup.ageRestricted == 0,
            let (name, kind, facet) = try await trailingFacet(query, filter)
        {
            var faceted = filter
            if kind == .platform { faceted.platform = facet } else { faceted.genre = facet }
            try await narrowed(to: name, faceted)
        }
        // The fewest corrections win, as a search box does: where a game has every word as typed, whole, games
        // found only through typo corrections are left out ("hades" lists no Angus Hates Aliens), and where a game
        // has every word, games with only some of them ("hollow knight" lists no Arkham Knight).
        var hits = lookup.hits
        if hits.contains(where: \.exactWords) {
            hits = hits.filter(\.matchedAllWords)
        } else if lookup.ageRestrictedHasExactWords {
            // The games with every word as typed are all hidden: none found only through corrections stands in.
            hits = []
        } else if hits.contains(where: \.coversQuery) {
            hits = hits.filter(\.coversQuery)
        }
        // Games hidden by the age gate are said, never replaced by games that have only some of the words.
        let restricted = lookup.ageRestricted
        let are = restricted == 1 ? "is" : "are"
        /// "3 games", or "at least 100 games" where the search stopped counting.
        func hidden(_ noun: String) -> String {
            (lookup.ageRestrictedIsPartial ? "at least " : "") + Format.count(restricted, noun)
        }
        guard !hits.isEmpty else {
            if let problem = lookup.providerProblem { return .notice(problem) }
            if restricted > 0 {
                return .notice(
                    "No game matching “\(Format.truncate(query, 100))”\(filter.year.map { " released in \($0)" } ?? "") "
                        + "can be shown in this channel: "
                        + "\(hidden("game")) with every word \(are) age-restricted; "
                        + c.ageGateRemedy)
            }
            var text = "No game matches “\(Format.truncate(query, 100))”"
            if filter.platform != nil || filter.genre != nil { text += " with those filters" }
            return .notice(text + ". Check the spelling or try fewer words.")
        }
        // A game's line is written once for its card and its three menu options.
        let lines = hits.map { GGTrackerBot.oneLine($0.game) }
        let labels = hits.map { Format.truncate($0.game.displayName, 100) }
        let descriptions = lines.map { Format.truncate($0, 100) }
        let cards = zip(hits, lines).map { hit, line in
            Card(
                title: Format.truncate(hit.game.displayName, 256), url: hit.game.url,
                description: RichText(line), thumbnailURL: hit.game.thumbnailURL,
                footer: hit.game.ref.description, color: Palette.catalog)
        }
        func menu(_ placeholder: String, _ command: CommandName, _ subcommand: String? = nil) -> Menu {
            Menu(
                placeholder,
                options: hits.indices.map { index in
                    Menu.Option(
                        labels[index], description: descriptions[index],
                        .run(command, subcommand, ["title": .game(hits[index].game.ref)]))
                })
        }
        let count =
            ([Format.count(hits.count, "game") + " for “\(Format.truncate(query, 100))”"]
            + [filter.platform, filter.genre, filter.year.map { "released in \($0)" }].compactMap { $0 })
            .joined(separator: " · ")
        var text = RichText([count, lookup.providerProblem].compactMap { $0 }.joined(separator: "\n"))
        if restricted > 0 {
            let more = hidden("more game")
            text +=
                "\n\(more.prefix(1).uppercased())\(more.dropFirst()) with every word \(are) age-restricted in this channel; "
                + c.ageGateRemedy
        }
        return Reply(
            text: text,
            cards: cards,
            menus: [
                menu("Add to my library…", .add), menu("Add to my wishlist…", .wishlist, "add"),
                menu("Show details…", .game),
            ])
    }

    /// `/game`: the details card, with who on this server has it and their average score.
    func gameDetails(_ title: TitleQuery, _ c: Context) async throws -> Reply {
        let game = try await bot.catalog.details(of: try await bot.resolve(title, c, showsOnly: true))
        let owners = try await bot.store.library.owners(of: game.id, in: c.invoker.community)
        var fields: [Card.Field] = []
        if let date = game.releaseDate {
            fields.append(.init("Released", Format.date(date, yearOnly: game.releaseYearOnly)))
        }
        func list(_ name: String, _ values: [String], limit: Int = 8) {
            guard !values.isEmpty else { return }
            let shown =
                values.prefix(limit).joined(separator: ", ") + (values.count > limit ? " +\(values.count - limit)" : "")
            fields.append(.init(name, Format.truncate(shown, 1024)))
        }
        list("Platforms", Format.platforms(game.platforms), limit: 12)
        list("Genres", game.genres)
        list("Themes", game.themes)
        list("Modes", game.modes)
        list("Engine", game.engines)
        list("Developer", game.developers, limit: 4)
        list("Publisher", game.publishers, limit: 4)
        if let critic = game.criticScore {
            fields.append(
                .init(
                    "Critic rating",
                    "\(critic.score)/100 from \(critic.critics) critic\(critic.critics == 1 ? "" : "s")"))
        }
        if let age = game.ageRating { fields.append(.init("Age rating", age)) }
        if let time = game.timeToBeat, let line = Format.timeToBeat(time) {
            fields.append(.init("Length", line))
        }
        // In a direct message the caller is the only member: their copy is shown below.
        if !owners.isEmpty, !c.invoker.isDirectMessage {
            let lines = owners.prefix(10).map { owner in
                "\(owner.status.emoji) \(owner.player.shownName)"
                    + (owner.score.map { " · \(Format.stars($0))" } ?? "")
            }
            let more = owners.count > 10 ? "\n…and \(owners.count - 10) more" : ""
            fields.append(
                .init("On this server (\(owners.count))", lines.joined(separator: "\n") + more, inline: false))
            let scores = owners.compactMap(\.score)
            if !scores.isEmpty {
                let average = Double(scores.reduce(0, +)) / Double(scores.count)
                fields.append(
                    .init(
                        "Server average",
                        "\(Format.stars(Int(average.rounded()))) \(String(format: "%.1f", average))/10 (\(scores.count))"
                    ))
            }
        }
        let card = Card(
            title: Format.truncate(game.displayName, 256), url: game.url,
            description: game.summary.map { RichText(Format.truncate($0, 1500)) },
            thumbnailURL: game.coverURL, fields: fields, footer: "\(game.ref) · \(Self.attribution(game))",
            color: Palette.catalog)
        let shelf = try await bot.shelf(of: game, c)
        var cards = [card]
        switch shelf {
        case .library(let entry): cards.append(bot.yourCopyCard(entry, c))
        case .wishlist: cards[0].fields.append(.init("Your shelf", "On your wishlist", inline: false))
        case .none: break
        }
        let (actions, menus) = bot.gameCardActions(game, shelf)
        return Reply(cards: cards, actions: actions, menus: menus)
    }

    /// Whose data a game card shows.
    static func attribution(_ game: Game) -> String {
        game.ref.provider == "gb" ? "Data from Giant Bomb" : "Game data from IGDB.com"
    }

    /// `/top`: the best-rated games, ten per page.
    func top(
        genre typedGenre: String?, platform typedPlatform: String?, year: Int?, page: Int, _ c: Context
    )
        async throws -> Reply
    {
        let genre = try await facet(.genre, typedGenre, option: "genre", c)
        let platform = try await facet(.platform, typedPlatform, option: "platform", c)
        let filter = CatalogFilter(platform: platform, genre: genre, year: year, includeMature: c.showsMature)
        let result = try await bot.catalog.top(
            filter: filter, minimumRatings: 5, page: page, pageSize: GGTrackerBot.pageSize)
        var scope = [genre, platform, year.map(String.init)].compactMap { $0 }.joined(separator: " · ")
        if scope.isEmpty { scope = "all games" }
        guard !result.items.isEmpty else {
            if let past = bot.pastTheLastPage(result) { return past }
            let anyScores = try await bot.catalog.top(filter: CatalogFilter(), minimumRatings: 1, page: 1, pageSize: 1)
            if anyScores.total == 0 {
                return .notice(
                    "This catalog has no critic scores, so there is nothing to rank: the \(try await bot.catalog.status().provider) catalog does not provide them."
                )
            }
            // "Platform games released in 2030": what was asked, as a sentence reads it, and a year still ahead named.
            let names = [genre, platform].compactMap { $0 }.joined(separator: " · ")
            let asked = (names.isEmpty ? "games" : "\(names) games") + (year.map { " released in \($0)" } ?? "")
            let ahead = year.flatMap { $0 > Calendar.utcYear(of: c.now) ? " (\($0) is still ahead)" : nil }
            return .notice(
                "Nothing to rank for \(asked): none has scores from at least 5 critics\(ahead ?? "").")
        }
        let lines = result.items.enumerated().map { offset, game in
            let rank = (result.page - 1) * GGTrackerBot.pageSize + offset + 1
            let rating: RichText = game.criticScore.map { " — \(bold: $0.score) (\($0.critics) critics)" } ?? ""
            return "\(code: "\(rank).") \(game.displayName)\(rating)" as RichText
        }
        let card = Card(
            title: "Top rated: \(Format.truncate(scope, 200))", description: lines.joined(separator: "\n"),
            footer:
                "Page \(result.page)/\(result.pageCount) · critic ratings from at least 5 critics · data from IGDB.com",
            color: Palette.catalog)
        return Reply(
            delivery: c.invocation.fromComponent ? .updateMessage : .newMessage, cards: [card],
            actions: bot.pager(result, c))
    }

    /// `/browse genre|platform|mode|engine`: games with that facet, most notable first.
    func browse(_ kind: FacetKind, name typed: String?, page: Int, _ c: Context) async throws -> Reply {
        guard let typed else { return try await facetList(kind, c) }
        let name = try await facet(kind, named: typed, option: "name", c)
        let result = try await bot.catalog.browse(
            kind, name: name, includeMature: c.showsMature, page: page, pageSize: GGTrackerBot.pageSize)
        guard !result.items.isEmpty else {
            if let past = bot.pastTheLastPage(result) { return past }
            return .notice(
                "The games with the \(kind.rawValue) “\(name)” are age-restricted and cannot be shown in this channel; "
                    + c.ageGateRemedy)
        }
        let lines = result.items.map { game in
            "• \(game.displayName)" + (game.criticScore.map { " — critics \($0.score)" } ?? "")
        }
        let card = Card(
            title: "\(kind.rawValue.capitalized): \(Format.truncate(name, 200))",
            description: RichText(lines.joined(separator: "\n")),
            footer: "Page \(result.page)/\(result.pageCount) · \(Format.count(result.total, "game"))",
            color: Palette.catalog)
        return Reply(
            delivery: c.invocation.fromComponent ? .updateMessage : .newMessage, cards: [card],
            actions: bot.pager(result, c))
    }

}
