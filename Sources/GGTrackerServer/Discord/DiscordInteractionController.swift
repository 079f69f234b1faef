import AsyncHTTPClient
import Foundation
import GGTrackerCore
import GGTrackerStorage
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import NIOPosix

/// `POST /discord/interactions`, behind `SignedBody.discord`: decodes the interaction, runs it through the bot
/// and renders the reply for Discord.
package struct DiscordInteractionController: Sendable {
    let bot: GGTrackerBot
    let database: AppDatabase
    let verifier: DiscordSignatureVerifier?
    let config: AppConfig
    let gate = DeliveryGate()
    let metrics: RequestMetrics
    let announcers: ChannelAnnouncers?
    /// How long a command may run before the answer is deferred.
    var deferAfter: Duration { config.deferAfter }

    /// A verified request (its body already read by the middleware).
    func handle(_ request: Request, context: some RequestContext) async throws -> Response {
        let started = ContinuousClock.now
        let body = try await request.body.collect(upTo: .max)
        let interaction: DiscordInteraction
        do {
            interaction = try DiscordInteraction.decode(body)
        } catch {
            metrics.record(platform: "discord", command: "-", outcome: .badRequest)
            return Self.plain(.badRequest, "malformed interaction JSON\n")
        }
        let data: Data
        let command: String
        let outcome: Outcome
        do {
            (data, command, outcome) = try await respond(to: interaction, logger: context.logger)
        } catch let error as UsageError {
            // Signed, but missing what every interaction of its type carries (a user, data).
            metrics.record(platform: "discord", command: "-", outcome: .badRequest)
            return Self.plain(.badRequest, "malformed interaction: \(error.message)\n")
        }
        metrics.record(
            platform: "discord", command: command, outcome: outcome, started: started, logger: context.logger)
        return Response(
            status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(data: data)))
    }

    static func plain(_ status: HTTPResponse.Status, _ text: String) -> Response {
        Response(
            status: status, headers: [.contentType: "text/plain; charset=utf-8"],
            body: .init(byteBuffer: ByteBuffer(string: text)))
    }

    /// The encoded response, the command name and the outcome, for logs and metrics.
    func respond(to interaction: DiscordInteraction, logger: Logger) async throws -> (Data, String, Outcome) {
        switch interaction.type {
        case .ping:
            return (DiscordResponse.pong.json, "ping", .ok)
        case .autocomplete:
            let choices = try await autocomplete(interaction)
            return (
                DiscordResponse(type: .autocompleteResult, data: .autocomplete(choices: choices)).json,
                "autocomplete", .ok
            )
        case .applicationCommand, .messageComponent, .modalSubmit:
            let handled = try await command(interaction, logger: logger)
            return (handled.data, handled.command, handled.outcome)
        case .unknown(let type):
            return (
                try await encode(
                    .notice("This kind of interaction (\(type)) is not supported."), interaction: interaction),
                "unknown", .unsupported
            )
        }
    }

    /// Runs a command, button or modal submit once per interaction id: a duplicate arriving while it runs gets
    /// the same answer, and a retry of one already applied gets the answer stored for it (its caller's read finds
    /// it). Discord wants an answer within 3 seconds: a command still busy (a catalog provider lookup) is
    /// acknowledged as deferred, and the original message edited when the answer is ready.
    func command(_ interaction: DiscordInteraction, logger: Logger) async throws -> Handled {
        let race = FirstAnswer()
        let progress = ProgressEdits()
        let (work, first) = gate.work(for: interaction.id) {
            Task { [gate] in
                // A long command's progress replaces the deferred answer while it runs.
                let report: @Sendable (Reply) -> Void = { reply in
                    progress.offer {
                        try await editOriginal(interaction, with: try await encode(reply, interaction: interaction))
                    }
                }
                let handled = await Self.answer { try await run(interaction, logger: logger, progress: report) }
                race.offer(handled)
                gate.end(interaction.id)
                return handled
            }
        }
        guard first else { return await work.value }
        let answer = await race.first(deadline: deferAfter)
        if answer.outcome != .deferred { return answer }
        progress.start()
        Task.detached {
            // The deferred message is edited with the answer, or with the failure: never left "thinking…".
            let handled = await work.value
            await progress.finish()
            do {
                try await editOriginal(interaction, with: handled.data)
            } catch {
                logger.error("could not edit a deferred answer", metadata: ["error": "\(error)"])
            }
        }
        let ack = DiscordResponse(
            type: interaction.type == .messageComponent ? .deferredUpdateMessage : .deferredChannelMessage, data: nil)
        return Handled(
            data: ack.json, command: interaction.data?.name ?? "component", outcome: .deferred)
    }

    /// Runs a command, button or modal submit through the delivery pipeline to its encoded answer. Whatever fails
    /// once the work has begun ends in an answer the user sees (never a deferral left unanswered).
    func run(
        _ interaction: DiscordInteraction, logger: Logger, progress: (@Sendable (Reply) -> Void)? = nil
    ) async throws -> Handled {
        let delivery = Delivery(id: interaction.id, platform: .discord, command: Self.commandName(of: interaction))
        let delivered = try await pipeline.deliver(
            delivery, logger: logger,
            run: { bot in
                var reply = try await bot.respond(
                    to: try await invocation(for: interaction).0, from: try invoker(for: interaction),
                    progress: progress)
                // A member's context menu answers only whoever opened it.
                if interaction.data?.type == DiscordUserCommand.type { reply.visibility = .invokerOnly }
                return reply
            },
            render: { reply in try await encodeOrPlain(reply, interaction: interaction, logger: logger) })
        switch delivered {
        case .retried(let stored):
            return Handled(data: stored ?? Data(), command: delivery.command, outcome: .retry)
        case .answered(let data, let reply, let outcome):
            for announcement in reply.announcements {
                announcers?.postInBackground(announcement, on: .discord, database: database, logger: logger)
            }
            if let updates = reply.updates {
                // Progress of a long task: each update replaces the original message.
                Task.detached {
                    for await update in updates.stream {
                        do {
                            try await editOriginal(
                                interaction, with: try await encode(update, interaction: interaction))
                        } catch {
                            logger.warning("could not edit the original message", metadata: ["error": "\(error)"])
                        }
                    }
                }
            }
            return Handled(data: data, command: delivery.command, outcome: outcome)
        }
    }

    var pipeline: DeliveryPipeline { DeliveryPipeline(bot: bot, database: database, metrics: metrics) }

    /// The command an interaction runs, as metrics name it: a slash command's name, or the first word of a
    /// button's or modal's command line when the button carries it.
    static func commandName(of interaction: DiscordInteraction) -> String {
        if interaction.type == .applicationCommand {
            if let menu = interaction.data?.userCommand { return menu.command }
            return interaction.data?.name ?? "unknown"
        }
        let fallback = interaction.type == .modalSubmit ? "modal" : "component"
        guard let id = interaction.data?.commandID, id.hasPrefix("gg:") else { return fallback }
        return (try? TextCommandParser.parse(String(id.dropFirst(3)), fromComponent: true).path.first) ?? fallback
    }

    /// Renders a reply; when its buttons cannot be stored (the database refused a write), the reply is shown
    /// without them: the change, if any, is committed all the same.
    func encodeOrPlain(_ reply: Reply, interaction: DiscordInteraction, logger: Logger) async throws -> Data {
        do {
            return try await encode(reply, interaction: interaction)
        } catch {
            logger.error("could not store a reply's buttons", metadata: ["error": "\(error)"])
            var plain = reply
            plain.actions = []
            plain.menus = []
            plain.modal = nil
            plain.text = [reply.text, "(Its buttons are unavailable right now: the database refused a write.)"]
                .compactMap { $0 }.joined(separator: "\n")
            return plain.discordResponse(isComponent: interaction.type == .messageComponent) { _ in "gg:/help" }.json
        }
    }

    /// The work's answer, or the failure's when it threw.
    static func answer(_ work: () async throws -> Handled) async -> Handled {
        do {
            return try await work()
        } catch {
            let failure = Reply.failure(error).discordResponse(isComponent: false) { _ in "gg:/help" }
            return Handled(data: failure.json, command: "", outcome: .error)
        }
    }

    /// `PATCH {DISCORD_API_BASE}/webhooks/{application.id}/{interaction.token}/messages/@original` with the message
    /// of an encoded interaction response.
    func editOriginal(_ interaction: DiscordInteraction, with response: Data) async throws {
        guard let token = interaction.token, let app = interaction.applicationID ?? config.discordApplicationID,
            let json = try JSONSerialization.jsonObject(with: response) as? [String: Any],
            let message = json["data"] as? [String: Any]
        else { return }
        var request = HTTPClientRequest(url: "\(config.discordAPIBase)/webhooks/\(app)/\(token)/messages/@original")
        request.method = .PATCH
        request.headers.add(name: "Content-Type", value: "application/json")
        request.body = .bytes(ByteBuffer(data: try JSONSerialization.data(withJSONObject: message)))
        let answer = try await HTTPClient.shared.execute(request, timeout: .seconds(15))
        _ = try await answer.body.collect(upTo: 1 << 20)
    }

    /// Renders a reply, storing command lines too long for a custom id.
    func encode(_ reply: Reply, interaction: DiscordInteraction) async throws -> Data {
        var ids: [String: String] = [:]
        let commands =
            reply.actions.flatMap { $0 }.map(\.command) + reply.menus.flatMap { $0.options.map(\.command) }
            + (reply.modal.map { [$0.command] } ?? [])
        for command in commands where ids[command] == nil {
            let direct = "gg:" + command
            ids[command] =
                direct.utf8.count <= DiscordLimits.customID || direct.count <= DiscordLimits.customID
                ? direct : "gp:" + (try await database.deliveries.savePendingCommand(command))
        }
        let response = reply.discordResponse(isComponent: interaction.type == .messageComponent) {
            ids[$0] ?? "gg:/help"
        }
        return response.json
    }

    package func invoker(for interaction: DiscordInteraction) throws -> Invoker {
        guard let user = interaction.actingUser else { throw UsageError("This interaction has no user.") }
        let permissions = interaction.member?.permissions.flatMap(UInt64.init) ?? 0
        let isAdmin =
            permissions & (DiscordPermission.administrator | DiscordPermission.manageGuild) != 0
            || config.isConfiguredAdmin(platform: "discord", userID: user.id)
        let community =
            interaction.guildID.map { "discord:\($0)" } ?? Invoker.directMessageCommunity(ofDiscordUser: user.id)
        return Invoker(
            platform: .discord, userID: user.id,
            displayName: interaction.member?.nick ?? user.globalName ?? user.username ?? user.id, community: community,
            channel: interaction.channelID ?? interaction.channel?.id,
            channelIsAgeRestricted: interaction.channel?.nsfw ?? false, isAdmin: isAdmin,
            isDirectMessage: interaction.guildID == nil)
    }

    /// The command an interaction asks for: slash command options, a button's or menu's command line,
    /// or a modal's command line with the submitted fields as options.
    package func invocation(for interaction: DiscordInteraction) async throws -> (CommandInvocation, String) {
        guard let data = interaction.data else { throw UsageError("This interaction has no data.") }
        switch interaction.type {
        case .applicationCommand:
            guard let name = data.name else { throw UsageError("This interaction names no command.") }
            if data.type == DiscordUserCommand.type {
                guard let menu = data.userCommand else { throw UsageError("Unknown command \(code: name).") }
                guard let target = data.targetID else { throw UsageError("This command names no member.") }
                let member = value(
                    of: DiscordInteraction.Option(name: "user", type: .user, value: .string(target)),
                    resolved: data.resolved)
                return (CommandInvocation(path: [menu.command], options: ["user": member]), menu.command)
            }
            var path = [name]
            var options: [String: OptionValue] = [:]
            var level = data.options ?? []
            while let sub = level.first, sub.type.isSubcommand {
                path.append(sub.name)
                level = sub.options ?? []
            }
            for option in level {
                options[option.name] = value(of: option, resolved: data.resolved)
            }
            return (CommandInvocation(path: path, options: options), name)
        case .messageComponent:
            let line = try await commandLine(forCustomID: data.commandID)
            let invocation = try TextCommandParser.parse(line, fromComponent: true)
            return (invocation, invocation.path.first ?? "component")
        case .modalSubmit:
            let line = try await commandLine(forCustomID: data.customID ?? "")
            var invocation = try TextCommandParser.parse(line, fromComponent: true)
            for (name, value) in (data.components ?? []).flatMap(\.inputs) {
                invocation.options[name] = .string(value)
            }
            return (invocation, invocation.path.first ?? "modal")
        default:
            throw UsageError("Unsupported interaction.")
        }
    }

    func commandLine(forCustomID id: String) async throws -> String {
        // Buttons made before mentions were written neutrally carry Discord's tokens.
        if id.hasPrefix("gg:") { return MentionTokens.neutral(String(id.dropFirst(3))) }
        if id.hasPrefix("gp:"), let line = try await database.deliveries.pendingCommand(String(id.dropFirst(3))) {
            return MentionTokens.neutral(line)
        }
        throw UsageError("This button has expired. Run the command again.")
    }

    func value(of option: DiscordInteraction.Option, resolved: DiscordInteraction.Resolved?) -> OptionValue {
        let raw = option.value ?? .string("")
        switch (option.type, raw) {
        case (.integer, .integer(let i)): return .integer(i)
        case (.number, .number(let d)): return .number(d)
        case (.number, .integer(let i)): return .number(Double(i))
        case (.boolean, .boolean(let b)): return .boolean(b)
        case (.user, _):
            let id = raw.text
            let member = resolved?.members?[id]
            let user = resolved?.users?[id]
            return .user(UserMention(id: id, displayName: member?.nick ?? user?.globalName ?? user?.username))
        case (.channel, _): return .channel(raw.text)
        case (.attachment, _):
            guard let file = resolved?.attachments?[raw.text] else { return .string(raw.text) }
            return .attachment(Attachment(url: file.url, filename: file.filename, size: file.size))
        default: return .string(raw.text)
        }
    }

    func autocomplete(_ interaction: DiscordInteraction) async throws -> [DiscordChoice] {
        guard let data = interaction.data, let name = data.name else { return [] }
        var path = [name]
        var level = data.options ?? []
        while let sub = level.first, sub.type.isSubcommand {
            path.append(sub.name)
            level = sub.options ?? []
        }
        guard let focused = level.first(where: { $0.focused == true }) else { return [] }
        let choices = try await bot.autocomplete(
            path: path, option: focused.name, text: focused.value?.text ?? "", from: try invoker(for: interaction))
        return choices.prefix(DiscordLimits.choices).map { DiscordChoice(name: $0.name, value: $0.value) }
    }
}

