import Foundation
@testable import Tapedeck
import TapedeckTestSupport
import Testing

@Suite("Matcher keys")
struct MatcherKeyTests {
    @Test("the one-pass key is the general key, for every URL it takes")
    func sameKeys() throws {
        let matcher = Matcher()
        var taken = 0
        for text in NormalizedURLTests.corpus + ["http://bench.local/items/7?sort=asc&page=7", "http://api.test/p?b=2&a=1&a=0&c",
                                                 "http://api.test/p?=x&a==b", "http://api.test/p?legacy=REDACTED"] {
            let request = HTTPRequest(method: .post, url: try #require(URL(string: text)))
            guard let key = matcher.onePassKey(for: request) else { continue }
            taken += 1
            #expect(key == matcher.generalKey(for: request), "\(text)")
        }
        #expect(taken >= 17)
        #expect(matcher.onePassKey(for: HTTPRequest(url: URL(string: "http://api.test/a%2fb")!)) == nil, "an escape in the path takes the general path")
        #expect(matcher.onePassKey(for: HTTPRequest(url: URL(string: "http://api.test/p?q=a+b")!)) == nil, "a query to decode takes the general path")
        #expect(Matcher(ignoredQueryItems: ["ts"]).onePassKey(for: HTTPRequest(url: URL(string: "http://api.test/p")!)) == nil)
    }

    @Test("a path's escapes match in either case, and an escaped unreserved character matches it written plain")
    func pathEscapes() throws {
        let matcher = Matcher()
        func key(_ text: String) throws -> String { matcher.key(for: HTTPRequest(url: try #require(URL(string: text)))) }
        #expect(try key("http://api.test/files/a%2fb") == key("http://api.test/files/a%2Fb"))
        #expect(try key("http://api.test/%7Euser/x%2Dy?q=1") == key("http://api.test/~user/x-y?q=1"))
        #expect(try key("http://api.test/a%2Fb") != key("http://api.test/a/b"), "an escaped slash is not a delimiter")
        #expect(try key("http://api.test/a%20b") != key("http://api.test/a%2520b"))
        #expect(PercentEncoding.normalizedPath("/a%2f%7e%zz%4") == "/a%2F~%zz%4")
    }

    @Test("random plain URLs give the same key both ways")
    func randomKeys() throws {
        var random = SeededRandom(seed: 0x4B45_5953)
        let alphabet = Array("abcXYZ019-._~=&;:@!$'()*,/")
        let matcher = Matcher()
        var taken = 0
        for _ in 0..<5_000 {
            let host = ["api.test", "API.test", "127.0.0.1"].randomElement(using: &random) ?? "h"
            let port = [nil, 80, 443, 8080].randomElement(using: &random) ?? nil
            let scheme = ["http", "https", "HTTP"].randomElement(using: &random) ?? "http"
            let path = String((0..<Int.random(in: 0...10, using: &random)).map { _ in alphabet.randomElement(using: &random) ?? "a" })
            let query = String((0..<Int.random(in: 0...16, using: &random)).map { _ in alphabet.randomElement(using: &random) ?? "a" })
            guard let url = URL(string: "\(scheme)://\(host)\(port.map { ":\($0)" } ?? "")/\(path)?\(query)") else { continue }
            let request = HTTPRequest(url: url)
            guard let key = matcher.onePassKey(for: request) else { continue }
            taken += 1
            #expect(key == matcher.generalKey(for: request), "\(url.absoluteString)")
        }
        #expect(taken > 2_500)
    }
}
