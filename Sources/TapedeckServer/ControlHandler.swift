import Foundation

/// Answers the control endpoints under ``ServerMarker/controlPrefix`` (status, reset, load,
/// record/start, record/stop) through ``ControlAPI``; passes every other path on.
package struct ControlHandler: ImmediateServerHandler {
    /// The deck the endpoints control; weak, because the deck keeps its own chain.
    private weak let deck: Deck?

    /// Creates the control endpoints of `deck`.
    package init(deck: Deck) {
        self.deck = deck
    }

    /// Waits for a path under `/__tapedeck/` (or `/__tapedeck` itself); passes any other.
    package func respondAtOnce(to request: IncomingRequest) -> ImmediateAnswer {
        // A command may load or write a cassette: it is answered from a task, off the connections' threads.
        ControlHandler.isControl(request.path) ? .waits : .passed
    }

    /// The control answer for a path under `/__tapedeck/` (or `/__tapedeck` itself), else nil.
    package func answer(_ request: IncomingRequest) -> ServerReply? {
        guard let deck, ControlHandler.isControl(request.path) else { return nil }
        // An absolute-form request for another host's /__tapedeck/ is traffic to proxy, not a command.
        if request.isAbsoluteForm, let target = URL(string: request.target), !deck.isSelf(target) { return nil }
        if let refusal = ControlGate(deck: deck, token: deck.options.controlToken).refusal(for: request) {
            deck.options.log("control: refused \(request.method) \(request.path): \(String(decoding: refusal.response.body, as: UTF8.self))"
                .trimmingCharacters(in: .newlines))
            return refusal
        }
        return ControlAPI(deck: deck).respond(request)
    }

    /// `host:port` of an absolute URL, lower-cased (the port only when given).
    static func hostAndPort(_ url: URL) -> String { url.authority.lowercased() }

    /// Whether `path` is under the control prefix or is the prefix without its slash.
    static func isControl(_ path: String) -> Bool {
        // The prefix without its slash is compared in place: a string joined for every request cost more than the test.
        path.hasPrefix(ServerMarker.controlPrefix) || (path.utf8.count + 1 == ServerMarker.controlPrefix.utf8.count && ServerMarker.controlPrefix.hasPrefix(path))
    }
}

extension ServerHandler where Self == ControlHandler {
    /// The control endpoints of `deck` (``ControlHandler``).
    package static func control(_ deck: Deck) -> ControlHandler {
        ControlHandler(deck: deck)
    }
}
