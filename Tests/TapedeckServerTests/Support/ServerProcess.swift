import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// `tapedeck serve` or `tapedeck proxy` running as a child process on a free port.
final class ServerProcess: @unchecked Sendable {
    let process = Process()
    let url: URL
    private let stderrPipe = Pipe()
    private let stdoutPipe = Pipe()

    enum Failure: Error, CustomStringConvertible {
        case noBanner(String)
        var description: String { switch self { case .noBanner(let text): "the server printed no URL: \(text)" } }
    }

    /// Starts `tapedeck ARGUMENTS --port 0` and waits for the line that names its URL.
    init(_ arguments: [String], environment: [String: String] = [:]) async throws {
        guard let binary = Proc.tapedeck else { throw CocoaError(.fileNoSuchFile) }
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = arguments + ["--port", "0"]
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        process.standardOutput = stdoutPipe
        process.standardError = stderrPipe
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let handle = stdoutPipe.fileHandleForReading
        let line: String = await Blocking.run {
            var bytes = Data()
            while true {
                let chunk = handle.readData(ofLength: 1)
                if chunk.isEmpty || chunk == Data("\n".utf8) { break }
                bytes.append(chunk)
            }
            return String(decoding: bytes, as: UTF8.self)
        }
        guard let found = line.range(of: "http://") ?? line.range(of: "https://") else {
            process.terminate()
            let errors = String(decoding: stderrPipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            throw Failure.noBanner(line + errors)
        }
        let rest = line[found.lowerBound...].prefix { !$0.isWhitespace }
        url = URL(string: String(rest))!
    }

    /// Sends `signal` and waits for the exit; returns the status and everything written to stderr.
    func stop(signal: Int32 = SIGINT) async -> (status: Int32, stderr: String) {
        kill(process.processIdentifier, signal)
        let errors = stderrPipe.fileHandleForReading
        let process = self.process
        return await Blocking.run {
            let text = String(decoding: errors.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            return (process.terminationStatus, text)
        }
    }

    deinit { if process.isRunning { process.terminate() } }
}
