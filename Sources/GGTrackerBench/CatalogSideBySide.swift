import Foundation
import GGTrackerCatalog
import NIOCore
import NIOPosix

/// `bench catalog --peer`: the same catalog file imported by both programs, then the same signed searches and
/// autocompletions sent to both servers on the same core, one at a time, each timed from the client.
struct CatalogSideBySide {
    var file: String
    var peerFolder: String
    /// Imports of the file by each program.
    var runs: Int
    var repeats: Int
    var serverCore: Int
    var logLevel: String
    var directory: URL

    func run() async throws {
        let plain = directory.appendingPathComponent("games.jsonl").path
        let converted = try Self.writeIGDBShape(from: file, to: plain)
        say("\(converted) games written as IGDB /v4/games objects (JSON Lines) for both programs")
        let signer = Signer()
        // The peer gets the same settings, so that another build of GGTracker can be the peer: with its flood
        // limits on, most of its searches would be refusals, answered quickly.
        let environment = [
            "DISCORD_PUBLIC_KEY": signer.publicKeyHex, "GGTRACKER_CATALOG": "offline", "GGTRACKER_USER_RATE": "0",
            "GGTRACKER_SERVER_RATE": "0", "LOG_LEVEL": logLevel,
        ]
        let cpus = "\(serverCore)"
        var ours = ServerUnderTest.ours(
            port: try freeLoopbackPort(), database: directory.appendingPathComponent("ours.sqlite").path,
            environment: environment, log: directory.appendingPathComponent("ours.log"))
        var peer = ServerUnderTest.peer(
            folder: peerFolder, port: try freeLoopbackPort(),
            database: directory.appendingPathComponent("peer.sqlite").path,
            environment: environment, log: directory.appendingPathComponent("peer.log"))
        // The same requests answered by a bare responder on the same core: what the exchange alone takes.
        var bare = ServerUnderTest.bare(port: try freeLoopbackPort(), log: directory.appendingPathComponent("bare.log"))
        defer {
            ours.stop()
            peer.stop()
            bare.stop()
        }
        let imports = try Self.importInTurns(plain, into: [ours, peer], cpus: cpus, runs: runs)
        for (server, seconds) in zip([ours, peer], imports) {
            say(
                "  import: \(server.name) \(seconds.values.map { format($0) }.joined(separator: ", ")) s, median \(format(seconds.median)) s"
            )
        }
        let (ourImport, peerImport) = (imports[0].median, imports[1].median)
        try await ours.start(cpus: cpus)
        try await peer.start(cpus: cpus)
        try await bare.start(cpus: cpus)
        let idle = [ours.memory, peer.memory]

        var samples: [String: Samples] = [:]
        var sequence = 0
        // One kept-alive connection to each server, timed on its event loop (see `TimedExchange`).
        let loops = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        var exchanges: [String: TimedExchange] = [:]
        for server in [ours, peer, bare] {
            exchanges[server.name] = try await TimedExchange.connect(port: server.port, on: loops.next())
        }
        func time(_ server: ServerUnderTest, _ kinds: String..., object: [String: Any]) async throws -> Data {
            let request = try signer.sign(object)
            guard let exchange = exchanges[server.name] else { throw BenchFailure("no connection to \(server.name)") }
            let answer = try await exchange.send(request.prepared)
            guard answer.status == .ok else { throw BenchFailure("\(server.name) answered \(answer.status.code)") }
            for kind in kinds { samples["\(server.name) \(kind)", default: Samples()].add(answer.milliseconds) }
            return Data(buffer: answer.body)
        }
        func search(_ query: String, id: Int) -> [String: Any] {
            Signer.interaction(
                id: id, user: "555555555555555555", name: "search", nsfw: true,
                options: [["name": "query", "type": 3, "value": query]])
        }
        func complete(_ prefix: String, id: Int) -> [String: Any] {
            Signer.interaction(
                id: id, user: "555555555555555555", name: "add", type: 4, nsfw: true,
                options: [["name": "title", "type": 3, "value": prefix, "focused": true]])
        }
        let queries = CatalogBench.broad + CatalogBench.multiWord
        let prefixes = (queries + CatalogBench.typos.map(\.0)).flatMap { query in
            (2...query.count).map { String(query.prefix($0)) }
        }
        /// Ordinary searches answered without a game, by server: such an answer (no match, or a refusal by a flood
        /// limit) is quick, and pulls that server's figures down.
        var empty: [String: [String]] = [:]
        /// The first result of each typo query, by server, from the first round.
        var firstResults: [String: [String]] = [:]
        var peaks = idle
        for round in 0..<repeats {
            // Servers in turn, query by query, so that drift touches them alike.
            // Each round opens with the next query, so that the first of a turn is not always the same one.
            let opening = round % queries.count
            let order = Array(queries[opening...] + queries[..<opening])
            for server in [ours, peer, bare] {
                for (index, query) in order.enumerated() {
                    sequence += 1
                    // The first search of a server's turn reaches it after it sat idle through the others' turns.
                    let turn = index == 0 ? "search at rest" : "search back to back"
                    let answer = try await time(server, "search", turn, object: search(query, id: sequence))
                    if Self.firstResult(in: answer) == "nothing" { empty[server.name, default: []].append(query) }
                }
                for (query, _) in CatalogBench.typos {
                    sequence += 1
                    let answer = try await time(server, "typo", object: search(query, id: sequence))
                    if round == 0 { firstResults[server.name, default: []].append(Self.firstResult(in: answer)) }
                }
                for prefix in prefixes {
                    sequence += 1
                    _ = try await time(server, "autocomplete", object: complete(prefix, id: sequence))
                }
                // Read at the end of the server's own turn, before it sits idle through the others'.
                if server.name == ours.name { peaks[0] = max(peaks[0], ours.memory) }
                if server.name == peer.name { peaks[1] = max(peaks[1], peer.memory) }
            }
        }
        for server in [ours, peer] {
            guard let missed = empty[server.name] else { continue }
            let named = Set(missed).sorted().map { "“\($0)”" }.joined(separator: ", ")
            say(
                "  warning: \(server.name) found no game for \(named) (\(missed.count) of its \(repeats * queries.count) searches)"
            )
        }
        for exchange in exchanges.values { await exchange.close() }
        try await loops.shutdownGracefully()
        var found: [String: Int] = [:]
        for (index, (query, meant)) in CatalogBench.typos.enumerated() {
            let mine = firstResults["GGTracker"]?[index] ?? "nothing"
            let theirs = firstResults["peer"]?[index] ?? "nothing"
            for (name, result) in [("GGTracker", mine), ("peer", theirs)]
            where result.localizedCaseInsensitiveContains(meant) {
                found[name, default: 0] += 1
            }
            say("  “\(query)” → GGTracker: \(mine); peer: \(theirs)")
        }
        let games = Double(converted)
        let table = SideBySide(peer: true)
        table.header("measure (\(converted) games, over HTTP, signed)")
        table.row(
            "import, games/s (the whole `catalog import` process, median of \(runs) in turns)", games / ourImport,
            games / peerImport, digits: 0,
            ratio: .higherIsBetter, target: "≥ 3× the peer")
        for (kind, label) in [
            ("search", "`/search`, ordinary queries"), ("typo", "`/search`, typo queries"),
            ("autocomplete", "autocomplete of `/add title` (\(prefixes.count) prefixes)"),
        ] {
            let mine = samples["GGTracker \(kind)"] ?? Samples()
            let theirs = samples["peer \(kind)"] ?? Samples()
            table.row(
                "\(label): p50 ms", mine.median, theirs.median, digits: 3, ratio: .lowerIsBetter, target: "—")
            table.row(
                "\(label): p99 ms", mine.percentile(99), theirs.percentile(99), digits: 3, ratio: .lowerIsBetter,
                target: "≤ 0.3× the peer")
        }
        for (kind, label) in [
            ("search at rest", "`/search`, the first of each turn (the server idle meanwhile)"),
            ("search back to back", "`/search`, the others"),
        ] {
            let mine = samples["GGTracker \(kind)"] ?? Samples()
            let theirs = samples["peer \(kind)"] ?? Samples()
            table.row("\(label): p50 ms", mine.median, theirs.median, digits: 3, ratio: .lowerIsBetter, target: "—")
            table.row(
                "\(label): p99 ms", mine.percentile(99), theirs.percentile(99), digits: 3, ratio: .lowerIsBetter,
                target: "—")
        }
        let floor = Samples(
            values: ["search", "typo", "autocomplete"].flatMap { samples["\(bare.name) \($0)"]?.values ?? [] })
        table.row(
            "the machine's floor: a bare responder's answer to the same requests, p50 ms", floor.median, nil,
            digits: 3, ratio: .none, target: "—")
        table.row(
            "the machine's floor: a bare responder's answer to the same requests, p99 ms", floor.percentile(99), nil,
            digits: 3, ratio: .none, target: "—")
        let floorAtRest = samples["\(bare.name) search at rest"] ?? Samples()
        table.row(
            "the machine's floor for the first of each turn: the bare responder's, p50 ms", floorAtRest.median, nil,
            digits: 3, ratio: .none, target: "—")
        table.row(
            "the machine's floor for the first of each turn: the bare responder's, p99 ms",
            floorAtRest.percentile(99), nil, digits: 3, ratio: .none, target: "—")
        table.row(
            "typo queries whose first result is the game meant (of \(CatalogBench.typos.count))",
            Double(found["GGTracker"] ?? 0), Double(found["peer"] ?? 0), digits: 0, ratio: .none, target: "all")
        table.row("server memory idle, MB", idle[0], idle[1], digits: 0, ratio: .none, target: "—")
        table.row(
            "server memory peak under the searches, MB", peaks[0], peaks[1], digits: 0, ratio: .none,
            target: "< 100 MB")
        // The kernel gathers its memory counters lazily (threads keep their own until then): its mark can read
        // a little lower than a figure read earlier, which is then the mark.
        table.row(
            "server memory high-water mark since start (with the name index's build), MB",
            max(ours.highWater, peaks[0]), max(peer.highWater, peaks[1]), digits: 0, ratio: .none, target: "—")
    }

