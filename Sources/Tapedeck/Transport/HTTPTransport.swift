import Foundation

/// The one seam every request goes through: live network, recording, replay and stubs conform.
///
/// ```swift
/// let transport: any HTTPTransport = URLSessionTransport()
/// let response = try await transport.send(HTTPRequest(url: url))
/// ```
public protocol HTTPTransport: Sendable {
    /// Sends `request` and returns the complete response; throws ``HTTPError`` or a
    /// cassette error, and `CancellationError`-style ``HTTPError/cancelled(url:)`` when the task
    /// is cancelled.
    func send(_ request: HTTPRequest) async throws -> HTTPResponse
}

/// A transport that answers from a closure: for tests and examples.
///
/// ```swift
/// let stub = StubTransport { request in HTTPResponse(status: 200, body: Data("{}".utf8)) }
/// ```
public struct StubTransport: HTTPTransport {
    private let handler: @Sendable (HTTPRequest) async throws -> HTTPResponse

    /// Creates a transport that calls `handler` for every request.
    public init(_ handler: @escaping @Sendable (HTTPRequest) async throws -> HTTPResponse) {
        self.handler = handler
    }

    /// Sends `request` and returns its response (see the type's summary for how).
    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        var response = try await handler(request)
        if response.storedURL == nil { response.storedURL = request.storedURL }
        return response
    }
}

/// An error a transport hands on unchanged when a layer below it (a URLProtocol serving a
/// cassette) raised it: a mismatch report must reach the caller as itself, not as a network error.
package protocol TransportPassthroughError: Error {}
