import ArgumentParser
import AsyncHTTPClient
@preconcurrency import Crypto
import Foundation
import GGTrackerCatalog
import GGTrackerCore
import GGTrackerStorage
import NIOCore
import Synchronization

/// `ggtracker bench`: measurements of this machine, printed as medians and percentiles of repeated runs.
struct Bench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Measure the bot: signed interactions, latency, catalog search and import.",
        subcommands: [Interactions.self, CatalogBench.self, Verify.self, Load.self])
}

// MARK: - Statistics

struct Samples {
    var values: [Double] = []

    mutating func add(_ value: Double) { values.append(value) }

    func percentile(_ p: Double) -> Double {
        guard !values.isEmpty else { return .nan }
        let sorted = values.sorted()
        let rank = min(sorted.count - 1, max(0, Int((p / 100 * Double(sorted.count)).rounded(.up)) - 1))
        return sorted[rank]
    }

    var median: Double { percentile(50) }
}

/// Prints a line at once, also when standard output is a pipe.
func say(_ line: String) {
    print(line)
    fflush(nil)
}

func format(_ value: Double, _ digits: Int = 2) -> String { String(format: "%.\(digits)f", value) }

extension Duration {
    var seconds: Double {
        let (s, atto) = components
        return Double(s) + Double(atto) / 1e18
    }
}

/// Resident and peak memory of a process, in MiB, from `/proc/PID/status`.
func memory(of pid: Int32 = getpid()) -> (rss: Double, peak: Double) {
    guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return (0, 0) }
    func field(_ name: String) -> Double {
        guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix(name + ":") }) else { return 0 }
        return (Double(line.split(separator: " ").dropFirst().first ?? "0") ?? 0) / 1024
    }
    return (field("VmRSS"), field("VmHWM"))
}

// MARK: - Ed25519 ceiling

struct Verify: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Ed25519 verifications per second on one thread (run it pinned: taskset -c 0 …).")
    @Option(help: "Seconds to measure.") var seconds = 3.0
    @Flag(help: "Print only the number.") var quiet = false

    static func rate(seconds: Double) -> Double {
        let key = Curve25519.Signing.PrivateKey()
        let publicKey = key.publicKey
        // Messages the size of a signed `/list` interaction: timestamp + about 700 bytes of JSON.
        let messages = (0..<64).map { i in Data("1700000000".utf8) + Data(repeating: UInt8(33 + i), count: 700) }
        let signatures = messages.map { try! key.signature(for: $0) }
        var count = 0
        let clock = ContinuousClock()
        let start = clock.now
        while (clock.now - start).seconds < seconds {
            for i in messages.indices where publicKey.isValidSignature(signatures[i], for: messages[i]) { count += 1 }
        }
        return Double(count) / (clock.now - start).seconds
    }

    func run() async throws {
        let rate = Self.rate(seconds: seconds)
        say(quiet ? format(rate, 0) : "Ed25519 verifications per second on one thread: \(format(rate, 0))")
    }
}

// MARK: - Load generator

final class Counter: Sendable {
    let value = Atomic<Int>(0)
}

/// One pre-signed request: body, signature and timestamp.
struct SignedRequest: Codable {
    var body: String
    var signature: String
    var timestamp: String
}

struct LoadResult: Codable {
    var requests: Int
    var failures: Int
    var seconds: Double
    var rate: Double
    var p50: Double
    var p99: Double
    var p999: Double
}

