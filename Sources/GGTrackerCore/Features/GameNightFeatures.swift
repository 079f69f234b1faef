import Foundation

/// `/gamenight`: a message people join with a button, then three games from their shelves, and three more.
struct GameNightFeatures: Sendable {
    typealias Context = GGTrackerBot.Context
    let bot: GGTrackerBot

    func gameNight(
        _ action: GameNightAction, mode: GameNightMode?, maxHours: Double?, night id: Int64?, _ c: Context
    ) async throws -> Reply {
        let social = bot.store.social
        switch action {
        case .start:
            try await keepOthersNight(c)
            let night = try await social.openGameNight(
                in: c.invoker.community, channel: Self.channel(c), host: c.player.id, mode: mode ?? .multiplayer,
                maxHours: maxHours, at: c.now)
            return lobby(night, c)
        case .join:
            let (joined, changed) = try await social.joinGameNight(
                try await openNight(id, c).id, player: c.player.id, at: c.now)
            guard changed else { throw ReplyError.notice("You're in already.") }
            return lobby(joined, c)
        case .leave:
            let (left, changed) = try await social.leaveGameNight(try await openNight(id, c).id, player: c.player.id)
            guard changed else { throw ReplyError.notice("You weren't in this game night.") }
            return lobby(left, c)
        case .pick, .reroll:
            let night = try await openNight(id, c)
            guard night.has(c.player.id) else {
                throw ReplyError.notice("Only players who joined can pick: join first, then pick.")
            }
            guard night.players.count >= 2 else {
                throw ReplyError.notice("Picking needs at least 2 players: only you are in so far.")
            }
            // A mode or a length given with a pick changes what the night looks for, from the first proposals.
            let changes = mode != nil || maxHours != nil
            let (advanced, shelves) = try await social.advanceGameNight(
                night.id, first: action == .pick || night.round == 0 || changes, mode: mode, maxHours: maxHours)
            return picks(advanced, shelves: shelves, c)
        }
    }

    /// A night open in this channel that others joined is not replaced by someone else's `/gamenight`: they would
    /// lose it. The answer shows it with its join button instead; its host may start a new one over it, and so may
    /// anyone once its host has waited alone for an hour.
    func keepOthersNight(_ c: Context) async throws {
        guard
            let open = try await bot.store.social.gameNight(id: nil, in: c.invoker.community, channel: Self.channel(c)),
            !open.isClosed, !open.isOver(at: c.now), open.host != c.player.id,
            open.players.contains(where: { $0.id != c.player.id }),
            open.players.count > 1 || c.now.timeIntervalSince(open.createdAt) < 3600
        else { return }
        let names = Format.sentence(open.players.map(\.shownName))
        let joined = open.has(c.player.id) ? " You are in it." : ""
        throw ReplyError(
            Reply(
                visibility: .invokerOnly,
                text:
                    "A game night is already open in this channel, with \(names) in: it stays until it closes \(relative: open.expiresAt), or until whoever started it starts another.\(joined)",
                actions: open.has(c.player.id) ? [] : [[joinAction(open)]]))
    }

    /// Matrix rooms and Slack channels are the channel; a server without one has a single night.
    static func channel(_ c: Context) -> String { c.invoker.channel ?? c.invoker.community }

    /// The night a button (`id`) or a typed command (the channel's latest) acts on, while it is still open.
    func openNight(_ id: Int64?, _ c: Context) async throws -> GameNight {
        guard
            let night = try await bot.store.social.gameNight(
                id: id, in: c.invoker.community, channel: Self.channel(c))
        else {
            let which = id.map { "game night \($0)" } ?? "game night"
            throw ReplyError.notice("There is no \(which) in this channel. Start one with \(code: "/gamenight").")
        }
        guard !night.isClosed else {
            throw ReplyError.notice(
                "This game night was replaced by a newer one in this channel: use that one's buttons.")
        }
        guard !night.isOver(at: c.now) else {
            throw ReplyError.notice(
                "This game night is over (they last 12 hours). Start a new one with \(code: "/gamenight").")
        }
        return night
    }

    /// The buttons of a night's message: join, leave, and pick (or reroll once picked).
    /// I'm in and Leave, then Pick a game before any pick and Reroll after one, when there is more to show.
    func actions(_ night: GameNight, picked: Bool, more: Bool = true) -> [[Action]] {
        let run = { (action: GameNightAction) in Self.command(action, night) }
        var row = [joinAction(night), Action("Leave", run(.leave))]
        if !picked {
            row.append(Action("Pick a game", run(.pick), style: .primary))
        } else if more {
            row.append(Action("Reroll", run(.reroll), style: .primary))
        }
        return [row]
    }

    /// The I'm in button of a night.
    func joinAction(_ night: GameNight) -> Action { Action("I'm in", Self.command(.join, night), style: .success) }

    /// `/gamenight` acting on this night, as its buttons run it; a pick may look for another `mode`.
    static func command(
        _ action: GameNightAction, _ night: GameNight, mode: GameNightMode? = nil
    ) -> CommandInvocation {
        var options: [String: OptionValue] = ["action": .string(action.rawValue), "night": .integer(Int(night.id))]
        if let mode { options["mode"] = .string(mode.rawValue) }
        return .run(.gamenight, options)
    }

