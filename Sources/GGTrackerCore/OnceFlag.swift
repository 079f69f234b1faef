import Synchronization

/// A flag raised once and read from any thread.
package final class OnceFlag: Sendable {
    private let value = Atomic<Bool>(false)

    package init() {}

    package func raise() { value.store(true, ordering: .relaxed) }
    package var isRaised: Bool { value.load(ordering: .relaxed) }
}
