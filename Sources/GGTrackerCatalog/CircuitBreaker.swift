import Foundation
import Metrics

/// Stops asking a provider that keeps failing: after `threshold` failures in a row the circuit opens and calls
/// fail at once for `cooldown`; then one call is let through, and its outcome closes or reopens the circuit.
/// A dead API costs one fast failure per call instead of a wait for a timeout.
package final class CircuitBreaker: @unchecked Sendable {
    package let threshold: Int
    package let cooldown: TimeInterval
    private let lock = NSLock()
    private var failures = 0
    private var openedAt: Date?
    private var trialRunning = false

    package init(threshold: Int = 3, cooldown: TimeInterval = 30) {
        self.threshold = threshold
        self.cooldown = cooldown
    }

    /// Nil when a call may go ahead; otherwise the seconds until the provider will be tried again.
    package func retryAfter(now: Date = Date()) -> Int? {
        lock.withLock {
            guard let openedAt else { return nil }
            let remaining = cooldown - now.timeIntervalSince(openedAt)
            if remaining > 0 { return Int(remaining.rounded(.up)) }
            // Half open: one trial call at a time.
            if trialRunning { return 1 }
            trialRunning = true
            return nil
        }
    }

    package func succeeded() {
        lock.withLock {
            failures = 0
            openedAt = nil
            trialRunning = false
        }
    }

    package func failed(now: Date = Date()) {
        lock.withLock {
            failures += 1
            trialRunning = false
            if failures >= threshold || openedAt != nil { openedAt = now }
        }
    }

    package var isOpen: Bool { lock.withLock { openedAt != nil } }
}

/// Counts of requests to catalog providers, by provider and HTTP status (`429` when rate-limited, `timeout`).
package enum ProviderCalls {
    package static let label = "ggtracker_provider_requests_total"

    package static func count(_ provider: String, status: String, _ factory: any MetricsFactory) {
        Counter(label: label, dimensions: [("provider", provider), ("status", status)], factory: factory).increment()
    }
}
