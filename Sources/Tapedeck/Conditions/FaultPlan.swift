import Foundation
import Synchronization

/// ``NetworkConditions`` with their seeded generator: decides which fault a request gets and
/// plays latency and faults in-process. ``ConditionedTransport`` and the server share it.
///
/// In-process, `reset` and `truncate` fail as a lost connection (``HTTPError/noResponse(url:detail:)``),
/// `timeout` as ``HTTPError/timedOut(url:seconds:)``, `status:N` answers N, and `slow` waits for
/// the body's size over the rate.
package final class FaultPlan: Sendable {
    /// The conditions played.
    package let conditions: NetworkConditions
    private let generator: Mutex<SeededGenerator>

    /// The header that marks an injected status answer.
    package static let faultHeader = "X-Tapedeck-Fault"

    /// Creates a plan; the generator starts from the conditions' seed.
    package init(_ conditions: NetworkConditions) {
        self.conditions = conditions
        generator = Mutex(SeededGenerator(seed: conditions.seed))
    }

    /// The fault a rule injects into `request`, drawing its rate; nil when none applies.
    package func fault(for request: HTTPRequest) -> FaultAction? {
        guard !conditions.faults.isEmpty else { return nil }
        let encodedPath = request.url.path(percentEncoded: true)
        return fault(method: request.method.rawValue, path: encodedPath.isEmpty ? "/" : encodedPath)
    }

    /// The fault a rule injects into a request with `method` and `path` (percent-encoded, as
    /// sent), drawing its rate; nil when none applies.
    package func fault(method: String, path: String) -> FaultAction? {
        guard !conditions.faults.isEmpty else { return nil }
        for rule in conditions.faults where rule.matches(method: method, path: path) {
            if rule.rate >= 1 { return rule.action }
            let draw = generator.withLock { Double.random(in: 0..<1, using: &$0) }
            if draw < rule.rate { return rule.action }
        }
        return nil
    }

    /// Sends `request` through `inner` with `fault` played in-process (nil: latency only).
    package func send(_ request: HTTPRequest, applying fault: FaultAction?, through inner: any HTTPTransport) async throws -> HTTPResponse {
        let url = request.urlText
        switch fault {
        case .reset?:
            throw HTTPError.noResponse(url: url, detail: "connection reset (fault rule reset)")
        case .timeout?:
            throw HTTPError.timedOut(url: url, seconds: 0)
        case .status(let status)?:
            try await pause(conditions.latency.delay(recordedDuration: 0))
            let text = "fault injected by Tapedeck: status \(status) for \(request.method) \(request.url.path(percentEncoded: true))\n"
            return HTTPResponse(status: status, headers: ["Content-Type": "text/plain; charset=utf-8",
                                                          "Content-Length": String(text.utf8.count),
                                                          FaultPlan.faultHeader: "status:\(status)"],
                                body: Data(text.utf8), url: request.url)
        case .truncate?:
            _ = try await inner.send(request)
            throw HTTPError.noResponse(url: url, detail: "connection closed mid-body (fault rule truncate)")
        case .slow(let rate)?:
            let response = try await inner.send(request)
            try await pause(conditions.latency.delay(recordedDuration: response.timeToHead) + Double(response.body.count) / Double(rate))
            return response
        case nil:
            let response = try await inner.send(request)
            try await pause(conditions.latency.delay(recordedDuration: response.timeToHead))
            return response
        }
    }

    private func pause(_ seconds: TimeInterval) async throws {
        guard seconds > 0, seconds.isFinite else { return }
        try await Task.sleep(nanoseconds: UInt64(min(seconds, 86_400) * 1_000_000_000))
    }
}
