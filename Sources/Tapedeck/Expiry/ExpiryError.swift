import Foundation

/// A bad expiry setting, or a cassette refused because it expired.
public enum ExpiryError: Error, LocalizedError, Sendable, Equatable {
    /// A max age that is not a number and a unit.
    case invalidMaxAge(value: String, source: String)
    /// An expiry policy that is not warn, fail or rerecord.
    case invalidPolicy(value: String, source: String)
    /// The policy is `fail` and the cassette holds expired interactions.
    case expired(report: String)

    public var errorDescription: String? {
        switch self {
        case let .invalidMaxAge(value, source):
            return "\(source) '\(value)' is not an age; write a number and a unit s, m, h, d or w, e.g. \(source == MaxAge.environmentKey ? "\(source)=30d" : "\(source) 30d")"
        case let .invalidPolicy(value, source):
            return "\(source) '\(value)' is not an expiry policy; use " + ExpiryPolicy.allCases.map(\.rawValue).joined(separator: ", ")
        case .expired(let report):
            return report + "\nre-record it (TAPEDECK_ON_EXPIRY=rerecord, or TAPEDECK_RECORD_MODE=all), check it against the live API "
                + "(cassette verify, updating what drifted), or raise the limit (TAPEDECK_MAX_AGE)"
        }
    }
}
