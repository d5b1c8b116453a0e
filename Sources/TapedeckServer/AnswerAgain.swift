import Tapedeck

/// A replayed answer that the handlers would give again, unchanged, to every request whose
/// head is byte for byte the one it answered, for as long as the deck's tapes stay as they are.
///
/// The chain is a function of the request and the deck: the control, `CONNECT`, inspector and
/// loop steps decide from the request and the deck's fixed options, the mount step from the
/// request and the tapes, and a replay tape's choice is steady once the request got the last
/// of its key's interactions on a cassette that repeats (``ReplayTransport/answerFound(_:)``).
/// ``TapesHandler`` marks such an answer with the tapes' version the ``Deck`` read before it
/// asked the handlers (``HandlerNotes/tapesSeen``), and ``HTTPFastLane`` keeps it with the
/// head's bytes in its event loop's ``AnswerBook`` once they have come twice: the same bytes
/// again, on any connection of that loop, are answered without parsing the head or asking the
/// handlers; the play is counted and the connection's read timeout starts again, as for any
/// answer. Any change of the tapes (a cassette loaded, a switch, a reset, recording started or
/// stopped) ends every such answer.
///
/// Only answers whose bytes the tape holds (``WireForms``) are marked, so keeping them costs
/// no memory of their own while they hold; none is marked when the inspector publishes each
/// answer.
final class AnswerAgain: Sendable {
    /// The tape's replay, which counts the play; weak, so that an answer kept in a book does
    /// not keep an ejected cassette in memory.
    private weak let replay: ReplayTransport?
    /// The interaction given.
    let position: Int
    /// The deck's count of changes to its tapes.
    let version: TapesVersion
    /// The count when the answer was asked for, before the handlers read the tapes.
    let seen: Int

    /// An answer from `replay`'s interaction at `position`, asked for when `version` was `seen`.
    init(replay: ReplayTransport, position: Int, version: TapesVersion, seen: Int) {
        self.replay = replay
        self.position = position
        self.version = version
        self.seen = seen
    }

    /// Whether the handlers would still give this answer: the tapes did not change since.
    var holds: Bool { version.current == seen }

    /// Counts the play, as the tape counts the ones it gives itself.
    func played() {
        replay?.playedAgain(at: position)
    }
}
