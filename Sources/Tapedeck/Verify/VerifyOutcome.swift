import Foundation

/// What verifying one recorded interaction against the live origin found.
public enum VerifyOutcome: Sendable, Hashable {
    /// The live response agrees with the recording in everything compared.
    case unchanged
    /// The live response differs; `live` is what it said (redacted by the caller before saving).
    case drifted([Drift], live: HTTPResponse)
    /// The request could not be sent or answered (the transport's message).
    case failed(String)
    /// Not sent: its method is not among those verified.
    case skipped(String)

    /// `unchanged`, `drifted`, `failed` or `skipped`.
    public var word: String {
        switch self {
        case .unchanged: "unchanged"
        case .drifted: "drifted"
        case .failed: "failed"
        case .skipped: "skipped"
        }
    }
}

/// One line of a verification: the interaction's index and request, and what was found.
public struct VerifiedInteraction: Sendable, Hashable {
    /// The index in the cassette.
    public var index: Int
    /// The recorded request (redacted, as stored).
    public var request: HTTPRequest
    /// The recorded status.
    public var recordedStatus: Int
    /// What was found.
    public var outcome: VerifyOutcome

    /// Creates a line.
    public init(index: Int, request: HTTPRequest, recordedStatus: Int, outcome: VerifyOutcome) {
        self.index = index
        self.request = request
        self.recordedStatus = recordedStatus
        self.outcome = outcome
    }
}
