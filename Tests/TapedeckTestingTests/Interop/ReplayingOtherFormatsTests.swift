import Foundation
import TapedeckTestSupport
import Testing
import Tapedeck
import TapedeckTesting
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `URLSession.replaying` on HAR and vcrpy YAML files: app code using URLSession, no network.
@Suite("URLSession.replaying on .har and .yaml cassettes")
struct ReplayingOtherFormatsTests {
    /// The interop fixtures live with the Tapedeck tests.
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("TapedeckTests/Fixtures/Interop")

    private func get(_ session: URLSession, _ url: String, method: String = "GET", body: Data? = nil) async throws -> (Int, Data) {
        var request = URLRequest(url: try #require(URL(string: url)))
        request.httpMethod = method
        request.httpBody = body
        let (data, response) = try await session.data(for: request)
        return (try #require(response as? HTTPURLResponse).statusCode, data)
    }

    @Test("a mitmproxy HAR answers URLSession requests, gzip body decoded, binary body intact")
    func har() async throws {
        let session = try URLSession.replaying(Self.fixtures.appendingPathComponent("mitmproxy.har"))
        let (status, body) = try await get(session, "http://127.0.0.1:38673/get?x=1")
        #expect(status == 200)
        #expect(String(decoding: body, as: UTF8.self).contains(#""x": "1""#))
        let (_, gzip) = try await get(session, "http://127.0.0.1:38673/gzip")
        #expect(String(decoding: gzip, as: UTF8.self).contains(#""gzipped": true"#))
        let (_, bytes) = try await get(session, "http://127.0.0.1:38673/bytes/8?seed=3")
        #expect(bytes.count == 8)
    }

    @Test("a vcrpy cassette answers URLSession requests with vcrpy's recorded statuses and bodies")
    func yaml() async throws {
        let session = try URLSession.replaying(Self.fixtures.appendingPathComponent("vcrpy-httpbin.yaml"))
        let (status, body) = try await get(session, "http://127.0.0.1:37503/status/418")
        #expect(status == 418)
        #expect(String(decoding: body, as: UTF8.self).contains("teapot"))
        let (_, bytes) = try await get(session, "http://127.0.0.1:37503/bytes/16?seed=1")
        #expect(bytes == Data(base64Encoded: "RCCCPP3m8cJrMPkOx90B5A=="))
    }

    @Test("a cassette vcrpy + requests records against httpbin now replays through URLSession.replaying",
          .enabled(if: ProcessInfo.processInfo.environment["TAPEDECK_HTTPBIN_URL"] != nil
                       && ProcessInfo.processInfo.environment["TAPEDECK_VENV"] != nil,
                   "needs httpbin and the venv (make test starts and sets both)"))
    func liveVCR() async throws {
        let environment = ProcessInfo.processInfo.environment
        let base = try #require(environment["TAPEDECK_HTTPBIN_URL"])
        let directory = TestScratch.path("vcr")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let cassette = directory.appendingPathComponent("httpbin.yaml")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try #require(environment["TAPEDECK_VENV"]) + "/bin/python")
        process.arguments = [Self.fixtures.appendingPathComponent("peers/vcr_record.py").path, cassette.path]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0)
        struct Seen: Decodable { var method: String; var url: String; var status: Int; var body_b64: String }
        let seen = try JSONDecoder().decode([Seen].self, from: data)
        let session = try URLSession.replaying(cassette)
        for call in seen where call.method == "GET" {
            let (status, body) = try await get(session, call.url)
            #expect(status == call.status, "\(call.url)")
            #expect(body == Data(base64Encoded: call.body_b64), "\(call.url)")
        }
        #expect(seen.first?.url.hasPrefix(base) == true)
    }
}
