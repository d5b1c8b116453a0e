import Foundation

/// What can go wrong starting or configuring a server; each message names the bad value and the fix.
public enum ServerError: Error, LocalizedError, Sendable, Equatable {
    /// The socket could not be bound.
    case cannotListen(host: String, port: Int, reason: String)
    /// An option value is not valid.
    case invalidOption(option: String, value: String, expected: String)
    /// An argument given in code is refused; the message quotes it (redacted) and names the fix.
    case refused(message: String)

    /// The whole message.
    public var errorDescription: String? {
        switch self {
        case let .cannotListen(host, port, reason):
            return "cannot listen on \(host):\(port): \(reason); pick another port with --port N, or --port 0 for a free one"
        case let .invalidOption(option, value, expected):
            return "\(option) '\(value)' is not valid; \(expected)"
        case let .refused(message):
            return message
        }
    }
}
