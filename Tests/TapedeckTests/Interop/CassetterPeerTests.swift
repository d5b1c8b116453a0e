import Foundation
import Testing
@testable import Tapedeck

/// Tapedeck against the real cassetter from PyPI, with requests and httpbin on loopback.
@Suite("Interop with cassetter (PyPI): its YAML dialect read and written",
       .enabled(if: InteropFixtures.httpbin != nil && InteropFixtures.venv != nil,
                "needs httpbin and the venv (make test starts and sets both)"))
struct CassetterPeerTests {
    private struct Seen: Decodable {
        var method: String
        var url: String
        var status: Int
        var body_b64: String
        var body: Data { Data(base64Encoded: body_b64) ?? Data() }
    }

    private func peer(_ arguments: [String]) throws -> [Seen] {
        let script = InteropFixtures.url("peers/cassetter_peer.py").path
        let result = try InteropFixtures.run(InteropFixtures.python, [script] + arguments, timeout: 60)
        try #require(result.status == 0, "cassetter_peer.py \(arguments.first ?? "") failed (\(result.status)):\n\(result.stderr)")
        return arguments.first == "resave" ? [] : try JSONDecoder().decode([Seen].self, from: Data(result.stdout.utf8))
    }

    @Test("a cassette cassetter + requests recorded against httpbin replays in Tapedeck with the bytes cassetter's own replay serves")
    func cassetterRecordsTapedeckReplays() async throws {
        let directory = try InteropFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("cassetter.yaml")
        let live = try peer(["record", file.path])
        #expect(live.count == 10)
        let yaml = try String(contentsOf: file, encoding: .utf8)
        #expect(yaml.hasPrefix("version: 1\ninteractions:\n") && yaml.contains("type: json") && yaml.contains("status: 200"))
        let replayedByCassetter = try peer(["replay", file.path] + live.flatMap { [$0.method, $0.url] })

        let cassette = try Cassette.load(from: file)
        #expect(cassette.interactions.count == live.count)
        let replay = ReplayTransport(cassette: cassette, path: file.path)
        for (call, theirs) in zip(live, replayedByCassetter) {
            let url = try #require(URL(string: call.url.replacingOccurrences(of: " ", with: "%20")))
            let method = try #require(HTTPMethod(rawValue: call.method))
            let response = try await replay.send(HTTPRequest(method: method, url: url, body: method == .get || method == .head ? nil : Data()))
            #expect(response.status == call.status, "\(call.url)")
            #expect(response.body == theirs.body, "the same bytes cassetter serves: \(call.url)")
            if call.url.contains("/bytes/") || call.url.contains("/html") || call.url.contains("/status/") {
                #expect(response.body == call.body, "binary and text bodies are the live bytes: \(call.url)")
            }
        }
        #expect(replay.unusedInteractions.isEmpty)
        let json = try #require(cassette.interactions.first { $0.request.method == .post && $0.request.headers["content-type"] == "application/json" })
        #expect(String(decoding: json.request.body ?? Data(), as: UTF8.self)
            == #"{"name": "Ada", "n": 1, "f": 1.5, "ok": true, "none": null, "list": ["\u00e9", 2]}"#)
    }

    @Test("a cassette Tapedeck recorded into NAME.cassetter.yaml replays in cassetter + requests, and survives cassetter's load and save")
    func tapedeckRecordsCassetterReplays() async throws {
        let base = try #require(InteropFixtures.httpbin)
        let directory = try InteropFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("tapedeck.cassetter.yaml")
        let recorder = try RecordingTransport(configuration: CassetteConfiguration(file, mode: .all, environment: [:]), inner: URLSessionTransport(options: .init(followRedirects: false)))
        let paths = ["/get?b=2&a=1", "/gzip", "/bytes/64?seed=11", "/status/418", "/encoding/utf8", "/response-headers?X-Twice=1&X-Twice=2"]
        var recorded: [HTTPResponse] = []
        for path in paths { recorded.append(try await recorder.send(HTTPRequest(url: try #require(URL(string: base + path))))) }
        var post = HTTPRequest(method: .post, url: try #require(URL(string: base + "/post")))
        post.headers["Content-Type"] = "application/json"
        post.body = Data(#"{"name": "Ada", "n": 1, "f": 1.5}"#.utf8)
        recorded.append(try await recorder.send(post))
        try recorder.flush()
        let yaml = try String(contentsOf: file, encoding: .utf8)
        #expect(yaml.hasPrefix("version: 1\ninteractions:\n"))
        #expect(yaml.contains("      type: json\n      content:\n        name: Ada\n"), "a json.dumps-shaped body is structured")

        let arguments = paths.flatMap { ["GET", base + $0] } + ["POST", base + "/post"]
        let seen = try peer(["replay", file.path] + arguments)
        #expect(seen.map(\.status) == recorded.map(\.status))
        #expect(seen.map(\.body) == recorded.map(\.body), "cassetter serves the bytes Tapedeck recorded")

        let resaved = directory.appendingPathComponent("resaved.yaml")
        _ = try peer(["resave", file.path, resaved.path])
        let original = try Cassette.load(from: file), back = try Cassette.load(from: resaved)
        let key = { (interaction: Interaction) in interaction.request.method.rawValue + " " + interaction.request.url.absoluteString }
        let pairs = zip(original.interactions.sorted { key($0) < key($1) }, back.interactions.sorted { key($0) < key($1) })
        #expect(back.interactions.count == original.interactions.count)
        for (mine, theirs) in pairs {
            #expect(key(mine) == key(theirs))
            #expect(theirs.request.headers == mine.request.headers)
            #expect(theirs.request.body == mine.request.body)
            #expect(theirs.response.status == mine.response.status)
            #expect(theirs.response.headers == mine.response.headers)
            #expect(theirs.response.body == mine.response.body, "\(key(mine))")
            #expect(abs(theirs.recordedAt.timeIntervalSince(mine.recordedAt)) < 0.000_001)
        }
    }
}
