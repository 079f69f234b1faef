import Foundation

/// Which games a `title` is looked for among first.
enum TitleScope {
    /// Any game of the catalog (`/game`, `/add`, `/wishlist add`).
    case catalog
    /// A command about the caller's own entries (`/progress`, `/rate`, `/review`, `/favorite`, `/tag`, `/note`,
    /// `/remove`, `/wishlist remove`): games on the caller's shelves that match come first.
    case ownShelves
}

extension GGTrackerBot {
    /// Turns a `title` option into the one game the caller meant, in this order: a catalog reference is that game;
    /// for commands about the caller's entries, a single matching game on their shelves; an exact name (a clear
    /// favourite among namesakes, or else a question); the search's first result when it matches every word and is
    /// clearly ahead (main games rank before add-ons, editions and bundles); otherwise a question or "no game
    /// matches" with suggestions. Free text is resolved over the whole catalog and the age gate applied to the
    /// answer, so a game the channel may not show is refused by name and never swapped for another one.
    /// `showsOnly` is for commands that only show the game (`/game`, another member's review): a name matched
    /// only through typo corrections is taken there; a command that changes something offers it instead.
    func resolve(
        _ title: TitleQuery, _ c: Context, scope: TitleScope = .catalog, showsOnly: Bool = false
    ) async throws -> Game {
        switch title {
        case .ref(let ref):
            if let game = c.namedGame, game.ref == ref { return try visible(game, c) }
            guard let game = try await catalog.game(ref) else {
                throw ReplyError.notice("No game in the catalog has the id \(code: "\(ref)"). Try \(code: "/search").")
            }
            return try visible(game, c)
        case .text(let text):
            // A pasted store or catalog page: its game, by the page's Steam app id or the name it spells.
            if let link = GameLink(text) {
                if let game = try await catalog.match([link.item], suggesting: 0).first?.game {
                    return try visible(game, c)
                }
                let page = link.steamAppID.map { "the Steam app \($0)" } ?? "that page"
                let named: RichText = link.name.isEmpty ? "" : " or a game named “\(Format.truncate(link.name, 100))”"
                throw ReplyError.notice(
                    "The catalog has no game for \(page)\(named). Try \(code: "/search") with its name.")
            }
            // A title typed on into the free text ("!gg review Hades <a long review>") is longer than a name: only a
            // game on the caller's shelves starting it is looked for.
            if let most = OptionSpec.title().maxLength, Format.length(text) > most {
                let shelfGames = scope == .ownShelves ? try await store.library.shelfGames(of: c.player.id) : []
                if let starting = try await shelfGameStarting(text, among: shelfGames, catalog, c) {
                    return try gated(
                        .none(suggestions: starting.games), Format.truncate(text, 100), c,
                        abbreviated: starting.abbreviated)
                }
                throw ReplyError.notice(
                    "“\(Format.truncate(text, 60))” is \(Format.length(text)) characters long, more than a game's name (\(most)), and starts with the name of no game of yours. Type \(code: "/\(c.invocation.path.joined(separator: " ")) title:<game> text:<text>")."
                )
            }
            // "hades 2h": a number written with its unit or its sign ending the title is no part of a name, whatever
            // game the whole title names (Hades II).
            if c.rereadsTheTitle, let ending = c.invocation.unitEnding {
                throw TitleReading(invocation: c.invocation.settingTheTitlesEnding(ending))
            }
            // "hades -2h" to `/add`, "hades 150%": so written, a number the option reading it does not take is refused,
            // never read into a name.
            if let number = c.invocation.numberOutOfRange(alone: false) { throw number.outOfRange }
            if let pick = try await datedPick(text, c, scope: scope) { return try gated(pick, text, c) }
            var shelfGames: [Game] = []
            if scope == .ownShelves {
                shelfGames = try await store.library.shelfGames(of: c.player.id)
                let shelf = catalog.rank(text, among: shelfGames)
                if let pick = TitlePick.fromShelves(shelf) { return try gated(pick, text, c) }
            }
            let lookup = try await catalog.lookup(text, filter: CatalogFilter(includeMature: true), limit: 10)
            // "!gg rate 11", "!gg rate 0": a number alone that the option reading it does not take is no game's name
            // ("Yakuza 0"), unless a game has exactly that name.
            if let number = c.invocation.numberOutOfRange(alone: true), !lookup.hits.contains(where: \.exactName) {
                throw number.outOfRange
            }
            var pick = TitlePick.fromCatalog(lookup.hits, acceptingGuesses: showsOnly, showsMature: c.showsMature)
            // Nothing found locally while the provider could not be asked: say that, not "no game matches".
            if case .none(let suggestions) = pick, suggestions.isEmpty, let problem = lookup.providerProblem {
                throw ReplyError.notice(problem)
            }
            // "hades switch": where nothing has every word, last words naming a platform are that platform, as in
            // /search; the words before them are the name, looked for among the games on that platform.
            if case .none = pick,
                let (name, kind, platform) = try await CatalogFeatures(bot: self).trailingFacet(
                    text, CatalogFilter(includeMature: true)), kind == .platform
            {
                let onPlatform = try await catalog.lookup(
                    name, filter: CatalogFilter(platform: platform, includeMature: true), limit: 10
                ).hits
                let found = TitlePick.fromCatalog(onPlatform, acceptingGuesses: showsOnly, showsMature: c.showsMature)
                if case .none = found {} else { pick = found }
            }
            // "celeste playing": without its last word, which sets an option, the title may name a game: one game
            // is then taken with that option, several are asked about.
            if case .none = pick, let ending = c.invocation.endingOfATitleNamingNoGame {
                let hits = try await catalog.lookup(
                    ending.title, filter: CatalogFilter(includeMature: true), limit: 10
                ).hits
                switch TitlePick.fromCatalog(hits, acceptingGuesses: true, showsMature: c.showsMature) {
                case .one(let game):
                    // One game, not only through typo corrections: the command runs on it with those options.
                    if c.rereadsTheTitle, !ending.offeredOnly, TitlePick.fromCatalog(hits) == .one(game) {
                        throw TitleReading(
                            invocation: c.invocation.settingTheTitlesEnding((game.ref.description, ending.options)))
                    }
                    pick = .none(suggestions: [game])
                // A whole number's reading is offered with one game only: "final fantasy 17" may be a sequel's name.
                case .ambiguous(let games) where !ending.offeredOnly,
                    .none(let games) where !games.isEmpty && !ending.offeredOnly:
                    pick = .none(suggestions: Array(games.prefix(5)))
                default: break
                }
            }
            if case .none = pick, let starting = try await shelfGameStarting(text, among: shelfGames, catalog, c) {
                return try gated(.none(suggestions: starting.games), text, c, abbreviated: starting.abbreviated)
            }
            return try gated(pick, text, c)
        }
    }

