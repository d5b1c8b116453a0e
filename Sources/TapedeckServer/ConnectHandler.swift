import Foundation
import Tapedeck

/// Answers `CONNECT` (an HTTPS client using this server as its proxy). With interception on
/// (``HTTPSOptions/intercept``) the tunnel is opened and TLS ends here, or for a pass-through
/// host the bytes are relayed untouched; without it the answer is 501 with the reason. Every
/// other method passes on.
package struct ConnectHandler: ImmediateServerHandler {
    /// How the server speaks HTTPS (nil: not at all).
    private let https: HTTPSOptions?

    /// Creates the handler.
    package init(https: HTTPSOptions?) {
        self.https = https
    }

    /// The tunnel for `CONNECT`, or its refusal; nil for every other method.
    package func answer(_ request: IncomingRequest) -> ServerReply? {
        guard request.method.caseInsensitiveEquals("CONNECT") else { return nil }
        guard let (host, port) = Tunnel.authority(request.target) else {
            return closing(.text(400, "CONNECT \(Excerpt.of(request.target)) does not name a host and port; a client sends CONNECT api.example.com:443\n",
                                 headers: [ServerMarker.errorHeader: "400"]))
        }
        if let https, https.passesThrough(host: host, port: port) {
            HandlerNotes.current?.outcome = "passed through"
            return ServerReply(response: HTTPResponse(status: 200), tunnel: .passThrough(host: host, port: port))
        }
        guard let https, https.intercept else {
            return closing(.text(501, "CONNECT \(Excerpt.of(request.target)) is not intercepted: start the server with --intercept (and trust its CA: "
                + "tapedeck ca env) to record and replay HTTPS through it, or send plain http:// through it (HTTP_PROXY)\n",
                                 headers: [ServerMarker.errorHeader: "501"]))
        }
        HandlerNotes.current?.outcome = "intercepted"
        return ServerReply(response: HTTPResponse(status: 200), tunnel: .intercept(host: host, port: port))
    }

    /// `reply` with `Connection: close`: a refused tunnel ends the connection.
    private func closing(_ reply: ServerReply) -> ServerReply {
        var reply = reply
        reply.response.headers["Connection"] = "close"
        return reply
    }
}

extension ServerHandler where Self == ConnectHandler {
    /// The answer to `CONNECT` for `deck` (``ConnectHandler``).
    package static func connect(_ deck: Deck) -> ConnectHandler { ConnectHandler(https: deck.options.https) }
}
