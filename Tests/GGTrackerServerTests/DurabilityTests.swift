import AsyncHTTPClient
@preconcurrency import Crypto
import Foundation
import GGTrackerStorage
import GRDB
import NIOCore
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The real `ggtracker` binary, started and killed like a server on a real machine.
final class ServerProcess: @unchecked Sendable {
    let process = Process()
    let port: Int
    let log: URL

    /// The binary built next to this test bundle (`swift build --build-tests` builds both).
    static var binary: String {
        if let path = ProcessInfo.processInfo.environment["GGTRACKER_BINARY"] { return path }
        let bundle = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        return bundle.appendingPathComponent("ggtracker").path
    }

    static var binaryExists: Bool { FileManager.default.isExecutableFile(atPath: binary) }

    init(database: String, port: Int, publicKey: String, log: URL, environment extra: [String: String] = [:]) throws {
        self.port = port
        self.log = log
        process.executableURL = URL(fileURLWithPath: Self.binary)
        process.arguments = ["serve", "--port", String(port), "--database", database]
        var environment = ProcessInfo.processInfo.environment
        environment["DISCORD_PUBLIC_KEY"] = publicKey
        environment["GGTRACKER_USER_RATE"] = "0"
        environment["GGTRACKER_SERVER_RATE"] = "0"
        environment["GGTRACKER_CATALOG"] = "offline"
        environment["DISCORD_API_BASE"] = "http://127.0.0.1:9/api/v10"
        environment.merge(extra) { $1 }
        process.environment = environment
        if !FileManager.default.fileExists(atPath: log.path) {
            _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        }
        let handle = try FileHandle(forWritingTo: log)
        handle.seekToEndOfFile()
        process.standardOutput = handle
        process.standardError = handle
        try process.run()
    }

    /// Waits until `/readyz` answers 200.
    func waitUntilReady(_ http: HTTPClient) async throws {
        for _ in 0..<600 {
            if let response = try? await http.execute(
                HTTPClientRequest(url: "http://127.0.0.1:\(port)/readyz"), timeout: .seconds(1)),
                response.status == .ok
            {
                return
            }
            try await Task.sleep(for: .milliseconds(100))
        }
        throw CancellationError()
    }

    func kill(_ signal: Int32) { _ = Foundation.kill(process.processIdentifier, signal) }

    /// Runs a `ggtracker` command to its end, in the offline catalog mode with `extra` settings; its exit status
    /// and everything it printed.
    @discardableResult
    /// `command` waited for on a thread of its own: blocking the tasks' threads would stall the servers of the
    /// test process that the command talks to.
    static func commandInBackground(
        _ arguments: [String], environment: [String: String] = [:]
    ) async throws -> (status: Int32, output: String) {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(with: Result { try command(arguments, environment: environment) })
            }
        }
    }

    static func command(
        _ arguments: [String], environment extra: [String: String] = [:]
    ) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["GGTRACKER_CATALOG"] = "offline"
        environment.merge(extra) { $1 }
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        // A command that has not ended after two minutes is stopped, so that a hang fails its test, not the run.
        let deadline = DispatchWorkItem { [process] in
            if process.isRunning { _ = Foundation.kill(process.processIdentifier, SIGKILL) }
        }
        DispatchQueue.global().asyncAfter(deadline: .now() + 120, execute: deadline)
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        deadline.cancel()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    /// A TCP connection to 127.0.0.1:`port` as a raw socket, or -1.
    static func connectLoopback(port: Int) -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        if connected != 0 {
            close(fd)
            return -1
        }
        return fd
    }

    func waitForExit() -> Int32 {
        process.waitUntilExit()
        return process.terminationStatus
    }
}

/// Sends signed interactions to a server process over a real socket.
struct SignedSender: Sendable {
    let http: HTTPClient
    let key: Curve25519.Signing.PrivateKey
    let port: Int

    /// The answer's status and body, or nil when the connection failed (the server was killed).
    func send(_ interaction: [String: Any]) async -> (UInt, Data)? {
        do {
            let body = try JSONSerialization.data(withJSONObject: interaction)
            let stamp = String(Int(Date().timeIntervalSince1970))
            let signature = try key.signature(for: Data(stamp.utf8) + body).map { String(format: "%02x", $0) }
                .joined()
            var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)/discord/interactions")
            request.method = .POST
            request.headers.add(name: "Content-Type", value: "application/json")
            request.headers.add(name: "X-Signature-Ed25519", value: signature)
            request.headers.add(name: "X-Signature-Timestamp", value: stamp)
            request.body = .bytes(ByteBuffer(data: body))
            let response = try await http.execute(request, timeout: .seconds(30))
            let bytes = try await response.body.collect(upTo: 1 << 20)
            return (response.status.code, Data(bytes.readableBytesView))
        } catch {
            return nil
        }
    }
}

