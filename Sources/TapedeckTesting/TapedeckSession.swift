import Foundation
import Tapedeck
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What a test can see and steer in a TapedeckTesting session: every request the app sent,
/// in order, and when the session's responses arrive.
///
/// Read it from any session `URLSession.replaying(…)`, `.recording(…)`, `.stubbing { }`,
/// ``withCassette(_:mode:matcher:allowRepeats:requireAllPlayed:redactor:origin:file:_:)`` or the
/// `.cassette` trait made, as `session.tapedeck`:
///
/// ```swift
/// let session = URLSession.stubbing { _ in .json(#"[{"id": 1, "name": "Rex", "breed": "Beagle"}]"#) }
/// let client = try DogPatchClient(session: session, apiKey: "k3y-5ecret")
/// _ = try await client.dogs()
/// #expect(session.tapedeck.sentRequests(to: "/dogs", method: .get).count == 1)
/// ```
///
/// Holding the answers lets concurrent calls pile up before the first returns, so a test sees
/// whether the client sends identical requests once (in-flight de-duplication):
///
/// ```swift
/// session.tapedeck.holdResponses()
/// async let first = client.dogs()
/// async let second = client.dogs()
/// try await session.tapedeck.waitForRequests(1)   // the first request is out; its answer waits
/// session.tapedeck.releaseResponses()
/// _ = try await (first, second)
/// #expect(session.tapedeck.sentRequests(to: "/dogs").count == 1)
/// ```
///
/// On a session TapedeckTesting did not make, `sentRequests` is empty, holds and delays do
/// nothing, and ``waitForRequests(_:)`` throws ``TapedeckTestingError/notATapedeckSession``.
public struct TapedeckSession: Sendable {
    // The log and the gate only: a kept `TapedeckSession` must not keep the cassette alive.
    private let log: SentRequestLog?
    private let gate: ResponseGate?

    init(_ session: URLSession) {
        let route = TapedeckRoutes.route(of: session)
        log = route?.log
        gate = route?.gate
    }

    /// Every request sent through the session so far, oldest first: method, URL, headers and body
    /// as the app sent them (before any redaction; nothing here is written to disk). The list
    /// lives, in memory, as long as the session.
    public var sentRequests: [HTTPRequest] { log?.requests ?? [] }

    /// The sent requests whose URL path is `path` (and whose method is `method`, when given).
    ///
    /// ```swift
    /// #expect(session.tapedeck.sentRequests(to: "/dogs", method: .get).count == 1)
    /// ```
    public func sentRequests(to path: String, method: HTTPMethod? = nil) -> [HTTPRequest] {
        sentRequests.filter { $0.url.path == path && (method == nil || $0.method == method) }
    }

    /// Returns once the session was sent `count` requests in all (at once if it already was);
    /// cancel the waiting task to stop waiting.
    public func waitForRequests(_ count: Int) async throws {
        guard let log else { throw TapedeckTestingError.notATapedeckSession }
        try await log.wait(forCount: count)
    }

    /// From now on, responses (replayed, recorded or stubbed) wait until ``releaseResponses()``;
    /// the requests themselves are sent and logged at once. A cancelled request stops waiting.
    public func holdResponses() { gate?.hold() }

    /// Lets every held response through and stops holding new ones.
    public func releaseResponses() { gate?.release() }

    /// The number of responses waiting for ``releaseResponses()``.
    public var heldResponses: Int { gate?.heldCount ?? 0 }

    /// Every response from now on waits `delay` before it is delivered (nil: no delay).
    public func delayResponses(by delay: Duration?) { gate?.setDelay(delay) }
}

extension URLSession {
    /// The requests this TapedeckTesting session was sent and the hold on its responses
    /// (see ``TapedeckSession``).
    public var tapedeck: TapedeckSession { TapedeckSession(self) }
}
