import Foundation

/// What several areas' features build their replies with.
extension GGTrackerBot {
    /// Platforms and genres of a game on one short line.
    package static func oneLine(_ game: Game) -> String {
        var parts: [String] = []
        if !game.platforms.isEmpty {
            let platforms = Format.platforms(game.platforms)
            parts.append(
                platforms.prefix(4).joined(separator: ", ") + (platforms.count > 4 ? " +\(platforms.count - 4)" : ""))
        }
        if !game.genres.isEmpty { parts.append(game.genres.prefix(3).joined(separator: ", ")) }
        if let critic = game.criticScore { parts.append("critics \(critic.score)") }
        return parts.isEmpty ? "—" : parts.joined(separator: " · ")
    }

    /// Previous/next buttons that re-run the command for another page. A list of a player's shelf names the
    /// player, so that someone else pressing the button pages through the same list, not their own.
    func pager<T>(_ page: Page<T>, _ c: Context, owner: Player? = nil) -> [[Action]] {
        guard page.pageCount > 1 else { return [] }
        func command(_ number: Int) -> CommandInvocation {
            var changes: [String: OptionValue?] = ["page": .integer(number)]
            if let owner { changes["user"] = .user(UserMention(id: owner.id.platformUserID)) }
            return rerun(c, changes)
        }
        return [
            [
                Action("◀ Previous", command(page.page - 1), disabled: page.page <= 1),
                Action("Page \(page.page)/\(page.pageCount)", command(page.page), disabled: true),
                Action("Next ▶", command(page.page + 1), disabled: page.page >= page.pageCount),
            ]
        ]
    }

    /// The answer to a page past the end of a list that has games: where the list ends. Nil for any other page,
    /// and for an empty list (whose own message says so).
    func pastTheLastPage<T>(_ page: Page<T>) -> Reply? {
        guard page.page > 1, page.items.isEmpty, page.total > 0 else { return nil }
        return .notice(
            "There is no page \(page.page): the list has \(Format.count(page.pageCount, "page")) (\(Format.count(page.total, "game")))."
        )
    }

    /// Where the command's news is announced: its server's announce channel; from a direct message with the bot,
    /// those of the servers the player is a member of (read only then).
    func announceTargets(_ c: Context) async throws -> [AnnounceTarget] {
        if c.invoker.isDirectMessage { return try await store.social.announceChannels(ofMember: c.invoker.player) }
        return c.settings.announceTarget(in: c.invoker.community).map { [$0] } ?? []
    }

    /// The same cards for the announce channels of `targets` that take news of `game`: news of a mature game goes
    /// only where the server's age gate is off, as `/activity` shows it only there (or in age-restricted channels).
    func announcements(_ cards: [Card], about game: Game?, to targets: [AnnounceTarget]) -> [Announcement] {
        targets.filter { $0.takes(game) }.map { Announcement(to: $0, cards: cards) }
    }

    /// `announcements(_:about:to:)` to the command's announce channels.
    func announcements(_ cards: [Card], about game: Game?, _ c: Context) async throws -> [Announcement] {
        announcements(cards, about: game, to: try await announceTargets(c))
    }
}

extension Format {
    /// A game's platforms as a reader looks for one: by name, numbers in their order, so a maker's come together
    /// ("Nintendo Switch, Nintendo Switch 2, PC (Microsoft Windows), PlayStation 4, PlayStation 5"). Catalogs list
    /// them in no order a person would know.
    package static func platforms(_ platforms: [String]) -> [String] {
        guard platforms.count > 1 else { return platforms }
        // Sorted by a key each is given once: lower case, each run of digits padded to eight.
        func key(_ name: String) -> String {
            var key = ""
            var digits = ""
            func padDigits() {
                guard !digits.isEmpty else { return }
                key += String(repeating: "0", count: max(0, 8 - digits.count)) + digits
                digits = ""
            }
            for character in name.lowercased() {
                if character.isASCII, character.isNumber {
                    digits.append(character)
                } else {
                    padDigits()
                    key.append(character)
                }
            }
            padDigits()
            return key
        }
        return platforms.map { (key($0), $0) }.sorted { ($0.0, $0.1) < ($1.0, $1.1) }.map(\.1)
    }
}
