import Foundation
import TapedeckTestSupport
import Testing
@testable import Tapedeck

/// Tapedeck against the real tools: vcrpy + requests, mitmproxy and haralyzer from the venv,
/// httpbin on loopback. `make test` sets TAPEDECK_VENV and TAPEDECK_HTTPBIN_URL, so these run there.
@Suite("Interop with real peers (vcrpy, mitmproxy, haralyzer)",
       .enabled(if: ProcessInfo.processInfo.environment["TAPEDECK_HTTPBIN_URL"] != nil
                    && ProcessInfo.processInfo.environment["TAPEDECK_VENV"] != nil,
                "needs httpbin and the venv (make test starts and sets both)"))
struct PeerTests {
    private struct Seen: Decodable {
        var method: String?
        var url: String?
        var status: Int
        var body_b64: String?
        var body_file: String?
        var reason: String?
        var headers: [String: String]?
    }

    /// Runs a script from Fixtures/Interop/peers with the venv's python; its stdout parsed as JSON.
    private func peerJSON(_ script: String, _ arguments: [String]) throws -> JSONValue {
        let path = InteropFixtures.url("peers/\(script)").path
        let result = try InteropFixtures.run(InteropFixtures.python, [path] + arguments, timeout: 60)
        try #require(result.status == 0, "\(script) failed (\(result.status)):\n\(result.stderr)")
        return try JSONParser.parse(result.stdout)
    }

    private func peer(_ script: String, _ arguments: [String]) throws -> [Seen] {
        try JSONDecoder().decode([Seen].self, from: JSONWriter.write(try peerJSON(script, arguments)))
    }

    @Test("a cassette vcrpy + requests recorded against httpbin replays in Tapedeck with the same statuses and bodies")
    func vcrRecordsTapedeckReplays() async throws {
        let directory = try InteropFixtures.temporaryDirectory()
        let cassetteURL = directory.appendingPathComponent("vcrpy.yaml")
        let seen = try peer("vcr_record.py", [cassetteURL.path])
        #expect(seen.count == 8)
        let replay = try ReplayTransport(contentsOf: cassetteURL)
        for call in seen {
            let url = try #require(call.url.flatMap(URL.init(string:)))
            let request = HTTPRequest(method: try HTTPMethod(validating: call.method ?? "GET"), url: url,
                                      body: call.method == "GET" ? nil : Data())
            let response = try await replay.send(request)
            #expect(response.status == call.status, "\(url)")
            #expect(response.body == Data(base64Encoded: call.body_b64 ?? ""), "\(url)")
            #expect(response.headers["Content-Encoding"] == nil)
        }
        #expect(replay.unusedInteractions.isEmpty)
    }

