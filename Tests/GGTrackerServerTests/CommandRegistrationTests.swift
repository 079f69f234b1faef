import Foundation
import GGTrackerCore
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import Testing

@testable import GGTrackerServer

/// What the fake Discord received.
actor Received {
    var requests: [(path: String, authorization: String?, body: Data)] = []
    func add(_ path: String, _ authorization: String?, _ body: Data) { requests.append((path, authorization, body)) }
}

/// A local stand-in for Discord's edit of an interaction's original message,
/// `PATCH /api/v10/webhooks/{application.id}/{interaction.token}/messages/@original`: each edit is recorded as
/// `{application.id}/{interaction.token}` with its body.
func fakeDiscordWebhooks(_ edits: Received?) -> some ApplicationProtocol {
    let router = Router()
    router.patch("/api/v10/webhooks/:app/:token/messages/@original") { request, context -> Response in
        let body = try await request.body.collect(upTo: 1 << 20)
        await edits?.add(
            "\(context.parameters.get("app") ?? "")/\(context.parameters.get("token") ?? "")", nil, Data(buffer: body))
        return Response(
            status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: "{}")))
    }
    return Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
}

/// A local stand-in for Discord's bulk-overwrite endpoints:
/// `PUT /applications/{application.id}/commands` and `PUT /applications/{application.id}/guilds/{guild.id}/commands`,
/// answering 401 without the right `Authorization: Bot …` header and 200 with the stored commands otherwise.
func fakeDiscord(token: String, received: Received) -> some ApplicationProtocol {
    let router = Router()
    @Sendable func overwrite(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        let body = try await request.body.collect(upTo: 1 << 20)
        let authorization = request.headers[.authorization]
        await received.add(request.uri.path, authorization, Data(buffer: body))
        guard authorization == "Bot \(token)" else {
            return Response(
                status: .unauthorized, headers: [.contentType: "application/json"],
                body: .init(byteBuffer: ByteBuffer(string: #"{"message": "401: Unauthorized", "code": 0}"#)))
        }
        guard let commands = try? JSONSerialization.jsonObject(with: Data(buffer: body)) as? [[String: Any]] else {
            return Response(
                status: .badRequest, headers: [.contentType: "application/json"],
                body: .init(byteBuffer: ByteBuffer(string: #"{"message": "Invalid Form Body", "code": 50035}"#)))
        }
        let stored = commands.enumerated().map { index, command -> [String: Any] in
            var c = command
            c["id"] = String(1_000_000_000_000_000 + index)
            c["application_id"] = context.parameters.get("app") ?? ""
            c["version"] = "1"
            return c
        }
        return Response(
            status: .ok, headers: [.contentType: "application/json"],
            body: .init(byteBuffer: ByteBuffer(data: try JSONSerialization.data(withJSONObject: stored))))
    }
    router.put("/api/v10/applications/:app/commands", use: overwrite)
    router.put("/api/v10/applications/:app/guilds/:guild/commands", use: overwrite)
    var logger = Logger(label: "fake-discord")
    logger.logLevel = .warning
    return Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)), logger: logger)
}

@Suite("Registering slash commands with Discord")
struct CommandRegistrationTests {
    @Test func bulkOverwriteSendsEveryDefinitionWithTheBotToken() async throws {
        let received = Received()
        try await fakeDiscord(token: "secret-token", received: received).test(.live) { client in
            let port = try #require(client.port)
            let registrar = DiscordCommandRegistrar(
                apiBase: "http://127.0.0.1:\(port)/api/v10", applicationID: "123456789012345678",
                botToken: "secret-token")
            let global = try await registrar.register(guild: nil)
            #expect(global == CommandName.allCases.count + DiscordUserCommand.allCases.count)
            let guild = try await registrar.register(guild: "900000000000000001")
            #expect(guild == CommandName.allCases.count + DiscordUserCommand.allCases.count)
        }
        let requests = await received.requests
        #expect(
            requests.map(\.path) == [
                "/api/v10/applications/123456789012345678/commands",
                "/api/v10/applications/123456789012345678/guilds/900000000000000001/commands",
            ])
        #expect(requests.first?.body == (try DiscordCommandDefinition.exportJSON()))
    }

    @Test func aWrongTokenIsReportedWithDiscordsAnswer() async throws {
        let received = Received()
        try await fakeDiscord(token: "secret-token", received: received).test(.live) { client in
            let port = try #require(client.port)
            let registrar = DiscordCommandRegistrar(
                apiBase: "http://127.0.0.1:\(port)/api/v10", applicationID: "1", botToken: "wrong")
            await #expect {
                try await registrar.register(guild: nil)
            } throws: { error in
                "\(error)".contains("Discord answered 401") && "\(error)".contains("Unauthorized")
            }
        }
    }
}
