import Foundation

/// About the bot and its settings: `/help`, `/about`, `/admin …`.
struct InfoFeatures: Sendable {
    typealias Context = GGTrackerBot.Context
    let bot: GGTrackerBot

    /// `/help`: the command list, or one command's usage, generated from the declarations.
    func help(_ name: CommandName?, _ c: Context) -> Reply {
        guard let name else {
            // In a direct message, the commands about a server's members are named apart: they run in a server.
            let direct = c.invoker.isDirectMessage
            var lines = CommandName.allCases.filter {
                ($0 != .admin || c.invoker.isAdmin) && !(direct && $0.spec.serverOnly)
            }.map { command -> RichText in
                "\(code: "/\(command.rawValue)") — " + CommandMentions.prose(command.spec.summary)
            }
            if direct {
                let server = CommandName.allCases.filter { $0 != .admin && $0.spec.serverOnly }
                lines.append(
                    "\nIn a server, with its members: "
                        + server.map { RichText([.code("/" + $0.rawValue)]) }.joined(separator: ", "))
            }
            return Reply(
                visibility: .invokerOnly,
                cards: [
                    Card(
                        title: "\(bot.info.name) commands", description: lines.joined(separator: "\n"),
                        footer: "/help command:<name> explains one command", color: Palette.catalog)
                ])
        }
        let spec = name.spec
        var fields = [Card.Field("Usage", RichText.block([spec.usage(prefix: "/" + spec.name)]), inline: false)]
        let options = Self.allOptions(spec)
        if !options.isEmpty {
            var seen = Set<String>()
            // Where commands are typed there is no picker to speak of.
            let typed = c.invoker.platform != .discord
            let lines = options.filter { seen.insert($0.name).inserted }.map { option -> RichText in
                guard typed else { return "\(code: option.name) — \(option.summary)" }
                // Typed, a number may carry its unit: said with an example.
                let example = option.typedExample.map { RichText(" (as ") + RichText([.code($0)]) + ")" } ?? ""
                return "\(code: option.name) — \(option.summaryHead)" + example
            }
            fields.append(.init("Options", lines.joined(separator: "\n"), inline: false))
        }
        if !spec.examples.isEmpty {
            fields.append(
                .init("Examples", spec.examples.map { RichText([.code($0)]) }.joined(separator: "\n"), inline: false))
        }
        if spec.serverOnly, c.invoker.isDirectMessage {
            fields.append(
                .init("Where", "In a server where \(bot.info.name) is, with its members: not here.", inline: false))
        }
        return Reply(
            visibility: .invokerOnly,
            cards: [
                Card(
                    title: "/\(spec.name)",
                    description: CommandMentions.prose(
                        [spec.summary, spec.details].compactMap { $0 }.joined(separator: "\n\n")),
                    fields: fields, color: Palette.catalog)
            ])
    }

    static func allOptions(_ spec: CommandSpec) -> [OptionSpec] {
        spec.options + spec.subcommands.flatMap(allOptions)
    }

    /// `/about`: the bot, its version, its creators, the catalog source and attribution.
    func about(_ c: Context) async throws -> Reply {
        let status = try await bot.catalog.status()
        var fields: [Card.Field] = [
            .init("Version", bot.info.version),
            .init("Made by", bot.info.creators),
            .init("Catalog", "\(status.provider) · \(Format.count(status.games, "game"))"),
            .init("Data", status.attribution, inline: false),
        ]
        if let homepage = bot.info.homepage { fields.append(.init("Home", homepage)) }
        return Reply(
            cards: [
                Card(
                    title: bot.info.name,
                    description:
                        "Keep your game library with your friends: track what you play, rate and review it, compare.",
                    fields: fields, color: Palette.catalog)
            ])
    }

    /// `/admin catalog status`.
    func adminCatalogStatus(_ c: Context) async throws -> Reply {
        let status = try await bot.catalog.status()
        return Reply(
            visibility: .invokerOnly,
            cards: [
                Card(
                    title: "Catalog",
                    fields: [
                        .init("Provider", status.provider),
                        .init("Games", Format.number(status.games)),
                        .init("Last refresh", status.lastRefresh.map { Format.date($0) } ?? "never"),
                        .init(
                            "Refresh",
                            status.refreshing
                                ? "running now"
                                : status.lastSummary?.sentence ?? "none since start-up"),
                    ] + status.details.sorted { $0.key < $1.key }.map { Card.Field($0.key, $0.value) },
                    footer: status.attribution, color: Palette.admin)
            ])
    }

    /// `/admin catalog refresh`: runs in the background, since chat must answer within seconds; the answer is
    /// then replaced with progress every few seconds and a final summary where the platform can edit messages.
    func adminCatalogRefresh(full: Bool, _ c: Context) async throws -> Reply {
        let mode = full ? "full" : "incremental"
        let updates = ReplyUpdates()
        let lastEdit = Clock()
        let started = try await bot.catalog.startRefresh(
            full: full,
            progress: { progress in
                guard lastEdit.due(every: 3) else { return }
                var text = "Catalog refresh (\(mode)): \(progress.done)"
                if let total = progress.total { text += " of \(total)" }
                text += " games, \(Int(progress.rate))/s"
                if let eta = progress.eta { text += ", about \(Int(eta.rounded())) s left" }
                updates.continuation.yield(.notice(text + "…"))
            },
            finished: { result in
                switch result {
                case .success(let summary):
                    updates.continuation.yield(
                        .notice(
                            "Catalog refresh (\(mode)) done: \(summary.sentence)."
                        ))
                case .failure(let error):
                    updates.continuation.yield(.notice("Catalog refresh (\(mode)) stopped: \(error)"))
                }
                updates.continuation.finish()
            })
        guard started else {
            updates.continuation.finish()
            let progress = try await bot.catalog.status().details["Progress"].map { " (\($0) so far)" } ?? ""
            return .notice(
                "A catalog refresh is already running\(progress). \(code: "/admin catalog status") shows when it is done."
            )
        }
        var reply = Reply.notice(
            "Catalog refresh (\(mode)) started in the background. \(code: "/admin catalog status") shows its result when it is done."
        )
        reply.updates = updates
        return reply
    }

