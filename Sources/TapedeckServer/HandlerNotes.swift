import Foundation
import Synchronization

/// What the handlers that passed a request on noted for the ones after them, for the one
/// request a ``ServerHandlerChain`` is answering.
///
/// The chain starts fresh notes for every request it answers and binds them to
/// ``current`` while its handlers run, as FlyingFox binds the matched route of a request:
/// ``ServerHandler/respond(to:)`` stays one argument, and a handler that has nothing to
/// note or read never sees them.
///
/// ```swift
/// // in a handler after the tapes:
/// if case .noMatch(let reports)? = HandlerNotes.current?.tapeMiss { … }
/// ```
package final class HandlerNotes: Sendable {
    /// The notes of the request being answered; nil outside a chain.
    @TaskLocal package static var current: HandlerNotes?

    /// Behind ``tapeMiss``: handlers may run on any thread.
    private let miss = Mutex<TapeMiss?>(nil)
    /// Behind ``mounted``.
    private let chosen = Mutex<[Tape]?>(nil)

    /// Behind ``outcome``.
    private let served = Mutex<String?>(nil)

    /// How the request was answered, for the inspector: `played`, `recorded`, `forwarded`.
    package var outcome: String? {
        get { served.withLock { $0 } }
        set { served.withLock { $0 = newValue } }
    }

    /// The deck's count of changes to its tapes (``TapesVersion``) before the handlers were
    /// asked, for an answer given again (``AnswerAgain``); nil when the answer is not to be
    /// given again (one that waits, or one the inspector publishes).
    let tapesSeen: Int?

    /// Creates empty notes (a chain does, once per request), with the tapes' version read
    /// before the handlers are asked.
    package init(tapesSeen: Int? = nil) {
        self.tapesSeen = tapesSeen
    }

    /// Why the tapes did not answer, once ``TapesHandler`` passed; nil before, or when no
    /// tapes handler ran.
    package var tapeMiss: TapeMiss? {
        get { miss.withLock { $0 } }
        set { miss.withLock { $0 = newValue } }
    }

    /// The tapes of the longest mount that covers the request, once ``MountsHandler`` chose
    /// them; nil before, or when no mounts handler ran.
    var mounted: [Tape]? {
        get { chosen.withLock { $0 } }
        set { chosen.withLock { $0 = newValue } }
    }
}
