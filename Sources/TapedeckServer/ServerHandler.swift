import Foundation
import NIOCore

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
///
/// A handler that can tell without waiting also answers ``respondAtOnce(to:)``: the server
/// asks that first, on the connection's own thread. A handler that sends from that thread
/// answers with a future there (a recording tape's upstream request); only a request some
/// handler must wait for in a task (forwarding, latency to play) is handed to one.
package protocol ServerHandler: Sendable {
    /// The answer to `request`, or nil when the request is not this handler's to answer.
    func respond(to request: IncomingRequest) async -> ServerReply?

    /// The answer to `request` when it is known without waiting: ``ImmediateAnswer/waits``
    /// when only ``respond(to:)`` can tell (the default).
    func respondAtOnce(to request: IncomingRequest) -> ImmediateAnswer
}

extension ServerHandler {
    /// Only ``respond(to:)`` can tell.
    package func respondAtOnce(to request: IncomingRequest) -> ImmediateAnswer { .waits }
}

/// What a handler answers without waiting.
package enum ImmediateAnswer: Sendable {
    /// This reply.
    case answered(ServerReply)
    /// Not this handler's request: the next one is asked.
    case passed
    /// Only the handler's ``ServerHandler/respond(to:)`` can tell, from a task (it sends, records
    /// or sleeps).
    case waits
    /// The reply the future gives, on the event loop the handler was asked from: the handler
    /// sent a request from that loop with no task (a recording tape's upstream request). The
    /// future never fails: a failure is a reply too.
    case pending(EventLoopFuture<ServerReply>)
}

/// A handler that never waits: its answer, or its pass, is decided at once.
package protocol ImmediateServerHandler: ServerHandler {
    /// The answer to `request`, or nil when the request is not this handler's to answer.
    func answer(_ request: IncomingRequest) -> ServerReply?
}

extension ImmediateServerHandler {
    /// ``answer(_:)``.
    package func respond(to request: IncomingRequest) async -> ServerReply? { answer(request) }

    /// ``answer(_:)``, which never waits.
    package func respondAtOnce(to request: IncomingRequest) -> ImmediateAnswer {
        answer(request).map(ImmediateAnswer.answered) ?? .passed
    }
}
