import NIOCore
import NIOPosix
import Synchronization

/// The deadlines of requests in flight (a body's arrival, Discord's three seconds), checked together by one
/// repeating timer on an event loop. A timer of its own for each deadline cost a heap insertion and removal under
/// the loop's lock per request, and re-armed the loop's timer each time; here a deadline is an entry in a table.
/// A deadline fires up to one tick late. The timer stops after a second with no deadline pending and starts again
/// with the next one.
final class Deadlines: Sendable {
    static let shared = Deadlines(tick: .milliseconds(10))

    /// A deadline set, to cancel once what it guards is done.
    struct Token: Sendable {
        fileprivate let id: Int
    }

    private struct Entry {
        var deadline: NIODeadline
        var fire: @Sendable () -> Void
    }

    private struct State {
        var nextID = 0
        var pending: [Int: Entry] = [:]
        var timer: RepeatedTask?
        var idleTicks = 0
    }

    private let state = Mutex(State())
    let tick: TimeAmount

    init(tick: TimeAmount) { self.tick = tick }

    /// Calls `fire` once `duration` has passed, unless the token is cancelled first. `fire` runs on an event loop
    /// and should only hand the news on (resume, cancel).
    func after(_ duration: Duration, _ fire: @escaping @Sendable () -> Void) -> Token {
        let deadline = NIODeadline.now() + duration.timeAmount
        return state.withLock { state in
            state.nextID += 1
            state.pending[state.nextID] = Entry(deadline: deadline, fire: fire)
            state.idleTicks = 0
            if state.timer == nil {
                state.timer = MultiThreadedEventLoopGroup.singleton.any().scheduleRepeatedTask(
                    initialDelay: tick, delay: tick
                ) { [weak self] task in
                    // A table no longer used (a test's) stops its timer.
                    guard let self else { return task.cancel() }
                    self.check()
                }
            }
            return Token(id: state.nextID)
        }
    }

    /// The deadline is no longer needed; nothing happens if it already fired.
    func cancel(_ token: Token) {
        _ = state.withLock { $0.pending.removeValue(forKey: token.id) }
    }

    var pendingCount: Int { state.withLock { $0.pending.count } }
    var isTicking: Bool { state.withLock { $0.timer != nil } }

    /// Fires the deadlines that have passed; stops the timer after a second with none pending.
    private func check() {
        let now = NIODeadline.now()
        let due = state.withLock { state -> [@Sendable () -> Void] in
            var due: [@Sendable () -> Void] = []
            if state.pending.isEmpty {
                state.idleTicks += 1
                if Int64(state.idleTicks) * tick.nanoseconds >= 1_000_000_000 {
                    state.timer?.cancel()
                    state.timer = nil
                }
                return due
            }
            state.idleTicks = 0
            for (id, entry) in state.pending where entry.deadline <= now {
                due.append(entry.fire)
                state.pending[id] = nil
            }
            return due
        }
        for fire in due { fire() }
    }
}
