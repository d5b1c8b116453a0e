import Foundation
import TapedeckTestSupport
import Testing
@testable import Tapedeck

@Suite("Replay index and matching keys")
struct ReplayIndexTests {
    /// The key as first written, with String splits and joins: the byte-level ``Matcher/key(for:)`` must agree with it.
    static func referenceKey(_ request: HTTPRequest, ignoring ignored: Set<String> = []) -> String {
        let url = request.url
        let scheme = (url.scheme ?? "http").lowercased()
        var host = (url.host ?? "").lowercased()
        if let port = url.port, !(scheme == "http" && port == 80), !(scheme == "https" && port == 443) { host += ":\(port)" }
        let rawPath = url.path(percentEncoded: true)
        let query = (url.query(percentEncoded: true) ?? "").split(separator: "&").map { item in
            let parts = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            return QueryItem(name: NormalizedURL.decode(parts[0]), value: parts.count > 1 ? NormalizedURL.decode(parts[1]) : nil)
        }
        let items = query.filter { !ignored.contains($0.name) }
            .sorted { ($0.name, $0.value ?? "") < ($1.name, $1.value ?? "") }
            .map { item in item.value.map { item.name + "=" + $0 } ?? item.name }
        return request.method.rawValue + " " + scheme + "://" + host + (rawPath.isEmpty ? "/" : rawPath)
            + (items.isEmpty ? "" : "?" + items.joined(separator: "&"))
    }

    @Test("the byte-level key equals the reference key on 3,000 random URLs")
    func keyMatchesReference() throws {
        var random = SeededRandom(seed: 12)
        let pieces = ["a", "B", "page", "%20", "+", "%2B", "é", "%C3%A9", "%FF", "=", "", "x%", "%4", "~", "sort", "日本"]
        let hosts = ["api.test", "API.Test:8080", "127.0.0.1:80", "[::1]:9000", "h.test:443"]
        var tested = 0
        for _ in 0..<3_000 {
            let items = (0..<Int.random(in: 0...4, using: &random)).map { _ in
                (0..<Int.random(in: 0...3, using: &random)).map { _ in pieces.randomElement(using: &random) ?? "" }.joined()
            }
            let scheme = Bool.random(using: &random) ? "http" : "HTTPS"
            let text = "\(scheme)://\(hosts.randomElement(using: &random) ?? "")/p/\(Int.random(in: 0...9, using: &random))"
                + (items.isEmpty ? "" : "?" + items.joined(separator: "&"))
            guard let url = URL(string: text) else { continue }
            tested += 1
            let request = HTTPRequest(method: .get, url: url)
            #expect(Matcher().key(for: request) == Self.referenceKey(request), "\(text)")
            #expect(Matcher(ignoredQueryItems: ["page"]).key(for: request) == Self.referenceKey(request, ignoring: ["page"]), "\(text)")
        }
        #expect(tested > 1_000, "most generated URLs parse (\(tested))")
    }

    @Test("positions with one key are found in recorded order, and only those")
    func positions() {
        let interactions = ["/a", "/b", "/a", "/c", "/a"].map { Interaction.make(.get, "http://api.test" + $0) }
        let index = ReplayIndex(interactions, matcher: Matcher())
        let key = Matcher().key(for: interactions[0].request)
        #expect(index.positions(key) == [0, 2, 4])
        #expect(index.first(key) == 0)
        #expect(index.next(after: 2) == 4)
        #expect(index.next(after: 4) == nil)
        #expect(index.positions("GET http://api.test/none").isEmpty)
    }

    @Test("every key finds its positions, whether or not it is the request line as recorded, past a block of keys")
    func positionsAgainstReference() {
        var random = SeededRandom(seed: 20)
        // Request lines as recorded, and keys that differ from them: an upper-case host, an
        // unsorted query, a percent-encoded query item, a default port, a fragment.
        let urls = ["http://api.test/a?x=1", "http://API.test/a?x=1", "http://api.test/b?z=2&a=1", "http://api.test/b?a=1&z=2",
                    "http://api.test/c?q=a%20b", "http://api.test:80/d", "http://api.test/e#top", "https://api.test/f?k"]
        let methods: [HTTPMethod] = [.get, .post, .delete]
        let interactions = (0..<10_000).map { _ in
            let url = (urls.randomElement(using: &random) ?? "") + (Bool.random(using: &random) ? "" : "&n=\(Int.random(in: 0..<3_000, using: &random))")
            return Interaction.make(methods.randomElement(using: &random) ?? .get, url)
        }
        let matcher = Matcher()
        let index = ReplayIndex(interactions, matcher: matcher)
        let reference = Dictionary(grouping: interactions.indices) { matcher.key(for: interactions[$0].request) }
        #expect(reference.count > 1_000, "many distinct keys (\(reference.count))")
        for (key, positions) in reference {
            #expect(index.positions(key) == positions, "\(key)")
        }
        for absent in ["GET http://api.test/none", "PUT http://api.test/a?x=1", "GET http://api.test/a?x=2", ""] {
            #expect(index.first(absent) == nil, "\(absent)")
        }
        #expect(ReplayIndex([], matcher: matcher).first("GET http://api.test/a") == nil)
    }

    @Test("a key equal to a recorded one as Unicode text finds it, as a dictionary of keys did")
    func canonicallyEqualKey() throws {
        let recorded = Interaction.make(.get, "http://api.test/t?unit=K")
        let index = ReplayIndex([recorded], matcher: Matcher())
        // The Kelvin sign is canonically equivalent to `K`: Swift's strings are equal.
        let incoming = HTTPRequest(url: try #require(URL(string: "http://api.test/t?unit=%E2%84%AA")))
        let key = Matcher().key(for: incoming)
        #expect(key == Matcher().key(for: recorded.request))
        #expect(index.first(key) == 0)
    }

    @Test("a request carrying the real value of a redacted query item matches the recording, which holds the placeholder")
    func redactedQueryItem() async throws {
        let recorded = Redactor.standard.redact(Interaction.make(.get, "http://api.test/me?api_key=k3y-v4lue-123&page=2", body: "me"))
        #expect(!recorded.request.url.absoluteString.contains("k3y-v4lue-123"))
        let replay = ReplayTransport(cassette: Cassette(interactions: [recorded]))
        let response = try await replay.send(HTTPRequest(url: URL(string: "http://api.test/me?page=2&api_key=k3y-v4lue-123")!))
        #expect(String(decoding: response.body, as: UTF8.self) == "me")
    }
}
