import NIOCore
import NIOPosix
import Synchronization

/// Timers on NIO's event loops. A request's deadlines (a body's arrival, Discord's three seconds) are timers
/// there, where the request already runs: `Task.sleep` on the default executor would register each one with
/// Dispatch's timer thread and wake it, twice per request.
enum EventLoopTimer {
    /// Waits `duration` on an event loop timer; throws `CancellationError` as soon as the task is cancelled.
    static func sleep(for duration: Duration) async throws {
        let state = Mutex<(cancelled: Bool, timer: Scheduled<Void>?)>((false, nil))
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let timer = MultiThreadedEventLoopGroup.singleton.any().scheduleTask(in: duration.timeAmount) {}
                timer.futureResult.whenComplete { result in
                    continuation.resume(with: result.mapError { _ in CancellationError() })
                }
                let cancelled = state.withLock { state in
                    state.timer = timer
                    return state.cancelled
                }
                if cancelled { timer.cancel() }
            }
        } onCancel: {
            let timer = state.withLock { state in
                state.cancelled = true
                return state.timer
            }
            timer?.cancel()
        }
    }
}