struct Load: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Send pre-signed interactions from a file to a running server (used by `bench interactions`).")
    @Option(help: "A server's port; repeated, requests go to each in turn (replicas behind a balancer).")
    var port: [Int]
    @Option(help: "JSON file of pre-signed requests.") var file: String
    @Option(help: "Closed loop: requests in flight at once.") var connections = 32
    @Option(help: "Open loop: requests per second (0: closed loop).") var rate = 0
    @Option var seconds = 10.0
    @Option(help: "Use requests from this index on.") var offset = 0

    func run() async throws {
        let requests = try JSONDecoder().decode(
            [SignedRequest].self, from: Data(contentsOf: URL(fileURLWithPath: file)))
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = max(connections, 64)
        let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        let urls = port.map { "http://127.0.0.1:\($0)/discord/interactions" }
        let prepared = requests.dropFirst(offset).enumerated().map { index, r -> HTTPClientRequest in
            var request = HTTPClientRequest(url: urls[index % urls.count])
            request.method = .POST
            request.headers.add(name: "Content-Type", value: "application/json")
            request.headers.add(name: "X-Signature-Ed25519", value: r.signature)
            request.headers.add(name: "X-Signature-Timestamp", value: r.timestamp)
            request.body = .bytes(ByteBuffer(string: r.body))
            return request
        }
        let result =
            rate > 0
            ? try await openLoop(client, prepared) : try await closedLoop(client, prepared)
        try await client.shutdown()
        say(String(decoding: try JSONEncoder().encode(result), as: UTF8.self))
    }

    static func send(_ client: HTTPClient, _ request: HTTPClientRequest) async -> Bool {
        guard let response = try? await client.execute(request, timeout: .seconds(30)) else { return false }
        let ok = response.status == .ok
        _ = try? await response.body.collect(upTo: 1 << 20)
        return ok
    }

    func closedLoop(_ client: HTTPClient, _ requests: [HTTPClientRequest]) async throws -> LoadResult {
        let next = Counter()
        let clock = ContinuousClock()
        let start = clock.now
        let deadline = start + .milliseconds(Int(seconds * 1000))
        let outcomes = await withTaskGroup(of: ([Double], Int).self) { group in
            for _ in 0..<connections {
                group.addTask {
                    var latencies: [Double] = []
                    var failures = 0
                    while clock.now < deadline {
                        let index = next.value.add(1, ordering: .relaxed).oldValue
                        guard index < requests.count else { break }
                        let sent = clock.now
                        if await Self.send(client, requests[index]) {
                            latencies.append((clock.now - sent).seconds * 1000)
                        } else {
                            failures += 1
                        }
                    }
                    return (latencies, failures)
                }
            }
            return await group.reduce(into: [([Double], Int)]()) { $0.append($1) }
        }
        let elapsed = (clock.now - start).seconds
        let latencies = Samples(values: outcomes.flatMap(\.0))
        if next.value.load(ordering: .relaxed) >= requests.count {
            FileHandle.standardError.write(Data("warning: ran out of pre-signed requests\n".utf8))
        }
        return LoadResult(
            requests: latencies.values.count, failures: outcomes.map(\.1).reduce(0, +), seconds: elapsed,
            rate: Double(latencies.values.count) / elapsed, p50: latencies.percentile(50),
            p99: latencies.percentile(99), p999: latencies.percentile(99.9))
    }

    /// Sends at a fixed rate whatever the answers, and counts each latency from the request's scheduled time,
    /// so a stall shows as the queue behind it.
    func openLoop(_ client: HTTPClient, _ requests: [HTTPClientRequest]) async throws -> LoadResult {
        let total = min(requests.count, Int(Double(rate) * seconds))
        let clock = ContinuousClock()
        let start = clock.now + .milliseconds(50)
        let outcomes = await withTaskGroup(of: Double?.self) { group in
            for index in 0..<total {
                let scheduled = start + .nanoseconds(Int64(Double(index) / Double(rate) * 1e9))
                try? await clock.sleep(until: scheduled)
                group.addTask {
                    guard await Self.send(client, requests[index]) else { return nil }
                    return (clock.now - scheduled).seconds * 1000
                }
            }
            return await group.reduce(into: [Double?]()) { $0.append($1) }
        }
        let elapsed = (clock.now - start).seconds
        let latencies = Samples(values: outcomes.compactMap { $0 })
        return LoadResult(
            requests: latencies.values.count, failures: outcomes.count - latencies.values.count, seconds: elapsed,
            rate: Double(latencies.values.count) / elapsed, p50: latencies.percentile(50),
            p99: latencies.percentile(99), p999: latencies.percentile(99.9))
    }
}

