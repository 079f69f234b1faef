import Foundation

/// Profiles, numbers and the account: `/profile`, `/stats`, `/account delete`.
struct PlayerFeatures: Sendable {
    typealias Context = GGTrackerBot.Context
    let bot: GGTrackerBot

    /// `/profile show`: nickname, avatar, counts, hours, favorite genres and games, medals.
    func profileShow(user: UserMention?, _ c: Context) async throws -> Reply {
        let player = try await bot.targetPlayer(user, c)
        let stats = try await bot.store.library.stats(of: player.id, includeMature: c.showsMature)
        var fields: [Card.Field] = [
            .init("Library", Format.count(stats.libraryCount, "game")),
            .init("Completed", "\(stats.statusCounts[.completed] ?? 0)"),
            .init("Playing", "\(stats.statusCounts[.playing] ?? 0)"),
            .init("Hours", Format.hours(stats.totalHours)),
            .init("Reviews", "\(stats.reviews)"),
            .init("Wishlist", "\(stats.wishlist)"),
        ]
        if !stats.genreCounts.isEmpty {
            fields.append(
                .init(
                    "Favorite genres", stats.genreCounts.prefix(3).map { $0.0 }.joined(separator: ", "),
                    inline: false))
        }
        if !stats.favorites.isEmpty {
            fields.append(
                .init(
                    "⭐ Favorites",
                    Format.truncate(stats.favorites.prefix(5).joined(separator: ", "), 1024),
                    inline: false))
        }
        let medals = try await bot.store.social.medals(of: player.id)
        fields.append(
            .init(
                "Medals (\(medals.count))",
                medals.isEmpty
                    ? "None yet: join a \(code: "/challenge")"
                    : RichText(Format.truncate(medals.map { "🏅 \($0.challenge)" }.joined(separator: "\n"), 1024)),
                inline: false))
        let card = Card(
            title: player.shownName,
            description: player.bio.map { RichText(Format.truncate($0, 300)) },
            thumbnailURL: player.avatarURL, fields: fields,
            footer: "Player since \(Format.date(player.createdAt))", color: Palette.profile)
        return Reply(cards: [card])
    }

    /// `/profile set`: nickname, avatar (https URL) and bio, each set or cleared. Only what differs from the
    /// profile is written; a request that changes nothing is said so, privately.
    func profileSet(_ requested: [ProfileField: String?], _ c: Context) async throws -> Reply {
        let fields = ProfileField.allCases.filter { requested[$0] != nil }
        let changes = requested.filter { field, value in value != field.value(of: c.player) }
        guard !changes.isEmpty else {
            let names = Format.sentence(fields.map(\.rawValue))
            return .notice(
                fields.allSatisfy({ requested[$0] == .some(nil) })
                    ? "You have no \(names): there was nothing to clear."
                    : "Your profile already has that \(names): nothing changed.")
        }
        let player = try await bot.store.library.updateProfile(c.player.id, changes)
        let set = fields.filter { changes[$0] != nil && changes[$0] != .some(nil) }.map(\.rawValue)
        let cleared = fields.filter { changes[$0] == .some(nil) }.map(\.rawValue)
        let said = [
            set.isEmpty ? nil : "updated your \(Format.sentence(set))",
            cleared.isEmpty ? nil : "cleared your \(Format.sentence(cleared))",
        ].compactMap { $0 }.joined(separator: " and ")
        return Reply(
            visibility: .invokerOnly, text: RichText(said.prefix(1).uppercased() + said.dropFirst() + "."),
            cards: [
                Card(
                    title: player.shownName, description: player.bio.map { RichText($0) },
                    thumbnailURL: player.avatarURL, color: Palette.profile)
            ])
    }

