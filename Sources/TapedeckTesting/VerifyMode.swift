import Foundation
import Tapedeck
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `TAPEDECK_RECORD_MODE=verify`: tests send live and fail with the drift report when the live
/// API no longer answers as the cassette recorded (the cassette is not written).
enum VerifyMode {
    /// The value of ``RecordMode/environmentKey`` that turns verify mode on.
    static let word = "verify"

    /// Whether the environment asks for verify mode.
    static func isRequested(_ environment: [String: String]) -> Bool {
        environment[RecordMode.environmentKey]?.trimmingCharacters(in: .whitespaces).lowercased() == word
    }

    /// Runs `body` with a session that sends live through a ``VerifyingTransport`` over the
    /// cassette at `url`, then throws ``CassetteDriftError`` if anything drifted.
    static func run<T>(cassette url: URL, matcher: Matcher, redactor: Redactor, live: any HTTPTransport,
                       _ body: (URLSession) async throws -> T) async throws -> T {
        let cassette = try Cassette.load(from: url)
        let verifying = VerifyingTransport(cassette: cassette, path: url.path, live: live, matcher: matcher, redactor: redactor)
        let session = TapedeckRoutes.session(.ephemeral, routingTo: .transport(verifying))
        defer { TapedeckRoutes.remove(session) }
        let result = try await body(session)
        let report = verifying.report
        if !report.drifted.isEmpty { throw CassetteDriftError(report: report) }
        return result
    }
}
