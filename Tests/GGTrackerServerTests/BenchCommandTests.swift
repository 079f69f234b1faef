import AsyncHTTPClient
@preconcurrency import Crypto
import Foundation
import NIOCore
import Testing

/// The bench's command line refuses what it cannot measure before it starts anything.
@Suite("The bench's command line")
struct BenchCommandTests {
    @Test(arguments: [["bench", "interactions"], ["bench", "catalog"]])
    func aPeerFolderWithoutItsProgramIsRefusedBeforeAnythingStarts(_ command: [String]) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("no-peer-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let (status, output) = try await ServerProcess.commandInBackground(command + ["--peer", folder.path])
        #expect(status == 64, "a usage error")
        #expect(output.contains("--peer: \(folder.path) has no executable ggtracker"), "\(output)")
        // Refused at once: no server was started, no catalog written.
        #expect(!output.contains("server(s) on CPUs"))
        #expect(!output.contains("games written"))
    }

    @Test(arguments: [["--runs", "0"], ["--repeats", "0"]])
    func aCatalogRunOfNothingIsRefused(_ option: [String]) async throws {
        let (status, output) = try await ServerProcess.commandInBackground(["bench", "catalog"] + option)
        #expect(status == 64, "a usage error")
        #expect(output.contains("\(option[0]) must be at least 1"), "\(output)")
        #expect(!output.contains("games written"))
    }

