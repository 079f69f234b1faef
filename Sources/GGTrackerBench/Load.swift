import ArgumentParser
import AsyncHTTPClient
import Foundation
import NIOCore
import Synchronization

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
        let prepared = requests.dropFirst(offset).enumerated().map { index, r in r.http(url: urls[index % urls.count]) }
        let result =
            rate > 0
            ? try await openLoop(client, prepared) : try await closedLoop(client, prepared)
        try await client.shutdown()
        guard result.requests > 0 else { throw NoneAnswered(failures: result.failures) }
        say(String(decoding: try JSONEncoder().encode(result), as: UTF8.self))
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
        var late: [Double] = []
        late.reserveCapacity(total)
        let outcomes = await withTaskGroup(of: Double?.self) { group in
            for index in 0..<total {
                let scheduled = start + .nanoseconds(Int64(Double(index) / Double(rate) * 1e9))
                try? await clock.sleep(until: scheduled)
                late.append((clock.now - scheduled).seconds * 1000)
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
            p99: latencies.percentile(99), p999: latencies.percentile(99.9),
            lateP99: Samples(values: late).percentile(99))
    }
}
