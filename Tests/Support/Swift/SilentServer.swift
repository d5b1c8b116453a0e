import Dispatch
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A loopback endpoint that accepts connections, reads nothing and never answers: a request
/// sent to it stays in flight until the client gives up. ``accepted()`` and
/// ``acceptInBackground()`` report when a client connected, so a test acts on that event
/// (Ctrl-C in the REPL, a cancelled task) instead of sleeping.
public final class SilentServer: @unchecked Sendable {
    public let port: Int
    private let listener: Int32
    private let lock = NSLock()
    private var clients: [Int32] = []

    public init() throws {
        guard let socket = LoopbackSocket.make(listening: 8) else {
            throw CocoaError(.fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "cannot listen on a loopback port"])
        }
        listener = socket.fd
        port = socket.port
    }

    /// Waits for the next client to connect (on a thread of its own: `accept` blocks).
    public func accepted() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            Thread.detachNewThread { [self] in
                acceptOne()
                continuation.resume()
            }
        }
    }

    /// Accepts the next client on a thread of its own; the semaphore is signalled once it connected.
    public func acceptInBackground() -> DispatchSemaphore {
        let connected = DispatchSemaphore(value: 0)
        Thread.detachNewThread { [self] in
            acceptOne()
            connected.signal()
        }
        return connected
    }

    private func acceptOne() {
        let client = accept(listener, nil, nil)
        lock.withLock { clients.append(client) }
    }

    deinit {
        for client in clients where client >= 0 { close(client) }
        close(listener)
    }
}
