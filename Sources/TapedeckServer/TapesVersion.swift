import Synchronization

/// How many times a deck's tapes changed: an answer given again (``AnswerAgain``) holds while
/// the count does not move.
final class TapesVersion: Sendable {
    private let count = Atomic<Int>(0)

    /// The count now.
    var current: Int { count.load(ordering: .acquiring) }

    /// Counts a change; called with the tapes' lock held, after the change.
    func advance() {
        count.add(1, ordering: .releasing)
    }
}
