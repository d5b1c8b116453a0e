import Foundation

/// Answers the control endpoints under ``ServerMarker/controlPrefix`` (status, reset, load,
/// record/start, record/stop) through ``ControlAPI``; passes every other path on.
package struct ControlHandler: ServerHandler {
    /// The deck the endpoints control; weak, because the deck keeps its own chain.
    private weak let deck: Deck?

    /// Creates the control endpoints of `deck`.
    package init(deck: Deck) {
        self.deck = deck
    }

    /// The control answer for a path under `/__tapedeck/` (or `/__tapedeck` itself), else nil.
    package func respond(to request: IncomingRequest) async -> ServerReply? {
        guard let deck, ControlHandler.isControl(request.path) else { return nil }
        return ControlAPI(deck: deck).respond(request)
    }

    /// Whether `path` is under the control prefix or is the prefix without its slash.
    static func isControl(_ path: String) -> Bool {
        path.hasPrefix(ServerMarker.controlPrefix) || path + "/" == ServerMarker.controlPrefix
    }
}

extension ServerHandler where Self == ControlHandler {
    /// The control endpoints of `deck` (``ControlHandler``).
    package static func control(_ deck: Deck) -> ControlHandler {
        ControlHandler(deck: deck)
    }
}
