import Foundation

/// Runs the work for one delivery id at a time: a duplicate arriving while the first is in flight waits for it.
actor DeliveryGate {
    private var running: [String: Task<Handled, any Error>] = [:]

    func once(_ id: String, _ work: @escaping @Sendable () async throws -> Handled) async throws -> Handled {
        if let task = running[id] { return try await task.value }
        let task = Task { try await work() }
        running[id] = task
        defer { running[id] = nil }
        return try await task.value
    }
}

/// True for the first caller only.
final class OnceFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var claimed = false
    func claim() -> Bool {
        lock.withLock {
            defer { claimed = true }
            return !claimed
        }
    }
}

/// What handling one delivery produced.
struct Handled: Sendable {
    var data: Data
    var command: String
    var outcome: Outcome
}

extension Duration {
    var milliseconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) * 1000 + Double(attoseconds) / 1e15
    }
}
