import Foundation
import TapedeckTestSupport

/// Runs the built `tapedeck` binary: `TAPEDECK_BIN`, else `<package>/.build/debug/tapedeck`.
enum Binary {
    static let environment = ProcessInfo.processInfo.environment

    static var path: String? {
        if let bin = environment["TAPEDECK_BIN"], FileManager.default.isExecutableFile(atPath: bin) { return bin }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let candidate = root.appendingPathComponent(".build/debug/tapedeck").path
        return FileManager.default.isExecutableFile(atPath: candidate) ? candidate : nil
    }

    static var httpbin: String? { environment["TAPEDECK_HTTPBIN_URL"] }

    static var ready: Bool { path != nil && httpbin != nil }

    struct Outcome {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// Runs the binary with `arguments` in `directory`, feeding `input` to stdin.
    static func run(_ arguments: [String], in directory: URL, input: String = "", extraEnvironment: [String: String] = [:]) throws -> Outcome {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path ?? "/bin/false")
        process.arguments = arguments
        process.currentDirectoryURL = directory
        process.environment = environment.merging(extraEnvironment) { _, new in new }
        let stdin = Pipe(), stdout = Pipe(), stderr = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        stdin.fileHandleForWriting.write(Data(input.utf8))
        try stdin.fileHandleForWriting.close()
        let out = stdout.fileHandleForReading.readDataToEndOfFile()
        let err = stderr.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Outcome(status: process.terminationStatus, stdout: String(decoding: out, as: UTF8.self),
                       stderr: String(decoding: err, as: UTF8.self))
    }

    /// A fresh scratch folder, `label-N` under `TestScratch.root`: a short name, so a tmux
    /// socket inside it stays under the length limit of a socket path.
    static func temporaryDirectory(_ label: String) throws -> URL {
        try TestScratch.shortDirectory(label)
    }

    /// An OpenAPI document for a few httpbin endpoints, wrong on purpose about /get (its `url`
    /// is a string, not an integer) and silent about /uuid, so checks against it have findings.
    static let httpbinOpenAPI = """
        openapi: 3.0.3
        info: {title: httpbin, version: "1"}
        paths:
          /anything/users:
            post:
              requestBody:
                content:
                  application/json:
                    schema: {type: object, properties: {name: {type: string}, age: {type: integer}}}
              responses: {"200": {description: ok}}
          /get:
            get:
              responses:
                "200":
                  description: ok
                  content: {application/json: {schema: {type: object, properties: {url: {type: integer}}}}}
          /status/{code}:
            get: {responses: {"200": {description: ok}}}
        """
}
