import Foundation
import Tapedeck
import TapedeckTestSupport
import Testing
@testable import TapedeckTesting
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Record once against the local httpbin, replay forever: these need the server.
@Suite("Recording URLSession", .enabled(if: ProcessInfo.processInfo.environment["TAPEDECK_HTTPBIN_URL"] != nil,
                                        "needs httpbin (make test starts it)"))
struct RecordingSessionTests {
    static let live = ProcessInfo.processInfo.environment["TAPEDECK_HTTPBIN_URL"] ?? "http://127.0.0.1:9"
    static let portable = URL(string: "http://httpbin.local")!

    func temporaryCassette(_ name: String) -> URL {
        TestScratch.path("rec").appendingPathComponent("\(name).cassette.json")
    }

    /// The calls the committed `__Cassettes__/httpbin.cassette.json` holds.
    static func exercise(_ client: HTTPBinClient) async throws {
        _ = try await client.slideshow()
        _ = try await client.uuid()
        _ = try await client.echo(["name": "Ada"])
        _ = try? await client.teapot()
    }

    @Test("records the typed client's calls as the committed httpbin cassette holds them")
    func recordsFixture() async throws {
        let url = temporaryCassette("httpbin")
        let live = try #require(URL(string: Self.live))
        let session = try URLSession.recording(to: url, mode: .all) { cassette in
            cassette.beforeRecord = { interaction in
                Cassette(interactions: [interaction]).rewritingOrigin(from: live, to: Self.portable).interactions[0]
            }
        }
        try await Self.exercise(try HTTPBinClient(session: session, baseURL: Self.live))
        let recorded = try Cassette.load(from: url)
        let summary = { (cassette: Cassette) in cassette.interactions.map { "\($0.request.method) \($0.request.url) \($0.response.status)" } }
        #expect(summary(recorded) == ["GET http://httpbin.local/json 200", "GET http://httpbin.local/uuid 200",
                                      "POST http://httpbin.local/post 200", "GET http://httpbin.local/status/418 418"])
        let fixture = Cassettes.url("httpbin")
        if ProcessInfo.processInfo.environment["TAPEDECK_RECORD_FIXTURES"] == "1" || !FileManager.default.fileExists(atPath: fixture.path) {
            var cassette = recorded
            cassette.baseURL = Self.portable
            try cassette.write(to: fixture)
        }
        #expect(summary(try Cassette.load(from: fixture)) == summary(recorded), "the committed cassette matches what the client sends")
    }

    @Test("records once with withCassette, then replays the same answers with the network unused")
    func recordOnceReplayForever() async throws {
        let url = temporaryCassette("uuid")
        let first = try await withCassette(url.path, mode: .once) { session in
            try await HTTPBinClient(session: session, baseURL: Self.live).uuid()
        }
        #expect(FileManager.default.fileExists(atPath: url.path))
        let replayed = try await withCassette(url.path, mode: .replayOnly) { session in
            try await HTTPBinClient(session: session, baseURL: Self.live).uuid()
        }
        #expect(replayed == first, "httpbin's /uuid is random, so equal answers mean the cassette answered")
    }

    @Test("records redirects hop by hop, gzip decoded and repeated Set-Cookie as separate entries")
    func httpFidelity() async throws {
        let url = temporaryCassette("fidelity")
        let session = try URLSession.recording(to: url, mode: .all) { cassette in
            cassette.redactor = Redactor(headers: Redactor.defaultHeaders.subtracting(["set-cookie"]))
        }
        let (_, redirected) = try await session.data(from: URL(string: Self.live + "/redirect/2")!)
        #expect((redirected as? HTTPURLResponse)?.statusCode == 200)
        #expect(redirected.url?.path == "/get")
        let (gzip, _) = try await session.data(from: URL(string: Self.live + "/gzip")!)
        #expect(String(decoding: gzip, as: UTF8.self).contains("\"gzipped\": true"))
        _ = try await session.data(from: URL(string: Self.live + "/response-headers?Set-Cookie=a%3D1&Set-Cookie=b%3D2")!)

        let cassette = try Cassette.load(from: url)
        #expect(cassette.interactions.prefix(3).map(\.response.status) == [302, 302, 200])
        let gzipped = cassette.interactions[3].response
        #expect(gzipped.headers["Content-Encoding"] == nil)
        #expect(gzipped.headers["Content-Length"] == String(gzipped.body.count))
        #expect(cassette.interactions[4].response.headers.values(for: "Set-Cookie") == ["a=1", "b=2"])

        let replay = try URLSession.replaying(url)
        let (_, final) = try await replay.data(from: URL(string: Self.live + "/redirect/2")!)
        #expect(final.url?.path == "/get", "replay follows the recorded chain")
    }
}
