import Foundation
import Testing
@testable import Tapedeck

@Suite("Percent-decoding")
struct PercentEncodingTests {
    @Test("an escape is % and exactly two hex digits; anything else is kept as typed")
    func strictEscapes() {
        #expect(PercentEncoding.decode("a%20b%2Fc%e2%9c%93") == "a b/c✓")
        #expect(PercentEncoding.decode("%+f%-1%2%") == "%+f%-1%2%")
        #expect(PercentEncoding.decodedBytes("%+f".utf8) == Array("%+f".utf8))
    }

    @Test("matching decodes query items with the same rule: %+f is not the byte 0x0F that %0F is")
    func matcherUsesTheSameDecoder() {
        let typed = NormalizedURL(URL(string: "http://api.test/x?q=%+f")!)
        let escaped = NormalizedURL(URL(string: "http://api.test/x?q=%0F")!)
        #expect(typed.query.first?.value == "% f", "a query is form-encoded: + is a space, and %+ is no escape")
        #expect(typed.query != escaped.query)
        let replay = ReplayTransport(cassette: Cassette(interactions: [.make(.get, "http://api.test/x?q=%0F")]))
        #expect(throws: CassetteError.self) { try replay.serve(HTTPRequest(url: URL(string: "http://api.test/x?q=%+f")!)) }
    }
}
