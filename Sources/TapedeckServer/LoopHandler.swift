import Foundation
import Tapedeck

/// Answers 508 Loop Detected to a request this server already sent on (its name is in the
/// request's `Via`): a proxy pointed at itself, directly or through other proxies, stops at
/// the second pass instead of multiplying requests, and nothing is recorded.
package struct LoopHandler: ImmediateServerHandler {
    /// The deck whose `Via` name is looked for; weak, because the deck keeps its own chain.
    private weak let deck: Deck?

    /// Creates the loop check of `deck`.
    package init(deck: Deck) {
        self.deck = deck
    }

    /// 508 when the request came around, else nil.
    package func answer(_ request: IncomingRequest) -> ServerReply? {
        guard let deck, request.headers.values(for: "Via").contains(where: { $0.contains(deck.viaName) }) else { return nil }
        return LoopHandler.reply(for: Deck.redactedSummary(request), deck: deck)
    }

    /// The 508 for a request that would come back here, logged.
    static func reply(for summary: String, deck: Deck) -> ServerReply {
        deck.options.log("loop: \(summary) leads back to this server; answered 508, recorded nothing")
        return .text(508, "this request would come back to this server (Via: \(deck.viaName)): the upstream leads back here; "
            + "point it at the real server, and check that no http_proxy names this one\n",
            headers: [ServerMarker.errorHeader: "508", ServerMarker.loopHeader: deck.viaName])
    }
}

/// A recording's live transport that refuses an upstream's loop answer (508 with
/// ``ServerMarker/loopHeader``): a request that went round through other proxies and came
/// back stops at the first hop, and no hop records the 508 as if the API had said it.
struct LoopGuardTransport: HTTPTransport {
    /// The upstream answered that the request came around to the server named `via`.
    struct LoopedBack: Error {
        let via: String
    }

    let inner: any HTTPTransport

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        try Self.checked(try await inner.send(request))
    }

    /// `response`, unless it says the request came around to a server (thrown as ``LoopedBack``).
    static func checked(_ response: HTTPResponse) throws(LoopedBack) -> HTTPResponse {
        if response.status == 508, let via = response.headers[ServerMarker.loopHeader] { throw LoopedBack(via: via) }
        return response
    }
}

extension ServerHandler where Self == LoopHandler {
    /// The loop check of `deck` (``LoopHandler``).
    package static func loop(_ deck: Deck) -> LoopHandler {
        LoopHandler(deck: deck)
    }
}
