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
        var delivered: HTTPResponse??
        var clientGone = false
        var brokeOff = false
    }

    private let state = Mutex(State())
    /// The chunks, for the reply's ``StreamBody``.
    let chunks: AsyncStream<Data>
    private let continuation: AsyncStream<Data>.Continuation

    init() {
        (chunks, continuation) = AsyncStream<Data>.makeStream(bufferingPolicy: .unbounded)
        continuation.onTermination = { [weak self] termination in
            if case .cancelled = termination { self?.state.withLock { $0.clientGone = true } }
        }
    }

    /// The observer to send under.
    var observer: ResponseObserver {
        ResponseObserver(head: { [self] head in
            resolveHead(head)
            return true
        }, chunk: { [self] chunk in
            guard !state.withLock({ $0.clientGone }) else { return false }
            continuation.yield(chunk.data)
            return true
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

    /// The exchange failed after the head: the client's stream is cut, not ended.
    func breakOff() { state.withLock { $0.brokeOff = true } }

    /// Whether the stream ended as the upstream ended it.
    var isComplete: Bool { state.withLock { !$0.brokeOff } }

    /// The exchange is over: the stream ends, and a handler still waiting learns there was no stream head.
    func finish() {
        continuation.finish()
        resolveHead(nil)
    }

    private func resolveHead(_ head: HTTPResponse?) {
        let waiter: CheckedContinuation<HTTPResponse?, Never>? = state.withLock { state in
            guard state.delivered == nil else { return nil }
            state.delivered = .some(head)
            defer { state.head = nil }
            return state.head
        }
        waiter?.resume(returning: head)
    }
}
