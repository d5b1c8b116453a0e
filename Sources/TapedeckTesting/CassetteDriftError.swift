import Foundation
import Tapedeck

/// A test run in verify mode (`TAPEDECK_RECORD_MODE=verify`) found the live API answering
/// differently from its cassette.
public struct CassetteDriftError: Error, LocalizedError, Sendable, CustomStringConvertible {
    /// What was compared and what drifted.
    public var report: VerifyReport

    /// The drift report and the next step.
    public var errorDescription: String? {
        report.render() + "\nthe live API no longer answers as \(report.path) recorded; update the app code, "
            + "then re-record (TAPEDECK_RECORD_MODE=all swift test) or run tapedeck cassette verify --update \(report.path)"
    }

    /// The same text as ``errorDescription``.
    public var description: String { errorDescription ?? "cassette drift" }
}