extension DiscordInteractionController {
    /// A controller that decodes and validates interactions without verifying or answering them.
    package static func decoding(_ services: AppServices) -> Self {
        Self(
            bot: services.bot, database: services.database, verifier: nil, config: services.config,
            metrics: services.metrics, announcers: nil)
    }
}

/// Edits of a deferred answer with a command's progress: none before the deferral is sent, at most one every two
/// seconds, one at a time, and none once the answer is ready (it waits for the last).
final class ProgressEdits: @unchecked Sendable {
    private let lock = NSLock()
    private var started: ContinuousClock.Instant?
    private var last: ContinuousClock.Instant?
    private var finished = false
    private var chain: Task<Void, Never>?

    /// The deferral is on its way: progress may replace it from a moment on.
    func start() { lock.withLock { started = .now } }

    func offer(_ edit: @escaping @Sendable () async throws -> Void) {
        lock.withLock {
            let now = ContinuousClock.now
            guard !finished, let started, now - started > .milliseconds(500),
                last.map({ now - $0 >= .seconds(2) }) ?? true
            else { return }
            last = now
            let previous = chain
            chain = Task {
                await previous?.value
                try? await edit()
            }
        }
    }

    /// No more progress: waits for an edit under way, so the answer's edit comes last.
    func finish() async {
        let pending = lock.withLock {
            finished = true
            return chain
        }
        await pending?.value
    }
}
