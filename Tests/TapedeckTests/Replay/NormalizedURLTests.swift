import Foundation
@testable import Tapedeck
import TapedeckTestSupport
import Testing

@Suite("Normalized URLs for matching")
struct NormalizedURLTests {
    static let corpus = [
        "http://bench.local/items/7?page=7&sort=asc", "HTTP://API.Test:8080/A/B?x=1", "https://api.test:443/x", "http://api.test:80",
        "http://api.test", "http://api.test/", "http://api.test/?", "http://api.test?a", "http://api.test/p?a=&b&=c&&d=%20+x",
        "http://api.test/p#frag", "http://api.test/p?q=1#frag?x", "http://api.test:0080/p", "https://api.test:8443/a%2Fb/%3CREDACTED%3E",
        "http://127.0.0.1:18080/cookies/set?cookie=%3CREDACTED%3E", "http://api.test/a;b=c/d?e=%E2%9C%93", "ftp://files.test/x",
        "http://user:pass@api.test/p", "http://[::1]:8080/p", "http://api.test:99999/p", "http://xn--caf-dma.test/p",
        "http://api.test/%7Euser?redacted=REDACTED", "http://api.test:/p", "custom+scheme://host.test/a?b=c",
    ]

    @Test("the one-pass parse gives the parts Foundation's accessors give, for every URL it accepts")
    func sameParts() throws {
        var parsed = 0
        for text in Self.corpus {
            let url = try #require(URL(string: text), "\(text)")
            guard let fast = NormalizedURL(parsing: url.absoluteString) else { continue }
            parsed += 1
            #expect(fast == NormalizedURL(accessorsOf: url), "\(text)")
        }
        #expect(parsed >= 18, "the common shapes take the one pass")
        #expect(NormalizedURL(parsing: "http://user:pass@api.test/p") == nil)
        #expect(NormalizedURL(parsing: "http://[::1]:8080/p") == nil)
    }

    @Test("random plain URLs parse the same both ways")
    func randomURLs() throws {
        var random = SeededRandom(seed: 0x5EED_0015)
        let alphabet = Array("abcXYZ019-._~%2F+=&;:@!$'()*,")
        for _ in 0..<2_000 {
            let host = ["api.test", "API.test", "127.0.0.1", "h"].randomElement(using: &random) ?? "h"
            let port = [nil, 80, 443, 8080, 1].randomElement(using: &random) ?? nil
            let scheme = ["http", "https", "HTTP"].randomElement(using: &random) ?? "http"
            let path = String((0..<Int.random(in: 0...12, using: &random)).map { _ in alphabet.randomElement(using: &random) ?? "a" })
            let query = String((0..<Int.random(in: 0...12, using: &random)).map { _ in alphabet.randomElement(using: &random) ?? "a" })
            let text = "\(scheme)://\(host)\(port.map { ":\($0)" } ?? "")/\(path)?\(query)"
            guard let url = URL(string: text), let fast = NormalizedURL(parsing: url.absoluteString) else { continue }
            #expect(fast == NormalizedURL(accessorsOf: url), "\(text)")
        }
    }
}
