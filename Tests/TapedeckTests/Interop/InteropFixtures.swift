import Foundation
import TapedeckTestSupport
@testable import Tapedeck

/// Fixture files, sample cassettes and helpers shared by the interop tests.
enum InteropFixtures {
    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/Interop")

    static func url(_ name: String) -> URL { directory.appendingPathComponent(name) }

    static func data(_ name: String) throws -> Data { try Data(contentsOf: url(name)) }

    /// A fresh temporary directory.
    static func temporaryDirectory() throws -> URL {
        try TestScratch.directory("interop")
    }

    static let date = Date(timeIntervalSince1970: 1_714_557_600.123456)

    /// A cassette exercising everything the formats must carry: JSON, text with odd characters,
    /// binary bodies both ways, repeated headers, nil and empty bodies, custom methods.
    static func sampleCassette() -> Cassette {
        let base = "http://127.0.0.1:8080"
        func url(_ path: String) -> URL { URL(string: base + path)! }
        let json = Data(#"{"name": "Ada", "tags": ["a", "b"], "n": 1.0}"#.utf8)
        let binary = Data([0x00, 0x01, 0xFE, 0xFF, 0x89, 0x50, 0x4E, 0x47])
        let odd = "line one\n  indented: yes\n# not a comment\n\ttab\r\nquote \" and \\ and ünïcødé ✓\n\n"
        return Cassette(interactions: [
            Interaction(
                request: HTTPRequest(method: .get, url: url("/get?a=1&b=two%20words"),
                                     headers: ["Accept": "application/json", "X-Trace": "yes"]),
                response: HTTPResponse(status: 200, headers: HTTPHeaders([
                    ("Content-Type", "application/json"), ("Set-Cookie", "a=1; Path=/"), ("Set-Cookie", "b=2"),
                ]), body: json, url: url("/get?a=1&b=two%20words"), duration: 0.0125),
                recordedAt: date),
            Interaction(
                request: HTTPRequest(method: .post, url: url("/post"),
                                     headers: ["Content-Type": "application/json", "Content-Length": String(json.count)], body: json),
                response: HTTPResponse(status: 201, reason: "Created", headers: ["Content-Type": "text/plain"],
                                       body: Data(odd.utf8), url: url("/post"), duration: 1.5),
                recordedAt: date.addingTimeInterval(1)),
            Interaction(
                request: HTTPRequest(method: .put, url: url("/upload"),
                                     headers: ["Content-Type": "application/octet-stream"], body: binary),
                response: HTTPResponse(status: 200, headers: ["Content-Type": "image/png"], body: binary,
                                       url: url("/upload"), duration: 0.25),
                recordedAt: date.addingTimeInterval(2)),
            Interaction(
                request: HTTPRequest(method: HTTPMethod(rawValue: "PURGE") ?? .get, url: url("/cache"), body: Data()),
                response: HTTPResponse(status: 418, reason: "I'm a teapot", body: Data("123".utf8),
                                       url: url("/cache"), duration: 0),
                recordedAt: date.addingTimeInterval(3)),
            Interaction(
                request: HTTPRequest(method: .get, url: url("/redirect/1")),
                response: HTTPResponse(status: 302, headers: ["Location": "/get"], body: Data(),
                                       url: url("/redirect/1"), duration: 0.001),
                recordedAt: date.addingTimeInterval(4)),
        ], metadata: [Cassette.MetadataKey.baseURL: base, Cassette.MetadataKey.recordedWith: "tapedeck 0.1"])
    }

    /// Runs a program and returns its exit status, stdout and stderr; kills it after `timeout`.
    static func run(_ executable: String, _ arguments: [String], environment: [String: String] = [:],
                    timeout: TimeInterval = 60) throws -> (status: Int32, stdout: String, stderr: String) {
        let output = try ChildProcess.run(executable, arguments, environment: environment, timeout: timeout)
        return (output.status, String(decoding: output.stdout, as: UTF8.self), String(decoding: output.stderr, as: UTF8.self))
    }


    static var venv: String? { ProcessInfo.processInfo.environment["TAPEDECK_VENV"] }
    static var httpbin: String? { ProcessInfo.processInfo.environment["TAPEDECK_HTTPBIN_URL"] }
    static var python: String { (venv ?? "") + "/bin/python" }
}

extension Interaction {
    /// The interaction with the fields a format cannot hold reset, for comparing round trips.
    func normalizedForComparison(dates: Bool = true) -> Interaction {
        var copy = self
        copy.response.duration = (response.duration * 1000).rounded() / 1000
        if dates { copy.recordedAt = Date(timeIntervalSince1970: (recordedAt.timeIntervalSince1970 * 1000).rounded() / 1000) }
        return copy
    }
}
