import Foundation

/// One kind of answer the server gives: a request it answers, or nil to pass it on to the
/// next handler of a ``ServerHandlerChain``.
///
/// A new kind of answer (a web page, a WebSocket, TLS interception) is one new handler
/// inserted in ``ServerHandlerChain/standard(for:)``, before the handlers that would
/// otherwise answer its requests:
///
/// ```swift
/// struct HealthHandler: ServerHandler {
///     func respond(to request: IncomingRequest) async -> ServerReply? {
///         request.path == "/health" ? .text(200, "ok\n") : nil
///     }
/// }
/// let chain: ServerHandlerChain = [.control(deck), HealthHandler(), .mounts(deck), .tapes(deck), .forward(deck), .unmatched(deck)]
/// ```
///
/// A handler that passes can leave a note for the ones after it in ``HandlerNotes/current``
/// (the tapes note why they did not answer; the unmatched answer reports it).
package protocol ServerHandler: Sendable {
    /// The answer to `request`, or nil when the request is not this handler's to answer.
    func respond(to request: IncomingRequest) async -> ServerReply?
}
