import Foundation

/// Errors of the testing helpers (cassette errors, including mismatch reports, come through as
/// ``Tapedeck/CassetteError``).
public enum TapedeckTestingError: Error, LocalizedError, Sendable {
    /// The session's route was removed (``TapedeckRoutes/remove(_:)`` or the end of ``withCassette(_:mode:matcher:allowRepeats:requireAllPlayed:file:_:)``).
    case routeRemoved(url: String)
    /// `requireAllPlayed` was set and some interactions were never requested.
    case unusedInteractions(report: String)
    /// A stub handler threw.
    case stubFailed(url: String, detail: String)

    /// The whole message: the bad value, where it came from, and what to do next.
    public var errorDescription: String? {
        switch self {
        case .routeRemoved(let url):
            return "request to \(url) was made through a Tapedeck URLSession whose cassette session already ended; "
                + "make the request inside withCassette { } or keep the session from URLSession.replaying(…)"
        case .unusedInteractions(let report):
            return report + "\nremove them from the cassette, re-record it (TAPEDECK_RECORD_MODE=all swift test), "
                + "or drop requireAllPlayed"
        case .stubFailed(let url, let detail):
            return "the stub for \(url) failed: \(detail)"
        }
    }
}