    /// The game, unless the channel may not show it.
    func visible(_ game: Game, _ c: Context) throws -> Game {
        guard c.showsMature || !game.isMature else {
            throw ReplyError.notice(
                "\(bold: game.displayName) is age-restricted (\(game.ageRating ?? "mature")) and cannot be shown in this channel; "
                    + c.ageGateRemedy)
        }
        return game
    }

    /// Applies the age gate to a pick and turns questions and misses into the private reply that asks or explains.
    /// `abbreviated`: the games missed are the caller's, named by their first words (`shelfGameStarting`).
    func gated(_ pick: TitlePick, _ text: String, _ c: Context, abbreviated: Bool = false) throws -> Game {
        let shown = Format.truncate(text, 100)
        switch pick {
        case .one(let game):
            return try visible(game, c)
        case .ambiguous(let games):
            let allowed = games.filter { c.showsMature || !$0.isMature }
            let hidden = games.filter { !c.showsMature && $0.isMature }
            let restricted =
                hidden.map { RichText([.bold($0.displayName)]) }.joined(separator: ", ")
                + (hidden.count == 1 ? " is" : " are") + " age-restricted in this channel"
            guard !allowed.isEmpty else {
                throw ReplyError.notice("“\(shown)”: \(restricted); " + c.ageGateRemedy)
            }
            let offered = Array(allowed.prefix(5))
            let buttons = zip(offered, Self.labels(offered)).map { game, label in
                Action(
                    Format.truncate(label, 80), rerun(c, ["title": .string(game.ref.description)]), style: .primary)
            }
            var message: RichText = "More than one game matches “\(shown)”. Which one do you mean?"
            if offered.count == 1, !hidden.isEmpty {
                // "Doom" where only an obscure namesake may be shown: the ones meant are hidden, that one is asked.
                message = "“\(shown)”: \(restricted); " + c.ageGateRemedy
                message += " Or did you mean \(bold: offered[0].displayName)?"
            } else if !hidden.isEmpty {
                message += " (\(restricted).)"
            }
            throw ReplyError(Reply(visibility: .invokerOnly, text: message, actions: [Array(buttons)]))
        case .none(let found):
            // "hades 150%": a number with an option's unit, which that option does not take, is no part of a name.
            if let number = c.invocation.numberOutOfRange(alone: false) { throw number.outOfRange }
            let suggestions = found.filter { c.showsMature || !$0.isMature }
            var message: RichText = "No game matches “\(shown)”."
            if suggestions.isEmpty {
                if found.isEmpty {
                    throw ReplyError.notice(
                        message + " Check the spelling, or try \(code: "/search") with fewer words.")
                }
                throw ReplyError.notice(
                    message
                        + " The closest ones are age-restricted in this channel; try \(code: "/search") with other words."
                )
            }
            // "hades loved it" typed to /review: the first suggestion's name starts the title, and the rest is the
            // text the command was not given. That game alone is offered, with its text.
            // Namesakes starting it alike ("doom" with both Dooms on the shelves) are offered each.
            if let game = suggestions.first,
                let text = c.invocation.textAfter(name: game.name, abbreviated: abbreviated)
            {
                let option = RichText([.code("\(text.name):\(CommandInvocation.text(of: text.value))")])
                let offered = suggestions.filter {
                    c.invocation.textAfter(name: $0.name, abbreviated: abbreviated)?.value == text.value
                }
                let buttons = zip(offered, Self.labels(offered)).map { game, label in
                    Action(
                        Format.truncate(label, 80),
                        rerun(c, ["title": .string(game.ref.description), text.name: text.value]))
                }
                let named = offered.map { RichText([.bold($0.displayName)]) }.joined(separator: " or ")
                throw ReplyError(
                    Reply(
                        visibility: .invokerOnly, text: message + " Did you mean: " + named + " with " + option + "?",
                        actions: [buttons]))
            }
            // "celeste 9 amazing game" typed to /rate: values right after the first suggestion's name, then words
            // that fit no option. That game is offered with those values, and the words left over are named.
            if let game = suggestions.first,
                let (values, rest) = c.invocation.valuesAfter(name: game.name, abbreviated: abbreviated)
            {
                let command = "/" + c.invocation.path.joined(separator: " ")
                throw ReplyError(
                    Reply(
                        visibility: .invokerOnly,
                        text: message + " Did you mean \(bold: game.displayName) with " + namedValues(values)
                            + "? “\(Format.truncate(rest, 60))” fits no option of \(code: command) and is left out.",
                        actions: [
                            [Action(Format.truncate(game.displayName, 80), rerun(c, titled(game, setting: values)))]
                        ]))
            }
            // "celeste playing", "12h hollow knight": the last or first words may be options the command has, which
            // each button then sets. A bare number ("celeste 9", "9 celeste") goes with the one game whose name is
            // the rest of the title (compared word by word, by their letters and digits).
            let ending: [(name: String, value: OptionValue)] =
                c.invocation.endingOfATitleNamingNoGame.flatMap { ending -> [(name: String, value: OptionValue)]? in
                    guard ending.offeredOnly else { return ending.options }
                    let named =
                        suggestions.count == 1 && nameKeys(of: ending.title) == nameKeys(of: suggestions[0].name)
                    return named ? ending.options : nil
                } ?? []
            message +=
                " Did you mean: "
                + suggestions.map { RichText([.bold($0.displayName)]) }.joined(separator: ", ")
                + (ending.isEmpty ? "" : " with " + namedValues(ending)) + "?"
            let buttons = suggestions.map {
                Action(Format.truncate($0.displayName, 80), rerun(c, titled($0, setting: ending)))
            }
            throw ReplyError(Reply(visibility: .invokerOnly, text: message, actions: [buttons]))
        }
    }

