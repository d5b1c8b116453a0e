import Foundation

/// What an unmatched request gets from `serve`.
public enum UnmatchedPolicy: Sendable, Hashable {
    /// The mismatch report as text with this status (404 by default) and ``ServerMarker/unmatchedHeader``.
    case status(Int)
    /// Sent on to ``DeckOptions/upstream`` and answered from there (not recorded).
    case forward

    /// Parses `404` or `forward`, naming `--unmatched` in the error.
    public init(parsing text: String) throws(ServerError) {
        if text.lowercased() == "forward" {
            self = .forward
        } else if let status = Int(text), (100...599).contains(status) {
            self = .status(status)
        } else {
            throw .invalidOption(option: "--unmatched", value: text, expected: "give a status from 100 to 599 (e.g. 404) or forward --upstream URL")
        }
    }
}