// MARK: - Signed interactions against the real server

struct Interactions: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Signed Discord interactions per second and latency, the server pinned to one core.",
        discussion: """
            Starts `ggtracker serve` on a new database pinned to --server-core, gives a user 10 games, then from a \
            load generator pinned to --client-core sends pre-signed distinct /list and /progress interactions at a \
            fixed concurrency, and /list at a fixed rate (open loop). Reports the Ed25519 ceiling of the server's \
            core, throughput as a fraction of it, latency percentiles and the server's memory.
            """)
    @Option(help: "Runs of each closed-loop measurement.") var runs = 3
    @Option(help: "Seconds per run.") var seconds = 5.0
    @Option(help: "Requests in flight in the closed loop.") var connections = 32
    @Option(help: "Requests per second of the open loop.") var rate = 1000
    @Option var serverCore = 0
    @Option var clientCore = 1
    @Option(help: "The server's LOG_LEVEL.") var logLevel = "info"
    @Option(help: "Serve a copy of this catalog database (for example the 333k-game one) instead of the bundled.")
    var catalog: String?
    @Option(help: "Use this PostgreSQL server (postgres://user@host:port/db; a new schema in it) instead of SQLite.")
    var database: String?
    @Option(help: "Servers sharing the database; requests go to each in turn.") var replicas = 1
    @Option(
        name: .customLong("server-cpus"),
        help: "CPUs the servers may use (taskset's list: \"0\", \"0-1\"); default: --server-core.")
    var serverCPUs: String?

    static var executable: String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    }

    static func spawn(_ arguments: [String], environment: [String: String] = [:], output: URL? = nil) throws -> Process
    {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/taskset")
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        if let output {
            FileManager.default.createFile(atPath: output.path, contents: nil)
            let handle = try FileHandle(forWritingTo: output)
            process.standardOutput = handle
            process.standardError = handle
        }
        try process.run()
        return process
    }

    static func capture(_ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/taskset")
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    static func interaction(id: Int, user: String, name: String, options: [[String: Any]]) -> [String: Any] {
        [
            "id": String(1_600_000_000_000_000_000 + id), "application_id": "123456789012345678", "type": 2,
            "token": "bench-token-\(id)", "version": 1, "guild_id": "900000000000000001",
            "channel_id": "700000000000000001", "channel": ["id": "700000000000000001", "type": 0, "nsfw": false],
            "member": [
                "user": ["id": user, "username": "bencher", "global_name": "Bencher"], "permissions": "0",
                "roles": [], "nick": NSNull(),
            ],
            "data": ["id": "1", "name": name, "type": 1, "options": options],
        ]
    }

    static func sign(_ object: [String: Any], key: Curve25519.Signing.PrivateKey) throws -> SignedRequest {
        let body = try JSONSerialization.data(withJSONObject: object)
        let stamp = String(Int(Date().timeIntervalSince1970))
        let signature = try key.signature(for: Data(stamp.utf8) + body)
        return SignedRequest(
            body: String(decoding: body, as: UTF8.self),
            signature: signature.map { String(format: "%02x", $0) }.joined(), timestamp: stamp)
    }

    func run() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ggtracker-bench-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        var database = directory.appendingPathComponent("bench.sqlite").path
        if let base = self.database {
            guard PostgresLocation(url: base) != nil else {
                throw ValidationError("--database takes a postgres:// URL")
            }
            database = base + (base.contains("?") ? "&" : "?") + "schema=bench_\(getpid())"
        }
        if let catalog {
            guard self.database == nil else { throw ValidationError("--catalog is for SQLite runs") }
            try AppDatabase.open(path: catalog).backup(to: database)
        }
        let cpus = serverCPUs ?? "\(serverCore)"
        let key = Curve25519.Signing.PrivateKey()
        let port = 18_700 + Int(getpid() % 200)
        let me = Self.executable
        say(
            "\(replicas) server(s) on CPUs \(cpus), load generator on core \(clientCore), database \(PostgresLocation(url: database)?.description ?? "SQLite"); \(ProcessInfo.processInfo.processorCount) cores."
        )
        let http = HTTPClient.shared
        // The first server loads the catalog; the others start once it is ready.
        var servers: [Process] = []
        defer {
            for server in servers {
                server.terminate()
                server.waitUntilExit()
            }
        }
        for replica in 0..<replicas {
            servers.append(
                try Self.spawn(
                    ["-c", cpus, me, "serve", "--port", "\(port + replica)", "--database", database],
                    environment: [
                        "DISCORD_PUBLIC_KEY": key.publicKey.rawRepresentation.map { String(format: "%02x", $0) }
                            .joined(),
                        "GGTRACKER_USER_RATE": "0", "GGTRACKER_SERVER_RATE": "0", "GGTRACKER_CATALOG": "offline",
                        "LOG_LEVEL": logLevel,
                    ], output: directory.appendingPathComponent("server\(replica).log")))
            var ready = false
            for _ in 0..<1200 where !ready {
                let response = try? await http.execute(
                    HTTPClientRequest(url: "http://127.0.0.1:\(port + replica)/readyz"), timeout: .seconds(1))
                ready = response?.status == .ok
                if !ready { try await Task.sleep(for: .milliseconds(100)) }
            }
            guard ready else { throw ValidationError("server \(replica) did not start; see its log") }
        }
        let server = servers[0]

        // A player with 10 games: the most popular of the bundled catalog that any channel may show.
        let user = "555555555555555555"
        let refs: [String] = try AppDatabase.open(database, connections: 1).readNow { db in
            try db.values(
                "SELECT provider || ':' || provider_id FROM games WHERE mature = 0 ORDER BY popularity DESC LIMIT 10")
        }
        var sequence = 0
        for ref in refs {
            sequence += 1
            let add = try Self.sign(
                Self.interaction(
                    id: sequence, user: user, name: "add",
                    options: [["name": "title", "type": 3, "value": ref], ["name": "hours", "type": 10, "value": 5]]),
                key: key)
            var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)/discord/interactions")
            request.method = .POST
            request.headers.add(name: "Content-Type", value: "application/json")
            request.headers.add(name: "X-Signature-Ed25519", value: add.signature)
            request.headers.add(name: "X-Signature-Timestamp", value: add.timestamp)
            request.body = .bytes(ByteBuffer(string: add.body))
            _ = try await http.execute(request, timeout: .seconds(30)).body.collect(upTo: 1 << 20)
        }
        let idle = memory(of: server.processIdentifier)
        let ceiling =
            Double(try Self.capture(["-c", "\(serverCore)", me, "bench", "verify", "--quiet", "--seconds", "3"])) ?? 0
        say("Ed25519 verifications per second on core \(serverCore): \(format(ceiling, 0))")

        let peak = Mutex<Double>(idle.rss)
        let sampler = Task {
            while !Task.isCancelled {
                let now = memory(of: server.processIdentifier).rss
                peak.withLock { $0 = max($0, now) }
                try await Task.sleep(for: .milliseconds(100))
            }
        }
        func measure(_ name: String, rate: Int, make: (Int) -> [String: Any]) async throws -> [LoadResult] {
            var results: [LoadResult] = []
            for run in 1...(rate > 0 ? 1 : runs) {
                let count = rate > 0 ? Int(Double(rate) * seconds) + 10 : Int(10_000 * seconds)
                let requests = try (0..<count).map { _ in
                    sequence += 1
                    return try Self.sign(make(sequence), key: key)
                }
                let file = directory.appendingPathComponent(
                    "\(name.filter { $0.isLetter || $0.isNumber })-\(run).json")
                try JSONEncoder().encode(requests).write(to: file)
                var arguments =
                    [
                        "-c", "\(clientCore)", me, "bench", "load", "--file", file.path, "--seconds", "\(seconds)",
                        "--connections", "\(connections)",
                    ] + (0..<replicas).flatMap { ["--port", "\(port + $0)"] }
                if rate > 0 { arguments += ["--rate", "\(rate)"] }
                let output = try Self.capture(arguments)
                let result = try JSONDecoder().decode(LoadResult.self, from: Data(output.utf8))
                try? FileManager.default.removeItem(at: file)
                say(
                    "  \(name) run \(run): \(result.requests) answered, \(result.failures) failed, \(format(result.rate, 0))/s, p50 \(format(result.p50, 3)) ms, p99 \(format(result.p99, 3)) ms, p99.9 \(format(result.p999, 3)) ms"
                )
                results.append(result)
            }
            return results
        }
        let list = try await measure("/list", rate: 0) { id in
            Self.interaction(id: id, user: user, name: "list", options: [])
        }
        let progress = try await measure("/progress", rate: 0) { id in
            Self.interaction(
                id: id, user: user, name: "progress",
                options: [
                    ["name": "title", "type": 3, "value": refs[id % refs.count]],
                    ["name": "hours", "type": 10, "value": Double(id % 500) + 0.5],
                ])
        }
        let open = try await measure("/list at \(rate)/s", rate: rate) { id in
            Self.interaction(id: id, user: user, name: "list", options: [])
        }
        sampler.cancel()
        let listRate = Samples(values: list.map(\.rate)).median
        let progressRate = Samples(values: progress.map(\.rate)).median
        let latency = open[0]
        say(
            """

            | measure | result | target |
            | --- | --- | --- |
            | Ed25519 verifications/s, one core | \(format(ceiling, 0)) | — |
            | signed `/list`/s, one core (\(connections) in flight, median of \(runs)) | \(format(listRate, 0)) = \(format(listRate / ceiling)) of the ceiling | ≥ 0.60 |
            | signed `/progress`/s, one core (median of \(runs)) | \(format(progressRate, 0)) = \(format(progressRate / ceiling)) of the ceiling | — |
            | `/list` at \(rate)/s open loop: p50 / p99 / p99.9 | \(format(latency.p50, 3)) / \(format(latency.p99, 3)) / \(format(latency.p999, 3)) ms | p99 < 1 ms |
            | server memory idle / peak under load | \(format(idle.rss, 0)) / \(format(peak.withLock { $0 }, 0)) MB | < 100 MB |
            """)
    }
}

