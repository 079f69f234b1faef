import Foundation

/// A player's own entries: `/add`, `/progress`, `/rate`, `/review`, `/favorite`, `/tag`, `/note`, `/remove`.
struct LibraryFeatures: Sendable {
    typealias Context = GGTrackerBot.Context
    let bot: GGTrackerBot

    /// A public card about one library change, with the game's cover.
    func entryCard(_ headline: String, _ entry: LibraryEntry, _ c: Context, extra: String? = nil) -> Card {
        var description = Self.facts(entry)
        if let extra { description += "\n" + extra }
        return Card(
            title: Format.truncate(headline, 256), url: entry.game.url, description: RichText(description),
            thumbnailURL: entry.game.thumbnailURL, footer: entry.game.ref.description, color: Palette.library)
    }

    /// "✅ Completed · 40 h · ★★★★½ 9/10": where an entry stands, on one line.
    static func facts(_ entry: LibraryEntry) -> String {
        var facts = ["\(entry.status.emoji) \(entry.status.label)"]
        if let hours = Format.played(entry.hours) { facts.append(hours) }
        if let percent = entry.percent, percent > 0, entry.status != .completed { facts.append("\(percent)%") }
        if let score = entry.score { facts.append("\(Format.stars(score)) \(score)/10") }
        if entry.favorite { facts.append("⭐ favorite") }
        return facts.joined(separator: " · ")
    }

    /// The caller's name for message text, where markdown renders (card titles are plain text and take it raw).
    var invokerName: (Context) -> String { { $0.player.shownName } }

    /// `/add`: puts a game in the caller's library (taking it off the wishlist).
    func add(_ title: TitleQuery, status: GameStatus, hours: Double?, _ c: Context) async throws -> Reply {
        let game = try await bot.resolve(title, c)
        let now = c.now
        let existing = try await bot.store.library.entry(of: c.player.id, game: game.id)
        if let existing {
            // The button makes the change the caller asked for, else offers the next step for the entry.
            var change: [String: OptionValue] = ["title": .game(game.ref)]
            var asked: [String] = []
            if c.invocation.options["status"] != nil && status != existing.status {
                change["status"] = .status(status)
                asked.append(status.label)
            }
            if let hours, hours != existing.hours {
                change["hours"] = .number(hours)
                asked.append(Format.hours(hours))
            }
            let button: Action? =
                if !asked.isEmpty {
                    Action("Set to \(asked.joined(separator: " · "))", .run(.progress, change), style: .primary)
                } else if existing.status != .completed {
                    Action(
                        "Mark completed", .run(.progress, ["title": .game(game.ref), "status": .status(.completed)]))
                } else if existing.review == nil {
                    Action("Write a review", .run(.review, ["title": .game(game.ref)]))
                } else {
                    nil
                }
            return Reply(
                visibility: .invokerOnly,
                text:
                    "\(bold: game.displayName) is already in your library (\(existing.status.emoji) \(existing.status.label)). Use \(code: "/progress") to change it.",
                actions: button.map { [[$0]] } ?? [])
        }
        let change = try await bot.store.library.updateEntry(
            of: c.player.id, game: game, community: c.invoker.community, at: c.now
        ) { entry in
            guard entry == nil else {
                throw ReplyError.notice("\(bold: game.displayName) is already in your library.")
            }
            var new = LibraryEntry(game: game, status: status, at: now)
            new.hours = hours
            entry = new
        }
        guard let saved = change.after else { throw ReplyError.notice("Nothing was saved.") }
        var actions: [Action] = []
        if status == .completed {
            actions.append(Action("Write a review", .run(.review, ["title": .game(game.ref)]), style: .primary))
        } else {
            if status != .playing {
                actions.append(
                    Action("Start playing", .run(.progress, ["title": .game(game.ref), "status": .status(.playing)])))
            }
            actions.append(
                Action("Mark completed", .run(.progress, ["title": .game(game.ref), "status": .status(.completed)])))
        }
        let headline =
            status == .completed
            ? "\(c.player.shownName) completed \(game.displayName) 🎉"
            : "\(c.player.shownName) added \(game.displayName)"
        let extra = [
            c.invocation.options["status"] == nil && status == .playing
                ? "Added as playing, since you have played it." : nil,
            change.leftWishlist ? "Taken off \(invokerName(c))'s wishlist." : nil,
        ].compactMap { $0 }.joined(separator: " ")
        return try await announcing(
            Reply(cards: [entryCard(headline, saved, c, extra: extra.isEmpty ? nil : extra)], actions: [actions]),
            change, c)
    }

