import Foundation
import TapedeckTestSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A loopback server that answers one connection with the start of a response and then resets
/// it (RST, not FIN): the connection lost mid-response that a phone sees when the network drops.
/// Given `answer`, it sends those bytes instead (a server that does not speak HTTP).
final class ResettingServer: @unchecked Sendable {
    let port: Int
    private let listener: Int32

    init(answer: String = "HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\nhalf") throws {
        guard let socket = LoopbackSocket.make(listening: 4) else { throw POSIXError(.EADDRINUSE) }
        let fd = socket.fd
        listener = fd
        port = socket.port
        Thread.detachNewThread {
            let connection = accept(fd, nil, nil)
            guard connection >= 0 else { return }
            var buffer = [UInt8](repeating: 0, count: 4096)
            _ = recv(connection, &buffer, buffer.count, 0)
            let partial = Array(answer.utf8)
            _ = send(connection, partial, partial.count, 0)
            var resetOnClose = linger(l_onoff: 1, l_linger: 0)
            _ = setsockopt(connection, SOL_SOCKET, SO_LINGER, &resetOnClose, socklen_t(MemoryLayout<linger>.size))
            close(connection)
        }
    }

    deinit { close(listener) }
}
