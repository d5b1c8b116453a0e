import Foundation
import Tapedeck
import TapedeckTestSupport
import Testing
@testable import TapedeckTesting
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Writes a one-interaction cassette answering `GET url` with `body`, returns its URL.
func cassetteFile(_ name: String, url: String = "http://api.test/who", body: String, count: Int = 1) throws -> URL {
    let file = TestScratch.path("testing").appendingPathComponent("\(name).cassette.json")
    let interaction = Interaction(request: HTTPRequest(url: URL(string: url)!),
                                  response: HTTPResponse(status: 200, headers: ["Content-Type": "text/plain"], body: Data(body.utf8)))
    try Cassette(interactions: Array(repeating: interaction, count: count)).write(to: file)
    return file
}

@Suite("Replaying URLSession")
struct ReplayingSessionTests {
    static let httpbin = Cassettes.url("httpbin")

    @Test("URLSession.replaying drives the typed client from the committed httpbin cassette, offline")
    func typedClient() async throws {
        let session = try URLSession.replaying(Self.httpbin)
        let client = try HTTPBinClient(session: session)
        let slideshow = try await client.slideshow()
        #expect(slideshow.title == "Sample Slide Show")
        #expect(slideshow.slides.map(\.title) == ["Wake up to WonderWidgets!", "Overview"])
        #expect(try await client.uuid().count == 36)
        let echo = try await client.echo(["name": "Ada"])
        #expect(echo.json == ["name": "Ada"])
        #expect(echo.url == "http://httpbin.local/post")
        do {
            _ = try await client.teapot()
            Issue.record("a 418 was accepted")
        } catch let HTTPError.unacceptableStatus(status, _, url, _) {
            #expect(status == 418)
            #expect(url == "http://httpbin.local/status/418")
        }
    }

    @Test("withCassette replays next to the test file in mode none")
    func withCassetteReplays() async throws {
        let title = try await withCassette("httpbin", mode: .replayOnly) { session in
            try await HTTPBinClient(session: session).slideshow().title
        }
        #expect(title == "Sample Slide Show")
    }

    @Test("parallel sessions with two cassettes never see each other's answers")
    func isolation() async throws {
        let alice = try URLSession.replaying(try cassetteFile("alice", body: "alice"), allowRepeats: true)
        let bob = try URLSession.replaying(try cassetteFile("bob", body: "bob"), allowRepeats: true)
        let url = URL(string: "http://api.test/who")!
        try await withThrowingTaskGroup(of: (String, String).self) { group in
            for index in 0..<100 {
                let (name, session) = index % 2 == 0 ? ("alice", alice) : ("bob", bob)
                group.addTask { (name, String(decoding: try await session.data(from: url).0, as: UTF8.self)) }
            }
            for try await (expected, answer) in group { #expect(answer == expected) }
        }
    }

    @Test("parallel test A uses its own cassette", arguments: ["a1", "a2", "a3"])
    func parallelA(name: String) async throws {
        let session = try URLSession.replaying(try cassetteFile(name, body: name))
        #expect(String(decoding: try await session.data(from: URL(string: "http://api.test/who")!).0, as: UTF8.self) == name)
    }

    @Test("parallel test B uses its own cassette", arguments: ["b1", "b2", "b3"])
    func parallelB(name: String) async throws {
        let session = try URLSession.replaying(try cassetteFile(name, body: name))
        #expect(String(decoding: try await session.data(from: URL(string: "http://api.test/who")!).0, as: UTF8.self) == name)
    }

    @Test("an unmatched request fails the URLSession call with the mismatch report, without hanging")
    func unmatched() async throws {
        let file = try cassetteFile("one", body: "one")
        let session = try URLSession.replaying(file)
        do {
            _ = try await session.data(from: URL(string: "http://api.test/whom?x=1")!)
            Issue.record("an unmatched request was answered")
        } catch let CassetteError.noMatch(report) {
            #expect(report.cassettePath == file.path)
            let text = report.description
            #expect(text.contains("no recorded interaction matches GET http://api.test/whom?x=1"))
            #expect(text.contains("path: /who → /whom"))
            #expect(text.contains("query x: (absent) → \"1\""))
            #expect(text.contains("nearest recorded interactions (recorded → sent):"))
            #expect(text.hasSuffix("then run TAPEDECK_RECORD_MODE=new swift test --filter unmatched"), "\(text)")
        }
    }

    @Test("an unmatched request inside a test body fails that test with the report")
    func failingTest() async throws {
        let session = try URLSession.replaying(try cassetteFile("one", body: "one"))
        try await withKnownIssue("the request is not in the cassette") {
            _ = try await session.data(from: URL(string: "http://api.test/missing")!)
        } matching: { issue in
            guard case .noMatch(let report)? = issue.error as? CassetteError else { return false }
            return report.request.url.absoluteString == "http://api.test/missing"
                && issue.description.contains("no recorded interaction matches GET http://api.test/missing")
        }
    }

    @Test("requireAllPlayed reports interactions the test never requested")
    func requireAllPlayed() async throws {
        let file = try cassetteFile("two", body: "x", count: 2)
        do {
            try await withCassette(file.path, mode: .replayOnly, requireAllPlayed: true) { session in
                _ = try await session.data(from: URL(string: "http://api.test/who")!)
            }
            Issue.record("unused interaction not reported")
        } catch {
            #expect(error.localizedDescription.contains("1 of 2 interactions in \(file.path) were never played"))
        }
    }

    @Test("a session's route is gone after withCassette, so stray requests fail instead of reaching the network")
    func routeRemoved() async throws {
        let file = try cassetteFile("scoped", body: "x")
        let escaped = try await withCassette(file.path, mode: .replayOnly) { session in session }
        do {
            _ = try await escaped.data(from: URL(string: "http://api.test/who")!)
            Issue.record("a request after withCassette was answered")
        } catch let error as TapedeckTestingError {
            guard case .routeRemoved(let url) = error else {
                Issue.record("expected routeRemoved, got \(error)")
                return
            }
            #expect(url == "http://api.test/who")
        }
    }

    @Test("cassette names resolve next to the test file")
    func paths() {
        let here = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        #expect(Cassettes.url("login") == here.appendingPathComponent("__Cassettes__/login.cassette.json"))
        #expect(Cassettes.url("Fixtures/x.json") == here.appendingPathComponent("Fixtures/x.json"))
    }
}
