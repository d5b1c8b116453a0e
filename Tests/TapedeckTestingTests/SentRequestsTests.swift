import Foundation
import Tapedeck
import TapedeckTestSupport
import Testing
@testable import TapedeckTesting
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("What a session was sent, and holding its answers")
struct SentRequestsTests {
    @Test("a replaying session lists every request in order: method, URL, headers and body")
    func replaying() async throws {
        let session = try URLSession.replaying(Cassettes.url("httpbin"))
        let client = try HTTPBinClient(session: session)
        _ = try await client.slideshow()
        _ = try await client.echo(["name": "Ada"])
        let sent = session.tapedeck.sentRequests
        #expect(sent.map(\.method) == [.get, .post])
        #expect(sent.map(\.url.absoluteString) == ["http://httpbin.local/json", "http://httpbin.local/post"])
        #expect(sent.allSatisfy { $0.headers["Accept"] == "application/json" })
        #expect(sent[1].body == Data(#"{"name":"Ada"}"#.utf8))
        #expect(session.tapedeck.sentRequests(to: "/post").count == 1)
        #expect(session.tapedeck.sentRequests(to: "/post", method: .get).isEmpty)
    }

    @Test("a recording session lists what it sent on, and withCassette's session what it replayed")
    func recordingAndWithCassette() async throws {
        let directory = TestScratch.path("tapedeck-sent")
        defer { try? FileManager.default.removeItem(at: directory) }
        let recorder = try RecordingTransport(configuration: CassetteConfiguration(directory.appendingPathComponent("r.cassette.json"), mode: .all, environment: [:]),
                                              inner: StubTransport { _ in HTTPResponse(status: 200, body: Data("ok".utf8)) })
        let recording = URLSession.recording(recorder)
        _ = try await recording.data(from: URL(string: "http://api.test/a?page=2")!)
        #expect(recording.tapedeck.sentRequests.map(\.url.absoluteString) == ["http://api.test/a?page=2"])

        let paths = try await withCassette("httpbin", mode: .replayOnly) { session in
            _ = try await HTTPBinClient(session: session).uuid()
            return session.tapedeck.sentRequests.map(\.url.path)
        }
        #expect(paths == ["/uuid"])
    }

    @Test("the .cassette trait's session lists what the test sent", .cassette("httpbin", mode: .replayOnly))
    func trait() async throws {
        _ = try await HTTPBinClient(session: .cassette).uuid()
        #expect(URLSession.cassette.tapedeck.sentRequests(to: "/uuid").count == 1)
    }

    @Test("a client without in-flight de-duplication is caught: two concurrent calls send two requests")
    func naiveClientCaught() async throws {
        let session = URLSession.stubbing { _ in .json("[]") }
        let api = try APIClient(baseURL: "https://dogpatch.example", transport: URLSessionTransport(session: session))
        session.tapedeck.holdResponses()
        async let first = api.send(Endpoint<[Dog]>(path: "dogs"))
        async let second = api.send(Endpoint<[Dog]>(path: "dogs"))
        try await session.tapedeck.waitForRequests(2)
        #expect(try await RouteLifetimeTests.eventually { session.tapedeck.heldResponses == 2 })
        session.tapedeck.releaseResponses()
        _ = try await (first, second)
        #expect(session.tapedeck.sentRequests(to: "/dogs").count == 2)
    }

    @Test("a replayed answer is held until released, then served")
    func heldReplay() async throws {
        let session = try URLSession.replaying(Cassettes.url("httpbin"))
        session.tapedeck.holdResponses()
        let task = Task { try await HTTPBinClient(session: session).uuid() }
        try await session.tapedeck.waitForRequests(1)
        #expect(try await RouteLifetimeTests.eventually { session.tapedeck.heldResponses == 1 })
        session.tapedeck.releaseResponses()
        #expect(try await task.value.count == 36)
        #expect(session.tapedeck.heldResponses == 0)
    }

    @Test("a delay holds every answer at least that long, and a cancelled request stops waiting")
    func delay() async throws {
        let session = URLSession.stubbing { _ in .text("late") }
        session.tapedeck.delayResponses(by: .milliseconds(30))
        let start = ContinuousClock.now
        let (data, _) = try await session.data(from: URL(string: "http://api.test/slow")!)
        #expect(ContinuousClock.now - start >= .milliseconds(30))
        #expect(String(decoding: data, as: UTF8.self) == "late")

        session.tapedeck.delayResponses(by: .seconds(86_400))
        let waiting = Task { try await session.data(from: URL(string: "http://api.test/never")!) }
        try await session.tapedeck.waitForRequests(2)
        waiting.cancel()
        await #expect(throws: URLError.self) { try await waiting.value }
    }

    @Test("waiting on a session TapedeckTesting did not make says so instead of hanging")
    func notTapedeck() async throws {
        let plain = URLSession(configuration: .ephemeral)
        #expect(plain.tapedeck.sentRequests.isEmpty)
        await #expect(throws: TapedeckTestingError.self) { try await plain.tapedeck.waitForRequests(1) }
    }
}
