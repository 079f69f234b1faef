import Foundation

/// Between players: `/compare`, `/leaderboard`, friends, `/activity`, `/share`.
struct SocialFeatures: Sendable {
    typealias Context = GGTrackerBot.Context
    let bot: GGTrackerBot

    /// `/compare`: shared games, a compatibility score, finished-versus-wishlisted, the biggest disagreement.
    func compare(_ user: UserMention?, with other: UserMention?, _ c: Context) async throws -> Reply {
        // Typed without a member: the ones seen here last, to pick from.
        guard let user else {
            let members = try await bot.store.social.recentMembers(
                of: c.invoker.community, except: c.player.id, limit: 5)
            return Self.pick(
                members, "Compare your library with whom?",
                none:
                    "No one else here has used GGTracker yet: once a friend has, \(code: "/compare user:@friend") compares your libraries."
            ) { .run(.compare, $0) }
        }
        let named = try await bot.targetPlayer(user, c)
        let paired = try await bot.targetPlayer(other, c)
        // "/compare user:@bob" puts you first, as you asked it; two members named, in the order named.
        let (left, right) = other == nil ? (paired, named) : (named, paired)
        guard left.id != right.id else {
            return .notice(
                "Comparing a library with itself always agrees. Pick someone else: \(code: "/compare user:@friend").")
        }
        let comparison = try await bot.store.social.compare(left.id, right.id)
        for (player, count) in [(left, comparison.leftCount), (right, comparison.rightCount)] where count == 0 {
            return .notice(
                player.id == c.player.id
                    ? "You have no games in your library yet, so there is nothing to compare. Add one with \(code: "/add")."
                    : "\(player.shownName) has no games in their library yet, so there is nothing to compare.")
        }
        // Words for the pair: the caller is addressed when they are one of the two.
        let both = left.id == c.player.id || right.id == c.player.id ? "you both" : "both"
        let l = left.shownName
        let r = right.shownName
        var fields: [Card.Field] = []
        let rated = comparison.bothRated
        if let compatibility = comparison.compatibility {
            fields.append(
                .init(
                    "Compatibility",
                    "\(bold: "\(compatibility)%") over \(rated.count) game\(rated.count == 1 ? "" : "s") \(both) rated",
                    inline: false))
        } else {
            fields.append(
                .init("Compatibility", "No game rated by both yet: \(code: "/rate") some shared games.", inline: false))
        }
        // The score counts every game; the games named are those this channel may show.
        let shown = c.showsMature ? comparison : comparison.withoutMature()
        let hidden = comparison.shared.count - shown.shared.count
        if !comparison.shared.isEmpty {
            // The games both rated first, those they liked most together first; then those one of them rated.
            let shared = shown.shared.map { item in
                let scores = [item.left.score, item.right.score].compactMap { $0 }
                return (item: item, key: (-scores.count, -scores.reduce(0, +), item.game.displayName.lowercased()))
            }.sorted { $0.key < $1.key }.map(\.item)
            let lines = shared.prefix(10).map { item in
                let scores = [item.left.score, item.right.score].map { $0.map(String.init) ?? "–" }.joined(
                    separator: " vs ")
                return "• \(item.game.displayName) — \(scores)"
            }
            var more = shared.count > 10 ? "\n…and \(shared.count - 10) more" : ""
            if hidden > 0 { more += (lines.isEmpty ? "" : "\n") + "\(hidden) age-restricted hidden" }
            fields.append(
                .init("Both have (\(comparison.shared.count))", lines.joined(separator: "\n") + more, inline: false))
        }
        if let gap = shown.biggestDisagreement {
            fields.append(
                .init(
                    "Biggest disagreement",
                    "\(gap.game.displayName): \(l) \(Format.stars(gap.left)) vs \(r) \(Format.stars(gap.right))",
                    inline: false))
        }
        for (finisher, wisher, games) in [
            (l, r, shown.leftFinishedRightWants), (r, l, shown.rightFinishedLeftWants),
        ] where !games.isEmpty {
            fields.append(
                .init(
                    "\(finisher) finished what \(wisher) wants",
                    Format.truncate(
                        games.prefix(8).map { $0.displayName }.joined(separator: ", "), 1024),
                    inline: false))
        }
        return Reply(
            cards: [
                Card(
                    title: "\(left.shownName) vs \(right.shownName)", fields: fields,
                    footer:
                        "\(l) \(Format.count(comparison.leftCount, "game")) · \(r) \(Format.count(comparison.rightCount, "game")) · /help command:compare explains the score",
                    color: Palette.profile)
            ])
    }

