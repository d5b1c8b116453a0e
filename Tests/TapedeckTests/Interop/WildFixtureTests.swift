import Foundation
import Testing
@testable import Tapedeck

/// Files taken from the peers' own repositories (Fixtures/Interop/wild, SOURCES.md says where
/// each comes from), which the peers themselves read: Tapedeck reads them too.
@Suite("Files from the wild: the peers' own fixtures")
struct WildFixtureTests {
    private func load(_ name: String) throws -> Cassette {
        try Cassette.load(from: InteropFixtures.url("wild/" + name))
    }

    @Test("haralyzer's cnn.com HAR: 145 entries load; the aborted font request (status 0) is a recorded failure, named in a warning")
    func browserHARWithAbortedEntry() async throws {
        let cassette = try load("haralyzer/cnn.har")
        #expect(cassette.interactions.count == 145)
        // Firefox joins repeated Set-Cookie headers with line breaks: each is a field of its own.
        let cookies = cassette.interactions[123].response.headers.values(for: "Set-Cookie")
        #expect(cookies.count > 1 && cookies.allSatisfy { !$0.contains("\n") }, "\(cookies)")
        let aborted = cassette.interactions.enumerated().filter { $0.element.failure != nil }
        #expect(aborted.map(\.offset) == [46])
        let entry = try #require(aborted.first?.element)
        #expect(entry.request.url.absoluteString == "http://www.cnn.com/.a/fonts/1.0.3/HelveticaNeue-Medium.woff")
        #expect(entry.failure == TransportFailure(kind: .aborted, detail: "the browser got no response (HAR status 0: Aborted)"))
        #expect(cassette.loadWarnings == ["1 entry has HAR status 0 (the browser got no response): interactions[46] GET "
            + "http://www.cnn.com/.a/fonts/1.0.3/HelveticaNeue-Medium.woff; loaded as recorded failures, which replay gives back as no response"])
        // Said of a HAR as it is read, never of a cassette that keeps the failures.
        #expect(cassette.loadWarnings(readFrom: URL(fileURLWithPath: "/tmp/cnn.har")).count == 1)
        #expect(cassette.loadWarnings(readFrom: URL(fileURLWithPath: "/tmp/cnn.cassette.json")).isEmpty)
        // Replay gives it back as the failure, and answers the other entries.
        let replay = ReplayTransport(cassette: cassette, configuration: CassetteConfiguration.replaying(URL(fileURLWithPath: "/cnn.har"), environment: [:]))
        await #expect(throws: HTTPError.self) { try await replay.send(entry.request) }
        let first = try await replay.send(cassette.interactions[0].request)
        #expect(first.status == cassette.interactions[0].response.status)
        // A native cassette keeps it as a failure.
        let again = try Cassette.decode(cassette.encoded(), format: .native, file: "again.json")
        #expect(again.interactions[46].failure?.kind == .aborted)
    }

    @Test("vcrpy's old httpx format (content, status_code) loads, its decoded content without the stale Content-Encoding")
    func oldHTTPXFormat() throws {
        let response = try #require(try load("vcrpy/gzip_httpx_old_format.yaml").interactions.first?.response)
        #expect(response.status == 200)
        #expect(String(decoding: response.body, as: UTF8.self).contains("\"gzipped\": true"))
        #expect(response.headers["Content-Encoding"] == nil)
        #expect(response.headers["Content-Length"] == String(response.body.count))
        // vcrpy's own test compares it with the same request recorded by requests, gzip and all.
        let requests = try #require(try load("vcrpy/gzip_requests.yaml").interactions.first?.response)
        #expect(requests.status == 200 && requests.reason == "great")
        #expect(String(decoding: requests.body, as: UTF8.self).contains("\"gzipped\":true"))
    }

    @Test("PyYAML's !!python/tuple headers and !!python/unicode bodies read as plain lists and strings")
    func pythonTags() throws {
        let cassette = try load("vcrpy/test_tornado_exception_can_be_caught.yaml")
        #expect(cassette.interactions.map(\.response.status) == [500, 404])
        #expect(cassette.interactions.map(\.response.reason) == ["INTERNAL SERVER ERROR", "NOT FOUND"])
        let headers = cassette.interactions[0].response.headers
        #expect(headers["Content-Type"] == "text/html; charset=utf-8")
        #expect(headers["Server"] == "nginx")
        #expect(cassette.interactions[0].response.body.isEmpty)
    }

    @Test("vcrpy's pre-1.0 cassettes, YAML (with !!python/object tags) and JSON (a top-level list), load as their migrated forms do")
    func preOneZero() throws {
        for (old, new) in [("vcrpy/old_cassette.yaml", "vcrpy/new_cassette.yaml"), ("vcrpy/old_cassette.json", "vcrpy/new_cassette.json")] {
            let before = try #require(try load(old).interactions.first, "\(old)")
            let after = try #require(try load(new).interactions.first, "\(new)")
            #expect(before.request.method == after.request.method && before.request.url == after.request.url, "\(old)")
            #expect(before.response.status == after.response.status, "\(old)")
            #expect(before.response.body == after.response.body, "\(old)")
            #expect(before.response.headers["Content-Type"] == after.response.headers["Content-Type"], "\(old)")
        }
    }

    @Test("mitmproxy's HARs (a byte order mark and HTTP/2 pseudo-headers; WebSocket upgrades) and mattt/Replay's hand-written HARs load")
    func otherHARs() throws {
        let bom = try load("mitmproxy/with-bom.har")
        #expect(bom.interactions.count == 1 && bom.interactions[0].request.method == .post)
        #expect(!bom.interactions[0].request.headers.contains { $0.name.hasPrefix(":") })
        let sockets = try load("mitmproxy/websocket.har")
        #expect(sockets.interactions.map(\.response.status) == [101, 101, 101])
        let posts = try load("replay/fetchPosts.har")
        #expect(posts.interactions.map(\.response.status) == [200, 201], "a declared size that disagrees with the text is not an error")
        #expect(try load("replay/fetchUser.har").interactions.count == 1)
        #expect(try load("haralyzer/humanssuck.net.har").interactions.count == 4)
    }
}
