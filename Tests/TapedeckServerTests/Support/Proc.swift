import Foundation
import TapedeckTestSupport

/// Runs real client programs (curl, Python requests, HTTPie, the tapedeck binary) off the
/// cooperative pool, so an in-process server keeps answering while a test waits.
enum Proc {
    struct Result: Sendable {
        var status: Int32
        var stdout: Data
        var stderr: String
        var text: String { String(decoding: stdout, as: UTF8.self) }
    }

    /// Runs `executable` to the end (killed after `timeout` seconds, a safety net only).
    static func run(_ executable: String, _ arguments: [String], environment: [String: String] = [:],
                    timeout: TimeInterval = 60) async throws -> Result {
        try await Blocking.run { try runBlocking(executable, arguments, environment: environment, timeout: timeout) }
    }

    static func runBlocking(_ executable: String, _ arguments: [String], environment: [String: String] = [:],
                            timeout: TimeInterval = 60) throws -> Result {
        let output = try ChildProcess.run(executable, arguments, environment: environment, timeout: timeout)
        return Result(status: output.status, stdout: output.stdout, stderr: String(decoding: output.stderr, as: UTF8.self))
    }


    static let curl = "/usr/bin/curl"

    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The venv with requests, HTTPie and mitmproxy: TAPEDECK_VENV, else the checkout's `.venv`.
    static var venv: String? {
        if let venv = ProcessInfo.processInfo.environment["TAPEDECK_VENV"] { return venv }
        let local = packageRoot.appendingPathComponent(".venv").path
        return FileManager.default.isExecutableFile(atPath: local + "/bin/python") ? local : nil
    }

    static var python: String { (venv ?? "") + "/bin/python" }
    static var hasVenv: Bool { venv != nil }

    /// httpbin started by `make test` (.ci/with-httpbin).
    static var httpbin: URL? { ProcessInfo.processInfo.environment["TAPEDECK_HTTPBIN_URL"].flatMap(URL.init(string:)) }

    /// The built `tapedeck` binary: TAPEDECK_BIN, else `.build/debug/tapedeck`.
    static var tapedeck: String? {
        if let path = ProcessInfo.processInfo.environment["TAPEDECK_BIN"] { return path }
        let candidate = packageRoot.appendingPathComponent(".build/debug/tapedeck").path
        return FileManager.default.isExecutableFile(atPath: candidate) ? candidate : nil
    }

    /// A fresh scratch folder (`TestScratch`); remove it with `cleanUp`.
    static func temporaryDirectory() throws -> URL {
        try TestScratch.directory("tapedeck-server")
    }

    static func cleanUp(_ url: URL) { try? FileManager.default.removeItem(at: url) }

    static func fixture(_ name: String) -> URL {
        (Bundle.module.url(forResource: "Fixtures", withExtension: nil)
            ?? URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures"))
            .appendingPathComponent(name)
    }
}

/// Parses `curl -i` style output: status line, headers in order, body.
struct RawResponse: Sendable {
    var statusLine: String
    var headers: [(String, String)]
    var body: Data

    var status: Int { Int(statusLine.split(separator: " ").dropFirst().first ?? "") ?? 0 }

    func values(_ name: String) -> [String] { headers.filter { $0.0.lowercased() == name.lowercased() }.map(\.1) }

    /// Splits the bytes of a response as sent (`curl -i` or a raw socket read).
    init?(_ data: Data) {
        guard let end = data.firstRange(of: Data("\r\n\r\n".utf8)) else { return nil }
        let head = String(decoding: data[..<end.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
        statusLine = head.first ?? ""
        headers = head.dropFirst().compactMap { line in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        body = Data(data[end.upperBound...])
    }
}
