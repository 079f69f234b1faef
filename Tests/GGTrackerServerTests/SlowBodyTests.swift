import AsyncHTTPClient
@preconcurrency import Crypto
import Foundation
import Testing

@testable import GGTrackerServer

#if canImport(Glibc)
    import Glibc
#endif

/// Unsigned bodies trickling in on many connections cannot make the server hold their bytes: what is read before
/// a signature can be checked comes out of one budget, and past it a request is refused at once.
@Suite("Slow unsigned bodies")
struct SlowBodyTests {
    /// Opens a connection, sends the head of an unsigned Discord request announcing 1 MiB, then `sent` bytes of
    /// it, and leaves the connection open. Returns the socket.
    static func slowRequest(port: Int, sent: Int) -> Int32 {
        let fd = ServerProcess.connectLoopback(port: port)
        guard fd >= 0 else { return fd }
        let head =
            "POST /discord/interactions HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            + "Content-Length: 1048576\r\nX-Signature-Ed25519: 00\r\nX-Signature-Timestamp: 1\r\n\r\n"
        let bytes = Array(head.utf8) + [UInt8](repeating: UInt8(ascii: "a"), count: sent)
        let total = bytes.count
        var offset = 0
        // Never blocks: what the server does not take stays unsent, as with a slow client.
        bytes.withUnsafeBytes { buffer in
            while offset < total {
                let n = send(fd, buffer.baseAddress! + offset, total - offset, Int32(MSG_DONTWAIT))
                if n <= 0 { break }
                offset += n
            }
        }
        return fd
    }

    static func residentMegabytes(_ pid: Int32) -> Double {
        let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
        return Double(line.split(separator: " ").dropFirst().first ?? "0").map { $0 / 1024 } ?? 0
    }

    @Test(.enabled(if: ServerProcess.binaryExists, "needs the built ggtracker binary"), .timeLimit(.minutes(5)))
    func twoHundredSlowBodiesStayWithinTheBudget() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("slow-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let key = Curve25519.Signing.PrivateKey()
        let port = Int.random(in: 40_000..<50_000)
        let server = try ServerProcess(
            database: directory.appendingPathComponent("db.sqlite").path, port: port,
            publicKey: key.publicKey.rawRepresentation.map { String(format: "%02x", $0) }.joined(),
            log: directory.appendingPathComponent("server.log"))
        let http = HTTPClient(eventLoopGroupProvider: .singleton)
        defer { server.kill(SIGKILL) }
        try await server.waitUntilReady(http)
        let before = Self.residentMegabytes(server.process.processIdentifier)
        var sockets: [Int32] = []
        for _ in 0..<200 { sockets.append(Self.slowRequest(port: port, sent: 768 << 10)) }
        try await Task.sleep(for: .seconds(7))
        let during = Self.residentMegabytes(server.process.processIdentifier)
        // Meanwhile a request is answered, or refused at once to try again: never left hanging.
        let sender = SignedSender(http: http, key: key, port: port)
        let meanwhile = await sender.send(Interaction.command("about"))
        for fd in sockets { close(fd) }
        try await Task.sleep(for: .seconds(1))
        let after = await sender.send(Interaction.command("about"))
        try await http.shutdown()
        #expect(meanwhile?.0 == 200 || meanwhile?.0 == 503)
        #expect(after?.0 == 200, "served again once the slow connections are gone")
        // Held whole, the 200 bodies' sent bytes alone would be 150 MB: the server grows by well under that (the
        // budget, the connections' read buffers and the allocator's arenas), whatever it started from.
        #expect(
            during - before < 110, "resident memory \(before) MB before, \(during) MB with 200 slow bodies")
    }
}