    /// How each of `games` is named where they are offered together (buttons, autocomplete): its name and year,
    /// and where another of them has the same name, a platform that tells them apart — one this game is on and not
    /// every namesake is ("Doom (2001) · Game Boy Advance"), with how many more it is on. A game's platforms come in
    /// no particular order (the catalog does not know which came first), so a platform is named only to tell
    /// namesakes apart.
    static func labels(_ games: [Game]) -> [String] {
        let namesakes = Dictionary(grouping: games) { $0.name.lowercased() }
        return games.map { game in
            let others = (namesakes[game.name.lowercased()] ?? []).filter { $0.id != game.id }
            guard !others.isEmpty, !game.platforms.isEmpty else { return game.displayName }
            let shared = others.reduce(Set(game.platforms)) { $0.intersection($1.platforms) }
            let platform = game.platforms.first { !shared.contains($0) } ?? game.platforms[0]
            let more = game.platforms.count > 1 ? " +\(game.platforms.count - 1)" : ""
            return game.displayName + " · " + platform + more
        }
    }
}

/// Whether a game of `catalog` is named exactly by more of `text`'s first words than those before `rest` (up to four
/// more, as a sequel's or an edition's name adds).
private func namesMore(in catalog: any GameCatalog, of text: String, than rest: OptionValue) async throws -> Bool {
    let words = text.split(whereSeparator: \.isWhitespace)
    let named = words.count - CommandInvocation.text(of: rest).split(whereSeparator: \.isWhitespace).count
    for count in stride(from: min(words.count - 1, named + 4), to: named, by: -1) {
        let longer = words.prefix(count).joined(separator: " ")
        let hits = try await catalog.lookup(longer, filter: CatalogFilter(includeMature: true), limit: 5).hits
        // A name that folds the extra words away ("Hades" for "hades the") is no longer one.
        if hits.contains(where: { $0.exactName && $0.game.name.split(whereSeparator: \.isWhitespace).count > named }) {
            return true
        }
    }
    return false
}