    /// "multiplayer games (up to 4 h to beat)".
    static func looksFor(_ night: GameNight) -> String {
        let games = night.mode == .any ? "games of any kind" : "\(night.mode.label) games"
        return games + (night.maxHours.map { " (up to \(Format.hours($0)) to beat)" } ?? "")
    }

    func lobby(_ night: GameNight, _ c: Context) -> Reply {
        let names = night.players.map(\.shownName).joined(separator: ", ")
        let description: RichText =
            "Looking for \(Self.looksFor(night)) on the players' shelves.\n"
            + "\(bold: "In (\(night.players.count)):") \(names.isEmpty ? "nobody yet" : names)\n"
            + "Closes \(relative: night.expiresAt)."
        return Reply(
            delivery: c.invocation.fromComponent ? .updateMessage : .newMessage,
            cards: [
                Card(
                    title: "🎮 Game night — who's in?", description: description,
                    footer: night.players.count < 2
                        ? "Picking needs at least 2 players" : "Anyone who joined can pick a game",
                    color: Palette.catalog)
            ],
            actions: actions(night, picked: false))
    }

    func picks(_ night: GameNight, shelves: [ShelfMark], _ c: Context) -> Reply {
        let ranked = GameProposal.ranked(
            shelves, players: night.players, mode: night.mode, maxHours: night.maxHours, includeMature: c.showsMature)
        let (first, shown) = GameProposal.round(night.round, of: ranked)
        let players = Format.sentence(night.players.map(\.shownName))
        guard !shown.isEmpty else { return nothingFits(night, players: players, c) }
        let fields = shown.enumerated().map { index, proposal in
            Card.Field(
                "\(first + index + 1). \(proposal.game.displayName)", Self.reasons(proposal), inline: false)
        }
        let last = first + shown.count
        let more = ranked.count > shown.count
        let footer =
            !more
            ? (ranked.count == 1 ? "The only game that fits" : "Every game that fits")
            : (shown.count == 1 ? "\(last)" : "\(first + 1)–\(last)") + " of \(Format.count(ranked.count, "game"))"
                + (last < ranked.count ? " · Reroll for the next" : " · Reroll starts over")
        return Reply(
            delivery: c.invocation.fromComponent ? .updateMessage : .newMessage,
            cards: [
                Card(
                    title: "🎲 Tonight's picks", description: "For \(players): \(Self.looksFor(night)).",
                    fields: fields, footer: footer, color: Palette.catalog)
            ],
            actions: actions(night, picked: true, more: more))
    }

    /// No game on the players' shelves fits: a button looks at any kind of game instead (keeping the length), and
    /// the text says how to pick with a longer one, for this night, without starting over.
    func nothingFits(_ night: GameNight, players: String, _ c: Context) -> Reply {
        var ways: [RichText] = []
        var widen: [Action] = []
        if night.mode != .any {
            widen.append(Action("Any kind of game", Self.command(.pick, night, mode: .any), style: .primary))
            ways.append("look at any kind of game (\(code: "/gamenight action:pick mode:any"))")
        }
        if let hours = night.maxHours {
            let longer = Format.number(Int((hours * 2).rounded(.up)))
            ways.append("allow longer games (\(code: "/gamenight action:pick max_hours:\(longer)"))")
        }
        let tryWays: RichText =
            ways.isEmpty
            ? "" : "You may " + ways.joined(separator: " or ") + ", or add games to your libraries and wishlists."
        var rows = actions(night, picked: true, more: false)
        if !widen.isEmpty { rows[0] += widen }
        return Reply(
            delivery: c.invocation.fromComponent ? .updateMessage : .newMessage,
            cards: [
                Card(
                    title: "🎲 Nothing fits tonight",
                    description: "No \(Self.looksFor(night)) on the shelves of \(players). "
                        + (ways.isEmpty
                            ? "Add games to your libraries and wishlists, then pick again." : tryWays),
                    color: Palette.catalog)
            ],
            actions: rows)
    }

    /// Who owns it, who wants it, who finished it, its modes and how long it takes.
    static func reasons(_ proposal: GameProposal) -> RichText {
        func names(_ players: [Player]) -> String { Format.sentence(players.map(\.shownName)) }
        var lines: [String] = []
        if !proposal.owners.isEmpty { lines.append("Owned by \(names(proposal.owners))") }
        if !proposal.wishers.isEmpty { lines.append("Wished for by \(names(proposal.wishers))") }
        let completed = proposal.finished.filter { !proposal.dropped.contains($0) }
        if !completed.isEmpty { lines.append("Already completed by \(names(completed))") }
        if !proposal.dropped.isEmpty { lines.append("Dropped by \(names(proposal.dropped))") }
        var facts: [String] = []
        if !proposal.game.modes.isEmpty { facts.append(proposal.game.modes.joined(separator: ", ")) }
        if let time = proposal.game.timeToBeat.flatMap(Format.timeToBeat) { facts.append(time) }
        if !facts.isEmpty { lines.append(facts.joined(separator: " · ")) }
        return RichText(lines.joined(separator: "\n"))
    }
}
