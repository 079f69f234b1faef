import ArgumentParser
import Foundation
import GGTrackerCore
import GGTrackerServer
import GGTrackerStorage

// The data: one player's export, and the database itself (migrate, back up, restore, copy).

struct ExportLibrary: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write one player's library, wishlist, reviews, tags and notes as CSV or JSON.",
        discussion: "Example: ggtracker export --user discord:111111111111111111 --format json --output ada.json")

    @OptionGroup var options: ConfigOptions
    @Option(help: "The player: platform:id, as discord:111111111111111111 or matrix:@ada:example.org.") var user: String
    @Option(help: "csv or json.") var format = "csv"
    @Option(help: "Output file; - for standard output.") var output = "-"

    func validate() throws {
        guard LibraryExport.Format(rawValue: format) != nil else {
            throw ValidationError("--format is csv or json, not \(format).")
        }
    }

    func run() async throws {
        let format = LibraryExport.Format(rawValue: format) ?? .csv
        let database = try await AppDatabase.open(try options.load().databasePath)
        guard let export = try await database.library.export(of: PlayerID(user), at: Date()) else {
            throw CommandFailure(
                "No player \(user) in this database: give --user as platform:id."
                    + (try await terminalPlayerHint(user, in: database)))
        }
        let data = try export.data(format)
        if output == "-" {
            FileHandle.standardOutput.write(data)
        } else {
            try data.write(to: URL(fileURLWithPath: output))
            FileHandle.standardError.write(
                Data(
                    ("Wrote \(Format.count(export.entries.count, "library entry", plural: "library entries")) and "
                        + "\(Format.count(export.wishlist.count, "wish", plural: "wishes")) to \(output).\n").utf8))
        }
    }
}

struct ImportLibrary: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract:
            "Bring a CSV export (Grouvee, HowLongToBeat, GGTracker) or a Steam library into one player's library.",
        discussion: """
            Adds what is missing and never changes what the player wrote; hours only go up; running it again \
            changes nothing. Examples: ggtracker import grouvee.csv --user discord:111111111111111111
            ggtracker import --steam gabelogannewell --user discord:111111111111111111
            """)

    @OptionGroup var options: ConfigOptions
    @Argument(help: "The CSV file (at most 5 MB).") var file: String?
    @Option(help: "The player: platform:id, as discord:111111111111111111 or matrix:@ada:example.org.") var user: String
    @Option(help: "auto, grouvee, hltb or ggtracker.") var format = "auto"
    @Option(help: "Import this Steam account (SteamID64 or custom URL name) instead of a file.") var steam: String?

    func validate() throws {
        guard ImportFormat(rawValue: format) != nil else {
            throw ValidationError("--format is auto, grouvee, hltb or ggtracker, not \(format).")
        }
        guard file != nil || steam != nil else { throw ValidationError("Give a CSV file or --steam ACCOUNT.") }
    }

    func run() async throws {
        let format = ImportFormat(rawValue: format) ?? .auto
        let config = try options.load()
        guard user.contains(":") else {
            let hint = try await terminalPlayerHint(user, in: try await AppDatabase.open(config.databasePath))
            throw CommandFailure("Give --user as platform:id, as discord:111111111111111111." + hint)
        }
        // A file is read before the catalog is loaded: one that cannot be read or parsed is said at once.
        let fromFile = try steam == nil ? file.map { try Self.items(in: $0, as: format) } : nil
        let services = try await AppServices.open(config: config, logger: makeLogger())
        let (items, source): ([ImportItem], String)
        if let steam {
            guard let sources = services.bot.sources else { throw CommandFailure("Imports are not available.") }
            do {
                (items, source) = (try await sources.steamGames(of: steam), "Steam")
            } catch let error as ImportSourceError {
                throw CommandFailure(error.message + " Nothing was imported.")
            }
        } else {
            // `validate()` asks for a file or --steam.
            (items, source) = fromFile!
        }
        let summary = try await services.bot.importLibrary(
            items, source: source, player: PlayerID(user),
            displayName: user.split(separator: ":").dropFirst()
                .joined(separator: ":"), at: Date()
        ) { done, total in
            FileHandle.standardError.write(Data("looked up \(done) of \(total) games\n".utf8))
        }
        print(summary.text.plainText(now: Date()))
    }
}