    /// `/leaderboard`: the server's ranking, ties sharing a rank, the caller's own rank even outside the top 10.
    func leaderboard(_ metric: LeaderboardMetric, _ period: Period, _ c: Context) async throws -> Reply {
        let values = try await bot.store.social.leaderboard(
            in: c.invoker.community, metric: metric, since: period.start(before: c.now))
        let rows = LeaderboardRow.ranked(values.filter { $0.1 > 0 })
        guard !rows.isEmpty else {
            return .notice("Nobody here has \(metric.label)\(period.within) yet.")
        }
        func value(_ v: Double) -> String { metric == .hours ? Format.hours(v) : Format.number(Int(v)) }
        var lines = rows.prefix(10).map { row -> RichText in
            let medal: RichText = row.rank <= 3 ? RichText(["🥇", "🥈", "🥉"][row.rank - 1]) : "\(code: "\(row.rank).")"
            let me = row.player.id == c.player.id ? " ← you" : ""
            return "\(medal) \(row.player.shownName) — \(bold: value(row.value))\(me)"
        }
        if let position = rows.firstIndex(where: { $0.player.id == c.player.id }), position >= 10 {
            let mine = rows[position]
            // An ellipsis only where rows are left out between the top 10 and the caller.
            let gap = position > 10 ? "…\n" : ""
            lines.append("\(gap)\(code: "\(mine.rank).") \(mine.player.shownName) — \(bold: value(mine.value)) ← you")
        } else if !rows.contains(where: { $0.player.id == c.player.id }) {
            lines.append((rows.count > 10 ? "…\n" : "") + "You: no \(metric.label)\(period.within) yet.")
        }
        return Reply(
            cards: [
                Card(
                    title: "Leaderboard: \(metric.label), \(period.label)", description: lines.joined(separator: "\n"),
                    footer: "\(rows.count) member\(rows.count == 1 ? "" : "s") ranked", color: Palette.profile)
            ])
    }

    /// Members to pick from for a typed command that named none, a button each running `command` with the member
    /// as its `user`; `none` when there is no one to offer.
    static func pick(
        _ members: [Player], _ question: RichText, none: RichText,
        _ command: ([String: OptionValue]) -> CommandInvocation
    ) -> Reply {
        guard !members.isEmpty else { return .notice(none) }
        return Reply(
            visibility: .invokerOnly, text: question,
            actions: [
                members.prefix(5).map { member in
                    Action(
                        Format.truncate(member.shownName, 80),
                        command(["user": .user(UserMention(id: member.id.platformUserID))]))
                }
            ])
    }

    /// `/friend add|remove|list`.
    func friendAdd(_ user: UserMention?, _ c: Context) async throws -> Reply {
        // Typed without a member: those seen here last whom the caller does not follow yet.
        guard let user else {
            let followed = Set(try await bot.store.social.friends(of: c.player.id).map(\.id))
            let members = try await bot.store.social.recentMembers(
                of: c.invoker.community, except: c.player.id, limit: 5 + followed.count)
            return Self.pick(
                members.filter { !followed.contains($0.id) },
                "Follow whom? Their news comes first in \(code: "/activity").",
                none: members.isEmpty
                    ? "No one else here has used GGTracker yet: once a friend has, you can follow them."
                    : "You already follow everyone seen here: \(code: "/friend list") shows them."
            ) { .run(.friend, "add", $0) }
        }
        let friend = try await bot.targetPlayer(
            user, c, otherwise: "so there is no one to follow yet: once they use a command here, you can")
        guard friend.id != c.player.id else { return .notice("You are always your own friend. Pick someone else.") }
        let added = try await bot.store.social.addFriend(c.player.id, friend.id, at: c.now)
        return .notice(
            added
                ? "You now follow \(friend.shownName); their news comes first in \(code: "/activity")."
                : "You already follow \(friend.shownName).")
    }

