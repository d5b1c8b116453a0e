import Foundation
import Testing
@testable import Tapedeck

/// Serving a cassette at another origin rewrites URLs, headers and text bodies byte by byte,
/// wherever the origin or its authority stands whole, and leaves what holds no origin untouched.
@Suite("Origin rewrite")
struct OriginRewriteTests {
    static let recorded = URL(string: "http://api.example.com:8081")!
    static let served = URL(string: "http://127.0.0.1:9")!

    @Test("every whole occurrence is replaced, at the start, the end and side by side, and the authority alone too")
    func replacesEveryOccurrence() {
        let pairs = Cassette.originReplacements(from: Self.recorded, to: Self.served)
        let cases = [
            ("http://api.example.com:8081/a", "http://127.0.0.1:9/a"),
            ("see http://api.example.com:8081", "see http://127.0.0.1:9"),
            ("http://api.example.com:8081 http://api.example.com:8081", "http://127.0.0.1:9 http://127.0.0.1:9"),
            ("host api.example.com:8081, é, http://api.example.com:808", "host 127.0.0.1:9, é, http://api.example.com:808"),
            ("nothing here", "nothing here"),
            ("", ""),
            ("[\"api.example.com:8081\",\"api.example.com:8081\"]", "[\"127.0.0.1:9\",\"127.0.0.1:9\"]"),
        ]
        for (text, expected) in cases {
            #expect(Cassette.apply(pairs, to: text) == expected, "\(text)")
            #expect(ByteSearch.replacing(ByteReplacements(pairs), in: Data(text.utf8)) == Data(expected.utf8), "\(text)")
        }
    }

