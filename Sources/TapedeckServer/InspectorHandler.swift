import Foundation
import Tapedeck

/// The live inspector of `serve --ui` and `proxy --ui`: a page at `/__tapedeck/ui/TOKEN/`
/// (the control token) where requests appear as they are answered, and their feed at
/// `…/events` (server-sent events). Like the control endpoints it answers only requests
/// addressed to this server; the token in the path stands for the header, which a browser's
/// address bar cannot send. The page's buttons call the control endpoints with the token.
package struct InspectorHandler: ImmediateServerHandler {
    /// The reserved path prefix.
    package static let prefix = ServerMarker.controlPrefix + "ui/"

    private weak let deck: Deck?

    package init(deck: Deck) {
        self.deck = deck
    }

    package func answer(_ request: IncomingRequest) -> ServerReply? {
        guard let deck, request.path.hasPrefix(Self.prefix), !request.isAbsoluteForm else { return nil }
        guard deck.options.inspector else {
            return .text(404, "the inspector is off; start the server with --ui\n", headers: [ServerMarker.errorHeader: "404"])
        }
        guard request.method == "GET" else {
            return .text(405, "the inspector answers GET only\n", headers: [ServerMarker.errorHeader: "405", "Allow": "GET"])
        }
        guard let host = request.headers["Host"], deck.isAddressed(host) else {
            return .text(421, "the inspector answers requests addressed to this server only\n", headers: [ServerMarker.errorHeader: "421"])
        }
        let rest = request.path.dropFirst(Self.prefix.count)
        let token = deck.options.controlToken
        // The token compared in constant time first; only then the slash after it.
        guard ControlGate.equal(String(rest.prefix(token.count)), token), rest.dropFirst(token.count).hasPrefix("/") else {
            return .text(401, "the inspector's address holds the token this server printed when it started\n",
                         headers: [ServerMarker.errorHeader: "401"])
        }
        switch rest.dropFirst(token.count) {
        case "/":
            return ServerReply(response: HTTPResponse(status: 200, headers: [
                "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store", "Referrer-Policy": "no-referrer",
                "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; connect-src 'self'",
            ], body: Data(InspectorPage.html.utf8)))
        case "/events":
            guard let events = deck.inspector.stream() else {
                return .text(503, "\(InspectorFeed.maximumPages) inspector pages are open already; close one and reload\n",
                             headers: [ServerMarker.errorHeader: "503"])
            }
            return ServerReply(response: HTTPResponse(status: 200, headers: [
                "Content-Type": "text/event-stream", "Cache-Control": "no-store",
            ]), stream: StreamBody(events))
        default:
            return .text(404, "no inspector page \(Excerpt.of(request.path))\n", headers: [ServerMarker.errorHeader: "404"])
        }
    }

    /// Whether `path` belongs to the inspector (its own requests are not shown in it).
    static func owns(_ path: String) -> Bool {
        path.hasPrefix(prefix)
    }
}

extension ServerHandler where Self == InspectorHandler {
    /// The live inspector of `deck` (``InspectorHandler``).
    package static func inspector(_ deck: Deck) -> InspectorHandler {
        InspectorHandler(deck: deck)
    }
}
