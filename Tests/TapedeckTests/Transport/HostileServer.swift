import Foundation
import Tapedeck
import TapedeckTestSupport

/// `Tests/Support/hostile_server.py` on loopback: redirects to other schemes, loops, control
/// characters, huge headers and bodies, a gzip bomb, and a trap port that counts connections.
final class HostileServer: @unchecked Sendable {
    let port: Int
    /// A raw TCP port that counts the connections made to it (see ``trapConnections()``).
    let trapPort: Int
    private let server: ServerProcess

    static var available: Bool { FileManager.default.isExecutableFile(atPath: "/usr/bin/python3") }

    init() throws {
        server = try ServerProcess(arguments: [ServerProcess.hostileScript.path], expecting: 2)
        port = server.ports[0]
        trapPort = server.ports[1]
    }

    func url(_ pathAndQuery: String) -> URL {
        URL(string: "http://127.0.0.1:\(port)\(pathAndQuery)") ?? URL(fileURLWithPath: "/")
    }

    /// How many connections the trap port has accepted.
    func trapConnections() async throws -> Int {
        let response = try await URLSessionTransport().send(HTTPRequest(url: url("/trap-count")))
        return Int(String(decoding: response.body, as: UTF8.self)) ?? -1
    }

    /// Stops the server (SIGKILL; see ``ServerProcess/stop()``).
    func stop() { server.stop() }
}
