import Foundation
import Tapedeck

/// The last word on a request nothing before it answered: the mismatch report the tapes
/// noted (``HandlerNotes/tapeMiss``) as text, with the policy's status (404 unless
/// `--unmatched` names one) and ``ServerMarker/unmatchedHeader``. It always answers, counts
/// the request in the deck's ``Deck/status`` and logs `unmatched: REPORT`.
package struct UnmatchedHandler: ServerHandler {
    /// The deck whose unmatched count and last mismatches grow; weak, because the deck keeps
    /// its own chain.
    private weak let deck: Deck?
    /// The policy and the log.
    private let options: DeckOptions

    /// Creates the unmatched answer of `deck`.
    package init(deck: Deck) {
        self.deck = deck
        options = deck.options
    }

    /// The unmatched answer to `request`; never nil.
    package func respond(to request: IncomingRequest) async -> ServerReply? {
        answer(request)
    }

    /// The unmatched answer, at once.
    package func respondAtOnce(to request: IncomingRequest) -> ImmediateAnswer {
        .answered(answer(request))
    }

    /// The unmatched answer to `request`, counted and logged.
    package func answer(_ request: IncomingRequest) -> ServerReply {
        // A token known by its shape (a JWT, a vendor key) in the path is not quoted either.
        let report = Redactor.standard.redact(text: HandlerNotes.current?.tapeMiss?.report ?? "nothing on this server answers \(Deck.redactedSummary(request))")
        let before = deck?.countUnmatched(request) ?? 0
        // The full report once per distinct request; a flood of the same one is a counted line.
        if before == 0 {
            options.log("unmatched: " + report)
        } else if before < 10 || (before + 1).isMultiple(of: 100) {
            options.log("unmatched again (\(before + 1)×): \(Deck.redactedSummary(request)); the report above still applies")
        }
        let status: Int
        if case .status(let code) = options.unmatched { status = code } else { status = 404 }
        return ServerReply.text(status, report + "\n", headers: [ServerMarker.unmatchedHeader: "1"])
    }
}

extension ServerHandler where Self == UnmatchedHandler {
    /// The unmatched answer of `deck` (``UnmatchedHandler``).
    package static func unmatched(_ deck: Deck) -> UnmatchedHandler {
        UnmatchedHandler(deck: deck)
    }
}