@Suite("Durability of the real server", .serialized)
struct DurabilityTests {
    static let clients = 50
    /// Seconds of load before the kill; `GGTRACKER_SOAK_SECONDS=60` for the long run.
    static let seconds = Double(ProcessInfo.processInfo.environment["GGTRACKER_SOAK_SECONDS"] ?? "") ?? 6

    static func person(_ n: Int) -> Interaction.Person {
        Interaction.Person(id: String(400_000_000_000_000_000 + n), name: "player\(n)")
    }

    /// Player 0 creates the custom challenge "Soak" that `progress` adds to.
    static var createSoak: [String: Any] {
        Interaction.command(
            "challenge",
            [
                Interaction.sub(
                    "create",
                    [
                        Interaction.option("name", "Soak"), Interaction.option("goal", 1_000_000.0),
                        Interaction.option("unit", "custom"), Interaction.option("ends", "2099-01-01"),
                    ])
            ], as: person(0))
    }

    static func progress(_ n: Int, id: String) -> [String: Any] {
        Interaction.command(
            "challenge",
            [Interaction.sub("progress", [Interaction.option("name", "Soak"), Interaction.option("amount", 1.0)])],
            as: person(n), id: id)
    }

    static func progressByPlayer(_ path: String) throws -> [String: Double] {
        let queue = try DatabaseQueue(path: path)
        defer { try? queue.close() }
        return try queue.read { db in
            try Row.fetchAll(db, sql: "SELECT player_id, custom_progress FROM challenge_participants").reduce(
                into: [:]
            ) { $0[$1["player_id"] as String] = $1["custom_progress"] as Double }
        }
    }

