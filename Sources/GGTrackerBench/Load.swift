import ArgumentParser
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix

// MARK: - Load generator

/// One pre-signed request: body, signature and timestamp.
struct SignedRequest: Codable {
    var body: String
    var signature: String
    var timestamp: String

    /// The request as the load generator sends it.
    var prepared: LoadRun.Prepared {
        let body = ByteBuffer(string: body)
        let head = HTTPRequestHead(
            version: .http1_1, method: .POST, uri: "/discord/interactions",
            headers: [
                "Host": "127.0.0.1", "Content-Type": "application/json", "X-Signature-Ed25519": signature,
                "X-Signature-Timestamp": timestamp, "Content-Length": "\(body.readableBytes)",
            ])
        return LoadRun.Prepared(head: head, body: body)
    }
}

struct LoadResult: Codable {
    var requests: Int
    var failures: Int
    var seconds: Double
    var rate: Double
    var p50: Double
    var p99: Double
    var p999: Double
    /// Open loop: how late the generator itself sent (after each request's scheduled time), 99th percentile, ms.
    /// Latencies count from the scheduled time, so this much of them may be the generator's, not the server's.
    var lateP99: Double?
}

struct Load: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Send pre-signed interactions from a file to a running server (used by `bench interactions`).")
    @Option(help: "A server's port; repeated, requests go to each in turn (replicas behind a balancer).")
    var port: [Int]
    @Option(help: "JSON file of pre-signed requests.") var file: String
    @Option(
        help:
            "Kept-alive connections: in a closed loop, the requests in flight at once; in an open loop, those the requests are sent on (one due while all are busy waits for the first free)."
    )
    var connections = 32
    @Option(help: "Open loop: requests per second (0: closed loop).") var rate = 0
    @Option(help: "How long the load runs (an open loop sends rate × seconds requests).") var seconds = 10.0
    @Option(help: "Use requests from this index on.") var offset = 0
    @Option(help: "Write each answered request's time since the load began and its latency, in ms, one per line.")
    var latenciesOut: String?

    func validate() throws {
        guard !port.isEmpty, port.allSatisfy({ (1...65_535).contains($0) }) else {
            throw ValidationError("--port must be given, each between 1 and 65535")
        }
        guard connections >= 1 else { throw ValidationError("--connections must be at least 1") }
        guard rate >= 0 else { throw ValidationError("--rate must be 0 (closed loop) or more") }
        guard seconds > 0 else { throw ValidationError("--seconds must be more than 0") }
        guard offset >= 0 else { throw ValidationError("--offset must be 0 or more") }
        if let latenciesOut {
            let folder = URL(fileURLWithPath: latenciesOut).deletingLastPathComponent().path
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue,
                FileManager.default.isWritableFile(atPath: folder)
            else { throw ValidationError("--latencies-out: \(folder) is not a folder this program can write in") }
        }
    }

    func run() async throws {
        let requests = try JSONDecoder().decode(
            [SignedRequest].self, from: Data(contentsOf: URL(fileURLWithPath: file)))
        let prepared = requests.dropFirst(offset).map(\.prepared)
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let result: LoadResult
        do {
            result = try await measure(prepared, on: group.next())
            try await group.shutdownGracefully()
        } catch {
            try? await group.shutdownGracefully()
            throw error
        }
        guard result.requests > 0 else { throw NoneAnswered(failures: result.failures) }
        say(String(decoding: try JSONEncoder().encode(result), as: UTF8.self))
    }

    /// Runs the closed or the open loop and sums it up. The connections are open before the clock starts.
    func measure(_ requests: [LoadRun.Prepared], on loop: any EventLoop) async throws -> LoadResult {
        let total = rate > 0 ? min(requests.count, Int(Double(rate) * seconds)) : requests.count
        let mode: LoadRun.Mode =
            rate > 0 ? .open(rate: rate, total: total) : .closed(duration: .nanoseconds(Int64(seconds * 1e9)))
        let summary = try await loop.flatSubmit {
            let run = LoadRun(loop: loop, requests: requests, ports: port, mode: mode)
            let bound = NIOLoopBound(run, eventLoop: loop)
            return run.start(connections: connections).map {
                let run = bound.value
                return (
                    run.latencies, run.answeredAt, run.failures, run.late, run.next,
                    (NIODeadline.now() - run.began).milliseconds / 1000
                )
            }
        }.get()
        let (latencies, answeredAt, failures, late, sent, elapsed) = summary
        if let latenciesOut {
            let lines = zip(answeredAt, latencies).map { "\(format($0, 3)) \(format($1, 3))\n" }.joined()
            try Data(lines.utf8).write(to: URL(fileURLWithPath: latenciesOut))
        }
        if rate == 0, sent >= requests.count {
            FileHandle.standardError.write(Data("warning: ran out of pre-signed requests\n".utf8))
        }
        let samples = Samples(values: latencies)
        return LoadResult(
            requests: latencies.count, failures: failures, seconds: elapsed, rate: Double(latencies.count) / elapsed,
            p50: samples.percentile(50), p99: samples.percentile(99), p999: samples.percentile(99.9),
            lateP99: rate > 0 ? Samples(values: late).percentile(99) : nil)
    }

    /// Not one request was answered: there is no latency to give.
    struct NoneAnswered: Error, CustomStringConvertible {
        var failures: Int
        var description: String {
            "none of the \(failures) requests sent was answered 200 OK: check that the server is up, that it has the "
                + "public key that signed them, and that they were signed less than 5 minutes ago (the server refuses "
                + "older timestamps)"
        }
    }
}
