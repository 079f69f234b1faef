import ArgumentParser
import Foundation
import GGTrackerCatalog
import GGTrackerCore
import GGTrackerStorage

/// `ggtracker bench steam-import`: a Steam library of `--games` games (most known to the catalog by app id, some
/// only by name, some unknown) read from a local stand-in of the Steam Web API, matched and stored for a new
/// player; then the same import again, which changes nothing.
struct SteamImportBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "steam-import",
        abstract: "Import a large Steam library (from a local stand-in of the Steam Web API) into the bundled catalog.")

    @Option(help: "Games in the library.") var games = 2_000
    @Option(help: "Imports timed (each into a new player, then again into the same one).") var runs = 3

    func run() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ggtracker-steam-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let database = try AppDatabase.open(path: directory.appendingPathComponent("bench.sqlite").path)
        let catalog = try await LocalCatalog(database: database)
        let loaded = try await catalog.loadBundledIfEmpty()
        try await catalog.reloadVocabulary()
        let library = try await Self.library(database, games: games)
        say(
            "Steam import: \(library.count) games (\(library.filter { $0.byID }.count) with an app id the catalog knows, \(library.filter { !$0.byID && $0.known }.count) known by name only, \(library.filter { !$0.known }.count) unknown) into a catalog of \(loaded) games"
        )
        // The stand-in: GetOwnedGames' answer as a file, served by Python's web server (the query is ignored).
        let endpoint = directory.appendingPathComponent("api/IPlayerService/GetOwnedGames/v1")
        try FileManager.default.createDirectory(at: endpoint, withIntermediateDirectories: true)
        let answer: [String: Any] = [
            "response": [
                "game_count": library.count,
                "games": library.enumerated().map { index, game in
                    ["appid": game.appID, "name": game.name, "playtime_forever": index % 3 == 0 ? 0 : index * 7]
                },
            ]
        ]
        try JSONSerialization.data(withJSONObject: answer).write(to: endpoint.appendingPathComponent("index.html"))
        let port = Int.random(in: 20_000..<60_000)
        let server = Process()
        server.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        server.arguments = [
            "python3", "-m", "http.server", String(port), "--bind", "127.0.0.1", "--directory",
            directory.appendingPathComponent("api").path,
        ]
        server.standardError = FileHandle.nullDevice
        server.standardOutput = FileHandle.nullDevice
        try server.run()
        defer { server.terminate() }
        let sources = LibrarySourcesClient(
            steamAPIBase: "http://127.0.0.1:\(port)", steamAPIKey: "bench", attachmentBases: [])
        for _ in 0..<50 where (try? await sources.steamGames(of: "76561197960287930")) == nil {
            try await Task.sleep(for: .milliseconds(100))
        }
        let bot = GGTrackerBot(catalog: catalog, store: database.stores, info: BotInfo(version: "bench"))
        var first = Samples()
        var again = Samples()
        for run in 1...runs {
            let player = PlayerID("bench:player-\(run)")
            for repeated in [false, true] {
                let start = ContinuousClock.now
                let items = try await sources.steamGames(of: "76561197960287930")
                let fetched = ContinuousClock.now
                let summary = try await bot.importLibrary(
                    items, source: "Steam", player: player, displayName: "Player \(run)", at: Date())
                let end = ContinuousClock.now
                if repeated { again.add((end - start).seconds) } else { first.add((end - start).seconds) }
                say(
                    "  run \(run)\(repeated ? " again" : ""): \(format((end - start).seconds)) s (Steam \(format((fetched - start).seconds * 1000, 0)) ms, match and store \(format((end - fetched).seconds)) s): \(summary.counts.added) added, \(summary.counts.updated) updated, \(summary.counts.already) already there, \(summary.unmatched.count) not matched"
                )
            }
        }
        say(
            "Median: first import \(format(first.median)) s, the same again \(format(again.median)) s (\(library.count) games)"
        )
    }

    struct SteamGame {
        var appID: Int64
        var name: String
        var byID: Bool
        var known: Bool
    }

    /// 70 % games whose app id the catalog has, 20 % catalog names without an app id, 10 % names it lacks.
    static func library(_ database: AppDatabase, games: Int) async throws -> [SteamGame] {
        let byID = try await database.steamApps.sample(limit: games * 7 / 10)
        let named = try await database.steamApps.namesWithoutSteamApp(limit: games * 2 / 10)
        var library = byID.map { SteamGame(appID: $0.0, name: $0.1, byID: true, known: true) }
        library += named.enumerated().map {
            SteamGame(appID: 3_000_000 + Int64($0), name: $1, byID: false, known: true)
        }
        while library.count < games {
            let n = library.count
            library.append(
                SteamGame(appID: 4_000_000 + Int64(n), name: "Unreleased Prototype \(n)", byID: false, known: false))
        }
        return library
    }
}
