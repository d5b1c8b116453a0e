import Foundation
import Synchronization
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The delegate of the `URLSession` a ``URLSessionTransport`` makes for itself: it never lets
/// URLSession follow a redirect (the core's ``RedirectFollower`` does), and it collects each
/// task's body as it arrives, cancelling the task once the body passes its limit, so a huge
/// response ends in ``HTTPError/bodyTooLarge(url:limit:)`` instead of filling memory.
final class URLSessionTransfers: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private struct Transfer {
        var continuation: CheckedContinuation<(Data, URLResponse, [BodyChunk]), any Error>
        var url: String
        var limit: Int
        var body = Data()
        var overLimit = false
        /// When the head arrived; each piece of the body is kept with its time after it.
        var headAt: ContinuousClock.Instant?
        var chunks: [BodyChunk] = []
    }

    private let transfers = Mutex<[Int: Transfer]>([:])

    /// Runs `task` to completion and returns its body and response, with the body as the pieces
    /// the delegate received it in (one `didReceive data` each) and their times after the head;
    /// throws what the task failed with, or ``HTTPError/bodyTooLarge(url:limit:)``.
    func run(_ task: URLSessionDataTask, url: String, limit: Int) async throws -> (Data, URLResponse, [BodyChunk]) {
        let box = TaskBox(task)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                transfers.withLock { $0[box.task.taskIdentifier] = Transfer(continuation: continuation, url: url, limit: limit) }
                box.task.resume()
            }
        } onCancel: {
            box.task.cancel()
        }
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask,
        willPerformHTTPRedirection response: HTTPURLResponse, newRequest request: URLRequest,
        completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                    completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void) {
        transfers.withLock { $0[dataTask.taskIdentifier]?.headAt = .now }
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let stop = transfers.withLock { transfers -> Bool in
            guard var transfer = transfers[dataTask.taskIdentifier], !transfer.overLimit else { return false }
            if transfer.body.count + data.count > transfer.limit {
                transfer.overLimit = true
                transfer.body = Data()
            } else {
                transfer.body.append(data)
                let offset = ContinuousClock.now - (transfer.headAt ?? .now)
                transfer.chunks.append(BodyChunk(offset: Double(offset.components.seconds) + Double(offset.components.attoseconds) / 1e18, data: data))
            }
            transfers[dataTask.taskIdentifier] = transfer
            return transfer.overLimit
        }
        if stop { dataTask.cancel() }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        guard let transfer = transfers.withLock({ $0.removeValue(forKey: task.taskIdentifier) }) else { return }
        if transfer.overLimit {
            transfer.continuation.resume(throwing: HTTPError.bodyTooLarge(url: transfer.url, limit: transfer.limit))
        } else if let error {
            transfer.continuation.resume(throwing: error)
        } else if let response = task.response {
            transfer.continuation.resume(returning: (transfer.body, response, transfer.chunks))
        } else {
            transfer.continuation.resume(throwing: URLError(.badServerResponse))
        }
    }
}

/// A task handed across the cancellation handler's isolation boundary.
private final class TaskBox: @unchecked Sendable {
    let task: URLSessionDataTask
    init(_ task: URLSessionDataTask) { self.task = task }
}
