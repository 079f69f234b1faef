import Foundation
import GGTrackerCore
import GGTrackerStorage
import HTTPTypes
import Hummingbird
import Logging

/// The application service API: the homeserver pushes room events in transactions; `!gg` messages are commands,
/// answered in the room with an `m.notice`. https://spec.matrix.org/v1.19/application-service-api/
package struct MatrixController: Sendable {
    let bot: GGTrackerBot
    let database: AppDatabase
    let config: AppConfig
    let client: MatrixClient?
    let metrics: RequestMetrics

    /// `@{localpart}:{server}`: the server part comes from the ids the homeserver sends.
    func isBot(_ user: String) -> Bool { user.hasPrefix("@\(config.matrixBotLocalpart):") }

    /// The routes behind `MatrixAuthorization`: the application service API, and its transactions at the older
    /// unprefixed path too.
    func addRoutes(to router: Router<BasicRequestContext>) {
        let api = router.group("_matrix/app/v1").add(middleware: MatrixAuthorization(matrix: self))
        let legacy = router.group("transactions").add(middleware: MatrixAuthorization(matrix: self))
        api.put("transactions/:txnId") { request, context in try await transaction(request, context: context) }
        legacy.put(":txnId") { request, context in try await transaction(request, context: context) }
        api.get("users/:userId") { _, context in
            let user = context.parameters.get("userId")?.removingPercentEncoding ?? ""
            return isBot(user) ? Self.ok() : Self.error(.notFound, "M_NOT_FOUND", "No such user here")
        }
        api.get("rooms/:alias") { _, _ in Self.error(.notFound, "M_NOT_FOUND", "This service has no room aliases") }
        api.post("ping") { _, _ in Self.ok() }
    }

    /// `200 {}`, with its length: the homeserver sends a transaction again until it gets it.
    static func ok() -> Response {
        Response(
            status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: "{}")))
    }

    static func error(_ status: HTTPResponse.Status, _ code: String, _ message: String) -> Response {
        let data = (try? JSONEncoder().encode(MatrixError(errcode: code, error: message))) ?? Data("{}".utf8)
        return Response(
            status: status, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(data: data))
        )
    }

    /// The `hs_token` as `Authorization: Bearer`, or the older `access_token` query parameter:
    /// missing → 401 `M_UNAUTHORIZED`, wrong → 403 `M_FORBIDDEN`.
    func authorize(_ request: Request) -> Response? {
        guard let expected = config.matrixHSToken else {
            return Self.error(.serviceUnavailable, "M_UNKNOWN", "Matrix is not configured: set MATRIX_HS_TOKEN")
        }
        var given: String?
        if let header = request.headers[.authorization], header.hasPrefix("Bearer ") {
            given = String(header.dropFirst("Bearer ".count))
        } else if let query = request.uri.queryParameters.get("access_token") {
            given = query
        }
        guard let given else { return Self.error(.unauthorized, "M_UNAUTHORIZED", "Missing the homeserver token") }
        guard constantTimeEquals(given, expected) else {
            return Self.error(.forbidden, "M_FORBIDDEN", "Wrong homeserver token")
        }
        return nil
    }

    func transaction(_ request: Request, context: some RequestContext) async throws -> Response {
        let txnID = context.parameters.get("txnId")?.removingPercentEncoding ?? ""
        let body = try await request.collectBody()
        let key = "matrix:txn:\(txnID)"
        if try await database.deliveries.processedResponse(key) != nil {
            return Self.ok()  // a retried transaction: acknowledged, not processed again
        }
        guard let events = try? JSONDecoder().decode(MatrixTransaction.self, from: Data(buffer: body)).events else {
            return Self.error(.badRequest, "M_NOT_JSON", "A transaction is a JSON object with `events`")
        }
        for (index, item) in events.enumerated() {
            guard let item else {
                // Permanently bad: it can never be handled, so it is skipped and the transaction still answered.
                context.logger.warning("skipped a malformed event", metadata: ["txn": "\(txnID)", "index": "\(index)"])
                continue
            }
            do {
                try await handle(item, logger: context.logger)
            } catch {
                // A transient failure (the database, the homeserver): the transaction is not acknowledged, so the
                // homeserver sends it again; events it already handled are recognised by their ids.
                context.logger.error(
                    "event failed; the homeserver will retry", metadata: ["txn": "\(txnID)", "error": "\(error)"])
                return Self.error(.internalServerError, "M_UNKNOWN", "An event could not be handled yet; retry later")
            }
        }
        try await database.deliveries.recordProcessed(key, response: Data("{}".utf8))
        return Self.ok()
    }

    func handle(_ event: MatrixEvent, logger: Logger) async throws {
        let room = event.roomID
        let sender = event.sender
        switch event.type {
        case "m.room.member":
            // State events carry a state_key: for membership, the user concerned.
            guard let target = event.stateKey, isBot(target), event.content.membership == "invite" else { return }
            try await client?.join(room)
            logger.info("joined a room", metadata: ["room": "\(room)"])
        case "m.room.message":
            guard !isBot(sender) else { return }
            var (line, refusal) = await choosing(event)
            guard let text = line else { return }
            let eventID = event.eventID ?? UUID().uuidString
            // An event delivered again in another transaction is answered once.
            let key = "matrix:event:\(eventID)"
            let sentKey = "matrix:sent:\(eventID)"
            guard try await !database.deliveries.deliverySeen(sentKey) else { return }
            let path = (try? TextCommandParser.parse(text).path) ?? []
            var delivery = Delivery(id: key, platform: .matrix, command: path.first ?? "unknown")
            // `!gg import file` takes the file it is the caption of, or the file message it answers.
            var file = event.file
            if file == nil, path == ["import", "file"], let answered = event.content.inReplyTo {
                file = try? await client?.event(answered, in: room).file
            }
            var threadRoot = event.content.threadRoot
            // An edited command runs where no version of it changed anything yet (a typo refused, a read), and is
            // answered under the message it edits, as clients show the edit in its place, in that message's thread.
            if let edited = event.content.replaces {
                // An edit of someone else's message is no edit: clients ignore it too.
                let original = try? await client?.event(edited, in: room)
                if let original, original.sender != sender { return }
                threadRoot = original?.content.threadRoot
                delivery.marks = "matrix:edited:\(edited)"
                if try await database.deliveries.changeMade(
                    by: "matrix:event:\(edited)", orMarked: "matrix:edited:\(edited)")
                {
                    refusal = .editNotRun
                }
            }
            let invoker = try await invoker(sender: sender, room: room)
            // An attempt that committed its change but could not send the answer left it kept: it is sent as it
            // was, with the same transaction id, so the homeserver drops it if it did arrive.
            let delivered = try await pipeline.deliver(
                delivery, logger: logger,
                run: { bot in
                    if let refusal { return refusal }
                    return try await bot.respond(toLine: text, from: invoker, file: file)
                },
                render: { reply in
                    // Everyone in the room reads a private answer there: a secret one goes to the sender alone.
                    if reply.isSecret, reply.visibility == .invokerOnly {
                        var content = reply.matrixContent(replyTo: nil)
                        content.direct = true
                        return try JSONEncoder().encode(content)
                    }
                    let content = reply.matrixContent(
                        replyTo: event.content.replaces ?? eventID,
                        privateFor: reply.visibility == .invokerOnly ? invoker.displayName : nil)
                    return try JSONEncoder().encode(Self.threaded(content, in: threadRoot))
                })
            let data: Data?
            let outcome: Outcome
            switch delivered {
            case .answered(let answer, _, let result): (data, outcome) = (answer, result)
            case .retried(let stored): (data, outcome) = (stored, .retry)
            }
            if let data, var content = try? JSONDecoder().decode(MatrixMessage.self, from: data), let client {
                if content.direct == true {
                    content.direct = nil
                    let notice = await sendDirect(content, to: sender, for: eventID, client: client, logger: logger)
                    let pointer = notice.matrixContent(
                        replyTo: event.content.replaces ?? eventID, privateFor: invoker.displayName)
                    try await client.send(
                        Self.threaded(pointer, in: threadRoot), to: room, transaction: "gg-\(eventID)-direct")
                } else {
                    try await client.send(content, to: room, transaction: "gg-\(eventID)")
                }
            }
            try await database.deliveries.recordProcessed(sentKey, response: Data())
            pipeline.record(delivery, outcome, logger: logger)
        default:
            return
        }
    }

    /// The command line of a message: where it answers one of the bot's messages with a number ("2", "#2",
    /// "!gg 2"), the command that message's hint of that number offers, or a refusal when it offers no such number.
    func choosing(_ event: MatrixEvent) async -> (line: String?, refusal: Reply?) {
        let line = event.commandLine
        guard let choice = event.choice else { return (line, nil) }
        guard let answered = event.content.inReplyTo else {
            // "!gg 2" sent on its own: a number means something only in answer to a message that offers it.
            return (
                line,
                line == nil
                    ? nil
                    : .notice("To run a numbered choice, reply to the message that offers it with its number.")
            )
        }
        guard let offered = try? await client?.event(answered, in: event.roomID), isBot(offered.sender),
            let commands = offered.content.offered
        else {
            return (line, line == nil ? nil : .notice("The message you answered offers nothing to choose by number."))
        }
        guard commands.indices.contains(choice - 1) else {
            let choices = commands.count == 1 ? "one choice, 1" : "choices 1 to \(commands.count)"
            return ("!gg \(choice)", .notice("That message offers \(choices), not \(choice)."))
        }
        return ("!gg " + commands[choice - 1], nil)
    }

    var pipeline: DeliveryPipeline { DeliveryPipeline(bot: bot, database: database, metrics: metrics) }

    /// A command sent in a thread is answered in that thread.
    static func threaded(_ content: MatrixMessage, in root: String?) -> MatrixMessage {
        guard let root else { return content }
        var content = content
        content.relatesTo?.relType = "m.thread"
        content.relatesTo?.threadRoot = root
        content.relatesTo?.isFallingBack = false
        return content
    }

    /// Sends an answer for `user` alone to their direct-message room; what the command's room is told instead: where
    /// it went, or that it could not go (the secret kept back).
    func sendDirect(
        _ content: MatrixMessage, to user: String, for eventID: String, client: MatrixClient, logger: Logger
    ) async -> Reply {
        do {
            let room = try await client.directRoom(with: user)
            try await client.send(content, to: room, transaction: "gg-\(eventID)")
            return .notice(
                "The answer holds a link for you alone, so it was sent to you in a direct message: accept the "
                    + "invite from this bot to read it.")
        } catch {
            logger.warning("could not send a direct message", metadata: ["error": "\(error)"])
            return .notice(
                "The answer holds a link for you alone, and a direct message to you could not be sent, so it is "
                    + "not posted here. Try again in a while.")
        }
    }

    func invoker(sender: String, room: String) async throws -> Invoker {
        var isAdmin = config.isConfiguredAdmin(platform: "matrix", userID: sender)
        if !isAdmin, let client {
            isAdmin = ((try? await client.powerLevel(of: sender, in: room)) ?? 0) >= 50
        }
        let localpart = sender.dropFirst().split(separator: ":").first.map(String.init) ?? sender
        return Invoker(
            platform: .matrix, userID: sender, displayName: localpart, community: "matrix:\(room)", channel: room,
            channelIsAgeRestricted: false, isAdmin: isAdmin)
    }
}

/// Compares secrets in time that does not depend on where they differ.
func constantTimeEquals(_ a: String, _ b: String) -> Bool {
    let x = Array(a.utf8)
    let y = Array(b.utf8)
    var difference = UInt8(x.count == y.count ? 0 : 1)
    for i in 0..<max(x.count, y.count) {
        difference |= (i < x.count ? x[i] : 0) ^ (i < y.count ? y[i] : 0)
    }
    return difference == 0
}
