import Foundation
import Tapedeck

/// `TAPEDECK_MAX_AGE` and `TAPEDECK_ON_EXPIRY` for ``withCassette(_:mode:matcher:allowRepeats:requireAllPlayed:redactor:origin:file:_:)``:
/// a cassette holding interactions older than the limit gives a warning (`warn`, the default),
/// fails the test (`fail`) or is recorded again (`rerecord`).
enum TestExpiry {
    /// Nothing when no limit is set, the cassette is missing or nothing expired; `.all` for
    /// `rerecord`; throws ``ExpiryError/expired(report:)`` for `fail`; calls `warn` for `warn`.
    static func check(_ url: URL, environment: [String: String], warn: (String) -> Void) throws -> RecordMode? {
        guard let limit = try MaxAge.fromEnvironment(environment), FileManager.default.fileExists(atPath: url.path) else { return nil }
        let cassette = try Cassette.load(from: url)
        let expiry = CassetteExpiry(cassette, maxAge: limit)
        guard !expiry.expired.isEmpty else { return nil }
        let report = expiry.report(path: url.path, total: cassette.interactions.count)
        switch try ExpiryPolicy.resolve(nil, environment: environment) {
        case .warn:
            warn(report + "\nre-record it (TAPEDECK_ON_EXPIRY=rerecord) or check it (tapedeck cassette verify --update)")
            return nil
        case .fail:
            throw ExpiryError.expired(report: report)
        case .rerecord:
            return .all
        }
    }
}
