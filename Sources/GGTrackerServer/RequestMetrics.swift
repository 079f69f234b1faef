import Foundation

/// Counts handled requests by platform, command and outcome, for `GET /metrics` (Prometheus text format).
package final class RequestMetrics: @unchecked Sendable {
    private let lock = NSLock()
    private var counts: [String: Int] = [:]

    package init() {}

    package func record(platform: String, command: String, outcome: String) {
        let key = "platform=\"\(platform)\",command=\"\(command)\",outcome=\"\(outcome)\""
        lock.withLock { counts[key, default: 0] += 1 }
    }

    package func render(gauges: [(name: String, help: String, value: Double)]) -> String {
        var lines = [
            "# HELP ggtracker_requests_total Requests handled, by platform, command and outcome.",
            "# TYPE ggtracker_requests_total counter",
        ]
        let snapshot = lock.withLock { counts }
        for (labels, value) in snapshot.sorted(by: { $0.key < $1.key }) {
            lines.append("ggtracker_requests_total{\(labels)} \(value)")
        }
        for gauge in gauges {
            lines.append("# HELP \(gauge.name) \(gauge.help)")
            lines.append("# TYPE \(gauge.name) gauge")
            lines.append("\(gauge.name) \(gauge.value)")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
