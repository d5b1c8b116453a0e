import Foundation
import Testing
@testable import Tapedeck

/// Query strings as Python's requests writes them (`+` for spaces) against Tapedeck's (`%20`):
/// a cassette recorded by either replays in the other. Needs httpbin and the venv (make test).
@Suite("Query matching with vcrpy + requests (form-encoded queries, both ways)",
       .enabled(if: InteropFixtures.httpbin != nil && InteropFixtures.venv != nil,
                "needs httpbin and the venv (make test starts and sets both)"))
struct QueryInteropTests {
    private struct Seen: Decodable {
        var url: String
        var params: [[String]]
        var status: Int
        var body_b64: String
    }

    private func peer(_ mode: String, _ cassette: URL) throws -> [Seen] {
        let script = InteropFixtures.url("peers/vcr_queries.py").path
        let result = try InteropFixtures.run(InteropFixtures.python, [script, mode, cassette.path], timeout: 60)
        try #require(result.status == 0, "vcr_queries.py \(mode) failed (\(result.status)):\n\(result.stderr)")
        return try JSONDecoder().decode([Seen].self, from: Data(result.stdout.utf8))
    }

    /// The URL Tapedeck builds for these query items (spaces as %20, `+` as %2B).
    private func tapedeckURL(_ params: [[String]]) throws -> URL {
        let base = try URLComposer.parseBase(try #require(InteropFixtures.httpbin))
        return try URLComposer.compose(base: base, path: "/get", query: params.map { QueryItem(name: $0[0], value: $0[1]) })
    }

    @Test("a cassette vcrpy + requests recorded with +, &, =, spaces, non-ASCII and repeated keys replays for Tapedeck's %20 URLs")
    func vcrRecordsTapedeckReplays() async throws {
        let directory = try InteropFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let cassette = directory.appendingPathComponent("queries.yaml")
        let seen = try peer("record", cassette)
        #expect(seen.count == 3)
        #expect(seen[0].url.contains("q=a+b&q=a%2Bb&q=x%26y%3Dz"), "requests writes spaces as +: \(seen[0].url)")
        let replay = try ReplayTransport(contentsOf: cassette)
        for call in seen {
            let url = try tapedeckURL(call.params)
            #expect(url.absoluteString != call.url, "the two spell the query differently")
            let response = try await replay.send(HTTPRequest(url: url))
            #expect(response.status == call.status)
            #expect(response.body == Data(base64Encoded: call.body_b64), "\(url)")
        }
        #expect(replay.unusedInteractions.isEmpty)
        #expect(throws: CassetteError.self, "a + that was a plus does not match a space") {
            try replay.serve(HTTPRequest(url: try tapedeckURL([["q", "a+b"], ["q", "a+b"], ["q", "x&y=z"]])))
        }
    }

    @Test("a cassette Tapedeck recorded with %20 queries replays in vcrpy + requests, which sends +")
    func tapedeckRecordsVCRReplays() async throws {
        let directory = try InteropFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let cassette = directory.appendingPathComponent("tapedeck.yaml")
        let recorder = try RecordingTransport(configuration: CassetteConfiguration(cassette, mode: .all, environment: [:]),
                                              inner: URLSessionTransport(options: .init(followRedirects: false)))
        let queries = [
            [["q", "a b"], ["q", "a+b"], ["q", "x&y=z"]],
            [["name", "José Ünïcode ✓"], ["plus", "1+1=2"], ["empty", ""]],
            [["sp ace", "100% sure"], ["tag", "a"], ["tag", "b"], ["tag", "a"]],
        ]
        var bodies: [Data] = []
        for params in queries {
            let response = try await recorder.send(HTTPRequest(url: try tapedeckURL(params)))
            let args = try JSONParser.parse(response.body)["args"]
            #expect(args?["q"] == nil || args?["q"] == ["a b", "a+b", "x&y=z"], "httpbin read what was meant")
            bodies.append(response.body)
        }
        try recorder.flush()
        let seen = try peer("replay", cassette)
        #expect(seen.map(\.status) == [200, 200, 200])
        #expect(seen.map { Data(base64Encoded: $0.body_b64) ?? Data() } == bodies)
    }
}