    /// Another GGTracker as the peer: each program imports the file three times, in turns, then both answer the
    /// same signed searches; the table puts them side by side.
    @Test func theCatalogSideBySideImportsInTurnsThenSearchesBoth() async throws {
        let folder = URL(fileURLWithPath: Scratch.path("peer"))
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let program = folder.appendingPathComponent("ggtracker")
        try "#!/bin/sh\nexec \"\(ServerProcess.binary)\" \"$@\"\n".write(
            to: program, atomically: false, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: program.path)
        let (status, output) = try await ServerProcess.commandInBackground([
            "bench", "catalog", "--peer", folder.path, "--file", TestHarness.fixturePath, "--runs", "3",
            "--repeats", "1", "--server-core", "0", "--client-core", "0",
        ])
        #expect(status == 0, "\(output)")
        let lines = output.split(separator: "\n").map(String.init)
        #expect(
            lines.contains { $0.hasSuffix("games written as IGDB /v4/games objects (JSON Lines) for both programs") })
        // Three imports each, and their median.
        for name in ["GGTracker", "peer"] {
            let line = lines.first { $0.hasPrefix("  import: \(name) ") } ?? ""
            let times = line.dropFirst("  import: \(name) ".count).split(separator: " s, median ").first ?? ""
            #expect(times.split(separator: ", ").count == 3, "\(line)")
        }
        let row = lines.first { $0.hasPrefix("| import, games/s (the whole `catalog import` process, median of 3") }
        #expect(row?.contains("×") == true, "\(output)")
        // Both answered the searches: a latency for each.
        let search = lines.first { $0.hasPrefix("| `/search`, ordinary queries: p50 ms |") } ?? ""
        let cells = search.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(cells.count >= 3 && Double(cells[1]) != nil && Double(cells[2]) != nil, "\(search)")
        // The bare responder's first answer of each turn, and each server's memory at the end of its own turn and
        // at its highest since it started.
        func figures(_ prefix: String) -> [Double] {
            let row = lines.first { $0.hasPrefix(prefix) } ?? ""
            return row.split(separator: "|").dropFirst().compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
        }
        #expect(figures("| the machine's floor for the first of each turn: the bare responder's, p99 ms |").count == 1)
        let underLoad = figures("| server memory peak under the searches, MB |")
        let highWater = figures("| server memory high-water mark since start (with the name index's build), MB |")
        #expect(underLoad.count >= 2 && highWater.count >= 2, "\(output)")
        #expect(zip(underLoad, highWater).allSatisfy { $0 > 0 && $0 <= $1 }, "\(output)")
    }

    /// Ranking results go into the file named, in place: a link is followed, not replaced by a new file (so
    /// `--results-out /dev/null` leaves the device alone).
    @Test func rankingResultsAreWrittenInPlace() async throws {
        let folder = URL(fileURLWithPath: Scratch.path("results"))
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let queries = folder.appendingPathComponent("queries.txt")
        try "zelda\nhollow knigt\n".write(to: queries, atomically: false, encoding: .utf8)
        let target = folder.appendingPathComponent("target.tsv")
        try "".write(to: target, atomically: false, encoding: .utf8)
        let link = folder.appendingPathComponent("link.tsv")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: target)
        let (status, output) = try await ServerProcess.commandInBackground([
            "bench", "catalog", "--database", folder.appendingPathComponent("catalog.sqlite").path,
            "--queries", queries.path, "--results-out", link.path,
        ])
        #expect(status == 0, "\(output)")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link.path) == target.path)
        let lines = try String(contentsOf: target, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 2 && lines[0].hasPrefix("zelda\t") && lines[1].hasPrefix("hollow knigt\t"))
    }

    /// A server in a folder of its own, with the key that signs for it, answering on its port.
    static func startServer() async throws -> (
        folder: URL, key: Curve25519.Signing.PrivateKey, port: Int, server: ServerProcess
    ) {
        let folder = URL(fileURLWithPath: Scratch.path("load"))
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let key = Curve25519.Signing.PrivateKey()
        let publicKey = key.publicKey.rawRepresentation.map { String(format: "%02x", $0) }.joined()
        let port = 21_000 + Int.random(in: 0..<900)
        let server = try ServerProcess(
            database: folder.appendingPathComponent("ggtracker.sqlite").path, port: port, publicKey: publicKey,
            log: folder.appendingPathComponent("server.log"))
        do {
            try await server.waitUntilReady(HTTPClient.shared)
        } catch {
            server.kill(SIGKILL)
            throw error
        }
        return (folder, key, port, server)
    }

    /// A load whose requests are all refused (signed 10 minutes ago: the server refuses such a timestamp) says so
    /// instead of giving latencies.
    @Test func aLoadWithNoAnswerSaysSo() async throws {
        let (folder, key, port, server) = try await Self.startServer()
        defer { server.kill(SIGKILL) }
        let body = #"{"id":"1","application_id":"1","type":1,"token":"t","version":1}"#
        let timestamp = String(Int(Date().timeIntervalSince1970) - 600)
        let signature = try key.signature(for: Data((timestamp + body).utf8)).map { String(format: "%02x", $0) }
        let request = ["body": body, "signature": signature.joined(), "timestamp": timestamp]
        let file = folder.appendingPathComponent("requests.json")
        try JSONSerialization.data(withJSONObject: [request, request]).write(to: file)
        let (status, output) = try await ServerProcess.commandInBackground([
            "bench", "load", "--port", "\(port)", "--file", file.path, "--seconds", "1",
        ])
        #expect(status != 0, "\(output)")
        #expect(output.contains("none of the 2 requests sent was answered 200 OK"), "\(output)")
        #expect(!output.contains("nan"), "\(output)")
    }

    /// The load generator sends each request once, in a closed loop until they run out and in an open loop at its
    /// rate, and counts the ones the server refused apart from the ones it answered.
    @Test func aLoadSendsEachRequestOnceAndCountsTheRefused() async throws {
        let (folder, key, port, server) = try await Self.startServer()
        defer { server.kill(SIGKILL) }
        // 40 pings signed now, then 10 signed 10 minutes ago, which the server refuses.
        let requests = try (0..<50).map { index in
            let body = #"{"id":"\#(index + 1)","application_id":"1","type":1,"token":"t","version":1}"#
            let timestamp = String(Int(Date().timeIntervalSince1970) - (index < 40 ? 0 : 600))
            let signature = try key.signature(for: Data((timestamp + body).utf8)).map { String(format: "%02x", $0) }
            return ["body": body, "signature": signature.joined(), "timestamp": timestamp]
        }
        let file = folder.appendingPathComponent("requests.json")
        try JSONSerialization.data(withJSONObject: requests).write(to: file)
        func load(_ options: [String]) async throws -> [String: Any] {
            let (status, output) = try await ServerProcess.commandInBackground(
                ["bench", "load", "--port", "\(port)", "--file", file.path] + options)
            #expect(status == 0, "\(output)")
            let json = try #require(output.split(separator: "\n").last { $0.hasPrefix("{") })
            return try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        }
        let closed = try await load(["--connections", "4", "--seconds", "10"])
        #expect(closed["requests"] as? Int == 40 && closed["failures"] as? Int == 10, "\(closed)")
        #expect((closed["p50"] as? Double ?? 0) > 0)
        // 20 a second for half a second: the first 10 requests, each due 50 ms after the one before.
        let trace = folder.appendingPathComponent("latencies.txt")
        let open = try await load(["--rate", "20", "--seconds", "0.5", "--latencies-out", trace.path])
        #expect(open["requests"] as? Int == 10 && open["failures"] as? Int == 0, "\(open)")
        #expect(open["lateP99"] is Double && (open["seconds"] as? Double ?? 0) >= 0.45, "\(open)")
        // Each answer's time since the start and its latency: the last answered after the last was due (450 ms).
        let lines = try String(contentsOf: trace, encoding: .utf8).split(separator: "\n")
        let times = lines.compactMap { $0.split(separator: " ").first.flatMap { Double($0) } }
        #expect(lines.count == 10 && times.count == 10, "\(lines)")
        #expect(times == times.sorted() && (times.last ?? 0) >= 450, "\(times)")
    }

    /// A load it cannot run is refused before anything is read or sent (a run with no connection would wait for
    /// ever; one whose latencies cannot be written would lose them after the whole run).
    @Test(arguments: [
        (["--connections", "0"], "--connections must be at least 1"),
        (["--seconds", "0"], "--seconds must be more than 0"),
        (["--rate=-5"], "--rate must be 0 (closed loop) or more"),
        (["--offset=-1"], "--offset must be 0 or more"),
        (["--port", "70000"], "--port must be given, each between 1 and 65535"),
        (["--latencies-out", "/no/such/folder/latencies.txt"], "--latencies-out: /no/such/folder is not a folder"),
    ])
    func aLoadItCannotRunIsRefusedFirst(_ options: [String], _ message: String) async throws {
        let arguments = ["bench", "load", "--file", "/no/such/requests.json"]
        let (status, output) = try await ServerProcess.commandInBackground(
            arguments + (options.first == "--port" ? options : ["--port", "18999"] + options))
        #expect(status == 64, "a usage error: \(output)")
        #expect(output.contains(message), "\(output)")
        #expect(!output.contains("requests.json"), "refused before the file is read: \(output)")
    }

    @Test(arguments: ["-1", "65536", "70000"])
    func theBareResponderRefusesAPortOutOfRange(_ port: String) async throws {
        let (status, output) = try await ServerProcess.commandInBackground(["bench", "responder", "--port=\(port)"])
        #expect(status == 64, "a usage error: \(output)")
        #expect(output.contains("--port must be between 1 and 65535"), "\(output)")
    }

    /// The bare responder answers each request with its fixed 10 bytes, and ends when the bench stops it.
    @Test func theBareResponderAnswersAndEndsOnSIGTERM() async throws {
        let port = 18_100 + Int.random(in: 0..<800)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ServerProcess.binary)
        process.arguments = ["bench", "responder", "--port", "\(port)"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        var answer: String?
        for _ in 0..<100 where answer == nil {
            var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)/discord/interactions")
            request.method = .POST
            request.body = .bytes(ByteBuffer(string: "{}"))
            if let response = try? await HTTPClient.shared.execute(request, timeout: .seconds(2)) {
                answer = String(buffer: try await response.body.collect(upTo: 1024))
            } else {
                try await Task.sleep(for: .milliseconds(50))
            }
        }
        #expect(answer == #"{"type":1}"#)
        process.terminate()
        for _ in 0..<100 where process.isRunning { try await Task.sleep(for: .milliseconds(50)) }
        #expect(!process.isRunning, "still running 5 s after SIGTERM")
    }
}
