import Foundation

/// What a socket alone can do to a response: the faults no `HTTPTransport` can express.
package enum SocketFault: Sendable, Hashable {
    /// Close the connection with a TCP reset instead of answering.
    case reset
    /// Send the head and half the body, then close.
    case truncate
    /// Send the body at this many bytes per second.
    case slow(bytesPerSecond: Int)
    /// Never answer; the connection stays open until the client gives up.
    case hang
}
