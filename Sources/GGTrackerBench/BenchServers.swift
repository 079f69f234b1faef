import ArgumentParser
import AsyncHTTPClient
@preconcurrency import Crypto
import Foundation
import NIOCore

/// Processes pinned with `taskset`, and the signed Discord interactions sent to them.
enum Pinned {
    /// This program, to start its own `serve`, `bench verify` and `bench load`.
    static var executable: String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    }

    static func spawn(
        _ arguments: [String], environment: [String: String] = [:], output: URL? = nil, directory: String? = nil
    ) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/taskset")
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        if let output {
            _ = FileManager.default.createFile(atPath: output.path, contents: nil)
            let handle = try FileHandle(forWritingTo: output)
            process.standardOutput = handle
            process.standardError = handle
        }
        try process.run()
        return process
    }

    /// Moves every thread of this process (the harness: its memory sampler, its timers, a client it runs itself)
    /// onto `cpus`, so it never takes the measured server's core from it while a latency is being timed.
    static func moveHarness(to cpus: String) throws {
        _ = try capture(["-a", "-p", "-c", cpus, "\(getpid())"])
    }

    /// Runs to the end and returns standard output, trimmed; throws when the program fails.
    /// `quiet` keeps the program's standard error out of the terminal; its end is shown if the program fails.
    static func capture(
        _ arguments: [String], environment: [String: String] = [:], quiet: Bool = false
    ) throws
        -> String
    {
        let process = Process()
        let errors = FileManager.default.temporaryDirectory.appendingPathComponent("ggtracker-bench-\(UUID()).err")
        if quiet {
            _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
            process.standardError = try FileHandle(forWritingTo: errors)
        }
        defer { try? FileManager.default.removeItem(at: errors) }
        process.executableURL = URL(fileURLWithPath: "/usr/bin/taskset")
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            let said = (try? String(contentsOf: errors, encoding: .utf8))?.suffix(500) ?? ""
            throw BenchFailure(
                "\(arguments.dropFirst(2).joined(separator: " ")) exited with \(process.terminationStatus)"
                    + (said.isEmpty ? "" : ": \(said.trimmingCharacters(in: .whitespacesAndNewlines))"))
        }
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

/// Starts `/bin/sh -c script` with the arguments as `$0`, `$1`…, its standard output into `output` if given.
func shell(_ script: String, _ arguments: [String], output: Pipe? = nil) throws -> Process {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments = ["-c", script] + arguments
    if let output { process.standardOutput = output }
    try process.run()
    return process
}

struct BenchFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// A server under measurement: this program's `serve`, or another program with the same command line
/// (`serve`, `catalog import FILE`, and the `GGTRACKER_*` environment), such as the Python peer.
struct ServerUnderTest {
    var name: String
    /// The program and the arguments before the subcommand.
    var command: [String]
    var port: Int
    var database: String
    var readiness: String
    var environment: [String: String]
    var log: URL
    var process: Process?
    /// The arguments that start it serving.
    var serving = ["serve"]

    static func ours(port: Int, database: String, environment: [String: String], log: URL) -> Self {
        ServerUnderTest(
            name: "GGTracker", command: [Pinned.executable], port: port, database: database, readiness: "/readyz",
            environment: environment, log: log)
    }

    /// `bench responder`: the least an HTTP server can do, on the same port and pinning (the machine's floor).
    static func bare(port: Int, log: URL) -> Self {
        ServerUnderTest(
            name: "bare responder", command: [Pinned.executable], port: port, database: "", readiness: "/",
            environment: [:], log: log, serving: ["bench", "responder", "--port", "\(port)"])
    }

    /// The peer's program: `ggtracker` in its folder.
    static func peerProgram(in folder: String) -> String {
        URL(fileURLWithPath: folder).appendingPathComponent("ggtracker").path
    }

    /// Refuses a `--peer` folder without an executable `ggtracker`, before anything is started.
    static func validatePeer(_ folder: String?) throws {
        guard let folder, !FileManager.default.isExecutableFile(atPath: peerProgram(in: folder)) else { return }
        throw ValidationError(
            "--peer: \(folder) has no executable ggtracker (give the folder of a server with the same command line)")
    }

    static func peer(folder: String, port: Int, database: String, environment: [String: String], log: URL) -> Self {
        ServerUnderTest(
            name: "peer", command: [peerProgram(in: folder)], port: port, database: database, readiness: "/healthz",
            environment: environment, log: log)
    }

    var url: String { "http://127.0.0.1:\(port)/discord/interactions" }

    private var fullEnvironment: [String: String] {
        environment.merging(["GGTRACKER_PORT": "\(port)", "GGTRACKER_DATABASE": database]) { $1 }
    }

    /// `catalog import FILE` on the server's database, on the given CPUs; the seconds it took. `quiet` drops the
    /// lines it skips.
    func importCatalog(_ file: String, cpus: String, quiet: Bool = false) throws -> Double {
        let start = ContinuousClock.now
        _ = try Pinned.capture(
            ["-c", cpus] + command + ["catalog", "import", file], environment: fullEnvironment, quiet: quiet)
        return (ContinuousClock.now - start).seconds
    }

    mutating func start(cpus: String) async throws {
        process = try Pinned.spawn(["-c", cpus] + command + serving, environment: fullEnvironment, output: log)
        for _ in 0..<1200 {
            if let process, !process.isRunning {
                let output = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
                throw BenchFailure(
                    "\(name) exited with status \(process.terminationStatus) while starting: \(output.suffix(500))")
            }
            let response = try? await HTTPClient.shared.execute(
                HTTPClientRequest(url: "http://127.0.0.1:\(port)\(readiness)"), timeout: .seconds(1))
            if response?.status == .ok { return }
            try await Task.sleep(for: .milliseconds(100))
        }
        throw BenchFailure("\(name) did not answer \(readiness) within 2 minutes")
    }

