import Tapedeck
import Testing
@testable import TapedeckServer

/// The hop-by-hop rule (RFC 9110 §7.6.1) a proxy applies to each request and answer it
/// passes on, held to the rule as first written: split each `Connection` value into its
/// names, and keep the fields that are neither hop-by-hop nor named there.
@Suite("Hop-by-hop fields stop at the proxy")
struct ProxyHeadersTests {
    /// The rule as first written, with the names made into strings.
    private static func reference(_ headers: HTTPHeaders) -> HTTPHeaders {
        let named = headers.values(for: "Connection").flatMap(ProxyHeaders.tokens(of:))
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
}
