import Foundation

/// A child process running one of the TapedeckBench recording cases, whose stdout lines a
/// test reads as events (no sleeps), and which it can feed a line or kill.
///
/// Output is read straight from the pipe, never by waiting for end-of-file: a process that
/// another test starts meanwhile may inherit the pipe's write end and keep it open.
final class RecorderProcess {
    /// The bench binary built next to this test bundle (TAPEDECK_BENCH_BIN overrides).
    static let bench: URL? = {
        if let path = ProcessInfo.processInfo.environment["TAPEDECK_BENCH_BIN"] { return URL(fileURLWithPath: path) }
        let here = URL(fileURLWithPath: CommandLine.arguments.first ?? "").deletingLastPathComponent()
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        return [here.appendingPathComponent("TapedeckBench"), root.appendingPathComponent(".build/debug/TapedeckBench")]
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }()

    private let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    private var buffer: [UInt8] = []

    /// Starts `bench ARGUMENTS…`.
    init(_ bench: URL, _ arguments: [String]) throws {
        process.executableURL = bench
        process.arguments = arguments
        process.standardOutput = output
        process.standardInput = input
        process.standardError = FileHandle.nullDevice
        try process.run()
    }

    /// The next line the child printed; nil when it closed its output or printed nothing for a
    /// minute (a bound that only ends a test that is failing anyway).
    func nextLine() -> String? {
        let descriptor = output.fileHandleForReading.fileDescriptor
        while true {
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffer[..<newline], as: UTF8.self)
                buffer.removeSubrange(...newline)
                return line
            }
            var ready = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&ready, 1, 60_000) > 0, fill(from: descriptor) > 0 else { return nil }
        }
    }

    /// The lines a child that has exited printed and nobody read yet.
    func linesLeftAfterExit() -> [String] {
        let descriptor = output.fileHandleForReading.fileDescriptor
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
        while fill(from: descriptor) > 0 {}
        var lines: [String] = []
        while let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
            lines.append(String(decoding: buffer[..<newline], as: UTF8.self))
            buffer.removeSubrange(...newline)
        }
        return lines
    }

    private func fill(from descriptor: Int32) -> Int {
        var chunk = [UInt8](repeating: 0, count: 4096)
        let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        if count > 0 { buffer += chunk[..<count] }
        return count
    }

    /// Writes one line to the child's stdin.
    func send(_ line: String) {
        input.fileHandleForWriting.write(Data((line + "\n").utf8))
    }

    /// `kill -9`, then waits for the child to be gone.
    func killNine() {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    /// Waits for the child to exit and returns its status.
    func exitStatus() -> Int32 {
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// How the child ended.
    var terminationReason: Process.TerminationReason { process.terminationReason }
}
