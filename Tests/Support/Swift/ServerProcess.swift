import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A test server in a child process (`/usr/bin/python3` with a script) that prints its port(s)
/// on its first line of output once it listens.
public final class ServerProcess: @unchecked Sendable {
    /// The numbers on the server's first line, in order (its ports).
    public let ports: [Int]
    private let process = Process()

    /// `Tests/Support/hostile_server.py`.
    public static let hostileScript = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("hostile_server.py")

    /// Starts `executable` with `arguments` and reads its first line; throws when the server
    /// exits or prints something other than `expecting` port numbers.
    public init(_ executable: String = "/usr/bin/python3", arguments: [String], expecting count: Int) throws {
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        var line = Data()
        while let byte = try output.fileHandleForReading.read(upToCount: 1), !byte.isEmpty, byte != Data("\n".utf8) {
            line.append(byte)
        }
        let ports = String(decoding: line, as: UTF8.self).split(separator: " ").compactMap { Int($0) }
        guard ports.count >= count else {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            throw CocoaError(.fileReadCorruptFile, userInfo: [
                NSLocalizedDescriptionKey: "the test server \(arguments.first ?? executable) did not print \(count) port(s) on start",
            ])
        }
        self.ports = ports
    }

    /// Stops the server: SIGKILL, because children of the test process inherit its blocked
    /// SIGTERM and ignore `terminate()`.
    public func stop() {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    deinit { stop() }
}
