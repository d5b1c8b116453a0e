import Foundation

/// What happens when a cassette holds interactions older than the ``MaxAge``
/// (`--on-expiry`, `TAPEDECK_ON_EXPIRY`), as VCR's `re_record_interval` and Polly's `expiresIn` do.
public enum ExpiryPolicy: String, Sendable, Hashable, CaseIterable {
    /// Say which interactions expired and go on.
    case warn
    /// Refuse to use the cassette.
    case fail
    /// Record the cassette again (mode `all`) against the live API.
    case rerecord

    /// The environment variable giving a default policy.
    public static let environmentKey = "TAPEDECK_ON_EXPIRY"

    /// Parses a typed policy, naming `source` and the valid ones in the error.
    public init(parsing text: String, source: String) throws(ExpiryError) {
        guard let policy = ExpiryPolicy(rawValue: text.trimmingCharacters(in: .whitespaces).lowercased()) else {
            throw .invalidPolicy(value: text, source: source)
        }
        self = policy
    }

    /// `requested`, else `TAPEDECK_ON_EXPIRY`, else `warn`.
    public static func resolve(_ requested: ExpiryPolicy?, environment: [String: String]) throws(ExpiryError) -> ExpiryPolicy {
        if let requested { return requested }
        guard let text = environment[environmentKey], !text.trimmingCharacters(in: .whitespaces).isEmpty else { return .warn }
        return try ExpiryPolicy(parsing: text, source: environmentKey)
    }
}