    /// `/progress` of a game with nothing to change: where it stands, privately, with a button for each other
    /// status and how to give hours or a percent.
    func askProgress(_ game: Game, _ c: Context) async throws -> Reply {
        guard let entry = try await bot.store.library.entry(of: c.player.id, game: game.id) else {
            throw NotInLibrary(player: c.player.id, game: game)
        }
        let statuses = GameStatus.allCases.filter { $0 != entry.status }.map { status in
            Action(
                "\(status.emoji) \(status.label)",
                .run(.progress, ["title": .game(game.ref), "status": .status(status)]))
        }
        return Reply(
            visibility: .invokerOnly,
            text:
                "\(bold: game.displayName): \(Self.facts(entry)). Where are you with it? Pick a status, or give hours or a percent: \(code: "/progress title:\(game.ref) hours:12 percent:50").",
            actions: [statuses])
    }

    /// `/progress`: status, hours and percent of a game already in the library.
    func progress(
        _ title: TitleQuery, status: GameStatus?, hours: PlayedHours?, percent: PercentDone?, _ c: Context
    ) async throws -> Reply {
        let game = try await bot.resolve(title, c, scope: .ownShelves)
        guard status != nil || hours != nil || percent != nil else { return try await askProgress(game, c) }
        let now = c.now
        // Added with the status a percent implies (100% is completed), as `/add` takes no percent.
        let addedAs: GameStatus? =
            status
            ?? percent.flatMap { $0.total(after: nil) }.flatMap { $0 == 100 ? .completed : $0 > 0 ? .playing : nil }
        let addedHours = hours.flatMap { $0.total(after: nil) }.flatMap { $0 > 0 ? OptionValue.number($0) : nil }
        let notInLibrary = NotInLibrary(
            player: c.player.id, game: game,
            add: ["status": addedAs.map { .status($0) }, "hours": addedHours].compactMapValues { $0 })
        let change = try await bot.store.library.updateEntry(
            of: c.player.id, game: game, community: c.invoker.community, at: c.now
        ) { entry in
            guard var current = entry else { throw notInLibrary }
            let before = current
            let total = hours?.total(after: current.hours)
            let share = percent?.total(after: current.percent ?? (current.status == .completed ? 100 : nil))
            if let total, total > PlayedHours.most {
                throw ReplyError.notice(
                    "\(bold: game.displayName) has \(Format.hours(current.hours ?? 0)): \(Format.hours(total)) would be more than the \(Format.hours(PlayedHours.most)) a game holds."
                )
            }
            if let next = status ?? current.statusImplied(hours: total, percent: share) {
                current.setStatus(next, at: now)
            }
            if let total { current.hours = total }
            if let share { current.percent = share }
            // What it already was: said privately, nothing posted or written.
            guard current != before else {
                throw ReplyError.notice(
                    "\(bold: game.displayName) is already \(Self.facts(current)): nothing changed.")
            }
            current.updatedAt = now
            entry = current
        }
        guard let saved = change.after else { throw notInLibrary }
        let headline: String
        if saved.status != change.before?.status {
            switch saved.status {
            case .completed: headline = "\(c.player.shownName) completed \(game.displayName) 🎉"
            case .playing: headline = "\(c.player.shownName) is playing \(game.displayName)"
            case .dropped: headline = "\(c.player.shownName) dropped \(game.displayName)"
            case .paused: headline = "\(c.player.shownName) paused \(game.displayName)"
            case .backlog: headline = "\(c.player.shownName) put \(game.displayName) back on the backlog"
            }
        } else {
            headline = "\(c.player.shownName) updated \(game.displayName)"
        }
        var actions: [Action] = []
        if saved.status == .completed && saved.review == nil {
            actions.append(Action("Write a review", .run(.review, ["title": .game(game.ref)]), style: .primary))
        }
        // A status nobody asked for is explained.
        var implied: String? =
            status == nil && saved.status != change.before?.status
            ? (saved.status == .completed
                ? "Marked completed at 100%."
                : "Moved from the backlog to playing, now that you have started.") : nil
        let said = [
            saved.hours.flatMap { hours?.said(total: $0) }, saved.percent.flatMap { percent?.said(share: $0) }, implied,
        ]
        .compactMap { $0 }
        implied = said.isEmpty ? nil : said.joined(separator: " ")
        return try await announcing(
            Reply(cards: [entryCard(headline, saved, c, extra: implied)], actions: actions.isEmpty ? [] : [actions]),
            change, c)
    }

