import Tapedeck

/// A replayed answer that the handlers would give again, unchanged, to every request whose
/// head is byte for byte the one it answered, for as long as the deck's tapes stay as they are.
///
/// The chain is a function of the request and the deck: the control, `CONNECT`, inspector and
/// loop steps decide from the request and the deck's fixed options, the mount step from the
/// request and the tapes, and a replay tape's choice is steady once the request got the last
/// of its key's interactions on a cassette that repeats (``ReplayTransport/answerFound(_:)``).
/// ``TapesHandler`` marks such an answer, the ``Deck`` stamps it with the tapes' version it was
/// asked under, and ``HTTPFastLane`` keeps it with the head's bytes in its event loop's
/// ``AnswerBook`` once they have come twice: the same bytes again, on any connection of that
/// loop, are answered without reading the head or asking the handlers; the play is counted and
/// the connection's read timeout starts again, as for any answer. Any change of the tapes (a
/// cassette loaded, a switch, a reset, recording started or stopped) ends every such answer.
///
/// Only answers whose bytes the tape holds (``WireForms``) are marked, so keeping them costs
/// no memory of their own while they hold; none is marked when the inspector publishes each
/// answer.
struct AnswerAgain: Sendable {
    /// The tape's replay, which counts the play; weak, so that an old connection does not keep
    /// an ejected cassette in memory.
    weak var replay: ReplayTransport?
    /// The interaction given.
    let position: Int
    /// The deck's count of changes to its tapes; nil until the deck stamps the answer
    /// (``Deck/respondAtOnce(_:)``).
    var version: TapesVersion?
    /// The count when the answer was asked for.
    var seen = 0

    /// An answer from `replay`'s interaction at `position`, not stamped yet.
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
