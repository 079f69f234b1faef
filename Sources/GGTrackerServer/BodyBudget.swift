import Foundation
import GGTrackerCore
import Hummingbird
import NIOCore
import Synchronization

/// Bytes of request bodies held in memory before anything vouches for them. Discord's and Slack's requests are
/// signed over their whole body, so it has to be read before the signature can be checked; a body not yet checked
/// takes its bytes from this process-wide budget as they arrive, and a request that would go past it is refused
/// with 503 at once instead of holding memory (slow or forged bodies on many connections cannot add up).
package final class UnverifiedBodyBudget: Sendable {
    package let limit: Int
    private let used = Mutex(0)

    package init(limit: Int) { self.limit = limit }

    /// Takes `bytes` from the budget; false when that would go over it.
    func take(_ bytes: Int) -> Bool {
        used.withLock { used in
            guard used + bytes <= limit else { return false }
            used += bytes
            return true
        }
    }

    func give(_ bytes: Int) { used.withLock { $0 -= bytes } }
}

extension Request {
    /// The answer when unverified bodies already hold the whole budget: try again shortly, on a new connection.
    static let overBudget = HTTPError(
        .serviceUnavailable, headers: [.connection: "close", .retryAfter: "1"],
        message: "too many requests are being received; try again shortly")

    /// How long a client may take to send a request's body.
    static let bodyTimeout: Duration = .seconds(10)

    /// The whole body, at most the route's limit (`BodyLimitMiddleware.limit(for:)`), within `bodyTimeout`;
    /// a client that stalls gets 408. With a budget (a body not yet verified), its bytes are counted there while
    /// it is read, and given back once it is: past the budget the request gets 503.
    func collectBody(budget: UnverifiedBodyBudget? = nil) async throws -> ByteBuffer {
        let body = self.body
        let limit = BodyLimitMiddleware<BasicRequestContext>.limit(for: uri.path)
        // A body announced with its length reserves all of it before a byte is read: past the budget, the request
        // is refused and its connection closed without reading it.
        let declared = headers[.contentLength].flatMap(Int.init).map { min($0, limit) } ?? 0
        if let budget, declared > 0, !budget.take(declared) { throw Self.overBudget }
        // The body is read in a task of its own, which the deadline cancels; the request's own cancellation (its
        // connection closed) cancels it too.
        let collector = Task {
            var collected = ByteBuffer()
            var taken = budget == nil ? 0 : declared
            defer { budget?.give(taken) }
            for try await part in body {
                guard collected.readableBytes + part.readableBytes <= limit else {
                    throw HTTPError(.contentTooLarge, message: "request body over \(limit) bytes")
                }
                let beyond = collected.readableBytes + part.readableBytes - taken
                if let budget, beyond > 0 {
                    guard budget.take(beyond) else { throw Self.overBudget }
                    taken += beyond
                }
                var part = part
                collected.writeBuffer(&part)
            }
            return collected
        }
        let expired = OnceFlag()
        let deadline = Deadlines.shared.after(Self.bodyTimeout) {
            expired.raise()
            collector.cancel()
        }
        defer { Deadlines.shared.cancel(deadline) }
        do {
            return try await withTaskCancellationHandler {
                try await collector.value
            } onCancel: {
                collector.cancel()
            }
        } catch  where expired.isRaised {
            throw HTTPError(.requestTimeout, message: "the request body did not arrive in time")
        }
    }
}
