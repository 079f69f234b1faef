import ArgumentParser
import Foundation
import GGTrackerBench
import GGTrackerCatalog
import GGTrackerCore
import GGTrackerServer
import GGTrackerStorage
import Hummingbird
import Logging
import NIOCore
import NIOPosix

@main
struct GGTrackerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ggtracker",
        abstract: "A game-tracking bot for Discord, Matrix and Slack: keep your game library with your friends.",
        version: AppServices.version,
        subcommands: [
            Serve.self, Run.self, ExportLibrary.self, ImportLibrary.self, Commands.self, Catalog.self, DB.self,
            Matrix.self, Alerts.self,
            Bench.self,
        ])

    /// Parses the command line and runs the command. Before `serve`, NIO's event loops become the executor of every
    /// task, so a request is verified, answered and written on the thread that read it, with no hop to another pool
    /// and back: on SQLite its reads and commits run there; on PostgreSQL its statements are sent from, and their
    /// answers read on, that thread (no transaction blocks a thread).
    @MainActor
    static func main() async {
        do {
            // A process pinned to fewer CPUs than the machine has (`taskset`, a container's cpuset) runs as many
            // event loops as it may use: more would only take turns on the same cores, handing work between them.
            if Processors.usable < System.coreCount { NIOSingletons.groupLoopCountSuggestion = Processors.usable }
            var command = try parseAsRoot()
            if command is Serve {
                NIOSingletons.unsafeTryInstallSingletonPosixEventLoopGroupAsConcurrencyGlobalExecutor()
            }
            if var command = command as? any AsyncParsableCommand {
                try await command.run()
            } else {
                try command.run()
            }
        } catch {
            exit(withError: error)
        }
    }
}

/// Options shared by every subcommand that reads the configuration.
struct ConfigOptions: ParsableArguments {
    @Option(help: "The config file (default: config/ggtracker.toml when it exists).")
    var config: String?

    @Option(
        help:
            "The database: a SQLite file (or sqlite:FILE), or postgres://user:password@host:port/db (overrides GGTRACKER_DATABASE)."
    )
    var database: String?

    func load(_ extra: [String: String] = [:]) throws -> AppConfig {
        var overrides = extra
        if let database { overrides["GGTRACKER_DATABASE"] = database }
        do {
            return try AppConfig.load(file: config, overrides: overrides)
        } catch let error as AppConfig.Invalid {
            throw CommandFailure("Configuration: \(error.description)")
        }
    }
}

/// A command that could not do its work for a reason other than how it was typed (a setting missing, a file
/// unreadable): printed as "Error: …" with exit status 1, without the usage line a mistyped command gets.
struct CommandFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// Logs go to standard error, so `run` and `commands export -` print only their answer on standard output:
/// one JSON object per line with `LOG_FORMAT=json`, readable text otherwise.
private let loggingBootstrap: Void =
    ProcessInfo.processInfo.environment["LOG_FORMAT"]?.lowercased() == "json"
    ? LoggingSystem.bootstrap(JSONLogHandler.init(label:)) : LoggingSystem.bootstrap(StreamLogHandler.standardError)

func makeLogger() -> Logger {
    _ = loggingBootstrap
    var logger = Logger(label: "ggtracker")
    logger.logLevel = ProcessInfo.processInfo.environment["LOG_LEVEL"].flatMap { Logger.Level(rawValue: $0) } ?? .info
    return logger
}

struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Run the bot's HTTP server.")

    @OptionGroup var options: ConfigOptions
    @Option(help: "Address to listen on (overrides GGTRACKER_HOST).") var host: String?
    @Option(help: "Port to listen on (overrides GGTRACKER_PORT).") var port: Int?

    func config() throws -> AppConfig {
        var flags: [String: String] = [:]
        if let host { flags["GGTRACKER_HOST"] = host }
        if let port { flags["GGTRACKER_PORT"] = String(port) }
        return try options.load(flags)
    }

    func run() async throws {
        let config = try config()
        let logger = makeLogger()
        // A port already taken is found before anything starts: once the server runs, a failed listen tears the
        // running services down, which is slower and has been seen to hang in the shutdown of their group.
        do {
            try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
                .bind(host: config.host, port: config.port).get().close()
        } catch let error as IOError where error.errnoCode == EADDRINUSE {
            Self.portInUse(config)
        }
        let services = try await AppServices.open(config: config, logger: logger)
        if config.discordPublicKey == nil {
            logger.warning("DISCORD_PUBLIC_KEY is not set: /discord/interactions answers 503 until it is")
        }
        logger.info(
            "serving",
            metadata: [
                "address": "\(config.host):\(config.port)", "database": "\(config.databaseName)",
                "catalog": "\(config.catalog.rawValue)",
            ])
        do {
            try await serve(services, logger: logger)
        } catch let error as IOError where error.errnoCode == EADDRINUSE {
            Self.portInUse(config)
        }
    }

    /// Says the port is taken and ends the process with status 1.
    static func portInUse(_ config: AppConfig) -> Never {
        let message =
            "Cannot listen on \(config.host):\(config.port): another program (perhaps another ggtracker serve) "
            + "is using that port. Stop it, or choose another with --port or GGTRACKER_PORT.\n"
        FileHandle.standardError.write(Data(message.utf8))
        Foundation.exit(1)
    }
}

struct Run: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Answer one command in the terminal, through the same code path as chat.",
        discussion: "Example: ggtracker run \"/add title:Hollow Knight status:playing\" --user alice")

    @OptionGroup var options: ConfigOptions
    @Argument(help: "The command line, e.g. \"/search query:zelda\".") var line: String
    @Option(help: "Who is asking (a name or id).") var user = "local"
    @Option(help: "The server (community) the command comes from.") var server = "terminal"
    @Flag(help: "Run as a server admin.") var admin = false
    @Flag(help: "Run as if in an age-restricted channel.") var ageRestricted = false

    func run() async throws {
        let config = try options.load()
        let services = try await AppServices.open(config: config, logger: makeLogger())
        let invoker = Invoker(
            platform: .cli, userID: user, displayName: user, community: "cli:\(server)", channel: nil,
            channelIsAgeRestricted: ageRestricted,
            isAdmin: admin || config.isConfiguredAdmin(platform: "cli", userID: user))
        let reply = try await services.bot.respond(toLine: line, from: invoker)
        print(reply.plainText())
        // Work that goes on after the answer (a catalog refresh) is followed to its end here: the process would
        // otherwise stop it.
        if let updates = reply.updates {
            for await update in updates.stream { print(update.plainText()) }
        }
    }
}

struct Commands: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Discord slash-command definitions.", subcommands: [Export.self, Register.self])

    struct Export: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write the definitions as JSON (the body Discord's bulk overwrite takes).")
        @Option(help: "Output file; - for standard output.") var output = "commands/commands.json"
        @Flag(help: "Fail if the file differs from what the code declares, instead of writing it.") var check = false

        func run() async throws {
            let data = try DiscordCommandDefinition.exportJSON()
            if output == "-" {
                FileHandle.standardOutput.write(data)
                return
            }
            if check {
                let current = FileManager.default.contents(atPath: output)
                guard current == data else {
                    throw CommandFailure("\(output) is out of date: run `ggtracker commands export` and commit it.")
                }
                print("\(output) matches the command declarations.")
                return
            }
            let url = URL(fileURLWithPath: output)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try data.write(to: url)
            print("Wrote \(DiscordCommandDefinition.all.count) commands to \(output).")
        }
    }

    struct Register: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Send the definitions to Discord (global, or to one guild for instant updates).")
        @OptionGroup var options: ConfigOptions
        @Option(help: "A guild id: register there only.") var guild: String?

        func run() async throws {
            let config = try options.load()
            guard let app = config.discordApplicationID else {
                throw CommandFailure("DISCORD_APPLICATION_ID is not set.")
            }
            guard let token = config.discordBotToken else { throw CommandFailure("DISCORD_BOT_TOKEN is not set.") }
            let count = try await DiscordCommandRegistrar(
                apiBase: config.discordAPIBase, applicationID: app, botToken: token
            )
            .register(guild: guild)
            print("Registered \(count) commands \(guild.map { "in guild \($0)" } ?? "globally").")
        }
    }
}

