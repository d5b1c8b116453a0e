import Foundation

/// Errors of the testing helpers (cassette errors, including mismatch reports, come through as
/// ``Tapedeck/CassetteError``).
///
/// `description` is the message too, so a test that throws one shows it whole.
public enum TapedeckTestingError: Error, LocalizedError, Sendable, CustomStringConvertible {
    /// The session's route was removed (``TapedeckRoutes/remove(_:)`` or the end of ``withCassette(_:mode:matcher:allowRepeats:requireAllPlayed:redactor:origin:file:_:)``).
    case routeRemoved(url: String)
    /// `requireAllPlayed` was set and some interactions were never requested.
    case unusedInteractions(report: String)
    /// A stub handler threw.
    case stubFailed(url: String, detail: String)
    /// `URLSession.cassette` was used outside a test with the `.cassette("name")` trait.
    case noCassetteTrait(url: String)
    /// `session.tapedeck` was asked to wait on a session TapedeckTesting did not make.
    case notATapedeckSession
    /// An upload task's body could not be read, so it can be neither recorded nor matched.
    case uploadBodyHidden(url: String, method: String)

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
        case .noCassetteTrait(let url):
            return "request to \(url) went through URLSession.cassette outside a cassette trait; "
                + "add .cassette(\"name\") to the test: @Test(.cassette(\"name\"))"
        case .notATapedeckSession:
            return "this URLSession was not made by TapedeckTesting, so it logs no requests; "
                + "make it with URLSession.replaying(…), .recording(to:…), .stubbing { } or withCassette { }"
        case let .uploadBodyHidden(url, method):
            return "the body of \(method) \(url) went through URLSession's upload task, which hides it from URL protocols "
                + "on this platform, so Tapedeck can neither record nor match it (it would store an empty body); "
                + "send it with data(for:) and request.httpBody (or httpBodyStream) instead"
        }
    }

    /// The same text as ``errorDescription``.
    public var description: String { errorDescription ?? "TapedeckTesting error" }
}