    @Test("an origin or authority is replaced only where it stands whole: never inside a longer host name or word, or before another port")
    func wholeAuthoritiesOnly() throws {
        let pairs = Cassette.originReplacements(from: try #require(URL(string: "http://app")), to: try #require(URL(string: "http://127.0.0.1:8090")))
        let cases = [
            ("application/json", "application/json"),
            ("{\"role\":\"application admin\"}", "{\"role\":\"application admin\"}"),
            ("http://app/users", "http://127.0.0.1:8090/users"),
            ("app", "127.0.0.1:8090"),
            ("http://app:8000/x", "http://app:8000/x"),
            ("http://apple.com/", "http://apple.com/"),
            ("ws.app and my-app", "ws.app and my-app"),
            ("see http://app, then http://app?q=1", "see http://127.0.0.1:8090, then http://127.0.0.1:8090?q=1"),
            // A single-label name is also a word: replaced where a URL or a Host field puts it.
            ("http://app/app/users", "http://127.0.0.1:8090/app/users"),
            ("{\"type\":\"app\"} User-Agent: app/1.2; the app is down", "{\"type\":\"app\"} User-Agent: app/1.2; the app is down"),
            ("//app/x and user@app", "//127.0.0.1:8090/x and user@127.0.0.1:8090"),
            ("see http://app.", "see http://127.0.0.1:8090."),
            ("redirect_uri=http%3A%2F%2Fapp%2Fcb", "redirect_uri=http%3A%2F%2Fapp%2Fcb"),
        ]
        for (text, expected) in cases {
            #expect(Cassette.apply(pairs, to: text) == expected, "\(text)")
        }
    }

    @Test("an authority with a dot or a port stands whole after a percent escape and before a closing dot")
    func escapesAndDots() {
        let pairs = Cassette.originReplacements(from: Self.recorded, to: Self.served)
        #expect(Cassette.apply(pairs, to: "redirect_uri=http%3A%2F%2Fapi.example.com:8081%2Fcb") == "redirect_uri=http%3A%2F%2F127.0.0.1:9%2Fcb")
        #expect(Cassette.apply(pairs, to: "served at http://api.example.com:8081.") == "served at http://127.0.0.1:9.")
        #expect(Cassette.apply(pairs, to: "http://api.example.com:8081.evil.test/") == "http://api.example.com:8081.evil.test/")
    }

    @Test("a rewritten URL is the one Foundation reads from the rewritten text, kept as text or parsed", arguments: [
        "http://api.example.com:8081/a?b=c&d=%7E", "http://api.example.com:8081", "http://api.example.com:8081/caf%C3%A9/",
        "http://user:secret@api.example.com:8081/x", "http://api.example.com:8081/a#part", "http://api.example.com:8081/a b",
    ])
    func rewrittenURLs(_ text: String) throws {
        let url = try #require(URL(string: text.replacingOccurrences(of: " ", with: "%20")))
        let interaction = Interaction(request: HTTPRequest(url: url), response: HTTPResponse(status: 200))
        for served in [Self.served, try #require(URL(string: "https://[::1]:8443"))] {
            let moved = Cassette(interactions: [interaction]).rewritingOrigin(from: Self.recorded, to: served).interactions[0]
            let expected = try #require(URL(string: Cassette.apply(Cassette.originReplacements(from: Self.recorded, to: served), to: url.absoluteString)))
            #expect(moved.request.url == expected, "\(text) at \(served)")
            #expect(moved.request.urlText == expected.absoluteString)
        }
    }

    @Test("a cassette recorded at an IPv6 literal is served elsewhere: its origin keeps the brackets")
    func ipv6Origin() throws {
        let recorded = Cassette(interactions: [Interaction(request: HTTPRequest(url: try #require(URL(string: "http://[::1]:8081/a?b=1"))),
                                                           response: HTTPResponse(status: 200, body: Data("at http://[::1]:8081/c".utf8)))])
        #expect(recorded.recordedOrigin?.absoluteString == "http://[::1]:8081")
        let served = recorded.rewritingOrigin(to: Self.served)
        #expect(served.interactions[0].request.url.absoluteString == "http://127.0.0.1:9/a?b=1")
        #expect(String(decoding: served.interactions[0].response.body, as: UTF8.self) == "at http://127.0.0.1:9/c")
    }

    @Test("a URL's authority is its host and port as a Host field writes them")
    func authority() throws {
        let cases = ["http://[::1]:8080/x": "[::1]:8080", "http://[::1]/": "[::1]", "https://API.test:8443": "API.test:8443",
                     "http://api.test/a": "api.test", "file:///tmp/a": ""]
        for (text, expected) in cases {
            #expect(try #require(URL(string: text)).authority == expected, "\(text)")
        }
    }

    @Test("a body that is not UTF-8 is left as it is, even when it holds the origin's bytes")
    func binaryBodyUntouched() {
        let pairs = Cassette.originReplacements(from: Self.recorded, to: Self.served)
        let binary = Data([0xFF, 0xFE]) + Data("http://api.example.com:8081".utf8) + Data([0xC0])
        #expect(ByteSearch.replacing(ByteReplacements(pairs), in: binary) == binary)
    }

    @Test("a served cassette says the new origin in its URL, Location header and JSON body, and keeps a body with no origin as it was")
    func cassetteServedElsewhere() throws {
        let link = Interaction(request: HTTPRequest(url: URL(string: "http://api.example.com:8081/users")!),
                               response: HTTPResponse(status: 201, headers: ["Location": "http://api.example.com:8081/users/7"],
                                                      body: Data(#"{"next":"http://api.example.com:8081/users?page=2"}"#.utf8)))
        let plain = Interaction(request: HTTPRequest(url: URL(string: "http://api.example.com:8081/plain")!),
                                response: HTTPResponse(status: 200, body: Data("no links".utf8)))
        let moved = Cassette(interactions: [link, plain]).rewritingOrigin(to: Self.served)
        #expect(moved.interactions[0].request.url.absoluteString == "http://127.0.0.1:9/users")
        #expect(moved.interactions[0].response.headers["Location"] == "http://127.0.0.1:9/users/7")
        #expect(String(decoding: moved.interactions[0].response.body, as: UTF8.self) == #"{"next":"http://127.0.0.1:9/users?page=2"}"#)
        #expect(moved.interactions[1].response.body == Data("no links".utf8))
    }
}
