import Foundation

/// What one connection may send before the server gives up on it: every input from outside
/// has a limit on size and time, and the answer names which limit was hit.
public struct ServerLimits: Sendable, Hashable {
    /// The request line and header fields together, in bytes; more is answered 431.
    public var maxHeaderBytes: Int
    /// The request body, in bytes; more is answered 413.
    public var maxBodyBytes: Int
    /// Seconds a request may take to arrive complete, counted from the connection opening or
    /// the previous response; a slower client (slowloris) is disconnected.
    public var readTimeout: TimeInterval

    /// Creates limits; the defaults are 64 KB of headers, 64 MB of body and 30 seconds to read.
    public init(maxHeaderBytes: Int = 64 * 1024, maxBodyBytes: Int = 64 * 1024 * 1024, readTimeout: TimeInterval = 30) {
        self.maxHeaderBytes = maxHeaderBytes
        self.maxBodyBytes = maxBodyBytes
        self.readTimeout = readTimeout
    }
}
