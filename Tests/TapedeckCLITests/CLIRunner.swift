import Foundation
import Testing

/// Runs the built `tapedeck` binary (TAPEDECK_BIN, else `<root>/.build/debug/tapedeck`).
enum CLI {
    static let binary: URL? = {
        if let path = ProcessInfo.processInfo.environment["TAPEDECK_BIN"] { return URL(fileURLWithPath: path) }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let candidate = root.appendingPathComponent(".build/debug/tapedeck")
        return FileManager.default.isExecutableFile(atPath: candidate.path) ? candidate : nil
    }()

    static var isAvailable: Bool { binary != nil }
    static let httpbin = ProcessInfo.processInfo.environment["TAPEDECK_HTTPBIN_URL"]

    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
        var stdoutData: Data
    }

    /// Runs the binary (or `executable`, e.g. a wrapper that runs it); `stdin` is a file to
    /// redirect standard input from (else `/dev/null`).
    static func run(_ arguments: [String], environment: [String: String] = [:], directory: URL? = nil,
                    stdin: URL? = nil, executable: URL? = nil) throws -> Result {
        guard let binary = executable ?? binary else { throw CocoaError(.fileNoSuchFile) }
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        env.merge(environment) { _, new in new }
        process.environment = env
        if let directory { process.currentDirectoryURL = directory }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = try stdin.map { try FileHandle(forReadingFrom: $0) } ?? FileHandle.nullDevice
        try process.run()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
                      stderr: String(decoding: errData, as: UTF8.self), stdoutData: outData)
    }
}
