import Foundation

/// A latency or fault option that cannot be read; the message names the value and the form.
public enum ConditionsError: Error, LocalizedError, Sendable, Equatable {
    /// `--latency` is not `recorded`, `MS` or `xFACTOR`.
    case invalidLatency(value: String, source: String)
    /// A fault rule does not parse.
    case invalidFault(value: String, source: String, expected: String)

    /// The whole message.
    public var errorDescription: String? {
        switch self {
        case let .invalidLatency(value, source):
            return "\(source) '\(value)' is not a latency; give recorded, milliseconds (250) or a factor of the recorded time (x0.5)"
        case let .invalidFault(value, source, expected):
            return "\(source) '\(value)' is not a fault rule; \(expected)"
        }
    }
}
