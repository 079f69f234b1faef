import AsyncHTTPClient
@preconcurrency import Crypto
import Foundation
import GGTrackerCore
import Testing

@testable import GGTrackerServer

/// No setting that is a secret reaches a log line or a printed value, at any log level.
@Suite("Secrets stay out of the log")
struct SecretsInLogTests {
    static let secrets = [
        "DISCORD_BOT_TOKEN": "bot-SECRET-7f1d2a", "MATRIX_AS_TOKEN": "as-SECRET-93b0c4",
        "MATRIX_HS_TOKEN": "hs-SECRET-5e6f71", "SLACK_SIGNING_SECRET": "slack-SECRET-a8c2d9",
        "IGDB_CLIENT_SECRET": "igdb-SECRET-04ce3b", "GIANTBOMB_API_KEY": "gb-SECRET-c9d1e2",
        "SLACK_BOT_TOKEN": "xoxb-SECRET-77d3e1",
    ]

    @Test func theConfigurationPrintsWithoutItsSecrets() throws {
        var environment = Self.secrets
        environment["GGTRACKER_DATABASE"] = "postgres://bot:pg-SECRET-11aa22@127.0.0.1:5432/ggtracker"
        environment["IGDB_CLIENT_ID"] = "client-id"
        environment["MATRIX_HOMESERVER_URL"] = "http://127.0.0.1:8008"
        let config = try AppConfig.load(file: nil, environment: environment)
        var dumped = ""
        dump(config, to: &dumped)
        let printed = ["\(config)", String(reflecting: config), dumped, "\([config])"]
        for text in printed {
            for secret in Array(Self.secrets.values) + ["pg-SECRET-11aa22"] {
                #expect(!text.contains(secret), "\(secret) printed in \(text)")
            }
        }
        #expect("\(config)".contains("slackSigningSecret: set") && "\(config)".contains("bot@127.0.0.1:5432"))
    }

    @Test(.enabled(if: ServerProcess.binaryExists, "needs the built ggtracker binary"), .timeLimit(.minutes(5)))
    func aTraceRunOfTheServerLogsNoSecret() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("secrets-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let key = Curve25519.Signing.PrivateKey()
        let port = Int.random(in: 20_000..<40_000)
        var environment = Self.secrets
        environment["LOG_LEVEL"] = "trace"
        environment["MATRIX_HOMESERVER_URL"] = "http://127.0.0.1:9"
        environment["IGDB_CLIENT_ID"] = "client-id"
        let log = directory.appendingPathComponent("server.log")
        let server = try ServerProcess(
            database: directory.appendingPathComponent("db.sqlite").path, port: port,
            publicKey: key.publicKey.rawRepresentation.map { String(format: "%02x", $0) }.joined(), log: log,
            environment: environment)
        let http = HTTPClient(eventLoopGroupProvider: .singleton)
        do {
            try await server.waitUntilReady(http)
            let sender = SignedSender(http: http, key: key, port: port)
            _ = await sender.send(Interaction.command("search", [Interaction.option("query", "celeste")]))
        } catch {
            server.kill(SIGKILL)
            try await http.shutdown()
            throw error
        }
        try await http.shutdown()
        server.kill(SIGTERM)
        #expect(server.waitForExit() == 0)
        let text = try String(contentsOf: log, encoding: .utf8)
        #expect(text.contains("trace") || text.contains("debug"), "the run logged at trace level")
        for (name, secret) in Self.secrets {
            #expect(!text.contains(secret), "\(name) appears in the log")
        }
    }
}
