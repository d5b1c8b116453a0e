import Foundation

/// A transport failure stored in place of a response: a refused connection, a host that did
/// not resolve, a timeout, a connection that closed without an answer. Recorded when asked
/// (``CassetteConfiguration/recordFailures``) and replayed as the same ``HTTPError``, so
/// offline tests cover the "not connected" and "timed out" paths app code must handle.
///
/// In a native cassette it is the interaction's `failure` member, in place of `response`:
///
/// ```json
/// "failure": { "detail": "connection refused", "kind": "cannotConnect" }
/// ```
public struct TransportFailure: Sendable, Hashable {
    /// What went wrong.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// Nothing listened at the host and port.
        case cannotConnect
        /// DNS could not resolve the host.
        case hostNotFound
        /// No complete answer arrived in time.
        case timedOut
        /// The connection closed before an answer.
        case noResponse
        /// The client gave up before an answer: a browser's HAR entry with status 0 (an aborted
        /// or blocked request). Replayed as no response.
        case aborted
    }

    /// What went wrong.
    public var kind: Kind
    /// The transport's own words, for the message.
    public var detail: String

    /// Creates a failure.
    public init(kind: Kind, detail: String = "") {
        self.kind = kind
        self.detail = detail
    }

    /// The failure an ``HTTPError`` stands for, or nil when it is not a transport failure
    /// worth replaying (cancellation, TLS, a bad URL).
    public init?(_ error: HTTPError) {
        switch error {
        case .cannotConnect: self.init(kind: .cannotConnect, detail: "connection refused")
        case .hostNotFound: self.init(kind: .hostNotFound, detail: "host not found")
        case .timedOut(_, let seconds): self.init(kind: .timedOut, detail: "timed out after \(seconds) s")
        case .noResponse(_, let detail): self.init(kind: .noResponse, detail: detail)
        default: return nil
        }
    }

    /// The error replay throws for `request`, as the live transport threw it.
    public func error(for request: HTTPRequest, duration: TimeInterval) -> HTTPError {
        let host = request.url.host ?? "?"
        switch kind {
        case .cannotConnect: return .cannotConnect(host: host, port: request.url.port ?? (request.url.scheme == "https" ? 443 : 80))
        case .hostNotFound: return .hostNotFound(host)
        case .timedOut: return .timedOut(url: request.urlText, seconds: duration)
        case .noResponse, .aborted: return .noResponse(url: request.urlText, detail: detail)
        }
    }
}

extension Cassette {
    /// What a reader turned into something else, one line each, for the front-end to show as
    /// warnings: a browser HAR's status-0 entries loaded as recorded failures.
    public var loadWarnings: [String] {
        let aborted = interactions.enumerated().filter { $0.element.failure?.kind == .aborted }
        guard !aborted.isEmpty else { return [] }
        let named = aborted.prefix(5).map { "interactions[\($0.offset)] \($0.element.request.method) \(Redactor.shown($0.element.request.url))" }
        let more = aborted.count > 5 ? " and \(aborted.count - 5) more" : ""
        return ["\(aborted.count) entr\(aborted.count == 1 ? "y has" : "ies have") HAR status 0 (the browser got no response): "
            + named.joined(separator: ", ") + more + "; loaded as recorded failures, which replay gives back as no response"]
    }
}