    /// `/admin settings`: shows, or changes, the announce channel and the age gate. A new announce channel is posted
    /// to before it is saved: where the bot cannot post, the admin is told why and nothing changes. `stopAnnouncing`
    /// clears it: nothing is announced any more (release alerts included).
    func adminSettings(
        announceChannel typed: String?, stopAnnouncing: Bool, ageGate: AgeGate?, _ c: Context
    ) async throws -> Reply {
        // Read again: the caller's settings leave out how the last announcement went.
        var settings = try await bot.store.library.settings(of: c.invoker.community)
        var announceChannel = typed
        let platform = c.invoker.platform
        let announces = bot.announcers?.platforms.contains(platform) ?? false
        if typed != nil, stopAnnouncing {
            throw ReplyError.notice(
                "Give \(code: "announce_channel") to announce there, or \(code: "stop_announcing") to announce nowhere: not both. Nothing was changed."
            )
        }
        if announceChannel != nil || (stopAnnouncing && settings.announceChannel == nil), !announces {
            let why: RichText =
                switch platform {
                // A Matrix room is its own announce channel: release alerts come to it.
                case .matrix:
                    "A Matrix room has no announce channel to set: news shows in \(code: "/activity"), and release alerts of its members' wishes come to the room itself."
                case .slack:
                    "This installation cannot post to Slack: its operator gives the app a bot token (SLACK_BOT_TOKEN, scope chat:write) first. Meanwhile news shows in \(code: "/activity")."
                case .discord:
                    "This installation cannot post to Discord channels: its operator gives it the bot's token (DISCORD_BOT_TOKEN) first. Meanwhile news shows in \(code: "/activity")."
                default:
                    "Announcements are posted in a channel of a Discord server or a Slack workspace; here there is none to set: news shows in \(code: "/activity")."
                }
            throw ReplyError.notice(why + " Nothing was changed.")
        }
        if stopAnnouncing, settings.announceChannel == nil {
            throw ReplyError.notice("No announce channel is set: nothing is announced. Nothing was changed.")
        }
        // Slack's command text names a channel by its id only when it was linked as typed (`#games` picked from
        // Slack's list); `here` is the channel the command is typed in.
        if platform == .slack, let typed, typed.lowercased() == "here" {
            guard let channel = c.invoker.channel else {
                throw ReplyError.notice("This command came from no channel to announce in. Nothing was changed.")
            }
            announceChannel = channel
        } else if platform == .slack, let typed, !platform.isChannelID(typed) {
            throw ReplyError.notice(
                "Slack sent “\(Format.truncate(typed, 40))” as a name, not a channel: pick the channel from the list Slack shows as you type \(code: "#") (the app's command must have “Escape channels, users, and links” on), or run \(code: "/admin settings announce_channel:here") in it. Nothing was changed."
            )
        }
        if let announceChannel, !platform.isChannelID(announceChannel) {
            throw ReplyError.notice(
                "\(code: "announce_channel") must be a channel of this server (pick it from the list); “\(Format.truncate(announceChannel, 40))” is not a channel id. Nothing was changed."
            )
        }
        // Set again (the same channel too, once its permissions are mended), the channel is posted to again.
        if let announceChannel, let announcers = bot.announcers {
            let welcome = Announcement(
                channel: announceChannel,
                cards: [
                    Card(
                        title: "📣 GGTracker's news will be posted here",
                        description:
                            "Games completed and reviewed, challenge medals, and release alerts of games members wishlisted. Set by \(c.invoker.displayName).",
                        color: Palette.admin)
                ])
            if let why = await announcers.tryPost(welcome, on: platform) {
                throw ReplyError.notice(
                    "The bot cannot post in \(channel: announceChannel): " + why + " Nothing was changed.")
            }
        }
        let changes = announceChannel != nil || stopAnnouncing || ageGate != nil
        if changes {
            settings = try await bot.store.library.updateSettings(
                of: c.invoker.community, announceChannel: announceChannel, stopAnnouncing: stopAnnouncing,
                ageGate: ageGate)
        }
        var channel: RichText = settings.announceChannel.map { RichText([.channel($0)]) } ?? "not set"
        if settings.announceChannel != nil, let failure = settings.announceFailure {
            channel +=
                "\n⚠️ The last post there failed \(relative: failure.at): \(failure.reason)"
        }
        let gate: RichText =
            settings.ageGate == .strict
            ? "strict — mature games (ESRB M/AO, PEGI 18) " + c.whereStrictShowsMature
            : "off — mature games shown everywhere"
        return Reply(
            visibility: .invokerOnly,
            text: stopAnnouncing
                ? "Settings saved: nothing is announced any more (news still shows in \(code: "/activity"))."
                : changes ? "Settings saved." : nil,
            cards: [
                Card(
                    title: "Server settings",
                    fields: (announces ? [.init("Announce channel", channel)] : [])
                        + [.init("Age gate", gate, inline: false)],
                    color: Palette.admin)
            ])
    }
}

/// Lets an action through at most once per interval.
final class Clock: @unchecked Sendable {
    private let lock = NSLock()
    private var last: Date?

    func due(every seconds: TimeInterval) -> Bool {
        lock.withLock {
            let now = Date()
            if let last, now.timeIntervalSince(last) < seconds { return false }
            last = now
            return true
        }
    }
}
