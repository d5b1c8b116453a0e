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

    /// Closes the sending side only (`shutdown(SHUT_WR)`): the peer reads the end, and this
    /// socket can still read its answers.
    func closeSending() { shutdown(descriptor, Int32(SHUT_WR)) }

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

/// A TCP server on `127.0.0.1` that answers one connection with fixed bytes, written at once
/// (for an upstream whose answer must arrive as one read, whatever HTTP framing it carries).
final class OneShotUpstream: @unchecked Sendable {
    /// The port it listens on.
    let port: Int
    private let descriptor: Int32

    enum Failure: Error { case listen(Int32) }

    /// Listens; the first connection gets `answer` once its request head has arrived, then is closed.
    init(answer: Data) throws {
        let listening = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                bind(listening, socketAddress, length) == 0 && listen(listening, 4) == 0 && getsockname(listening, socketAddress, &length) == 0
            }
        }
        guard bound else { close(listening); throw Failure.listen(errno) }
        descriptor = listening
        port = Int(UInt16(bigEndian: address.sin_port))
        Thread.detachNewThread {
            let connection = accept(listening, nil, nil)
            guard connection >= 0 else { return }
            var request = Data()
            var buffer = [UInt8](repeating: 0, count: 4096)
            while request.firstRange(of: Data("\r\n\r\n".utf8)) == nil {
                let count = recv(connection, &buffer, buffer.count, 0)
                if count <= 0 { break }
                request.append(contentsOf: buffer[0..<count])
            }
            _ = answer.withUnsafeBytes { Glibc.send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            close(connection)
        }
    }

    /// Stops listening.
    func stop() { shutdown(descriptor, Int32(SHUT_RDWR)); close(descriptor) }
}
