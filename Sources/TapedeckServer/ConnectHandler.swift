import Foundation
import Tapedeck

/// Answers `CONNECT` (an HTTPS client using this server as its proxy) with 501 and the reason,
/// and closes the connection: HTTPS is not intercepted yet, and a tunnel the client waits on
/// forever helps no one. Every other method passes on.
package struct ConnectHandler: ServerHandler {
    /// Creates the handler.
    package init() {}

    /// 501 for `CONNECT`, else nil.
    package func respond(to request: IncomingRequest) async -> ServerReply? {
        guard request.method.uppercased() == "CONNECT" else { return nil }
        var reply = ServerReply.text(501, "CONNECT \(Excerpt.of(request.target)) is not supported: this server does not intercept HTTPS yet; "
            + "send plain http:// through it (HTTP_PROXY), or point the client at the server's URL\n",
                                     headers: [ServerMarker.errorHeader: "501"])
        reply.response.headers["Connection"] = "close"
        return reply
    }
}

extension ServerHandler where Self == ConnectHandler {
    /// The answer to `CONNECT` (``ConnectHandler``).
    package static var connect: ConnectHandler { ConnectHandler() }
}