    @Test("a YAML cassette Tapedeck recorded from httpbin replays in vcrpy + requests with record mode none")
    func tapedeckRecordsVCRReplays() async throws {
        let base = try #require(InteropFixtures.httpbin)
        let directory = try InteropFixtures.temporaryDirectory()
        let cassetteURL = directory.appendingPathComponent("tapedeck.yaml")
        let recorder = try RecordingTransport(configuration: CassetteConfiguration(cassetteURL, mode: .all, environment: [:]),
                                              inner: URLSessionTransport(options: .init(followRedirects: false)))
        let paths = ["/get?b=2&a=1", "/gzip", "/bytes/64?seed=11", "/status/418", "/encoding/utf8",
                     "/response-headers?X-Twice=1&X-Twice=2"]
        var recorded: [HTTPResponse] = []
        for path in paths {
            recorded.append(try await recorder.send(HTTPRequest(url: try #require(URL(string: base + path)))))
        }
        var post = HTTPRequest(method: .post, url: try #require(URL(string: base + "/post")))
        try post.setBody(.json(["name": "Ada"]))
        recorded.append(try await recorder.send(post))
        try recorder.flush()
        let yaml = try String(contentsOf: cassetteURL, encoding: .utf8)
        #expect(yaml.hasPrefix("interactions:\n- request:\n"))

        let arguments = paths.flatMap { ["GET", base + $0] } + ["POST", base + "/post"]
        let seen = try peer("vcr_replay.py", [cassetteURL.path] + arguments)
        #expect(seen.count == recorded.count)
        for (replayed, original) in zip(seen, recorded) {
            #expect(replayed.status == original.status)
            #expect(replayed.reason == original.reason)
            #expect(Data(base64Encoded: replayed.body_b64 ?? "") == original.body)
        }
        #expect(seen[5].headers?["X-Twice"] == "1, 2")
    }

    @Test("a HAR mitmproxy captured of curl through it against httpbin replays in Tapedeck as curl saw it")
    func mitmproxyHAR() async throws {
        let directory = try InteropFixtures.temporaryDirectory()
        let harURL = directory.appendingPathComponent("mitm.har")
        let seen = try peer("mitm_capture.py", [harURL.path])
        let cassette = try Cassette.load(from: harURL)
        #expect(cassette.interactions.count == seen.count)
        let replay = ReplayTransport(cassette: cassette, path: harURL.path)
        for call in seen {
            let url = try #require(call.url.flatMap(URL.init(string:)))
            let method: HTTPMethod = url.path == "/post" ? .post : .get
            let response = try await replay.send(HTTPRequest(method: method, url: url, body: method == .post ? Data() : nil))
            #expect(response.status == call.status, "\(url)")
            let curlBody = try Data(contentsOf: URL(fileURLWithPath: try #require(call.body_file)))
            #expect(response.body == curlBody, "\(url)")
        }
        #expect(cassette.interactions[1].request.body == Data("a=1&b=two".utf8))
        #expect(cassette.interactions.allSatisfy { $0.response.duration > 0 })
    }

    @Test("haralyzer reads Tapedeck's HAR: every entry, status, text, base64 encoding, dates")
    func haralyzerReadsTapedeck() throws {
        let cassette = InteropFixtures.sampleCassette()
        let directory = try InteropFixtures.temporaryDirectory()
        let harURL = directory.appendingPathComponent("tapedeck.har")
        try cassette.write(to: harURL, format: .har)
        let root = try peerJSON("haralyzer_read.py", [harURL.path])
        #expect(root["version"] == "1.2")
        #expect(root["creator"]?["name"] == "Tapedeck")
        let entries = try #require(root["entries"]?.arrayValue)
        #expect(entries.count == cassette.interactions.count)
        for (entry, interaction) in zip(entries, cassette.interactions) {
            #expect(entry["method"]?.stringValue == interaction.request.method.rawValue)
            #expect(entry["url"]?.stringValue == interaction.request.url.absoluteString)
            #expect(entry["status"] == JSONValue(interaction.response.status))
            #expect(entry["statusText"]?.stringValue == interaction.response.reason)
            let text = try #require(entry["text"]?.stringValue)
            if entry["encoding"] == "base64" {
                #expect(Data(base64Encoded: text) == interaction.response.body)
            } else {
                #expect(Data(text.utf8) == interaction.response.body)
            }
            let started = try #require(entry["startTime"]?.stringValue.flatMap(RFC3339Date.parse))
            #expect(abs(started.timeIntervalSince(interaction.recordedAt)) < 0.000_001)
        }
        #expect(entries[1]["requestText"]?.stringValue == String(decoding: cassette.interactions[1].request.body ?? Data(), as: UTF8.self))
    }

    @Test("vcrpy's own loader reads every body Tapedeck writes byte for byte, including 300 random nasty strings")
    func vcrLoadsTapedeckYAML() throws {
        var cassette = InteropFixtures.sampleCassette()
        var generator = SeededRandom(seed: 0x7EE2_0300)
        let alphabet = Array("ab \t\n\r\"'\\:#-?&*!|>%@`{}[],~ \u{0}\u{7}\u{1B}\u{7F}\u{85}\u{A0}\u{2028}\u{FEFF}é✓😀yesnonull123.5e3")
        for index in 0..<300 {
            let length = Int.random(in: 0...24, using: &generator)
            let text = String((0..<length).map { _ in alphabet.randomElement(using: &generator) ?? "a" })
            let url = URL(string: "http://bench.local/random/\(index)")!
            cassette.interactions.append(Interaction(
                request: HTTPRequest(method: .post, url: url, body: Data(text.utf8)),
                // A header value or reason with a line break or NUL could never be sent, and no
                // cassette may hold one; the body keeps every byte.
                response: HTTPResponse(status: 200, reason: text.isEmpty ? "OK" : Self.sendable(String(text.prefix(8))),
                                       headers: ["X-Value": Self.sendable(text)],
                                       body: Data(text.utf8)),
                recordedAt: InteropFixtures.date))
        }
        let directory = try InteropFixtures.temporaryDirectory()
        let file = directory.appendingPathComponent("nasty.yaml")
        try cassette.write(to: file, format: .vcrYAML)
        let loaded = try #require(try peerJSON("vcr_load_bodies.py", [file.path]).arrayValue)
        #expect(loaded.count == cassette.interactions.count)
        for (entry, interaction) in zip(loaded, cassette.interactions) {
            #expect(entry["request"]?.stringValue.flatMap { Data(base64Encoded: $0) } == interaction.request.body)
            #expect(entry["response"]?.stringValue.flatMap { Data(base64Encoded: $0) } == interaction.response.body)
            #expect(entry["reason"]?.stringValue == interaction.response.reason)
            let headers = entry["headers"]?.arrayValue?.compactMap { pair in
                pair.arrayValue.map { HTTPHeader(name: $0.first?.stringValue ?? "", value: $0.last?.stringValue ?? "") }
            }
            #expect(headers == interaction.response.headers.fields, "\(interaction.request.url)")
        }
        let back = try Cassette.load(from: file)
        #expect(back.interactions.map(\.response.body) == cassette.interactions.map(\.response.body))
    }

    /// `text` with CR, LF and NUL as spaces: what a header value or reason phrase may hold.
    static func sendable(_ text: String) -> String {
        String(text.map { $0 == "\n" || $0 == "\r" || $0 == "\r\n" || $0 == "\0" ? " " : $0 })
    }
}
