import AsyncHTTPClient
@preconcurrency import Crypto
import Foundation
import GGTrackerCore
import GGTrackerStorage
import HTTPTypes
import Hummingbird
import Logging
import NIOCore

/// Slack slash commands (`/gg …`) and button presses, verified with Slack's signing secret.
/// https://api.slack.com/authentication/verifying-requests-from-slack
package struct SlackController: Sendable {
    let bot: GGTrackerBot
    let database: AppDatabase
    let config: AppConfig
    let metrics: RequestMetrics
    var httpClient: HTTPClient = .shared
    /// Where bodies count before their signature is checked.
    var bodyBudget: UnverifiedBodyBudget? = nil
    /// Where a command's announcement is posted.
    var announcers: ChannelAnnouncers? = nil

    /// The routes behind `SignedBody.slack`: a handler runs only for a signed, fresh, never-seen request.
    func addRoutes(to router: Router<BasicRequestContext>) {
        let group = router.group("slack").add(middleware: SignedBody.slack(self))
        group.post("commands") { request, context in try await command(request, context: context) }
        group.post("interactions") { request, context in try await interaction(request, context: context) }
    }

    static func json(_ data: Data) -> Response {
        Response(
            status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(data: data)))
    }

    static func plain(_ status: HTTPResponse.Status, _ text: String) -> Response {
        Response(
            status: status, headers: [.contentType: "text/plain"], body: .init(byteBuffer: ByteBuffer(string: text)))
    }

    /// `v0=` + hex HMAC-SHA256 of `v0:{timestamp}:{raw body}`, compared in constant time; the timestamp within
    /// 5 minutes; a signature seen before (a replay) refused. Returns the delivery id the request's effects
    /// are claimed under, or nil when the request is refused.
    func verify(_ request: Request, body: ByteBuffer, now: Date = Date()) async throws -> String? {
        guard let secret = config.slackSigningSecret,
            let signature = request.headers[HTTPField.Name("X-Slack-Signature")!], signature.hasPrefix("v0="),
            let timestamp = request.headers[HTTPField.Name("X-Slack-Request-Timestamp")!],
            let seconds = TimeInterval(timestamp), abs(now.timeIntervalSince1970 - seconds) <= 300,
            let mac = Hex.bytes(String(signature.dropFirst(3))), mac.count == 32
        else { return nil }
        var base = Data("v0:\(timestamp):".utf8)
        base.append(contentsOf: body.readableBytesView)
        guard
            HMAC<SHA256>.isValidAuthenticationCode(
                mac, authenticating: base, using: SymmetricKey(data: Data(secret.utf8)))
        else { return nil }
        guard let key = Self.delivery(request) else { return nil }
        return try await database.deliveries.deliverySeen(key) ? nil : key
    }

    /// The id a request's effects are claimed under: its signature's bytes, not its text (hex in another letter
    /// case is the same request, so a replay in capitals is still a replay).
    static func delivery(_ request: Request) -> String? {
        guard let signature = request.headers[HTTPField.Name("X-Slack-Signature")!], signature.hasPrefix("v0="),
            let mac = Hex.bytes(String(signature.dropFirst(3))), mac.count == 32
        else { return nil }
        let digits = Array("0123456789abcdef".utf8)
        return "slack:signature:"
            + String(decoding: mac.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 15)]] }, as: UTF8.self)
    }

    /// Decodes `application/x-www-form-urlencoded`.
    package static func form(_ body: ByteBuffer) -> [String: String] {
        var fields: [String: String] = [:]
        for pair in String(buffer: body).split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1).map {
                $0.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String($0)
            }
            if let key = parts.first { fields[key] = parts.count > 1 ? parts[1] : "" }
        }
        return fields
    }

    /// A button press or menu choice, from the `payload` field of an interaction request.
    package struct Press {
        package var user: String
        package var userName: String?
        package var team: String
        package var channel: String?
        package var line: String
        package var responseURL: String?
    }

    package static func press(in form: [String: String]) -> Press? {
        guard let payloadText = form["payload"],
            let payload = try? JSONDecoder().decode(SlackInteractionPayload.self, from: Data(payloadText.utf8)),
            let team = payload.team?.id, let action = payload.actions?.first
        else { return nil }
        return Press(
            user: payload.user.id, userName: payload.user.username ?? payload.user.name, team: team,
            channel: payload.channel?.id, line: action.value ?? action.selectedOption?.value ?? "/help",
            responseURL: payload.responseURL)
    }

    func invoker(user: String, name: String?, team: String, channel: String?) -> Invoker {
        Invoker(
            platform: .slack, userID: user, displayName: name ?? user, community: "slack:\(team)", channel: channel,
            channelIsAgeRestricted: false, isAdmin: config.isConfiguredAdmin(platform: "slack", userID: user))
    }

    func command(_ request: Request, context: some RequestContext) async throws -> Response {
        let started = ContinuousClock.now
        let body = try await request.body.collect(upTo: .max)
        guard let delivery = Self.delivery(request) else { return Self.plain(.unauthorized, "unsigned request\n") }
        let form = Self.form(body)
        guard let user = form["user_id"], let team = form["team_id"] else {
            return Self.plain(.badRequest, "missing user_id or team_id\n")
        }
        let text = (form["text"] ?? "").trimmingCharacters(in: .whitespaces)
        let typed = text.isEmpty ? "help" : MentionTokens.slackText(text)
        let invoker = invoker(user: user, name: form["user_name"], team: team, channel: form["channel_id"])
        let path = (try? TextCommandParser.parse(typed).path) ?? []
        // The one command that takes a channel: a channel linked in it is its id (`<#C0123|games>`).
        let line = path == ["admin", "settings"] ? MentionTokens.slackText(text, channelsByName: false) : typed
        let command = Delivery(id: delivery, platform: .slack, command: path.first ?? "unknown", started: started)
        let logger = context.logger
        let channel = form["channel_id"]
        let answer = await withinDeadline(
            responseURL: responseURL(form["response_url"], logger: logger), command: command.command, logger: logger
        ) {
            let (file, refusal) = await sharedFile(for: path, from: user, in: channel)
            let delivered = try await pipeline.deliver(
                command, logger: logger,
                run: { bot in
                    if let refusal { return refusal }
                    return try await bot.respond(toLine: line, from: invoker, file: file)
                },
                render: { try JSONEncoder().encode($0.slackMessage()) })
            return handled(delivered, of: command, logger: logger)
        }
        guard let answer else {
            pipeline.record(command, .deferred, logger: logger)
            return Self.json(try JSONEncoder().encode(Self.busy.slackMessage()))
        }
        pipeline.record(command, answer.outcome, logger: logger)
        if answer.outcome == .unauthorized { return Self.plain(.unauthorized, "replayed request\n") }
        return Self.json(answer.data)
    }

    var pipeline: DeliveryPipeline { DeliveryPipeline(bot: bot, database: database, metrics: metrics) }

    /// What a change announces (a completion, a review, a medal) goes to the workspace's announce channel, once its
    /// change is stored, with the app's bot token.
    func announce(_ reply: Reply, logger: Logger) {
        for announcement in reply.announcements {
            announcers?.postInBackground(announcement, on: .slack, database: database, logger: logger)
        }
    }

    /// A slash command carries no file: `import file` takes the newest CSV its sender shared in the channel (with the
    /// bot token), or is answered why there is none to take.
    func sharedFile(for path: [String], from user: String, in channel: String?) async -> (Attachment?, Reply?) {
        guard path == ["import", "file"], let token = config.slackFiles.botToken, let channel else { return (nil, nil) }
        switch await SlackFiles(settings: config.slackFiles, token: token).latestCSV(
            from: user, in: channel, since: Date().addingTimeInterval(-SlackFiles.window))
        {
        case .found(let found): return (found, nil)
        case .none: return (nil, Self.noSharedFile)
        case .failed(let reason): return (nil, .notice(reason + " Nothing was imported."))
        }
    }

    static let noSharedFile = Reply.notice(
        "No CSV file from you in this channel in the last day that this app can see. Upload your Grouvee, "
            + "HowLongToBeat or GGTracker CSV export here (the app must be a member of the channel: "
            + "\(code: "/invite") it here), then run \(code: "/import file") again. Nothing was imported.")

    /// A button or select: acknowledged once the command has run and its effects are stored, or at Slack's deadline
    /// while it is still busy (`withinDeadline`); the result is posted to the `response_url` Slack gives.
    func interaction(_ request: Request, context: some RequestContext) async throws -> Response {
        let started = ContinuousClock.now
        let body = try await request.body.collect(upTo: .max)
        guard let delivery = Self.delivery(request) else { return Self.plain(.unauthorized, "unsigned request\n") }
        guard let press = Self.press(in: Self.form(body)) else {
            return Self.plain(.badRequest, "malformed interaction payload\n")
        }
        let line = MentionTokens.neutral(press.line)
        let invoker = invoker(user: press.user, name: press.userName, team: press.team, channel: press.channel)
        let path = (try? TextCommandParser.parse(line).path) ?? []
        let command = Delivery(id: delivery, platform: .slack, command: path.first ?? "component", started: started)
        let logger = context.logger
        let responseURL = responseURL(press.responseURL, logger: logger)
        let answer = await withinDeadline(responseURL: responseURL, command: command.command, logger: logger) {
            let (file, refusal) = await sharedFile(for: path, from: press.user, in: press.channel)
            let delivered = try await pipeline.deliver(
                command, logger: logger,
                run: { bot in
                    if let refusal { return refusal }
                    return try await bot.respond(toLine: line, from: invoker, fromComponent: true, file: file)
                },
                render: { reply in
                    var message = reply.slackMessage()
                    message.replaceOriginal = reply.delivery == .updateMessage
                    return try JSONEncoder().encode(message)
                })
            return handled(delivered, of: command, logger: logger)
        }
        // Still busy: acknowledged now, the result is posted when it is ready.
        guard let answer else {
            pipeline.record(command, .deferred, logger: logger)
            return Response(status: .ok)
        }
        pipeline.record(command, answer.outcome, logger: logger)
        if answer.outcome == .unauthorized { return Self.plain(.unauthorized, "replayed request\n") }
        if let responseURL {
            Task {
                do {
                    try await post(answer.data, to: responseURL)
                } catch {
                    logger.warning("could not post a Slack button's result", metadata: ["error": "\(error)"])
                }
            }
        }
        return Response(status: .ok)
    }

    func post(_ message: Data, to url: String) async throws {
        var request = HTTPClientRequest(url: url)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        request.body = .bytes(ByteBuffer(data: message))
        let response = try await httpClient.execute(request, timeout: .init(config.slackResponseTimeout))
        _ = try await response.body.collect(upTo: 1 << 16)
    }
}
