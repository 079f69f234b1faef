import Foundation
import GGTrackerCore
import Logging
import Metrics
import Prometheus
import Synchronization

/// The server's metrics, in its own Prometheus registry (served at `GET /metrics`), and the one log line
/// written for every handled request.
package struct RequestMetrics: Sendable {
    package let registry: PrometheusCollectorRegistry
    /// A swift-metrics factory writing into `registry`; handed to the catalog providers.
    package let factory: PrometheusMetricsFactory
    /// The counters and timers already made, by their labels: making one looks it up in the registry.
    private let handles = Handles()

    private final class Handles: Sendable {
        let counters = Mutex<[String: Metrics.Counter]>([:])
        let timers = Mutex<[String: Metrics.Timer]>([:])
    }

    package init() {
        registry = PrometheusCollectorRegistry()
        var factory = PrometheusMetricsFactory(registry: registry)
        // Most answers take well under a millisecond; a deferred Discord command takes seconds.
        factory.defaultDurationHistogramBuckets = [
            .microseconds(250), .microseconds(500), .milliseconds(1), .milliseconds(2), .milliseconds(5),
            .milliseconds(10), .milliseconds(25), .milliseconds(50), .milliseconds(100), .milliseconds(250),
            .milliseconds(500), .seconds(1), .seconds(2.5), .seconds(5), .seconds(10),
        ]
        self.factory = factory
    }

    /// Label values a request may carry for its command; anything else (a typo in a Matrix or Slack line) is
    /// counted as `unknown`, so users cannot grow the number of series.
    static let commands: Set<String> = Set(CommandName.allCases.map(\.rawValue)).union([
        "ping", "autocomplete", "component", "modal", "-", "unknown",
    ])

    /// Counts one handled request and, given when it started, records its latency and logs one line:
    /// platform, command, outcome and milliseconds, never tokens, signatures or what the user wrote.
    package func record(
        platform: String, command: String, outcome: Outcome, started: ContinuousClock.Instant? = nil,
        logger: Logger? = nil
    ) {
        let command = Self.commands.contains(command) ? command : "unknown"
        let key = platform + "\u{1F}" + command
        handles.counters.withLock { counters in
            let full = key + "\u{1F}" + outcome.rawValue
            if let counter = counters[full] { return counter }
            let counter = Metrics.Counter(
                label: "ggtracker_requests_total",
                dimensions: [("platform", platform), ("command", command), ("outcome", outcome.rawValue)],
                factory: factory)
            counters[full] = counter
            return counter
        }.increment()
        guard let started else { return }
        let elapsed = ContinuousClock.now - started
        handles.timers.withLock { timers in
            if let timer = timers[key] { return timer }
            let timer = Metrics.Timer(
                label: "ggtracker_request_duration_seconds",
                dimensions: [("platform", platform), ("command", command)],
                factory: factory)
            timers[key] = timer
            return timer
        }.recordNanoseconds(Int64(elapsed.milliseconds * 1_000_000))
        logger?.info(
            "interaction",
            metadata: [
                "platform": .string(platform), "command": .string(command), "outcome": .string(outcome.rawValue),
                "ms": .stringConvertible(elapsed.milliseconds),
            ])
    }

    /// Sets a gauge read at scrape time (database size, catalog size, refresh progress).
    package func gauge(_ name: String, _ help: String, _ value: Double) {
        registry.makeGauge(
            descriptor: MetricNameDescriptor(metricName: name, unitName: "", helpText: help), labels: []
        ).set(to: value)
    }

    /// The Prometheus text exposition of everything recorded.
    package func render() -> String { registry.emitToString() }
}

/// How handling one delivery ended, as metrics and logs name it.
package enum Outcome: String, Sendable {
    /// Answered in the channel.
    case ok
    /// Answered to the person who asked only.
    case `private`
    /// A delivery seen before: its stored answer, nothing applied again.
    case retry
    /// Acknowledged at once; the answer follows as an edit.
    case deferred
    /// Failed on our side; the user was told.
    case error
    /// Refused: the signature or token did not check out.
    case unauthorized
    /// Refused: signed, but not a request the bot can read.
    case badRequest = "bad_request"
    /// A kind of interaction the bot does not handle.
    case unsupported
}