    /// Each program imports the file `runs` times, in turns (the first to go changes every round), each time as a
    /// new process pinned to `cpus` and into an empty database; the last imports are the databases the servers then
    /// answer from. The seconds each import took, by server.
    static func importInTurns(
        _ file: String, into servers: [ServerUnderTest], cpus: String, runs: Int
    ) throws -> [Samples] {
        var seconds = [Samples](repeating: Samples(), count: servers.count)
        for run in 0..<runs {
            let last = run == runs - 1
            for index in run % 2 == 0 ? Array(servers.indices) : servers.indices.reversed() {
                var server = servers[index]
                if !last { server.database += ".run\(run)" }
                seconds[index].add(try server.importCatalog(file, cpus: cpus, quiet: true))
                if !last {
                    for suffix in ["", "-wal", "-shm", "-journal"] {
                        try? FileManager.default.removeItem(atPath: server.database + suffix)
                    }
                }
            }
        }
        return seconds
    }

    /// The first game a `/search` answer names: the title of its first embed; "nothing" when it has none.
    static func firstResult(in answer: Data) -> String {
        guard let object = try? JSONSerialization.jsonObject(with: answer) as? [String: Any],
            let data = object["data"] as? [String: Any],
            let title = (data["embeds"] as? [[String: Any]])?.first?["title"] as? String
        else { return "nothing" }
        return title
    }