    /// A genre's name as a chart's narrow column shows it: whole when it fits, else without its parenthesized short
    /// name or with that alone ("Role-playing", "RTS"), else its first name of several ("Hack and slash"), and only
    /// then cut.
    static func chartLabel(_ name: String, width: Int) -> String {
        guard name.count > width else { return name }
        if let open = name.lastIndex(of: "("), name.hasSuffix(")") {
            let long = name[..<open].trimmingCharacters(in: .whitespaces)
            let short = name[name.index(after: open)..<name.index(before: name.endIndex)]
            if long.count <= width { return long }
            if !short.isEmpty, short.count <= width { return String(short) }
        }
        if let first = name.split(separator: "/").first, first.count <= width, first.count < name.count {
            return first.trimmingCharacters(in: .whitespaces)
        }
        return Format.truncate(name, width)
    }

    /// `/stats`: numbers and small text bar charts.
    func stats(user: UserMention?, _ c: Context) async throws -> Reply {
        let player = try await bot.targetPlayer(user, c)
        let stats = try await bot.store.library.stats(of: player.id, includeMature: c.showsMature)
        guard stats.libraryCount > 0 else {
            return .notice(
                player.id == c.player.id
                    ? "Your library has no games yet. Add one with \(code: "/add")."
                    : "\(player.shownName) has no games in their library yet.")
        }
        let total = stats.libraryCount
        let statusLines = GameStatus.allCases.map { status in
            let n = stats.statusCounts[status] ?? 0
            return "\(status.label.padding(toLength: 9, withPad: " ", startingAt: 0)) \(Format.bar(n, of: total)) \(n)"
        }
        var fields: [Card.Field] = [
            .init("By status", RichText.block(statusLines), inline: false)
        ]
        if !stats.genreCounts.isEmpty {
            let top = stats.genreCounts.prefix(6)
            let most = top.map(\.1).max() ?? 1
            let lines = top.map { genre, n in
                "\(Self.chartLabel(genre, width: 14).padding(toLength: 14, withPad: " ", startingAt: 0)) \(Format.bar(n, of: most)) \(n)"
            }
            fields.append(
                .init(
                    "By genre",
                    RichText.block(lines),
                    inline: false))
        }
        let rated = stats.scoreCounts.values.reduce(0, +)
        if rated > 0 {
            let most = stats.scoreCounts.values.max() ?? 1
            let lines = (1...10).reversed().map { score in
                "\(String(score).padding(toLength: 2, withPad: " ", startingAt: 0)) \(Format.bar(stats.scoreCounts[score] ?? 0, of: most)) \(stats.scoreCounts[score] ?? 0)"
            }
            let average = Double(stats.scoreCounts.map { $0.key * $0.value }.reduce(0, +)) / Double(rated)
            fields.append(
                .init(
                    "Scores (\(rated) rated, average \(String(format: "%.1f", average)))",
                    RichText.block(lines), inline: false))
        }
        var hours = "\(Format.hours(stats.totalHours)) in total"
        if let most = stats.mostPlayed {
            hours += "\nMost played: \(most.name) (\(Format.hours(most.hours)))"
        }
        fields.append(.init("Hours", hours, inline: false))
        return Reply(
            cards: [
                Card(
                    title: "\(player.shownName)'s stats", thumbnailURL: player.avatarURL, fields: fields,
                    footer:
                        "\(Format.count(total, "game")) · \(Format.count(stats.reviews, "review")) · \(stats.wishlist) wishlisted",
                    color: Palette.profile)
            ])
    }

    /// `/account delete`: erases everything the caller stored, after a confirm button.
    func accountDelete(confirmed: Bool, _ c: Context) async throws -> Reply {
        guard confirmed else {
            return Reply(
                visibility: .invokerOnly,
                text:
                    "This erases your library, wishlist, scores, reviews, notes and profile on every server, for good. Are you sure? To keep a copy first, \(code: "/export") gives a file that \(code: "/import") reads back.",
                actions: [
                    [
                        Action("Delete everything", .run(.account, "delete", ["confirm": true]), style: .danger),
                        Action("Export first", .run(.export, [:])),
                    ]
                ])
        }
        let erased = try await bot.store.library.deleteAccount(c.player.id)
        return Reply(
            visibility: .invokerOnly, delivery: c.invocation.fromComponent ? .updateMessage : .newMessage,
            text:
                "Done: your account and \(erased) stored record\(erased == 1 ? "" : "s") are erased. Using a command again starts a new, empty account."
        )
    }
}
