import Foundation
import Synchronization

/// Holds back a session's responses: a fixed delay, or until the test releases them.
final class ResponseGate: Sendable {
    private struct State {
        var holding = false
        var delay: Duration?
        var held: [Int: CheckedContinuation<Void, any Error>] = [:]
        var nextHeld = 0
    }

    private let state = Mutex(State())

    /// Whether a response must wait (so a replay cannot be answered inside `startLoading`).
    var defersResponses: Bool { state.withLock { $0.holding || $0.delay != nil } }

    /// The number of responses waiting for ``release()``.
    var heldCount: Int { state.withLock { $0.held.count } }

    /// From now on, responses wait for ``release()``.
    func hold() { state.withLock { $0.holding = true } }

    /// Lets every held response through and stops holding new ones.
    func release() {
        let held = state.withLock { state in
            state.holding = false
            defer { state.held = [:] }
            return Array(state.held.values)
        }
        for continuation in held { continuation.resume() }
    }

    /// Every response waits `delay` first (nil: no delay).
    func setDelay(_ delay: Duration?) { state.withLock { $0.delay = delay } }

    /// Waits out the delay, then the hold; throws `CancellationError` if the task is cancelled meanwhile.
    func pass() async throws {
        let (holding, delay) = state.withLock { ($0.holding, $0.delay) }
        guard holding || delay != nil else { return }
        if let delay { try await Task.sleep(for: delay) }
        let id = state.withLock { state in
            state.nextHeld += 1
            return state.nextHeld
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let outcome: Result<Void, any Error>? = state.withLock { state in
                    if Task.isCancelled { return .failure(CancellationError()) }
                    guard state.holding else { return .success(()) }
                    state.held[id] = continuation
                    return nil
                }
                if let outcome { continuation.resume(with: outcome) }
            }
        } onCancel: {
            let continuation = state.withLock { $0.held.removeValue(forKey: id) }
            continuation?.resume(throwing: CancellationError())
        }
    }
}
