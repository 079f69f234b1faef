import Foundation

/// `/review`: writing a review of a completed game, marking it as a spoiler, and reading someone's review.
extension LibraryFeatures {
    /// `/review`: only for completed games; without text it opens a form, prefilled with the earlier review.
    /// `spoiler` nil keeps the flag the review had.
    func review(_ title: TitleQuery, text: String?, spoiler: Bool?, _ c: Context) async throws -> Reply {
        let game = try await bot.resolve(title, c, scope: .ownShelves)
        let entry = try await bot.store.library.entry(of: c.player.id, game: game.id)
        guard let entry, entry.status == .completed else {
            let completed: [String: OptionValue] = ["title": .game(game.ref), "status": .status(.completed)]
            let state =
                if let entry {
                    entry.status.yourState
                } else if try await bot.store.library.isWishlisted(c.player.id, game: game.id) {
                    "it is on your wishlist"
                } else {
                    "it is not in your library"
                }
            // Not in the library: the way on is adding it as completed, which /progress would refuse.
            let (command, label): (CommandName, String) =
                entry == nil ? (.add, "Add as completed") : (.progress, "Mark completed")
            return Reply(
                visibility: .invokerOnly,
                text:
                    "You can review \(bold: game.displayName) once you have completed it (\(state)). \(entry == nil ? "Add" : "Mark") it with \(code: "/\(command.rawValue) title:\(game.ref) status:completed").",
                actions: [[Action(label, .run(command, completed))]])
        }
        guard let text else {
            var options: [String: OptionValue] = ["title": .game(game.ref)]
            if let spoiler { options["spoiler"] = .boolean(spoiler) }
            return Reply(
                visibility: .invokerOnly,
                modal: Modal(
                    title: Format.truncate("Review: \(game.name)", 45), .run(.review, options),
                    inputs: [
                        .init(
                            option: "text", label: "Your review", paragraph: true, maxLength: 4000, value: entry.review,
                            placeholder: "What did you think?")
                    ]))
        }
        let now = c.now
        let replaced = entry.review != nil
        let change = try await bot.store.library.updateEntry(
            of: c.player.id, game: game, community: c.invoker.community, at: c.now
        ) { entry in
            guard var current = entry, current.status == .completed else {
                throw ReplyError.notice("Only completed games can be reviewed.")
            }
            guard current.review != text || (spoiler ?? current.reviewIsSpoiler) != current.reviewIsSpoiler else {
                throw ReplyError.notice(
                    "Your review of \(bold: game.displayName) already says that: nothing changed.")
            }
            current.review = text
            current.reviewIsSpoiler = spoiler ?? current.reviewIsSpoiler
            current.reviewedAt = now
            current.updatedAt = now
            entry = current
        }
        guard let saved = change.after else { throw ReplyError.notice("Nothing was saved.") }
        var card = entryCard(
            "\(c.player.shownName) \(replaced ? "updated their review of" : "reviewed") \(game.displayName)", saved, c)
        card.description = reviewText(saved, limit: 3800) + "\n\n" + (card.description ?? "")
        var reply = Reply(cards: [card], actions: revealAction(of: saved, by: c.player.id, c))
        reply.announcements = try await bot.announcements(reply.cards, about: saved.game, c)
        return try await announcing(reply, change, c)
    }

    /// `/review … by:@member`: that member's review of the game, shown only to the caller and never hidden (they
    /// asked to read it).
    func showReview(_ title: TitleQuery, by user: UserMention, _ c: Context) async throws -> Reply {
        let author = try await bot.targetPlayer(user, c)
        let game = try await bot.resolve(title, c, showsOnly: true)
        guard let entry = try await bot.store.library.entry(of: author.id, game: game.id), let review = entry.review
        else {
            return .notice(
                "\(author.id == c.player.id ? "You have" : "\(author.shownName) has") not reviewed \(bold: game.displayName)."
            )
        }
        var card = entryCard("\(author.shownName)'s review of \(game.displayName)", entry, c)
        card.description = RichText(Format.truncate(review, 3800)) + "\n\n" + (card.description ?? "")
        return Reply(visibility: .invokerOnly, cards: [card])
    }

    /// A review as a card shows it: hidden until clicked when it is a spoiler.
    func reviewText(_ entry: LibraryEntry, limit: Int) -> RichText {
        guard let review = entry.review else { return RichText() }
        let shown = Format.truncate(review, limit)
        return entry.reviewIsSpoiler ? "\(spoiler: shown)" : RichText(shown)
    }

    /// Where a platform cannot hide words behind a click, a spoiler review comes with a button that shows it to
    /// whoever presses it, privately.
    func revealAction(of entry: LibraryEntry, by author: PlayerID, _ c: Context) -> [[Action]] {
        guard entry.reviewIsSpoiler, entry.review != nil, !c.invoker.platform.hidesSpoilers else { return [] }
        return [
            [
                Action(
                    "Show review",
                    .run(
                        .review,
                        ["title": .game(entry.game.ref), "by": .user(UserMention(id: author.platformUserID))]))
            ]
        ]
    }
}

extension ChatPlatform {
    /// Whether the platform's messages can hide words until clicked (Discord's `||…||`, Matrix's
    /// `data-mx-spoiler`); Slack's cannot.
    package var hidesSpoilers: Bool { self != .slack }
}
