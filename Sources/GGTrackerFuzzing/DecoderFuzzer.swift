import Foundation
import GGTrackerCatalog
import GGTrackerCore
import GGTrackerServer
import GGTrackerStorage
import NIOCore

/// Feeds untrusted bytes to every decoder that runs once a request's signature has been checked, the way the
/// endpoints call them: the Discord interaction (decoded, turned into an invoker and a command, validated),
/// the Matrix transaction (events and `!gg` lines), the Slack form (slash command text and button payloads),
/// the text command parser, and the catalog import's line reader and game mapping. Used by the property tests and by the libFuzzer target.
package struct DecoderFuzzer: Sendable {
    let discord: DiscordInteractionController

    package init() async throws {
        let database = try AppDatabase.inMemory()
        let services = AppServices(
            config: AppConfig(), database: database, catalog: try await LocalCatalog(database: database))
        discord = .decoding(services)
    }

    /// What the decoders made of one input.
    package struct Outcome: Sendable {
        package var discordCommand: String?
        package var matrixEvents = 0
        package var slackLine: String?
        package var parsedCommand: String?
        package var importedGame: String?
        /// The same, read by the import's typed line reader.
        package var importedGameTyped: String?
    }

    package func run(_ data: Data) async -> Outcome {
        var outcome = Outcome()
        let decoded = try? JSONDecoder().decode(DiscordInteraction.self, from: data)
        // What the reader takes straight from the bytes is what the decoder makes of them.
        if let read = data.withUnsafeBytes(DiscordInteraction.read) {
            precondition(read == decoded, "the interaction reader and the decoder differ")
        }
        if let interaction = decoded {
            _ = try? discord.invoker(for: interaction)
            if let (invocation, name) = try? await discord.invocation(for: interaction) {
                _ = try? BotCommand(invocation)
                outcome.discordCommand = name
            }
        }
        if let events = try? JSONDecoder().decode(MatrixTransaction.self, from: data).events {
            for event in events.compactMap({ $0 }) {
                outcome.matrixEvents += 1
                if let line = event.commandLine { Self.command(line) }
            }
        }
        let form = SlackController.form(ByteBuffer(data: data))
        if let text = form["text"] { Self.command(text) }
        if let press = SlackController.press(in: form) {
            outcome.slackLine = press.line
            Self.command(press.line, fromComponent: true)
        }
        if let object = try? JSONLineReader().object(data) {
            outcome.importedGame = (try? IGDBGameMapping.record(from: object))?.game.name
        }
        if let fields = try? JSONLineReader().igdbFields(data) {
            outcome.importedGameTyped = (try? IGDBGameMapping.record(from: fields))?.game.name
        }
        let text = String(decoding: data, as: UTF8.self)
        outcome.parsedCommand = Self.command(text)
        Self.command(text, fromComponent: true)
        return outcome
    }

    /// Parses and validates a command line; the command's name when it is valid.
    @discardableResult
    package static func command(_ line: String, fromComponent: Bool = false) -> String? {
        guard let invocation = try? TextCommandParser.parse(line, fromComponent: fromComponent),
            (try? BotCommand(invocation)) != nil
        else { return nil }
        return invocation.path.first
    }
}
