import Foundation
import Synchronization
import Tapedeck

/// Passes a live stream on while it is recorded: the ``ResponseObserver`` a recording tape's
/// upstream request runs under. The head of a streamed response is handed to the waiting
/// handler, which answers the client at once; each chunk then goes to the client as it
/// arrives. The client leaving stops the upstream transfer, and what arrived is recorded.
final class StreamRelay: Sendable {
    private struct State {
        var head: CheckedContinuation<HTTPResponse?, Never>?
        /// Told the head in place of a waiting task (``whenHead(_:)``).
        var headCallback: (@Sendable (HTTPResponse?) -> Void)?
        var delivered: HTTPResponse??
        var clientGone = false
        var brokeOff = false
        /// Whether ``finish()`` was called, and who waits for it (``finished()``).
        var over = false
        var overWaiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Mutex(State())
    /// Bytes handed to the client's stream and not yet written to its socket; the upstream
    /// transfer waits while there are more than ``bufferLimit`` (a slow client holds the
    /// upstream back, not the server's memory).
    private let room = NSCondition()
    private nonisolated(unsafe) var buffered = 0
    static let bufferLimit = 4 << 20
    /// The client's stream, made when a stream's head arrives: most answers are whole, and
    /// an `AsyncStream` for each of them cost a recorded request more than its head's fields.
    private let stream = Mutex<(made: (chunks: AsyncStream<Data>, continuation: AsyncStream<Data>.Continuation)?, finished: Bool)>((nil, false))

    /// The chunks, for the reply's ``StreamBody``.
    var chunks: AsyncStream<Data> { madeStream().chunks }

    /// The client's stream, made on first use; one made after ``finish()`` is already finished.
    private func madeStream() -> (chunks: AsyncStream<Data>, continuation: AsyncStream<Data>.Continuation) {
        let (made, finished) = stream.withLock { stream in
            if let made = stream.made { return (made, stream.finished) }
            let made = AsyncStream<Data>.makeStream(bufferingPolicy: .unbounded)
            made.continuation.onTermination = { [weak self] termination in
                if case .cancelled = termination { self?.state.withLock { $0.clientGone = true } }
                self?.written(0)
            }
            stream.made = (made.stream, made.continuation)
            return ((made.stream, made.continuation), stream.finished)
        }
        if finished { made.continuation.finish() }
        return made
    }

    /// The observer to send under.
    var observer: ResponseObserver {
        ResponseObserver(head: { [self] head in
            // Made before the head is handed on: the first chunk may come before the handler reads it.
            _ = madeStream()
            resolveHead(head)
            return true
        }, chunk: { [self] chunk in
            // Called on the transfer's own thread, which may wait here for the client to catch up.
            room.lock()
            while buffered > Self.bufferLimit, !state.withLock({ $0.clientGone }) {
                _ = room.wait(until: Date(timeIntervalSinceNow: 0.5))
            }
            buffered += chunk.data.count
            room.unlock()
            guard !state.withLock({ $0.clientGone }) else { return false }
            madeStream().continuation.yield(chunk.data)
            return true
        }, stop: { [self] in
            // A quiet stream whose client left ends at the transfer's next check, not its next chunk.
            state.withLock { $0.clientGone }
        })
    }

    /// The head of a streamed response, or nil when the exchange ended without one (a whole
    /// body, a replayed answer, a failure).
    func head() async -> HTTPResponse? {
        await withCheckedContinuation { (waiter: CheckedContinuation<HTTPResponse?, Never>) in
            let ready: HTTPResponse?? = state.withLock { state in
                if let delivered = state.delivered { return .some(delivered) }
                state.head = waiter
                return nil
            }
            if let ready { waiter.resume(returning: ready) }
        }
    }

    /// Calls `body` with the head of a streamed response, or nil when the exchange ended
    /// without one, where it is known: in the observer's `head` (on the thread that reads the
    /// upstream) or in ``finish()``. For a caller with no task to wait in.
    func whenHead(_ body: @escaping @Sendable (HTTPResponse?) -> Void) {
        let ready: HTTPResponse?? = state.withLock { state in
            if let delivered = state.delivered { return .some(delivered) }
            state.headCallback = body
            return nil
        }
        if let ready { body(ready) }
    }

    /// The client left: the upstream transfer stops at once, even while it waits for room.
    func abandon() {
        state.withLock { $0.clientGone = true }
        written(0)
    }

    /// `count` bytes reached the client's socket: room for more.
    func written(_ count: Int) {
        room.lock()
        buffered -= count
        room.broadcast()
        room.unlock()
    }

    /// The exchange failed after the head: the client's stream is cut, not ended.
    func breakOff() { state.withLock { $0.brokeOff = true } }

    /// Whether a stream's head was handed on (the client was answered with the stream).
    var streamed: Bool { state.withLock { ($0.delivered ?? nil) != nil } }

    /// Whether the stream ended as the upstream ended it.
    var isComplete: Bool { state.withLock { !$0.brokeOff } }

    /// The exchange is over: the stream ends, and a handler still waiting learns there was no stream head.
    func finish() {
        let continuation = stream.withLock { stream in
            stream.finished = true
            return stream.made?.continuation
        }
        continuation?.finish()
        resolveHead(nil)
        let waiters = state.withLock { state in
            state.over = true
            defer { state.overWaiters = [] }
            return state.overWaiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Returns once the exchange is over (``finish()``, which comes after its recording): what a
    /// stop waits for before it writes the cassettes (``Deck/track(_:)``).
    func finished() async {
        await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
            let over = state.withLock { state in
                if !state.over { state.overWaiters.append(waiter) }
                return state.over
            }
            if over { waiter.resume() }
        }
    }

    private func resolveHead(_ head: HTTPResponse?) {
        let (waiter, callback) = state.withLock { state -> (CheckedContinuation<HTTPResponse?, Never>?, (@Sendable (HTTPResponse?) -> Void)?) in
            guard state.delivered == nil else { return (nil, nil) }
            state.delivered = .some(head)
            defer { (state.head, state.headCallback) = (nil, nil) }
            return (state.head, state.headCallback)
        }
        waiter?.resume(returning: head)
        callback?(head)
    }
}
