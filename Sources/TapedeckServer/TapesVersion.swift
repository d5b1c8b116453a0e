import Synchronization

/// How many times a deck's tapes changed: an answer given again (``AnswerAgain``) holds while
/// the count does not move.
final class TapesVersion: Sendable {
    private let count = Atomic<Int>(0)
    private let observers = Mutex<[@Sendable () -> Void]>([])

    /// The count now.
    var current: Int { count.load(ordering: .acquiring) }

    /// Calls `action` after each change from now on (it must not block: it is called with the
    /// tapes' lock held).
    func whenAdvanced(_ action: @escaping @Sendable () -> Void) {
        observers.withLock { $0.append(action) }
    }

    /// Counts a change; called with the tapes' lock held, after the change.
    func advance() {
        count.add(1, ordering: .releasing)
        for action in observers.withLock({ $0 }) { action() }
    }
}
