import Testing
@testable import Tapedeck

@Suite("Excerpts in error messages")
struct ExcerptTests {
    @Test("short text is quoted whole; long text is cut at the limit with the count left out")
    func bounded() {
        #expect(Excerpt.of("short") == "short")
        #expect(Excerpt.of(String(repeating: "é", count: Excerpt.limit)) == String(repeating: "é", count: Excerpt.limit))
        let long = String(repeating: "x", count: 1_000_000)
        #expect(Excerpt.of(long) == String(repeating: "x", count: Excerpt.limit) + "… (999880 more characters)")
    }

    @Test("an HTTPError interpolated with \\(error) reads as its message and quotes a 1 MB URL briefly")
    func httpErrorDescription() {
        let url = "http://" + String(repeating: "h", count: 1_000_000)
        let error = HTTPError.transport(url: url, detail: "connection reset")
        #expect("\(error)" == error.errorDescription)
        #expect("\(error)".count < 200)
        #expect("\(error)".hasSuffix("more characters) failed: connection reset"))
        #expect("\(HTTPError.cannotConnect(host: "127.0.0.1", port: 9))".hasPrefix("cannot connect to 127.0.0.1:9"))
    }
}
