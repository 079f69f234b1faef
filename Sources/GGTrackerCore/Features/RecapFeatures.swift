import Foundation

/// `/recap`: a player's year in games as a card; the share page shows the same facts.
package struct RecapFeatures: Sendable {
    typealias Context = GGTrackerBot.Context
    let bot: GGTrackerBot

    /// How many finished games the card names.
    static let namedLimit = 15

    func recap(user: UserMention?, year: Int?, _ c: Context) async throws -> Reply {
        let thisYear = Calendar.utcYear(of: c.now)
        let year = year ?? thisYear
        guard YearRecap.isAskable(year, now: c.now) else {
            throw ReplyError.notice(
                "\(year) has not happened yet: give \(code: "year") from 1970 to \(thisYear), or leave it out for this year."
            )
        }
        let player = try await bot.targetPlayer(user, c)
        var recap = try await bot.store.library.recap(of: player.id, year: year)
        var leftOut = 0
        if !c.showsMature { (recap, leftOut) = recap.withoutMature() }
        // The other years with something in them, each a button: the most recent ones where this year is empty, the
        // one before and the one after it beside a recap.
        let others = recap.yearsRecorded.filter { $0 != year }
        func button(_ other: Int, _ label: String) -> Action { Action(label, bot.rerun(c, ["year": .integer(other)])) }
        guard !recap.isEmpty else {
            // Only this year's recap can still fill up.
            let own = player.id == c.player.id
            let thisYear = year == Calendar.utcYear(of: c.now)
            var message: RichText =
                own && thisYear
                ? "Nothing recorded for you in \(year). Log a game with \(code: "/add") or \(code: "/progress") and it counts toward this year's recap."
                : "Nothing recorded for \(own ? "you" : player.shownName) in \(year)."
            guard !others.isEmpty else { return .notice(message) }
            message += " Years with something recorded: \(others.map(String.init).joined(separator: ", "))."
            return Reply(
                visibility: .invokerOnly, text: message,
                actions: [others.suffix(5).reversed().map { button($0, String($0)) }])
        }
        let completions = recap.completions
        var fields: [Card.Field] = []
        if completions.isEmpty {
            fields.append(
                .init("Finished", "No games finished in \(year)\(year == thisYear ? " yet" : "").", inline: false))
        } else {
            var lines = completions.prefix(Self.namedLimit).map { entry in
                "✅ \(Self.dayAndMonth(entry.finishedAt!)) · \(entry.game.name)"
            }
            if completions.count > Self.namedLimit { lines.append("…and \(completions.count - Self.namedLimit) more") }
            fields.append(
                .init(
                    "Finished (\(completions.count))", Format.truncate(lines.joined(separator: "\n"), 1024),
                    inline: false))
            fields.append(.init("By month", RichText.block(Self.monthChart(recap.completionsByMonth)), inline: false))
        }
        for fact in Self.facts(recap) { fields.append(.init(fact.label, fact.value)) }
        fields.append(
            .init(
                "Medals (\(recap.medals.count))",
                recap.medals.isEmpty
                    ? "None this year"
                    : Format.truncate(recap.medals.map { "🏅 \($0.challenge)" }.joined(separator: "\n"), 1024),
                inline: false))
        let token = try await bot.store.social.shareToken(of: player.id)
        var footer = "Counted in UTC"
        if leftOut > 0 { footer += " · \(Format.count(leftOut, "mature game")) left out in this channel" }
        return Reply(
            cards: [
                Card(
                    title: "\(player.shownName)'s \(year) in games",
                    url: token.map { "\(bot.info.publicBaseURL)/u/\($0)/recap/\(year)" },
                    description: RichText(Self.headline(recap)), thumbnailURL: player.avatarURL, fields: fields,
                    footer: footer,
                    color: Palette.profile)
            ],
            actions: [
                [
                    others.last { $0 < year }.map { button($0, "◀ \($0)") },
                    others.first { $0 > year }.map { button($0, "\($0) ▶") },
                ]
                .compactMap { $0 }
            ].filter { !$0.isEmpty })
    }

    /// "4 games finished · 61.5 h played · 2 reviews". Games finished with no hours logged that year (an import
    /// brings dates, not the year's hours) say so rather than "0 h played".
    package static func headline(_ recap: YearRecap) -> String {
        let hours =
            recap.hours == 0 && !recap.completions.isEmpty ? "no hours logged" : "\(Format.hours(recap.hours)) played"
        return "\(Format.count(recap.completions.count, "game")) finished · \(hours) · "
            + Format.count(recap.reviewsWritten, "review")
    }

    /// The year's highlights, labelled: the card's short fields and the share page's list. The hours and the
    /// reviews are in the headline above them.
    package static func facts(_ recap: YearRecap) -> [(label: String, value: String)] {
        var facts: [(String, String)] = []
        if let best = recap.bestRated, let score = best.score {
            facts.append(("Best rated", "\(best.game.name) · \(Format.stars(score)) \(score)/10"))
        }
        if let genres = recap.topGenres {
            // Level genres (one game's several) are named together, up to three.
            let shown = genres.names.prefix(3).joined(separator: ", ")
            let more = genres.names.count > 3 ? " +\(genres.names.count - 3)" : ""
            let amount = genres.hours > 0 ? Format.hours(genres.hours) : Format.count(genres.games, "game")
            facts.append(
                (
                    genres.names.count > 1 ? "Most played genres" : "Most played genre",
                    shown + more + " · " + amount + (genres.names.count > 1 ? " each" : "")
                ))
        }
        let completions = recap.completions
        // With one game finished, the list above already says which and when.
        if completions.count > 1, let first = completions.first {
            facts.append(("First finished", "\(first.game.name) · \(dayAndMonth(first.finishedAt!))"))
        }
        if completions.count > 1, let last = completions.last {
            facts.append(("Last finished", "\(last.game.name) · \(dayAndMonth(last.finishedAt!))"))
        }
        if let longest = recap.longest {
            facts.append(
                ("Longest game", "\(longest.entry.game.name) · \(Format.hours((longest.hours * 2).rounded() / 2))"))
        }
        return facts
    }

    /// Twelve lines, "Jan ███░░░░░░░ 2", scaled to the busiest month.
    static func monthChart(_ months: [Int]) -> [String] {
        let most = max(months.max() ?? 0, 1)
        return months.enumerated().map { index, n in "\(Format.monthNames[index]) \(Format.bar(n, of: most)) \(n)" }
    }

    /// "Mar 3".
    static func dayAndMonth(_ date: Date) -> String {
        let parts = Calendar.utc.dateComponents([.month, .day], from: date)
        return "\(Format.monthNames[parts.month! - 1]) \(parts.day!)"
    }
}
