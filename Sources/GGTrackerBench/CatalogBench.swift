import ArgumentParser
import AsyncHTTPClient
@preconcurrency import Crypto
import Foundation
import GGTrackerCatalog
import GGTrackerCore
import GGTrackerStorage
import NIOCore
import Synchronization

// MARK: - Catalog

struct CatalogBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "catalog",
        abstract: "Import rate of a catalog file, then search and autocomplete latency over it.")
    @Option(help: "The catalog file (IGDB-shaped JSON Lines, gzip or not).")
    var file = "../shared/data/igdb_unifidb_games.jsonl.gz"
    @Option(help: "Import runs, each into an empty database (with --peer: each program's, in turns).") var runs = 3
    @Option(help: "Times each query is run.") var repeats = 30
    @Option(help: "Search this existing catalog database instead of importing (to profile searches).")
    var database: String?
    @Option(
        help:
            "Folder of another server with the same command line (its `ggtracker`): import the file into both and send both the same signed searches over HTTP, side by side."
    )
    var peer: String?
    @Option(help: "The core the servers are pinned to, with --peer.") var serverCore = 0
    @Option(help: "The core the client timing the queries runs on, with --peer.") var clientCore = 1
    @Option(help: "The servers' LOG_LEVEL, with --peer.") var logLevel = "info"
    @Option(
        help:
            "With --database: search each line of this file and write the ids of its first 10 results to --results-out, to compare rankings between builds."
    )
    var queries: String?
    @Option(help: "Where --queries writes its results (one line per query: the query, a tab, the ids).")
    var resultsOut = "search-results.tsv"

    static let broad = ["witch", "super mario", "zelda", "final fantasy", "pokemon", "call of duty", "star wars"]
    static let multiWord = [
        "the witcher 3 wild hunt", "grand theft auto san andreas", "red dead redemption 2", "dark souls remastered",
        "hollow knight silksong",
    ]
    /// Typos with the game the user meant.
    static let typos = [
        ("zeldda", "Zelda"), ("mincraft", "Minecraft"), ("skyrm", "Skyrim"), ("stardew vally", "Stardew Valley"),
        ("fnal fantasy vii", "Final Fantasy VII"), ("hollow knigt", "Hollow Knight"), ("portl 2", "Portal 2"),
        ("super maro odyssey", "Super Mario Odyssey"), ("half lfe 2", "Half-Life 2"),
    ]

    func validate() throws {
        guard runs >= 1 else { throw ValidationError("--runs must be at least 1") }
        guard repeats >= 1 else { throw ValidationError("--repeats must be at least 1") }
        try ServerUnderTest.validatePeer(peer)
    }

    func run() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ggtracker-bench-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        if let peer {
            try Pinned.moveHarness(to: "\(clientCore)")
            return try await CatalogSideBySide(
                file: file, peerFolder: peer, runs: runs, repeats: repeats, serverCore: serverCore,
                logLevel: logLevel, directory: directory
            ).run()
        }
        var rates = Samples()
        var database: AppDatabase!
        var games = 0
        if let path = self.database {
            database = try AppDatabase.open(path: path)
            games = try await database.catalog.gameCount()
        }
        for run in (1..<(runs + 1)).filter({ _ in self.database == nil }) {
            let path = directory.appendingPathComponent("catalog-\(run).sqlite").path
            database = try AppDatabase.open(path: path)
            let start = ContinuousClock.now
            let report = try await CatalogImporter(database: database).importFile(file)
            let elapsed = (ContinuousClock.now - start).seconds
            games = report.added + report.updated
            rates.add(Double(games) / elapsed)
            say(
                "  import run \(run): \(games) games in \(format(elapsed)) s = \(format(Double(games) / elapsed, 0))/s, \(report.skipped) skipped, peak memory \(format(memory().peak, 0)) MB"
            )
        }
        let start = ContinuousClock.now
        let catalog = try await LocalCatalog(database: database)
        let vocabularySeconds = (ContinuousClock.now - start).seconds
        say("  typo-correction vocabulary loaded in \(format(vocabularySeconds)) s")
        if let queries {
            return try await writeResults(of: queries, catalog: catalog)
        }

        func time(_ samples: inout Samples, _ work: () async throws -> Void) async rethrows {
            let start = ContinuousClock.now
            try await work()
            samples.add((ContinuousClock.now - start).seconds * 1000)
        }
        var search = Samples()
        var typoSearch = Samples()
        var autocomplete = Samples()
        let prefixes = (Self.broad + Self.multiWord + Self.typos.map(\.0)).flatMap { query in
            (2...query.count).map { String(query.prefix($0)) }
        }
        for _ in 0..<repeats {
            for query in Self.broad + Self.multiWord {
                try await time(&search) { _ = try await catalog.search(query, filter: CatalogFilter(), limit: 10) }
            }
            for (query, _) in Self.typos {
                try await time(&typoSearch) {
                    _ = try await catalog.search(query, filter: CatalogFilter(), limit: 10)
                }
            }
            for prefix in prefixes {
                try await time(&autocomplete) {
                    _ = try await catalog.autocomplete(prefix, includeMature: true, limit: 25)
                }
            }
        }
        var found = 0
        for (query, meant) in Self.typos {
            let top = try await catalog.search(query, filter: CatalogFilter(), limit: 10).first?.game.name ?? "nothing"
            let hit = top.localizedCaseInsensitiveContains(meant)
            if hit { found += 1 }
            say("  “\(query)” → \(top)\(hit ? "" : "  (meant \(meant))")")
        }
        let all = Samples(values: search.values + typoSearch.values)
        say(
            """

            | measure (\(games) games) | p50 | p99 | target |
            | --- | --- | --- | --- |
            | import, games/s (median of \(runs)) | \(format(rates.median, 0)) | — | ≥ 100,000 |
            | search, all queries | \(format(all.median, 3)) ms | \(format(all.percentile(99), 3)) ms | p99 < 3 ms |
            | search, typo queries (\(found) of \(Self.typos.count) find the game) | \(format(typoSearch.median, 3)) ms | \(format(typoSearch.percentile(99), 3)) ms | p99 < 3 ms |
            | autocomplete (\(prefixes.count) prefixes) | \(format(autocomplete.median, 3)) ms | \(format(autocomplete.percentile(99), 3)) ms | p99 < 2 ms |
            | peak memory of the import and searches | \(format(memory().peak, 0)) MB | | < 100 MB |
            """)
    }

    /// Searches every line of `file` and writes the query and its first results' ids, one line each.
    func writeResults(of file: String, catalog: LocalCatalog) async throws {
        var lines: [String] = []
        var samples = Samples()
        for query in try String(contentsOfFile: file, encoding: .utf8).split(separator: "\n") {
            let start = ContinuousClock.now
            let hits = try await catalog.search(String(query), filter: CatalogFilter(includeMature: true), limit: 10)
            samples.add((ContinuousClock.now - start).seconds * 1000)
            lines.append("\(query)\t" + hits.map { String($0.game.id) }.joined(separator: " "))
        }
        // Written in place, not through a file renamed over it: `--results-out /dev/null` must stay a device.
        try (lines.joined(separator: "\n") + "\n").write(toFile: resultsOut, atomically: false, encoding: .utf8)
        say(
            "  \(lines.count) queries: p50 \(format(samples.median, 3)) ms, p99 \(format(samples.percentile(99), 3)) ms, total \(format(samples.values.reduce(0, +), 0)) ms; results in \(resultsOut)"
        )
    }
}