    /// Ends the server: SIGTERM, and SIGKILL when it is still running 10 seconds later.
    func stop() {
        guard let process else { return }
        process.terminate()
        let deadline = Date().addingTimeInterval(10)
        while process.isRunning && Date() < deadline { usleep(50_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    /// The server's process and its descendants (the peer runs worker processes). Finding them reads every
    /// process's `/proc/PID/stat`: a sampler that runs during a measurement finds them once, before it starts.
    var processes: [Int32] { process.map { processTree($0.processIdentifier) } ?? [] }

    /// Resident memory of the server and its child processes, in MiB.
    var memory: Double { Self.memory(of: processes) }

    /// The most resident memory each process held since it started (`VmHWM`), summed, in MiB.
    var highWater: Double { processes.map { GGTrackerBench.memory(of: $0).peak }.reduce(0, +) }

    /// Resident memory of the given processes, in MiB.
    static func memory(of processes: [Int32]) -> Double {
        processes.map { GGTrackerBench.memory(of: $0).rss }.reduce(0, +)
    }

    /// Sends one signed request and returns the body of the answer.
    func send(_ request: SignedRequest) async throws -> Data {
        let response = try await HTTPClient.shared.execute(request.http(url: url), timeout: .seconds(30))
        let body = try await response.body.collect(upTo: 1 << 22)
        guard response.status == .ok else { throw BenchFailure("\(name) answered \(response.status.code)") }
        return Data(buffer: body)
    }
}

/// The fields of `/proc/PID/stat` after the command's name (which may hold spaces and parentheses): the state
/// (field 3 of the file) first, the parent (4) next, …, utime (14) at index 11, stime (15) at index 12.
func statFields(of pid: Int32) -> [Substring]? {
    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
        let close = stat.lastIndex(of: ")")
    else { return nil }
    return stat[stat.index(after: close)...].split(separator: " ")
}

/// The process and its descendants, from `/proc/*/stat`.
func processTree(_ root: Int32) -> [Int32] {
    let pids = (try? FileManager.default.contentsOfDirectory(atPath: "/proc"))?.compactMap { Int32($0) } ?? []
    var parents: [Int32: Int32] = [:]
    for pid in pids {
        if let fields = statFields(of: pid), fields.count > 1, let parent = Int32(fields[1]) { parents[pid] = parent }
    }
    var tree = [root]
    var index = 0
    while index < tree.count {
        let pid = tree[index]
        tree += parents.filter { $0.value == pid }.map(\.key)
        index += 1
    }
    return tree
}

/// Discord interactions as the bench sends them, signed with the key both servers are given.
struct Signer {
    let key = Curve25519.Signing.PrivateKey()

    var publicKeyHex: String { key.publicKey.rawRepresentation.map { String(format: "%02x", $0) }.joined() }

    /// `nsfw` marks the channel age-restricted, where every game may be shown.
    static func interaction(
        id: Int, user: String, name: String, type: Int = 2, nsfw: Bool = false, options: [[String: Any]]
    ) -> [String: Any] {
        [
            "id": String(1_600_000_000_000_000_000 + id), "application_id": "123456789012345678", "type": type,
            "token": "bench-token-\(id)", "version": 1, "guild_id": "900000000000000001",
            "channel_id": "700000000000000001", "channel": ["id": "700000000000000001", "type": 0, "nsfw": nsfw],
            "member": [
                "user": ["id": user, "username": "bencher", "global_name": "Bencher"], "permissions": "0",
                "roles": [], "nick": NSNull(),
            ],
            "data": ["id": "1", "name": name, "type": 1, "options": options],
        ]
    }

    func sign(_ object: [String: Any]) throws -> SignedRequest {
        let body = try JSONSerialization.data(withJSONObject: object)
        let stamp = String(Int(Date().timeIntervalSince1970))
        let signature = try key.signature(for: Data(stamp.utf8) + body)
        return SignedRequest(
            body: String(decoding: body, as: UTF8.self),
            signature: signature.map { String(format: "%02x", $0) }.joined(), timestamp: stamp)
    }
}

extension SignedRequest {
    func http(url: String) -> HTTPClientRequest {
        var request = HTTPClientRequest(url: url)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        request.headers.add(name: "X-Signature-Ed25519", value: signature)
        request.headers.add(name: "X-Signature-Timestamp", value: timestamp)
        request.body = .bytes(ByteBuffer(string: body))
        return request
    }
}

/// A port of 127.0.0.1 that nothing listens on, as the kernel picks one for a socket bound to port 0. A port made
/// from the process id could be another program's (a test's server, another bench): the server meant to listen
/// there then failed to start while the other one answered its readiness check.
func freeLoopbackPort() throws -> Int {
    let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard socket >= 0 else { throw BenchFailure("no socket to find a free port: errno \(errno)") }
    defer { close(socket) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let found = withUnsafeMutablePointer(to: &address) { pointer in
        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            bind(socket, $0, length) == 0 && getsockname(socket, $0, &length) == 0
        }
    }
    guard found else { throw BenchFailure("no free port on 127.0.0.1: errno \(errno)") }
    return Int(UInt16(bigEndian: address.sin_port))
}
