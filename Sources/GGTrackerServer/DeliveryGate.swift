import Foundation
import Synchronization

/// The deliveries whose work is running, by id: a duplicate arriving while the first is in flight joins its work
/// instead of running the command again.
final class DeliveryGate: Sendable {
    private let running = Mutex<[String: Task<Handled, Never>]>([:])

    /// The work for `id`: started by `start` (with `first` true), or the one already running for it. `start` is
    /// called with the gate locked, so it should only create the task; the task ends with `end(id)`.
    func work(
        for id: String, start: () -> Task<Handled, Never>
    ) -> (task: Task<Handled, Never>, first: Bool) {
        running.withLock { running in
            if let task = running[id] { return (task, false) }
            let task = start()
            running[id] = task
            return (task, true)
        }
    }

    func end(_ id: String) {
        _ = running.withLock { $0.removeValue(forKey: id) }
    }
}

/// The first of a command's answer and the deferral its deadline brings: whichever is offered first is the one
/// every waiter gets.
final class FirstAnswer: Sendable {
    private struct State {
        var answer: Handled?
        var waiter: CheckedContinuation<Handled, Never>?
    }

    private let state = Mutex(State())

    /// Offers an answer; only the first one offered counts.
    func offer(_ answer: Handled) {
        let waiter = state.withLock { state -> CheckedContinuation<Handled, Never>? in
            guard state.answer == nil else { return nil }
            state.answer = answer
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(returning: answer)
    }

    /// The answer, or a deferral once `deadline` passes first (an entry among the shared `Deadlines`, not a task
    /// or a timer of its own).
    func first(deadline: Duration) async -> Handled {
        let token = Deadlines.shared.after(deadline) {
            self.offer(Handled(data: Data(), command: "", outcome: .deferred))
        }
        defer { Deadlines.shared.cancel(token) }
        return await withCheckedContinuation { continuation in
            let answer = state.withLock { state -> Handled? in
                if let answer = state.answer { return answer }
                state.waiter = continuation
                return nil
            }
            if let answer { continuation.resume(returning: answer) }
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