extension ImportLibrary {
    /// The games of a CSV export, with the name of the tracker it came from.
    static func items(in file: String, as format: ImportFormat) throws -> ([ImportItem], String) {
        guard let data = FileManager.default.contents(atPath: file) else {
            throw CommandFailure("Cannot read \(file).")
        }
        do {
            let (detected, items) = try format.items(from: data)
            return (items, detected.label)
        } catch {
            throw CommandFailure("\(file) \(error). Nothing was imported.")
        }
    }
}

struct DB: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "db", abstract: "The database.", subcommands: [Migrate.self, Backup.self, Restore.self, Copy.self])

    struct Migrate: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Create the database or bring its schema up to date.")
        @OptionGroup var options: ConfigOptions

        func run() async throws {
            let config = try options.load()
            _ = try await AppDatabase.open(config.databasePath)
            print("\(config.databaseName) is up to date.")
        }
    }

    struct Backup: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write a consistent copy of the database to FILE, safe while the server runs.")
        @OptionGroup var options: ConfigOptions
        @Argument(help: "Where to write the copy.") var file: String

        func run() async throws {
            let config = try options.load()
            let database = try await AppDatabase.open(config.databasePath)
            do {
                try database.backup(to: file)
            } catch let error as AppDatabase.RestoreError {
                throw CommandFailure("Cannot back up: \(error.description). Nothing was written.")
            }
            print("Backed up \(config.databasePath) to \(file).")
        }
    }

    struct Restore: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Replace the database with a backup made by `db backup`. Stop the server first.")
        @OptionGroup var options: ConfigOptions
        @Argument(help: "The backup file.") var file: String

        func run() async throws {
            let config = try options.load()
            let database = try await AppDatabase.open(config.databasePath)
            do {
                try database.restore(from: file)
            } catch let error as AppDatabase.RestoreError {
                FileHandle.standardError.write(
                    Data("Cannot restore: \(error.description). The database was not changed.\n".utf8))
                throw ExitCode.failure
            }
            print("Restored \(config.databasePath) from \(file).")
        }
    }
}

extension DB {
    struct Copy: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Copy a whole installation between databases (SQLite ⇄ PostgreSQL), checked by counting rows.",
            discussion: """
                The target must be empty; its schema is created first. Stop the servers using the source while \
                copying, or writes made during the copy are left behind.
                """)
        @Option(help: "The database to copy: sqlite:FILE, a file path, or postgres://user:password@host:port/db")
        var from: String
        @Option(help: "The empty database to fill, written the same way.") var to: String

        func run() async throws {
            do {
                let source = try await AppDatabase.open(DatabaseLocation(from), creating: false)
                let target = try await AppDatabase.open(to)
                let start = Date()
                let counts = try await target.copy(from: source)
                for (table, rows) in counts where rows > 0 { print("\(table): \(rows) rows") }
                print(
                    "Copied \(counts.map(\.rows).reduce(0, +)) rows in \(counts.count) tables in "
                        + String(format: "%.1f s", Date().timeIntervalSince(start)) + "; every table's count matches.")
            } catch let error as CopyError {
                FileHandle.standardError.write(Data("Cannot copy: \(error.description).\n".utf8))
                throw ExitCode.failure
            } catch let error as InvalidDatabaseLocation {
                FileHandle.standardError.write(Data("Cannot copy: \(error.description).\n".utf8))
                throw ExitCode.failure
            }
        }
    }
}

/// " Did you mean cli:ada …?" when `user` has no platform and someone used `ggtracker run --user` with that name.
func terminalPlayerHint(_ user: String, in database: AppDatabase) async throws -> String {
    guard !user.contains(":"), try await database.library.player(PlayerID("cli:\(user)")) != nil else { return "" }
    return " Did you mean cli:\(user) (who used ggtracker run --user \(user))?"
}