/// "hades great game" typed to /review: a game on the caller's shelves whose name starts the title (the longest) is
/// the game, and the rest the text the command was not given. Typed, it runs so (a `TitleReading`) when no other game
/// of the shelves has that name and none of the catalog a longer one ("hades ii is hard" with only Hades on the
/// shelves); otherwise those games are returned, to be offered. Where no name starts it, the games whose first words
/// do ("stardew farm plans" for Stardew Valley), those naming the most, are returned, `abbreviated`, to be offered.
/// Nil where none starts it.
private func shelfGameStarting(
    _ text: String, among shelfGames: [Game], _ catalog: any GameCatalog, _ c: GGTrackerBot.Context
) async throws -> (games: [Game], abbreviated: Bool)? {
    let starting = shelfGames.filter { c.invocation.textAfter(name: $0.name) != nil }
    guard let game = starting.max(by: { $0.name.count < $1.name.count }) else {
        let rests = shelfGames.compactMap { game in
            c.invocation.textAfter(name: game.name, abbreviated: true).map {
                (game, CommandInvocation.text(of: $0.value).count)
            }
        }
        guard let shortest = rests.map(\.1).min() else { return nil }
        return (rests.filter { $0.1 == shortest }.map(\.0), true)
    }
    if c.rereadsTheTitle, let rest = c.invocation.textAfter(name: game.name),
        !starting.contains(where: { $0.id != game.id && $0.name.count == game.name.count }),
        try await !namesMore(in: catalog, of: text, than: rest.value)
    {
        var reading = c.invocation
        reading.options["title"] = .game(game.ref)
        reading.options[rest.name] = rest.value
        throw TitleReading(invocation: reading)
    }
    return (starting.filter { $0.name.count == game.name.count }, false)
}

/// Options as an offer names them: "`score:9`", "`status:playing` `hours:5`".
private func namedValues(_ values: [(name: String, value: OptionValue)]) -> RichText {
    values.map { RichText([.code("\($0.name):\(CommandInvocation.text(of: $0.value))")]) }.joined(separator: " ")
}

/// The changes that run the command again on `game` with `values` set.
private func titled(_ game: Game, setting values: [(name: String, value: OptionValue)]) -> [String: OptionValue?] {
    var changes: [String: OptionValue?] = ["title": .string(game.ref.description)]
    for (name, value) in values { changes[name] = value }
    return changes
}