    @Test(.enabled(if: ServerProcess.binaryExists), .timeLimit(.minutes(10)))
    func acknowledgedWritesSurviveSIGKILLAndRetriesApplyOnce() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("gg-soak-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let database = directory.appendingPathComponent("ggtracker.sqlite").path
        let log = directory.appendingPathComponent("server.log")
        // A small catalog, so start-up does not load the bundled one.
        let imported = try await ServerProcess.commandInBackground([
            "catalog", "import", TestHarness.fixturePath, "--database", database,
        ])
        #expect(imported.status == 0, "got “\(imported.output)”")

        let key = Curve25519.Signing.PrivateKey()
        let publicKey = key.publicKey.rawRepresentation.map { String(format: "%02x", $0) }.joined()
        let port = 19_000 + Int.random(in: 0..<900)
        let http = HTTPClient.shared
        let sender = SignedSender(http: http, key: key, port: port)

        var server = try ServerProcess(database: database, port: port, publicKey: publicKey, log: log)
        try await server.waitUntilReady(http)
        #expect(await sender.send(Self.createSoak)?.0 == 200)
        for n in 1..<Self.clients {
            let join = Interaction.command(
                "challenge", [Interaction.sub("join", [Interaction.option("name", "Soak")])], as: Self.person(n))
            #expect(await sender.send(join)?.0 == 200)
        }

        // 50 clients, each a player adding 1 to the challenge per request, until the server is killed.
        actor Ledger {
            var sent: [(client: Int, id: String)] = []
            var acknowledged: [String: Data] = [:]
            func send(_ client: Int, _ id: String) { sent.append((client, id)) }
            func ack(_ id: String, _ body: Data) { acknowledged[id] = body }
        }
        let ledger = Ledger()
        let stop = Date().addingTimeInterval(Self.seconds)
        let killer = Task {
            try await Task.sleep(for: .seconds(Self.seconds))
            server.kill(SIGKILL)
        }
        await withTaskGroup(of: Void.self) { group in
            for n in 0..<Self.clients {
                group.addTask {
                    var i = 0
                    while Date() < stop.addingTimeInterval(1) {
                        i += 1
                        let id = String(1_400_000_000_000_000_000 + n * 10_000_000 + i)
                        await ledger.send(n, id)
                        guard let (status, body) = await sender.send(Self.progress(n, id: id)) else { return }
                        if status == 200 { await ledger.ack(id, body) }
                    }
                }
            }
        }
        try await killer.value
        #expect(server.waitForExit() == SIGKILL)
        let sent = await ledger.sent
        let acknowledged = await ledger.acknowledged
        #expect(acknowledged.count > Self.clients)

        // Everything acknowledged before the kill is on disk.
        let afterKill = try Self.progressByPlayer(database)
        var ackedByPlayer: [String: Int] = [:]
        var sentByPlayer: [String: Int] = [:]
        for (client, id) in sent {
            sentByPlayer["discord:\(Self.person(client).id)", default: 0] += 1
            if acknowledged[id] != nil { ackedByPlayer["discord:\(Self.person(client).id)", default: 0] += 1 }
        }
        for (player, count) in ackedByPlayer {
            #expect((afterKill[player] ?? 0) >= Double(count), "acknowledged progress of \(player) is stored")
        }

        // Restarted, every delivery is retried: acknowledged ones get the very same answer, and each delivery is
        // applied exactly once in all.
        server = try ServerProcess(database: database, port: port, publicKey: publicKey, log: log)
        try await server.waitUntilReady(http)
        let retried = sent
        await withTaskGroup(of: Void.self) { group in
            for chunk in stride(from: 0, to: retried.count, by: max(1, retried.count / Self.clients + 1)) {
                group.addTask {
                    for (client, id) in retried[chunk..<min(chunk + retried.count / Self.clients + 1, retried.count)] {
                        let answer = await sender.send(Self.progress(client, id: id))
                        #expect(answer?.0 == 200)
                        if let before = acknowledged[id] { #expect(answer?.1 == before, "the stored answer to \(id)") }
                    }
                }
            }
        }
        let final = try Self.progressByPlayer(database)
        for (player, count) in sentByPlayer {
            #expect(final[player] == Double(count), "\(player): every delivery applied exactly once")
        }

        // SIGTERM: in-flight requests finish, the database is checkpointed and closed, the exit is clean.
        let inFlight = Task { await sender.send(Self.progress(1, id: "1499999999999999999")) }
        try await Task.sleep(for: .milliseconds(5))
        server.kill(SIGTERM)
        let last = await inFlight.value
        #expect(server.waitForExit() == 0)
        if let last { #expect(last.0 == 200) }
        let logText = try String(contentsOf: log, encoding: .utf8)
        #expect(logText.contains("database checkpointed and closed"))
        print(
            "durability: \(Self.clients) clients, \(Int(Self.seconds)) s, \(sent.count) sent, \(acknowledged.count) acknowledged before SIGKILL, all retried once"
        )
    }

    /// A client that sends headers and half a body, then nothing: it gets 408 after the body timeout, and a
    /// SIGTERM meanwhile still ends the server.
    @Test(.enabled(if: ServerProcess.binaryExists), .timeLimit(.minutes(5)))
    func aStalledClientGets408AndDoesNotHoldTheShutdown() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("gg-stall-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let database = directory.appendingPathComponent("db.sqlite").path
        let imported = try await ServerProcess.commandInBackground([
            "catalog", "import", TestHarness.fixturePath, "--database", database,
        ])
        #expect(imported.status == 0, "got “\(imported.output)”")
        let key = Curve25519.Signing.PrivateKey()
        let port = 19_000 + Int.random(in: 900..<990)
        let server = try ServerProcess(
            database: database, port: port,
            publicKey: key.publicKey.rawRepresentation.map { String(format: "%02x", $0) }.joined(),
            log: directory.appendingPathComponent("server.log"))
        try await server.waitUntilReady(HTTPClient.shared)

        let fd = ServerProcess.connectLoopback(port: port)
        #expect(fd >= 0)
        defer { close(fd) }
        let partial = "POST /discord/interactions HTTP/1.1\r\nHost: x\r\nContent-Length: 500\r\n\r\n{\"id\":"
        _ = partial.withCString { send(fd, $0, strlen($0), 0) }
        try await Task.sleep(for: .milliseconds(300))
        server.kill(SIGTERM)
        let started = Date()
        var buffer = [UInt8](repeating: 0, count: 256)
        let count = recv(fd, &buffer, buffer.count, 0)
        let answer = String(decoding: buffer.prefix(max(0, count)), as: UTF8.self)
        #expect(answer.hasPrefix("HTTP/1.1 408"), "got “\(answer)”")
        #expect(server.waitForExit() == 0)
        #expect(Date().timeIntervalSince(started) < 30)
    }

    @Test(.enabled(if: ServerProcess.binaryExists), .timeLimit(.minutes(5)))
    func aRefreshInAnotherProcessWaitsForTheLeaseToBeFree() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("gg-lease-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("ggtracker.sqlite").path
        let database = try AppDatabase.open(path: path)
        // This process is refreshing.
        #expect(try await database.leases.acquireLease("catalog.refresh", holder: "this test", for: 600, at: Date()))
        let refused = try await ServerProcess.commandInBackground(["catalog", "refresh", "--database", path])
        #expect(refused.status != 0)
        #expect(refused.output.contains("already running in another process"), "got “\(refused.output)”")
        #expect(try await database.catalog.gameCount() == 0)
        try await database.leases.releaseLease("catalog.refresh", holder: "this test")
        let ran = try await ServerProcess.commandInBackground(["catalog", "refresh", "--database", path])
        #expect(ran.status == 0, "got “\(ran.output)”")
        #expect(try await database.catalog.gameCount() >= 20_000)
        #expect(try await database.leases.leaseHolder("catalog.refresh", at: Date()) == nil)
    }
}
