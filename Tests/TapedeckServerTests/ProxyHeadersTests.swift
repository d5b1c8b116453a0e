import Foundation
import Tapedeck
import Testing
@testable import TapedeckServer

/// The hop-by-hop rule (RFC 9110 §7.6.1) a proxy applies to each request and answer it
/// passes on, held to the rule as first written: split each `Connection` value into its
/// names, and keep the fields that are neither hop-by-hop nor named there.
@Suite("Hop-by-hop fields stop at the proxy")
struct ProxyHeadersTests {
    /// The comma-separated tokens of a `Connection` value, without the spaces around them.
    private static func tokens(of value: String) -> [String] {
        value.utf8.split(separator: UInt8(ascii: ",")).map { String(Substring($0).trimmingHTTPSpace()) }
    }

    /// The rule as first written, with the names made into strings.
    private static func reference(_ headers: HTTPHeaders) -> HTTPHeaders {
        let named = headers.values(for: "Connection").flatMap(tokens(of:))
        return HTTPHeaders(headers.filter { field in
            !ProxyHeaders.hopByHop.contains { field.name.caseInsensitiveEquals($0) }
                && !named.contains { field.name.caseInsensitiveEquals($0) }
        })
    }

    @Test("an answer with Connection: keep-alive loses it and keeps the rest, in order")
    func keepAliveAnswer() {
        let headers: HTTPHeaders = HTTPHeaders([("Server", "nginx"), ("Connection", "keep-alive"), ("Content-Type", "application/json"),
                                                ("Keep-Alive", "timeout=5"), ("Content-Length", "12")])
        #expect(ProxyHeaders.removingHopByHop(headers).map(\.name) == ["Server", "Content-Type", "Content-Length"])
    }

    @Test("fields the Connection values name go, whatever their case and the space around them")
    func namedFieldsGo() {
        let headers = HTTPHeaders([("Connection", " X-Trace ,\tclose,, "), ("x-trace", "1"), ("X-Kept", "2"), ("Close", "3"),
                                   ("connection", "X-Kept-Too"), ("X-KEPT-TOO", "4"), ("Accept", "*/*")])
        #expect(ProxyHeaders.removingHopByHop(headers).map(\.name) == ["X-Kept", "Accept"])
    }

    @Test("headers with nothing to remove come back as they were")
    func nothingToRemove() {
        let headers = HTTPHeaders([("Accept", "*/*"), ("User-Agent", "curl/8"), ("Host", "example.com")])
        #expect(ProxyHeaders.removingHopByHop(headers) == headers)
        #expect(ProxyHeaders.removingHopByHop(HTTPHeaders()) == HTTPHeaders())
    }

    @Test("20,000 random field lists give the rule's answer")
    func agreesWithTheRule() {
        var generator = SystemRandomNumberGenerator()
        let names = ["Connection", "connection", "CONNECTION", "Keep-Alive", "TE", "te", "Trailer", "Upgrade", "Transfer-Encoding",
                     "Proxy-Authorization", "Expect", "X-Tapedeck-Token", "Accept", "X-A", "x-a", "X-B", "Close", "Date", "Via", "A", ""]
        let items = ["keep-alive", "close", "X-A", "x-b", " X-B ", "\tUpgrade", "", " ", "Date,", "a", "Accept ", "X-Unknown"]
        for _ in 0..<20_000 {
            var fields: [(String, String)] = []
            for _ in 0..<Int.random(in: 0...8, using: &generator) {
                let name = names.randomElement(using: &generator) ?? "A"
                let value = name.caseInsensitiveEquals("Connection")
                    ? (0..<Int.random(in: 0...4, using: &generator)).map { _ in items.randomElement(using: &generator) ?? "" }.joined(separator: ",")
                    : "v"
                fields.append((name, value))
            }
            let headers = HTTPHeaders(fields)
            #expect(ProxyHeaders.removingHopByHop(headers) == Self.reference(headers), "\(fields)")
        }
    }

    /// The upstream's fields as first written: each field looked up, and set, by name in turn.
    private static func referenceForUpstream(_ headers: HTTPHeaders, url: URL, client: String?, forward: Bool, via: String) -> HTTPHeaders {
        var result = ProxyHeaders.removingHopByHop(headers)
        let prior = headers.values(for: "Via").joined(separator: ", ")
        result["Via"] = (prior.isEmpty ? "" : prior + ", ") + "1.1 " + via
        let originalHost = headers["Host"]
        if !forward || originalHost == nil { result["Host"] = url.authority }
        if let client {
            let prior = headers.values(for: "X-Forwarded-For").joined(separator: ", ")
            result["X-Forwarded-For"] = prior.isEmpty ? client : prior + ", " + client
        }
        if let originalHost, !result.contains("X-Forwarded-Host") { result["X-Forwarded-Host"] = originalHost }
        if !result.contains("X-Forwarded-Proto") { result["X-Forwarded-Proto"] = forward && url.scheme == "https" ? "https" : "http" }
        return result
    }

    @Test("the fields sent upstream (Via, Host, X-Forwarded-*) are the rule's as first written, for 20,000 random requests")
    func forUpstreamAgreesWithReference() throws {
        let names = ["Via", "via", "Host", "HOST", "X-Forwarded-For", "x-forwarded-for", "X-Forwarded-Host", "X-Forwarded-Proto",
                     "Connection", "Accept", "Viaa", "Hos", "X-Forwarded-Fo"]
        let values = ["", "1.1 other", "api.example.test", "10.0.0.1", "Via", "x-forwarded-host", "https", "a, b"]
        let urls = try [#require(URL(string: "http://127.0.0.1:8080/items?a=1")), #require(URL(string: "https://[::1]:8443/")),
                        #require(URL(string: "http://api.example.test/x"))]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<20_000 {
            let fields = (0..<Int.random(in: 0...6, using: &generator)).map { _ in
                HTTPHeader(name: names.randomElement(using: &generator) ?? "Via", value: values.randomElement(using: &generator) ?? "")
            }
            let headers = HTTPHeaders(fields)
            let url = urls.randomElement(using: &generator) ?? urls[0]
            let client = Bool.random(using: &generator) ? "127.0.0.1" : nil
            let forward = Bool.random(using: &generator)
            let expected = Self.referenceForUpstream(headers, url: url, client: client, forward: forward, via: "tapedeck-1")
            #expect(ProxyHeaders.forUpstream(headers, url: url, client: client, forward: forward, via: "tapedeck-1") == expected,
                    "\(fields) to \(url)")
            // The authority worked out beforehand is the URL's own.
            #expect(ProxyHeaders.forUpstream(headers, url: url, client: client, forward: forward, via: "tapedeck-1", authority: url.authority) == expected)
        }
    }

    @Test("the upstream's Host worked out once per tape is the one each request's URL has")
    func upstreamAuthority() throws {
        let upstreams = ["http://127.0.0.1:8080", "http://[::1]:9000/base", "https://user:pw@API.example.test/v1/", "http://example.test:80",
                         "https://example.test:443/", "http://example.test/a/b"]
        for text in upstreams {
            let upstream = try #require(URL(string: text))
            let (prefix, authority) = Tape.upstreamParts(upstream)
            for rest in ["/", "/x?y=1", "//double/slash", "/%41?b=%2F"] {
                let url = try #require(URL(string: prefix + rest), "\(prefix + rest)")
                #expect(authority == url.authority, "\(text) + \(rest)")
            }
        }
    }
}
