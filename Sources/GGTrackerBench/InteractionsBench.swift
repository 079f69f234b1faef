import ArgumentParser
import AsyncHTTPClient
@preconcurrency import Crypto
import Foundation
import GGTrackerCatalog
import GGTrackerCore
import GGTrackerStorage
import NIOCore
import Synchronization

// MARK: - Signed interactions against the real server

struct Interactions: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Signed Discord interactions per second and latency, the server pinned to one core.",
        discussion: """
            Starts `ggtracker serve` on a new database pinned to --server-core, gives a user 10 games, then from a \
            load generator pinned to --client-core sends pre-signed distinct /list and /progress interactions at a \
            fixed concurrency, and /list at a fixed rate (open loop). Reports the Ed25519 ceiling of the server's \
            core, throughput as a fraction of it, latency percentiles and the server's memory. With --peer, another \
            server with the same command line (the Python peer) gets the bundled catalog, the same user and the same \
            /list load on the same core, run for run in turn with this one, and the table shows both and the ratio.
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
    @Option(help: "Folder of another server with the same command line (its `ggtracker`) to measure side by side.")
    var peer: String?

    func validate() throws { try ServerUnderTest.validatePeer(peer) }

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
        try Pinned.moveHarness(to: "\(clientCore)")
        let signer = Signer()
        say(
            "\(replicas) server(s) on CPUs \(cpus), load generator on core \(clientCore), database \(PostgresLocation(url: database)?.description ?? "SQLite"); \(ProcessInfo.processInfo.processorCount) cores."
        )
        let environment = [
            "DISCORD_PUBLIC_KEY": signer.publicKeyHex, "GGTRACKER_USER_RATE": "0", "GGTRACKER_SERVER_RATE": "0",
            "GGTRACKER_CATALOG": "offline", "LOG_LEVEL": logLevel,
        ]
        // The first server loads the catalog; the others start once it is ready.
        var servers: [ServerUnderTest] = []
        defer { servers.forEach { $0.stop() } }
        for replica in 0..<replicas {
            var server = ServerUnderTest.ours(
                port: try freeLoopbackPort(), database: database, environment: environment,
                log: directory.appendingPathComponent("server\(replica).log"))
            try await server.start(cpus: cpus)
            servers.append(server)
        }
        var peerServer: ServerUnderTest?
        defer { peerServer?.stop() }
        if let peer {
            var server = ServerUnderTest.peer(
                folder: peer, port: try freeLoopbackPort(),
                database: directory.appendingPathComponent("peer.sqlite").path,
                // The same settings as ours (a server that ignores those it does not know is unchanged): another build
                // of GGTracker as the peer runs without rate limits too.
                environment: environment,
                log: directory.appendingPathComponent("peer.log"))
            let plain = directory.appendingPathComponent("catalog.jsonl").path
            _ = try CatalogSideBySide.writeIGDBShape(from: BundledCatalog.path ?? "", to: plain)
            _ = try server.importCatalog(plain, cpus: cpus, quiet: true)
            try await server.start(cpus: cpus)
            peerServer = server
        }

        // A player with 10 games: the most popular of the bundled catalog that any channel may show.
        let user = "555555555555555555"
        let (refs, names): ([String], [String]) = try await AppDatabase.open(database, connections: 1).read { db in
            let query = "FROM games WHERE mature = 0 AND provider = 'igdb' ORDER BY popularity DESC LIMIT 10"
            return (
                try await db.values("SELECT provider || ':' || provider_id " + query),
                try await db.values("SELECT name " + query)
            )
        }
        var sequence = 0
        for target in [servers[0]] + (peerServer.map { [$0] } ?? []) {
            for ref in refs {
                sequence += 1
                _ = try await target.send(
                    signer.sign(
                        Signer.interaction(
                            id: sequence, user: user, name: "add",
                            options: [
                                ["name": "title", "type": 3, "value": ref], ["name": "hours", "type": 10, "value": 5],
                            ])))
            }
        }
        // Both must show the same 10 games before anything is measured.
        for target in [servers[0]] + (peerServer.map { [$0] } ?? []) {
            sequence += 1
            let answer = try await target.send(
                signer.sign(Signer.interaction(id: sequence, user: user, name: "list", options: [])))
            let text = String(decoding: answer, as: UTF8.self)
            let shown = names.filter { text.contains($0.prefix(12)) }.count
            guard shown == names.count else {
                throw BenchFailure("\(target.name)'s /list shows \(shown) of the \(names.count) games added: \(text)")
            }
        }
        let idle = servers[0].memory
        let peerIdle = peerServer?.memory ?? 0
        let me = Pinned.executable
        let ceiling =
            Double(try Pinned.capture(["-c", "\(serverCore)", me, "bench", "verify", "--quiet", "--seconds", "3"]))
            ?? 0
        say("Ed25519 verifications per second on core \(serverCore): \(format(ceiling, 0))")

        let peak = Mutex<[Double]>([idle, peerIdle])
        // The sampler shares the load generator's core: it reads the status of the servers' processes, found once
        // here (looking them up among all processes took the core for milliseconds, ten times a second, and showed
        // as the generator sending late).
        let watched = [servers[0].processes, peerServer?.processes ?? []]
        let sampler = Task {
            while !Task.isCancelled {
                let now = watched.map(ServerUnderTest.memory(of:))
                peak.withLock { $0 = zip($0, now).map { max($0, $1) } }
                try await Task.sleep(for: .milliseconds(100))
            }
        }
        let ours = servers.map(\.port)
        let theirs = peerServer.map { [$0.port] }
        // A run's signed requests, new ids each, in a file for `bench load`: as many as the run can take.
        func requestFile(rate: Int, make: (Int) -> [String: Any]) throws -> URL {
            let count = rate > 0 ? Int(Double(rate) * seconds) + 10 : Int(20_000 * seconds)
            let requests = try (0..<count).map { _ in
                sequence += 1
                return try signer.sign(make(sequence))
            }
            let file = directory.appendingPathComponent("requests.json")
            try JSONEncoder().encode(requests).write(to: file)
            return file
        }
        // `taskset` arguments of a `bench load` of `file` against `ports`, on the load generator's core.
        func loadArguments(_ file: URL, ports: [Int], rate: Int) -> [String] {
            [
                "-c", "\(clientCore)", me, "bench", "load", "--file", file.path, "--seconds", "\(seconds)",
                "--connections", "\(connections)",
            ] + ports.flatMap { ["--port", "\($0)"] } + (rate > 0 ? ["--rate", "\(rate)"] : [])
        }
        func measure(
            _ name: String, ports: [Int], rate: Int, run: Int, make: (Int) -> [String: Any]
        ) throws
            -> LoadResult
        {
            let file = try requestFile(rate: rate, make: make)
            defer { try? FileManager.default.removeItem(at: file) }
            let result = try JSONDecoder().decode(
                LoadResult.self, from: Data(try Pinned.capture(loadArguments(file, ports: ports, rate: rate)).utf8))
            say(
                "  \(name) run \(run): \(result.requests) answered, \(result.failures) failed, \(format(result.rate, 0))/s, p50 \(format(result.p50, 3)) ms, p99 \(format(result.p99, 3)) ms, p99.9 \(format(result.p999, 3)) ms"
                    + (result.lateP99.map { ", sent late p99 \(format($0, 3)) ms" } ?? "")
            )
            return result
        }
        let list = { (id: Int) in Signer.interaction(id: id, user: user, name: "list", options: []) }
        let ping = { (id: Int) -> [String: Any] in
            [
                "id": String(1_700_000_000_000_000_000 + id), "application_id": "123456789012345678", "type": 1,
                "token": "bench-ping-\(id)", "version": 1,
            ]
        }
        var listRates = Samples()
        var peerListRates = Samples()
        var pingRates = Samples()
        var peerPingRates = Samples()
        var progressRates = Samples()
        for run in 1...runs {
            listRates.add(try measure("GGTracker /list", ports: ours, rate: 0, run: run, make: list).rate)
            if let theirs {
                peerListRates.add(try measure("peer /list", ports: theirs, rate: 0, run: run, make: list).rate)
            }
        }
        // Discord's PING in the same closed loop: the signature check and the HTTP every command pays, with no
        // command behind it — the most any signed command can reach on each server.
        for run in 1...runs {
            pingRates.add(try measure("GGTracker PING", ports: ours, rate: 0, run: run, make: ping).rate)
            if let theirs {
                peerPingRates.add(try measure("peer PING", ports: theirs, rate: 0, run: run, make: ping).rate)
            }
        }
        // Both servers under the same closed loop at once, on the same core: each one's CPU time per `/list` in the
        // same seconds, which a change in the machine's speed moves alike (see `PairedLoad`).
        var pairedOurs = Samples()
        var pairedTheirs = Samples()
        if let theirs {
            for run in 1...runs {
                let file = try requestFile(rate: 0, make: list)
                defer { try? FileManager.default.removeItem(at: file) }
                let loads = [ours, theirs].map { loadArguments(file, ports: $0, rate: 0) }
                let shares = try PairedLoad.run(loads, watching: watched, in: directory)
                pairedOurs.add(shares[0].microsecondsPerRequest)
                pairedTheirs.add(shares[1].microsecondsPerRequest)
                say(
                    "  both at once run \(run): GGTracker \(shares[0].result.requests) answered, \(format(shares[0].microsecondsPerRequest, 0)) µs of CPU each; peer \(shares[1].result.requests) answered, \(format(shares[1].microsecondsPerRequest, 0)) µs each; \(shares[0].result.failures + shares[1].result.failures) failed"
                )
            }
        }
        let progress = { (id: Int) in
            Signer.interaction(
                id: id, user: user, name: "progress",
                options: [
                    ["name": "title", "type": 3, "value": refs[id % refs.count]],
                    ["name": "hours", "type": 10, "value": Double(id % 500) + 0.5],
                ])
        }
        for run in 1...runs {
            progressRates.add(try measure("GGTracker /progress", ports: ours, rate: 0, run: run, make: progress).rate)
        }
        // At a fixed rate, a change's time is mostly its waits on the database (and on SQLite its flush).
        let progressOpen = try measure(
            "GGTracker /progress at \(rate)/s", ports: ours, rate: rate, run: 1, make: progress)
        // Open loop: runs in turn, as the closed loop; each figure is the median of the runs'. The peer's samples
        // are nil without a peer; the floor's without `floor` (the port of a bare responder, run in turn too).
        func openLoops(
            _ name: String, floor: Int? = nil, make: (Int) -> [String: Any]
        ) throws -> (OpenLoopSamples, OpenLoopSamples?, OpenLoopSamples?) {
            var mine = OpenLoopSamples()
            var peers = OpenLoopSamples()
            var bare = OpenLoopSamples()
            for run in 1...runs {
                mine.add(try measure("GGTracker \(name) at \(rate)/s", ports: ours, rate: rate, run: run, make: make))
                if let theirs {
                    peers.add(try measure("peer \(name) at \(rate)/s", ports: theirs, rate: rate, run: run, make: make))
                }
                if let floor {
                    bare.add(
                        try measure(
                            "bare responder \(name) at \(rate)/s", ports: [floor], rate: rate, run: run, make: make))
                }
            }
            return (mine, theirs == nil ? nil : peers, floor == nil ? nil : bare)
        }
        let (open, peerOpenRuns, _) = try openLoops("/list", make: list)
        // Discord's PING at the same rate: the path every command shares (HTTP, the signature check, JSON in and
        // out), with no command behind it; and the same requests answered by a bare responder on the same core,
        // which reads nothing but where each request ends: the latency this machine and the load generator add to
        // any server.
        var responder = ServerUnderTest.bare(
            port: try freeLoopbackPort(), log: directory.appendingPathComponent("bare.log"))
        try await responder.start(cpus: cpus)
        defer { responder.stop() }
        let (pings, peerPingRuns, floorRuns) = try openLoops("PING", floor: responder.port, make: ping)
        sampler.cancel()
        let peaks = peak.withLock { $0 }
        let table = SideBySide(peer: peerServer != nil)
        table.header("measure")
        table.row(
            "signed `/list`/s, one core (\(connections) in flight, median of \(runs))", listRates.median,
            peerListRates.median, digits: 0, ratio: .higherIsBetter, target: "≥ 2.0× the peer")
        table.row(
            "the same as a fraction of the Ed25519 ceiling (\(format(ceiling, 0))/s)", listRates.median / ceiling,
            peerListRates.median / ceiling, digits: 2, ratio: .none, target: "≥ 0.45")
        table.row(
            "signed PING/s, one core (\(connections) in flight, median of \(runs)): the signature and HTTP alone",
            pingRates.median, peerPingRates.median, digits: 0, ratio: .higherIsBetter, target: "—")
        table.row(
            "`/list`/s as a fraction of the same server's PING/s", listRates.median / pingRates.median,
            peerListRates.median / peerPingRates.median, digits: 2, ratio: .none, target: "—")
        if peerServer != nil {
            table.row(
                "server CPU per `/list`, µs: both loaded at once on the same core (median of \(runs))",
                pairedOurs.median, pairedTheirs.median, digits: 0, ratio: .lowerIsBetter,
                // Sharing a core costs two programs differently: against another program this reads lower than
                // the rates' ratio, which stays the target's measure (see the README).
                target: "—")
        }
        table.row(
            "signed `/progress`/s, one core (median of \(runs); a write flushed before the reply)",
            progressRates.median, nil, digits: 0, ratio: .none, target: "—")
        table.row(
            "`/progress` at \(rate)/s open loop: p50 ms", progressOpen.p50, nil, digits: 3, ratio: .none, target: "—")
        table.row(
            "`/progress` at \(rate)/s open loop: p99 ms", progressOpen.p99, nil, digits: 3, ratio: .none, target: "—")
        table.row(
            "`/list` at \(rate)/s open loop: p50 ms (median of \(runs))", open.p50.median, peerOpenRuns?.p50.median,
            digits: 3, ratio: .lowerIsBetter, target: "—")
        table.row(
            "`/list` at \(rate)/s open loop: p99 ms (median of \(runs))", open.p99.median, peerOpenRuns?.p99.median,
            digits: 3, ratio: .lowerIsBetter, target: "< 1 ms")
        table.row(
            "signed PING at \(rate)/s open loop: p50 ms (median of \(runs))", pings.p50.median,
            peerPingRuns?.p50.median, digits: 3, ratio: .lowerIsBetter, target: "—")
        table.row(
            "signed PING at \(rate)/s open loop: p99 ms (median of \(runs))", pings.p99.median,
            peerPingRuns?.p99.median, digits: 3, ratio: .lowerIsBetter, target: "—")
        if let floorRuns {
            table.row(
                "the machine's floor: a bare responder's answer to the same PINGs, p50 ms (median of \(runs))",
                floorRuns.p50.median, nil, digits: 3, ratio: .none, target: "—")
            table.row(
                "the machine's floor: a bare responder's answer to the same PINGs, p99 ms (median of \(runs))",
                floorRuns.p99.median, nil, digits: 3, ratio: .none, target: "—")
        }
        table.row(
            "the load generator's own lateness in those runs, p99 ms (the highest)",
            (open.late.values + pings.late.values + (floorRuns?.late.values ?? [])).max() ?? .nan,
            peerOpenRuns.map { ($0.late.values + (peerPingRuns?.late.values ?? [])).max() ?? .nan }, digits: 3,
            ratio: .none,
            target: "—")
        table.row(
            "server memory idle, MB", idle, peerServer == nil ? nil : peerIdle, digits: 0, ratio: .none, target: "—")
        table.row(
            "server memory peak under load, MB", peaks[0], peerServer == nil ? nil : peaks[1], digits: 0,
            ratio: .none, target: "< 100 MB")
    }
}

/// The open loop's percentiles over runs.
struct OpenLoopSamples {
    var p50 = Samples()
    var p99 = Samples()
    var late = Samples()

    mutating func add(_ result: LoadResult) {
        p50.add(result.p50)
        p99.add(result.p99)
        if let lateP99 = result.lateP99 { late.add(lateP99) }
    }
}