struct Catalog: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "The local game catalog.", subcommands: [Import.self, Status.self, Refresh.self])

    struct Import: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Load games in IGDB's JSON shape (a JSON array or JSON Lines, optionally gzip-compressed).")
        @OptionGroup var options: ConfigOptions
        @Argument(help: "The file to import.") var file: String

        func run() async throws {
            let config = try options.load()
            let database = try await AppDatabase.open(config.databasePath)
            let start = Date()
            var importer = CatalogImporter(database: database)
            importer.alone = true
            let report = try await importer.importFile(file) { seen in
                FileHandle.standardError.write(Data("\rimported \(seen) games…".utf8))
            }
            FileHandle.standardError.write(Data("\n".utf8))
            for problem in report.problems.prefix(50) { print("skipped: \(problem.message)") }
            if report.problems.count > 50 { print("…and \(report.problems.count - 50) more skipped lines") }
            let seconds = Date().timeIntervalSince(start)
            print(
                "Imported \(report.added) new and \(report.updated) updated games, skipped \(report.skipped), in \(String(format: "%.1f", seconds)) s."
            )
        }
    }

    struct Status: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Provider, size and last refresh of the catalog.")
        @OptionGroup var options: ConfigOptions

        func run() async throws {
            let services = try await AppServices.open(config: try options.load(), logger: makeLogger())
            let status = try await services.catalog.status()
            print("provider: \(status.provider)")
            print("games: \(status.games)")
            print("last refresh: \(status.lastRefresh.map { "\($0)" } ?? "never")")
            print(status.attribution)
        }
    }

    struct Refresh: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Refresh the catalog from its provider.")
        @OptionGroup var options: ConfigOptions
        @Flag(help: "Fetch everything, not only what changed.") var full = false

        func run() async throws {
            let services = try await AppServices.open(config: try options.load(), logger: makeLogger())
            let summary = try await services.catalog.refresh(full: full) { progress in
                FileHandle.standardError.write(Data(progressBar(progress).utf8))
            }
            FileHandle.standardError.write(Data("\n".utf8))
            print(
                "Refreshed: \(summary.sentence)."
            )
        }
    }
}

/// `[██████░░░░] 3000/5000 games · 1240/s · ETA 2 s`, redrawn in place.
func progressBar(_ progress: RefreshProgress) -> String {
    let width = 24
    let fraction = progress.total.map { $0 > 0 ? min(1, Double(progress.done) / Double($0)) : 1 } ?? 0
    let filled = Int(fraction * Double(width))
    let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
    let total = progress.total.map { "/\($0)" } ?? ""
    let eta = progress.eta.map { " · ETA \(Int($0.rounded())) s" } ?? ""
    return "\r[\(bar)] \(progress.done)\(total) games · \(Int(progress.rate))/s\(eta)   "
}

struct Matrix: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "The Matrix application service.", subcommands: [Registration.self])

    struct Registration: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print the registration YAML for the homeserver, from the configuration.")
        @OptionGroup var options: ConfigOptions

        func run() async throws {
            let (text, generated) = MatrixRegistration.yaml(config: try options.load())
            print(text, terminator: "")
            if generated {
                FileHandle.standardError.write(
                    Data(
                        "note: MATRIX_AS_TOKEN or MATRIX_HS_TOKEN is not set; new random tokens were printed. Set the same values for the bot.\n"
                            .utf8))
            }
        }
    }
}

struct Alerts: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Release alerts: wishlisted games out today, announced in each server's channel.",
        subcommands: [Check.self])

    struct Check: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Send the release alerts due now (for cron); prints each one sent.")
        @OptionGroup var options: ConfigOptions

        func run() async throws {
            let config = try options.load()
            guard config.discordBotToken != nil else {
                throw CommandFailure("DISCORD_BOT_TOKEN is not set: release alerts are posted with the bot's token.")
            }
            let database = try await AppDatabase.open(config.databasePath)
            defer { try? database.close() }
            let sent = try await ReleaseAlerts(database: database, config: config, logger: Logger(label: "ggtracker"))
                .check()
            for line in sent { print("Out today: \(line)") }
            print(
                sent.isEmpty
                    ? "No release alerts due." : "Sent \(sent.count) release alert\(sent.count == 1 ? "" : "s").")
        }
    }
}
