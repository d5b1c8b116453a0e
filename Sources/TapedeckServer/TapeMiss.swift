import Foundation

/// Why the tapes did not answer a request: what ``TapesHandler`` notes in ``HandlerNotes``
/// for ``ForwardHandler`` and ``UnmatchedHandler``.
package enum TapeMiss: Sendable, Hashable {
    /// No tape is mounted over the request's path; `report` says how to load one. The
    /// forward policy does not apply: nothing was tried.
    case noTape(report: String)
    /// The tapes mounted over the path were tried and none matched: one mismatch report per tape.
    case noMatch(reports: [String])

    /// The text the unmatched answer carries (the reports a blank line apart).
    package var report: String {
        switch self {
        case .noTape(let report): report
        case .noMatch(let reports): reports.joined(separator: "\n\n")
        }
    }

    /// Whether `--unmatched forward` may send the request upstream: only once tapes were tried.
    var allowsForwarding: Bool {
        switch self {
        case .noTape: false
        case .noMatch: true
        }
    }
}
