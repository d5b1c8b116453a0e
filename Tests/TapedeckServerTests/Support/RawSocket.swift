import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A plain TCP client for sending what no well-behaved HTTP client would.
final class RawSocket: @unchecked Sendable {
    private let descriptor: Int32

    enum Failure: Error { case connect(Int32) }

    /// Connects to `127.0.0.1:port`; reads give up after `receiveTimeout` seconds (a safety net).
    init(port: Int, receiveTimeout: Int = 20) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard result == 0 else { close(descriptor); throw Failure.connect(errno) }
        var timeout = timeval(tv_sec: receiveTimeout, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    /// Sends bytes; false when the peer has closed.
    @discardableResult
    func send(_ data: Data) -> Bool {
        data.withUnsafeBytes { buffer in
            Glibc.send(descriptor, buffer.baseAddress, buffer.count, Int32(MSG_NOSIGNAL)) == buffer.count
        }
    }

    @discardableResult
    func send(_ text: String) -> Bool { send(Data(text.utf8)) }

    /// Reads until the peer closes (or the safety timeout).
    func readToEnd() -> Data {
        var result = Data()
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = recv(descriptor, &buffer, buffer.count, 0)
            if count <= 0 { break }
            result.append(contentsOf: buffer[0..<count])
        }
        return result
    }

    /// Reads what is there until `predicate` holds on everything read, or the peer closes.
    func read(until predicate: (Data) -> Bool) -> Data {
        var result = Data()
        var buffer = [UInt8](repeating: 0, count: 65536)
        while !predicate(result) {
            let count = recv(descriptor, &buffer, buffer.count, 0)
            if count <= 0 { break }
            result.append(contentsOf: buffer[0..<count])
        }
        return result
    }

    /// Whether the peer has closed: a read returns end of file (waits for it).
    func waitForClose() -> Bool {
        var byte: UInt8 = 0
        while true {
            let count = recv(descriptor, &byte, 1, 0)
            if count == 0 { return true }
            if count < 0 { return errno == ECONNRESET }
        }
    }

    deinit { close(descriptor) }
}
