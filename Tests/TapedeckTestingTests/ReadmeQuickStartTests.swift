import Testing
import TapedeckTesting
#if canImport(FoundationNetworking)
import FoundationNetworking   // on Linux
#endif

@Test(.cassette("httpbin"))          // __Cassettes__/httpbin.cassette.json next to this file
func readsSlideshow() async throws {
    let slideshow = try await HTTPBinClient(session: .cassette).slideshow()
    #expect(slideshow.title == "Sample Slide Show")
}

@Test func echoesFields() async throws {
    try await withCassette("httpbin") { session in
        let echo = try await HTTPBinClient(session: session).echo(["name": "Ada"])
        #expect(echo.json?["name"] == "Ada")
    }
}

// The README's other examples of the testing API, compiled here (ReadmeSnippetTests keeps them
// verbatim).

import XCTest

final class SlideshowTests: XCTestCase {
    func testReadsSlideshow() async throws {
        let session = try URLSession.replaying(Cassettes.url("httpbin"))
        let title = try await HTTPBinClient(session: session).slideshow().title
        XCTAssertEqual(title, "Sample Slide Show")
    }
}

@Test func testingAPIExamples() async throws {
    let httpbin = Cassettes.url("httpbin")                 // __Cassettes__/httpbin.cassette.json here
    let replaying = try URLSession.replaying(httpbin, allowRepeats: true,
                                             matcher: Matcher(ignoredQueryItems: ["ts"]),
                                             origin: URL(string: "http://127.0.0.1:8080"))
    let stubbing = URLSession.stubbing { request in
        switch request.url?.path {
        case "/dogs": .json(#"[{"id": 1, "name": "Rex", "breed": "Beagle"}]"#)
        case "/teapot": .text("I'm a teapot", status: 418)
        case "/offline": .failure(.notConnectedToInternet)
        default: .status(404)
        }
    }
    let strict = Matcher(headers: ["Accept"], body: .json, ignoredQueryItems: ["ts"])
    let custom = Matcher { recorded, incoming in recorded.headers["X-Tenant"] == incoming.headers["X-Tenant"] }
    try await withCassette("httpbin", mode: .replayOnly, matcher: strict) { session in
        _ = try await HTTPBinClient(session: session).slideshow()
    }

    #expect(try await HTTPBinClient(session: replaying, baseURL: "http://127.0.0.1:8080").uuid().count == 36)
    #expect(try await stubbing.data(from: URL(string: "http://api.test/teapot")!).0 == Data("I'm a teapot".utf8))
    #expect(custom.custom != nil)
}
