import Foundation
import Synchronization
import Tapedeck

/// The requests one Tapedeck session was sent, in order, and the tests waiting for them.
final class SentRequestLog: Sendable {
    private struct Waiter {
        var count: Int
        var continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var requests: [HTTPRequest] = []
        var waiters: [Int: Waiter] = [:]
        var nextWaiter = 0
    }

    private let state = Mutex(State())

    /// Every request so far, oldest first.
    var requests: [HTTPRequest] { state.withLock { $0.requests } }

    /// Adds `request` and wakes the waiters it satisfies.
    func append(_ request: HTTPRequest) {
        let ready = state.withLock { state -> [CheckedContinuation<Void, any Error>] in
            state.requests.append(request)
            let count = state.requests.count
            let satisfied = state.waiters.filter { $0.value.count <= count }
            for id in satisfied.keys { state.waiters[id] = nil }
            return satisfied.values.map(\.continuation)
        }
        for continuation in ready { continuation.resume() }
    }

    /// Returns once `count` requests were sent; throws `CancellationError` if the task is cancelled first.
    func wait(forCount count: Int) async throws {
        let id = state.withLock { state in
            state.nextWaiter += 1
            return state.nextWaiter
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let outcome: Result<Void, any Error>? = state.withLock { state in
                    if Task.isCancelled { return .failure(CancellationError()) }
                    if state.requests.count >= count { return .success(()) }
                    state.waiters[id] = Waiter(count: count, continuation: continuation)
                    return nil
                }
                if let outcome { continuation.resume(with: outcome) }
            }
        } onCancel: {
            let waiter = state.withLock { $0.waiters.removeValue(forKey: id) }
            waiter?.continuation.resume(throwing: CancellationError())
        }
    }
}