    /// Rewrites a catalog file (JSON Lines, gzip or not, in IGDB's shape or the `igdb_id` shape of the large
    /// data set) as IGDB `/v4/games` objects, which both programs import; the number of games written.
    static func writeIGDBShape(from path: String, to output: String) throws -> Int {
        let pipe = Pipe()
        let process = try shell("gzip -dcf \"$0\"", [path], output: pipe)
        _ = FileManager.default.createFile(atPath: output, contents: nil)
        let sink = try FileHandle(forWritingTo: URL(fileURLWithPath: output))
        defer { try? sink.close() }
        var count = 0
        var pending = Data()
        var batch = Data()
        func convert(_ line: Data) throws {
            guard var game = (try? JSONSerialization.jsonObject(with: line)) as? [String: Any] else { return }
            if let id = game.removeValue(forKey: "igdb_id") { game["id"] = id }
            if let date = game.removeValue(forKey: "release_date") { game["first_release_date"] = date }
            for key in ["genres", "platforms"] {
                if let names = game[key] as? [String] { game[key] = names.map { ["name": $0] } }
            }
            let developers = game.removeValue(forKey: "developers") as? [String] ?? []
            let publishers = game.removeValue(forKey: "publishers") as? [String] ?? []
            if !developers.isEmpty || !publishers.isEmpty {
                game["involved_companies"] =
                    developers.map {
                        ["company": ["name": $0], "developer": true, "publisher": publishers.contains($0)]
                    }
                    + publishers.filter { !developers.contains($0) }.map {
                        ["company": ["name": $0], "developer": false, "publisher": true]
                    }
            }
            if let url = game.removeValue(forKey: "cover_url") as? String, let file = url.split(separator: "/").last {
                game["cover"] = ["image_id": String(file.split(separator: ".").first ?? file)]
            }
            game.removeValue(forKey: "external_ids")
            guard game["id"] != nil else { return }
            batch += try JSONSerialization.data(withJSONObject: game) + Data("\n".utf8)
            count += 1
            if batch.count > 1 << 20 {
                sink.write(batch)
                batch.removeAll(keepingCapacity: true)
            }
        }
        while let chunk = try pipe.fileHandleForReading.read(upToCount: 1 << 20), !chunk.isEmpty {
            pending += chunk
            while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                try convert(pending[pending.startIndex..<newline])
                pending = Data(pending[(newline + 1)...])
            }
        }
        if !pending.isEmpty { try convert(pending) }
        sink.write(batch)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw BenchFailure("could not read \(path)") }
        return count
    }
}
