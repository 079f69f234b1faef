import NIOCore
import NIOPosix
import Synchronization

/// The deadlines of requests in flight (a body's arrival, Discord's three seconds), kept in one table with one timer
/// on an event loop, armed for the earliest. A timer of its own for each deadline cost a heap insertion and removal
/// under the loop's lock per request; here setting or cancelling a deadline is an entry in a table, and the timer is
/// armed again only when a deadline earlier than the one it waits for is set, or when it fires: it then fires what is
/// due and waits for the earliest deadline still pending, or stays off when there is none. Under load that is one
/// timer event per deadline's length, and a server with nothing in flight is not woken.
final class Deadlines: Sendable {
    static let shared = Deadlines()

    /// A deadline set, to cancel once what it guards is done.
    struct Token: Sendable {
        fileprivate let id: Int
    }

    private struct Entry {
        var deadline: NIODeadline
        var fire: @Sendable () -> Void
    }

    /// The timer waiting for `deadline`; `generation` tells a timer replaced by an earlier one from the current one.
    private struct Armed {
        var timer: Scheduled<Void>
        var deadline: NIODeadline
        var generation: Int
    }

    private struct State {
        var nextID = 0
        var pending: [Int: Entry] = [:]
        var armed: Armed?
        var generations = 0
        var timerEvents = 0
    }

    private let state = Mutex(State())
    private let loop: any EventLoop

    init(loop: any EventLoop = MultiThreadedEventLoopGroup.singleton.any()) { self.loop = loop }

    /// Calls `fire` once `duration` has passed, unless the token is cancelled first. `fire` runs on an event loop
    /// and should only hand the news on (resume, cancel).
    func after(_ duration: Duration, _ fire: @escaping @Sendable () -> Void) -> Token {
        let deadline = NIODeadline.now() + duration.timeAmount
        return state.withLock { state in
            state.nextID += 1
            state.pending[state.nextID] = Entry(deadline: deadline, fire: fire)
            if state.armed.map({ deadline < $0.deadline }) ?? true { arm(&state, for: deadline) }
            return Token(id: state.nextID)
        }
    }

    /// The deadline is no longer needed; nothing happens if it already fired. The timer is left as it is.
    func cancel(_ token: Token) {
        _ = state.withLock { $0.pending.removeValue(forKey: token.id) }
    }

    var pendingCount: Int { state.withLock { $0.pending.count } }
    /// Whether the timer waits for a deadline.
    var isArmed: Bool { state.withLock { $0.armed != nil } }
    /// How many times the timer has fired.
    var timerEvents: Int { state.withLock { $0.timerEvents } }

    private func arm(_ state: inout State, for deadline: NIODeadline) {
        state.armed?.timer.cancel()
        state.generations += 1
        let generation = state.generations
        let timer = loop.scheduleTask(deadline: deadline) { [weak self] () -> Void in self?.fired(generation) }
        state.armed = Armed(timer: timer, deadline: deadline, generation: generation)
    }

    /// Fires the deadlines that have passed and arms the timer for the earliest one left.
    private func fired(_ generation: Int) {
        let now = NIODeadline.now()
        let due = state.withLock { state -> [@Sendable () -> Void] in
            // A timer replaced by an earlier one, yet already started: the current one is armed.
            guard state.armed?.generation == generation else { return [] }
            state.armed = nil
            state.timerEvents += 1
            let passed = state.pending.filter { $0.value.deadline <= now }
            for id in passed.keys { state.pending[id] = nil }
            if let earliest = state.pending.values.map(\.deadline).min() { arm(&state, for: earliest) }
            return passed.values.map(\.fire)
        }
        for fire in due { fire() }
    }
}