    /// `/rate`: a score 1–10; a game not yet in the library is added as completed, and the reply says so.
    func rate(_ title: TitleQuery, score: Int?, _ c: Context) async throws -> Reply {
        let game = try await bot.resolve(title, c, scope: .ownShelves)
        // Typed without a score: the scores to pick from, and the one it has.
        guard let score else {
            let current = try await bot.store.library.entry(of: c.player.id, game: game.id)?.score
            let now = current.map { " It has \(Format.stars($0)) \($0)/10." } ?? ""
            return Reply(
                visibility: .invokerOnly, text: "How do you rate \(bold: game.displayName)?\(now) Pick a score:",
                menus: [GGTrackerBot.rateMenu(game.ref, score: current)])
        }
        let now = c.now
        let change = try await bot.store.library.updateEntry(
            of: c.player.id, game: game, community: c.invoker.community, at: c.now
        ) { entry in
            var current = entry ?? LibraryEntry(game: game, status: .completed, at: now)
            if entry != nil, current.score == score {
                throw ReplyError.notice(
                    "You already rated \(bold: game.displayName) \(Format.stars(score)) \(score)/10: nothing changed.")
            }
            current.score = score
            current.updatedAt = now
            entry = current
        }
        guard let saved = change.after else { throw ReplyError.notice("Nothing was saved.") }
        let extra =
            change.before == nil
            ? "Added to \(invokerName(c))'s library as completed"
                + (change.leftWishlist ? ", and taken off the wishlist." : ".") : nil
        let reply = Reply(
            cards: [
                entryCard(
                    "\(c.player.shownName) rated \(game.displayName) \(Format.stars(score))", saved, c, extra: extra)
            ])
        return try await announcing(reply, change, c)
    }

    /// `/favorite`: toggles the flag on a library entry.
    func favorite(_ title: TitleQuery, _ c: Context) async throws -> Reply {
        let game = try await bot.resolve(title, c, scope: .ownShelves)
        let now = c.now
        let saved = try await bot.store.library.updateEntry(
            of: c.player.id, game: game, community: c.invoker.community, at: c.now
        ) { entry in
            guard var current = entry else { throw NotInLibrary(player: c.player.id, game: game) }
            current.favorite.toggle()
            current.updatedAt = now
            entry = current
        }.after
        guard let saved else { throw NotInLibrary(player: c.player.id, game: game) }
        if saved.favorite {
            return Reply(cards: [entryCard("⭐ \(c.player.shownName) favorited \(game.displayName)", saved, c)])
        }
        return .notice("\(bold: game.displayName) is no longer a favorite.")
    }

    /// `/tag`: adds and removes tags; with no change it shows the game's tags.
    func tag(_ title: TitleQuery, changes: [TagChange], _ c: Context) async throws -> Reply {
        let game = try await bot.resolve(title, c, scope: .ownShelves)
        guard !changes.isEmpty else {
            guard let entry = try await bot.store.library.entry(of: c.player.id, game: game.id) else {
                throw NotInLibrary(player: c.player.id, game: game)
            }
            return .notice(
                "Tags on \(bold: game.displayName): "
                    + (entry.tags.isEmpty
                        ? "none yet. Add some with \(code: "/tag title:\(game.ref) tags:roguelike, couch")."
                        : entry.tags.map { "\(code: "\($0)")" }.joined(separator: ", ")))
        }
        let now = c.now
        let change = try await bot.store.library.updateEntry(
            of: c.player.id, game: game, community: c.invoker.community, at: c.now
        ) { entry in
            guard var current = entry else { throw NotInLibrary(player: c.player.id, game: game) }
            var tags = BotCommand.bareTags(current.tags)
            for change in changes {
                switch change {
                case .add(let tag) where !tags.contains(tag): tags.append(tag)
                case .remove(let tag): tags.removeAll { $0 == tag }
                default: break
                }
            }
            guard tags.count <= BotCommand.maxTags else {
                throw ReplyError.notice(
                    "A game can have at most \(BotCommand.maxTags) tags; this would make \(tags.count). Nothing was changed."
                )
            }
            current.tags = tags
            current.updatedAt = now
            entry = current
        }
        return .notice(
            Self.tagsChanged(
                game, before: BotCommand.bareTags(change.before?.tags ?? []), after: change.after?.tags ?? [],
                changes))
    }

    /// What a `/tag` did, then the tags now: "Added `co-op`. `couch` was not among them. Tags on **Hades**: …".
    static func tagsChanged(_ game: Game, before: [String], after: [String], _ changes: [TagChange]) -> RichText {
        func list(_ tags: [String]) -> RichText { tags.map { "\(code: $0)" }.joined(separator: ", ") }
        func be(_ tags: [String]) -> String { tags.count == 1 ? "was" : "were" }
        var wanted: [String] = []
        var unwanted: [String] = []
        for change in changes {
            switch change {
            case .add(let tag): wanted.append(tag)
            case .remove(let tag): unwanted.append(tag)
            }
        }
        var sentences: [RichText] = []
        let added = after.filter { !before.contains($0) }
        let removed = before.filter { !after.contains($0) }
        if !added.isEmpty { sentences.append("Added " + list(added) + ".") }
        if !removed.isEmpty { sentences.append("Removed " + list(removed) + ".") }
        let there = wanted.filter { before.contains($0) && !unwanted.contains($0) }
        if !there.isEmpty { sentences.append(list(there) + " \(be(there)) there already.") }
        let absent = unwanted.filter { !before.contains($0) }
        if !absent.isEmpty { sentences.append(list(absent) + " \(be(absent)) not among them.") }
        sentences.append(
            after.isEmpty
                ? "\(bold: game.displayName) has no tags now." : "Tags on \(bold: game.displayName): " + list(after))
        return sentences.joined(separator: " ")
    }

