import Foundation
import TapedeckTestSupport

/// `Tests/Support/hostile_server.py` on loopback (the CLI tests only need its port).
final class HostileServerProcess: @unchecked Sendable {
    let port: Int
    private let server: ServerProcess

    static var available: Bool {
        ["/usr/bin/python3", "/usr/bin/script"].allSatisfy { FileManager.default.isExecutableFile(atPath: $0) } && CLI.isAvailable
    }

    init() throws {
        server = try ServerProcess(arguments: [ServerProcess.hostileScript.path], expecting: 1)
        port = server.ports[0]
    }

    func url(_ path: String) -> String { "http://127.0.0.1:\(port)\(path)" }

    /// Stops the server (SIGKILL; see ``ServerProcess/stop()``).
    func stop() { server.stop() }
}