// MARK: - Catalog

struct CatalogBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "catalog",
        abstract: "Import rate of a catalog file, then search and autocomplete latency over it.")
    @Option(help: "The catalog file (IGDB-shaped JSON Lines, gzip or not).")
    var file = "../shared/data/igdb_unifidb_games.jsonl.gz"
    @Option(help: "Import runs, each into an empty database.") var runs = 3
    @Option(help: "Times each query is run.") var repeats = 30
    @Option(help: "Search this existing catalog database instead of importing (to profile searches).")
    var database: String?

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

    func run() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ggtracker-bench-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        var rates = Samples()
        var database: AppDatabase!
        var games = 0
        if let path = self.database {
            database = try AppDatabase.open(path: path)
            games = try database.gameCount()
        }
        for run in (1..<(runs + 1)).filter({ _ in self.database == nil }) {
            let path = directory.appendingPathComponent("catalog-\(run).sqlite").path
            database = try AppDatabase.open(path: path)
            let start = ContinuousClock.now
            let report = try CatalogImporter(database: database).importFile(file)
            let elapsed = (ContinuousClock.now - start).seconds
            games = report.added + report.updated
            rates.add(Double(games) / elapsed)
            say(
                "  import run \(run): \(games) games in \(format(elapsed)) s = \(format(Double(games) / elapsed, 0))/s, \(report.skipped) skipped, peak memory \(format(memory().peak, 0)) MB"
            )
        }
        let start = ContinuousClock.now
        let catalog = try LocalCatalog(database: database)
        let vocabularySeconds = (ContinuousClock.now - start).seconds
        say("  typo-correction vocabulary loaded in \(format(vocabularySeconds)) s")

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
}
