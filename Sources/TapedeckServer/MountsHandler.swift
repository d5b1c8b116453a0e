import Foundation

/// Chooses the tapes that may answer a request: those of the longest mount that covers its
/// path (`--mount /v1=…` before the tapes mounted at `/`). It never answers; it notes the
/// tapes in ``HandlerNotes/mounted`` for ``TapesHandler``, or, when no tape covers the path,
/// the miss that tells the user how to load one.
package struct MountsHandler: ImmediateServerHandler {
    /// The deck whose tapes are chosen from; weak, because the deck keeps its own chain.
    private weak let deck: Deck?

    /// Creates the mounts step of `deck`.
    package init(deck: Deck) {
        self.deck = deck
    }

    /// Notes the chosen tapes (or the miss) and passes the request on.
    package func answer(_ incoming: IncomingRequest) -> ServerReply? {
        guard let deck else { return nil }
        let chosen = MountsHandler.tapes(for: incoming.path, among: deck.loadedTapes)
        HandlerNotes.current?.mounted = chosen
        if chosen.isEmpty { HandlerNotes.current?.tapeMiss = MountsHandler.noTape(for: incoming.path, origin: deck.origin) }
        return nil
    }

    /// The miss when no tape covers `path`: how to load one.
    static func noTape(for path: String, origin: URL) -> TapeMiss {
        .noTape(report: "no cassette is loaded for \(path); load one: curl -X POST '"
            + "\(origin.absoluteString)\(ServerMarker.controlPrefix)load?cassette=PATH'")
    }

    /// The tapes of the longest mount among `tapes` that covers `path`, in load order.
    static func tapes(for path: String, among tapes: [Tape]) -> [Tape] {
        var longest: String?
        for tape in tapes where tape.covers(path) {
            if let chosen = longest, chosen.count >= tape.mount.count { continue }
            longest = tape.mount
        }
        guard let longest else { return [] }
        // Most decks mount every tape at one place: the list itself, with no copy, on every request.
        if tapes.allSatisfy({ $0.mount == longest }) { return tapes }
        return tapes.filter { $0.mount == longest }
    }
}

extension ServerHandler where Self == MountsHandler {
    /// The mount choice of `deck` (``MountsHandler``).
    package static func mounts(_ deck: Deck) -> MountsHandler {
        MountsHandler(deck: deck)
    }
}
