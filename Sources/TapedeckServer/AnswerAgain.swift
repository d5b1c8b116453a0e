import Synchronization
import Tapedeck

/// A replayed answer that the handlers would give again, unchanged, to every request whose
/// head is byte for byte the one it answered, for as long as the deck's tapes stay as they are.
///
/// The chain is a function of the request and the deck: the control, `CONNECT`, inspector, loop
/// and mount steps decide from the request alone, and a replay tape's choice is steady once
/// the request got the last of its key's interactions on a cassette that repeats
/// (``ReplayTransport/answerFound(_:)``). ``TapesHandler`` marks such an answer, the ``Deck``
/// stamps it with the tapes' version it was asked under, and ``HTTPFastLane`` keeps it with
/// the head's bytes: the same bytes again are answered without reading the head or asking the
/// handlers, and the play is still counted. Any change of the tapes (a switch, a reset,
/// recording started or stopped) ends every such answer.
///
/// Only answers the lane writes from held bytes (``ServerReply/wire``) are marked, and none
/// when the inspector publishes each answer: a hit writes bytes and counts, nothing else.
struct AnswerAgain: Sendable {
    /// The tape's replay, which counts the play; weak, so that an old connection does not keep
    /// an ejected cassette in memory.
    weak var replay: ReplayTransport?
    /// The interaction given.
    let position: Int
    /// The deck's count of changes to its tapes, and its value when the answer was asked for;
    /// nil until the deck stamps it (``Deck/respondAtOnce(_:)``).
    var version: TapesVersion?
    var seen = 0

    init(replay: ReplayTransport, position: Int) {
        self.replay = replay
        self.position = position
    }

    /// Whether the handlers would still give this answer: the tapes did not change since.
    var holds: Bool {
        guard let version else { return false }
        return version.current == seen
    }

    /// Counts the play, as the tape counts the ones it gives itself.
    func played() {
        replay?.playedAgain(at: position)
    }
}

/// How many times a deck's tapes changed (``AnswerAgain``).
final class TapesVersion: Sendable {
    private let count = Atomic<Int>(0)

    /// The count now.
    var current: Int { count.load(ordering: .acquiring) }

    /// Counts a change; called with the tapes' lock held, after the change.
    func advance() {
        count.add(1, ordering: .releasing)
    }
}
