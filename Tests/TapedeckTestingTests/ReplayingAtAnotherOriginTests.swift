import Foundation
import Tapedeck
import TapedeckTestSupport
import Testing
@testable import TapedeckTesting
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A cassette recorded at one host and port, replayed for a client pointed at another.
@Suite("Replaying at another origin")
struct ReplayingAtAnotherOriginTests {
    static let local = "http://127.0.0.1:8080"

    @Test("origin: serves the httpbin.local cassette to a client whose base URL is 127.0.0.1:8080, bodies included")
    func replayingAtOrigin() async throws {
        let session = try URLSession.replaying(Cassettes.url("httpbin"), origin: URL(string: Self.local)!)
        let client = try HTTPBinClient(session: session, baseURL: Self.local)
        #expect(try await client.slideshow().title == "Sample Slide Show")
        let echo = try await client.echo(["name": "Ada"])
        #expect(echo.url == "http://127.0.0.1:8080/post")
    }

    @Test("without origin:, the report says the origin differs and names the option")
    func reportNamesOrigin() async throws {
        let session = try URLSession.replaying(Cassettes.url("httpbin"))
        do {
            _ = try await HTTPBinClient(session: session, baseURL: Self.local).slideshow()
            Issue.record("a request to another origin was answered")
        } catch {
            let text = "\(error)"
            #expect(text.contains("       origin: http://httpbin.local → http://127.0.0.1:8080\n"), "\(text)")
            #expect(text.contains("  - serve the cassette at the origin you send to: pass origin: URL(string: \"http://127.0.0.1:8080\")! "
                + "to withCassette, .cassette or URLSession.replaying\n"), "\(text)")
        }
    }

    @Test("withCassette(origin:) in mode new replays at the origin and records new interactions at the cassette's own")
    func recordsAtRecordedOrigin() async throws {
        let file = TestScratch.path("origin").appendingPathComponent("o.cassette.json")
        var cassette = try Cassette.load(from: Cassettes.url("httpbin"))
        cassette.baseURL = URL(string: "http://httpbin.local")
        try cassette.write(to: file)
        let recorder = try RecordingTransport(
            configuration: CassetteConfiguration(file, mode: .new, followRedirects: true, origin: URL(string: Self.local)!, environment: [:]),
            inner: StubTransport { request in HTTPResponse(status: 200, headers: ["Content-Type": "text/plain"], body: Data("live \(request.url)".utf8)) })
        let replayed = try await recorder.send(HTTPRequest(url: URL(string: Self.local + "/json")!))
        #expect(replayed.status == 200 && String(decoding: replayed.body, as: UTF8.self).contains("Sample Slide Show"))
        _ = try await recorder.send(HTTPRequest(url: URL(string: Self.local + "/ip")!))
        let saved = try Cassette.load(from: file)
        #expect(saved.interactions.last?.request.url.absoluteString == "http://httpbin.local/ip")
        #expect(saved.interactions.last.map { String(decoding: $0.response.body, as: UTF8.self) } == "live http://httpbin.local/ip")
        #expect(Set(saved.interactions.map { $0.request.url.host ?? "" }) == ["httpbin.local"])
    }
}