    func friendRemove(_ user: UserMention?, _ c: Context) async throws -> Reply {
        guard let user else {
            return Self.pick(
                try await bot.store.social.friends(of: c.player.id), "Stop following whom?",
                none: "You follow nobody yet. \(code: "/friend add user:@someone")."
            ) { .run(.friend, "remove", $0) }
        }
        let friend = try await bot.targetPlayer(user, c, otherwise: "so you do not follow them")
        let removed = try await bot.store.social.removeFriend(c.player.id, friend.id)
        return .notice(
            removed
                ? "You no longer follow \(friend.shownName)."
                : "You were not following \(friend.shownName).")
    }

    func friendList(_ c: Context) async throws -> Reply {
        let friends = try await bot.store.social.friends(of: c.player.id)
        guard !friends.isEmpty else { return .notice("You follow nobody yet. \(code: "/friend add user:@someone").") }
        return Reply(
            visibility: .invokerOnly,
            cards: [
                Card(
                    title: "Friends you follow (\(friends.count))",
                    description: friends.map { "• \($0.shownName)" }.joined(separator: "\n"),
                    color: Palette.profile)
            ])
    }

    /// `/activity`: the server's recent events, friends' first.
    func activity(user: UserMention?, _ c: Context) async throws -> Reply {
        let player = try await user.asyncMap { try await bot.targetPlayer($0, c) }
        // Enough events for 15 lines when several of them tell one game's news together.
        let events = try await bot.store.social.activity(
            in: c.invoker.community, of: player?.id, friendsOf: c.player.id, limit: 60)
        guard !events.isEmpty else {
            return .notice(
                player.map { "\($0.shownName) has no news here yet." } ?? "No news in this server yet.")
        }
        let shown = events.filter { event in event.game.map { !$0.isMature || c.showsMature } ?? true }
        let lines = ActivityLine.lines(shown).prefix(15).map { item -> RichText in
            var line: RichText = "\(item.emoji) \(bold: item.player.shownName) \(item.verbs)"
            if let game = item.game { line += RichText(" " + game.displayName) }
            if let challenge = item.detail { line += RichText(" “\(challenge)”") }
            if let score = item.score { line += RichText(" " + Format.stars(score)) }
            return line + " · \(relative: item.at)"
        }
        // Which news comes first matters only in the whole server's feed.
        var footer: String?
        if player == nil {
            footer =
                try await bot.store.social.friends(of: c.player.id).isEmpty
                ? "/friend add puts a friend's news first" : "Friends you follow come first"
        }
        return Reply(
            cards: [
                Card(
                    title: player.map { "\($0.shownName)'s news" } ?? "What's new here",
                    description: lines.joined(separator: "\n"), footer: footer, color: Palette.profile)
            ])
    }

    /// `/share`: a link to a read-only page of the caller's library; `revoke:true` turns it off.
    func share(revoke: Bool, _ c: Context) async throws -> Reply {
        if revoke {
            let revoked = try await bot.store.social.revokeShareToken(of: c.player.id)
            return .notice(
                revoked ? "Your share link is off; the old address now answers “not found”." : "You had no share link.")
        }
        var token = try await bot.store.social.shareToken(of: c.player.id)
        if token == nil {
            let fresh = Self.newShareToken()
            try await bot.store.social.setShareToken(fresh, for: c.player.id, at: c.now)
            token = fresh
        }
        let url = "\(bot.info.publicBaseURL)/u/\(token!)"
        var text: RichText =
            "Here is a read-only page of your library and wishlist: \(url)\nAnyone with the link can see it; \(code: "/share revoke:true") turns it off."
        if c.invoker.platform == .cli { text += "\n\(Self.servedLink)" }
        return Reply(
            visibility: .invokerOnly,
            text: text,
            actions: [[Action("Revoke the link", .run(.share, ["revoke": true]), style: .danger)]])
    }

    /// What a link given in the terminal needs: the server, which the terminal does not run.
    static let servedLink: RichText =
        "The link works while \(code: "ggtracker serve") runs on this database."

    /// 128 random bits, as 32 hex characters.
    static func newShareToken() -> String { randomHex(bytes: 16) }
}

extension Optional {
    func asyncMap<T>(_ transform: (Wrapped) async throws -> T) async rethrows -> T? {
        guard let value = self else { return nil }
        return try await transform(value)
    }
}