    /// `/note`: a note on an entry; without text it shows the note privately, `clear:true` deletes it.
    func note(_ title: TitleQuery, text: String?, clear: Bool, _ c: Context) async throws -> Reply {
        let game = try await bot.resolve(title, c, scope: .ownShelves)
        let now = c.now
        if text == nil && !clear {
            guard let entry = try await bot.store.library.entry(of: c.player.id, game: game.id) else {
                throw NotInLibrary(player: c.player.id, game: game)
            }
            guard let note = entry.note else {
                return .notice(
                    "You have no note on \(bold: game.displayName). Write one with \(code: "/note title:\(game.ref) text:…")."
                )
            }
            return Reply(
                visibility: .invokerOnly, text: "Your note on \(bold: game.displayName):",
                cards: [Card(description: RichText(note), footer: game.ref.description, color: Palette.library)],
                actions: [
                    [Action("Delete the note", .run(.note, ["title": .game(game.ref), "clear": true]), style: .danger)]
                ])
        }
        try await bot.store.library.updateEntry(of: c.player.id, game: game, community: c.invoker.community, at: c.now)
        {
            entry in
            guard var current = entry else { throw NotInLibrary(player: c.player.id, game: game) }
            // Clearing a note that is not there changes nothing and says so.
            if text == nil, current.note == nil {
                throw ReplyError.notice("You have no note on \(bold: game.displayName): there was nothing to clear.")
            }
            current.note = text
            current.updatedAt = now
            entry = current
        }
        return .notice(
            text == nil
                ? "Cleared your note on \(bold: game.displayName)."
                : "Saved your note on \(bold: game.displayName).")
    }

    /// What a removal takes with the entry, as the question names it: ", with your score, 12 h, review and note",
    /// or nothing for a bare entry.
    static func whatGoesWith(_ entry: LibraryEntry) -> String {
        var parts: [String] = []
        if entry.score != nil { parts.append("score") }
        if let hours = entry.hours, hours > 0 { parts.append(Format.hours(hours)) }
        if entry.review != nil { parts.append("review") }
        if !entry.tags.isEmpty { parts.append(entry.tags.count == 1 ? "tag" : "tags") }
        if entry.note != nil { parts.append("note") }
        return parts.isEmpty ? "" : ", with your " + Format.sentence(parts)
    }

    /// `/remove`: asks for confirmation with a button, then removes from library and wishlist.
    func remove(_ title: TitleQuery, confirmed: Bool, _ c: Context) async throws -> Reply {
        let game = try await bot.resolve(title, c, scope: .ownShelves)
        let nowhere: RichText = "\(bold: game.displayName) is neither in your library nor on your wishlist."
        guard confirmed else {
            let entry = try await bot.store.library.entry(of: c.player.id, game: game.id)
            let wishlisted = try await bot.store.library.isWishlisted(c.player.id, game: game.id)
            guard entry != nil || wishlisted else { return .notice(nowhere) }
            let what = entry.map { "your library" + Self.whatGoesWith($0) } ?? "your wishlist"
            return Reply(
                visibility: .invokerOnly,
                text: "Remove \(bold: game.displayName) from \(what)? This cannot be undone.",
                actions: [
                    [Action("Remove it", .run(.remove, ["title": .game(game.ref), "confirm": true]), style: .danger)]
                ])
        }
        let removed = try await bot.store.library.removeEverywhere(c.player.id, game: game.id, at: c.now)
        guard removed.library || removed.wishlist else {
            // A second press of the button finds it gone; a typed confirmation may name a game never there.
            return .notice(c.invocation.fromComponent ? "\(bold: game.displayName) was already gone." : nowhere)
        }
        var text: RichText = "Removed \(bold: game.displayName) from your \(removed.library ? "library" : "wishlist")."
        for lost in removed.medalsTakenBack {
            text += " Your medal in “\(lost)” goes with it, as its goal is no longer reached."
        }
        return Reply(
            visibility: .invokerOnly, delivery: c.invocation.fromComponent ? .updateMessage : .newMessage, text: text)
    }
}
