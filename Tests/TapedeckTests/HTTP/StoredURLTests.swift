import Foundation
import Testing
@testable import Tapedeck
@testable import TapedeckTooling

@Suite("URLs kept as text")
struct StoredURLTests {
    /// Decodes `cassette` after encoding it, so every URL comes back the way a file gives it.
    private func reloaded(_ cassette: Cassette) throws -> Cassette {
        try CassetteCodec.decode(CassetteCodec.encode(cassette))
    }

    private func isText(_ url: StoredURL?) -> Bool {
        if case .text? = url { return true }
        return false
    }

    @Test("a loaded interaction keeps its URLs as text, a response at the request's URL shares its text, and writing gives the same file")
    func loadedAsText() throws {
        var moved = Interaction.make(.get, "http://api.test/old?b=2&a=1")
        moved.response.url = URL(string: "http://api.test/new")
        let cassette = Cassette(interactions: [.make(.get, "http://api.test/items?page=2"), moved])
        let loaded = try reloaded(cassette)
        for interaction in loaded.interactions {
            #expect(isText(interaction.request.storedURL))
            #expect(isText(interaction.response.storedURL))
        }
        #expect(loaded.interactions[0].request.url == URL(string: "http://api.test/items?page=2"))
        #expect(loaded.interactions[0].response.url == loaded.interactions[0].request.url)
        #expect(loaded.interactions[1].response.url == URL(string: "http://api.test/new"))
        #expect(loaded.interactions[1].request.urlText == "http://api.test/old?b=2&a=1")
        #expect(loaded == cassette)
        #expect(CassetteCodec.encode(loaded) == CassetteCodec.encode(cassette))
    }

    @Test("whatever the text, the URL made from it again is the one parsing gave, and text is kept only when parsing gives it back", arguments: [
        "http://api.test/a", "HTTP://API.test:8080/a?x=1#top", "http://h/a b", "http://h/ü?q=ä", "http://[::1]:8081/p",
        "http://alice:pw@h/x", "https://h/%7Euser/?a=%2F",
    ])
    func sameURL(_ text: String) throws {
        let url = try #require(URL(string: text))
        let stored = StoredURL(parsing: text, as: url)
        #expect(stored.url == url)
        #expect(stored.text == url.absoluteString)
        #expect(isText(stored) == (url.absoluteString == text))
    }

    @Test("text taken as a plain URL without Foundation is text Foundation accepts and gives back as it is", arguments: [
        ("http://api.test/a", true), ("https://api.test", true), ("http://h:8080/a?x=1&y=%2F", true), ("http://h?q", true),
        ("http://h:65535/", true), ("http://a..b/", true), ("https://h/p/a:b@c;d=e,f!$'()*+~_.-/?s=/?:@", true),
        ("http://h:65536/", false), ("http://h:123456/", false), ("http://h:/", false), ("http:///p", false), ("http://h#f", false),
        ("http://h/a#f", false), ("HTTP://h/", false), ("http://alice:pw@h/", false), ("http://[::1]/", false), ("http://h/a b", false),
        ("http://h/ü", false), ("http://h/%zz", false), ("http://h/%4", false), ("http://h_x/", false), ("ftp://h/", false),
        ("http:/h", false), ("http://h/a[b]", false), ("http://h/a\"b", false), ("http://h/a{b}", false), ("http://h/a|b", false),
    ])
    func plainText(_ text: String, plain: Bool) throws {
        #expect(StoredURL.isPlainHTTP(text) == plain)
        if plain {
            let url = try #require(URL(string: text))
            #expect(url.absoluteString == text)
            #expect(StoredURL.plain(text)?.url == url)
        }
    }

    @Test("the plain shape's byte sets are the characters they stand for")
    func plainByteSets() {
        let letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
        #expect(StoredURL.plainHostBytes == ASCIISet(letters + "-."))
        #expect(StoredURL.plainPathBytes == ASCIISet(letters + "-._~" + "!$&'()*+,;=" + ":@/?"))
        #expect(HTTPMethod.tokenBytes == ASCIISet(letters + "!#$%&'*+-.^_`|~"))
    }

    @Test("on 50,000 random texts, any the plain check takes, Foundation takes and gives back as it is")
    func plainTextFuzzed() throws {
        // Seeded: the same texts in every run.
        var generator = SeededGenerator(seed: 20_261_128)
        let heads = ["http://", "https://", "http://h", "https://api.example.test:8", "http://h/", "http://h?"]
        let alphabet = Array("abcXYZ09-._~!$&'()*+,;=:@/?%#[] \"<>{}|\\^`AFaf7\u{7F}\u{1}é".unicodeScalars)
        var taken = 0
        for _ in 0..<50_000 {
            var text = heads[Int(generator.next() % UInt64(heads.count))]
            for _ in 0..<Int(generator.next() % 13) { text.unicodeScalars.append(alphabet[Int(generator.next() % UInt64(alphabet.count))]) }
            guard StoredURL.isPlainHTTP(text) else { continue }
            taken += 1
            let url = URL(string: text)
            #expect(url?.absoluteString == text, "\(text.debugDescription)")
        }
        #expect(taken > 1_000, "the random texts include plain ones")
    }

    @Test("a request is equal to, and hashes as, the same request however its URL is kept")
    func equalAcrossForms() throws {
        let loaded = try reloaded(Cassette(interactions: [.make(.get, "http://api.test/items?page=2")])).interactions[0].request
        let made = HTTPRequest(method: .get, url: try #require(URL(string: "http://api.test/items?page=2")))
        #expect(isText(loaded.storedURL))
        #expect(loaded.url == made.url)
        #expect(loaded.storedURL == made.storedURL)
        #expect(loaded.storedURL.hashValue == made.storedURL.hashValue)
        #expect(Set([made.storedURL]).contains(loaded.storedURL))
        var other = made
        other.url = try #require(URL(string: "http://api.test/items?page=3"))
        #expect(other.storedURL != loaded.storedURL)
    }

    @Test("a request and a response code as they always have: the URL one string member, an absent URL no member")
    func codable() throws {
        let loaded = try reloaded(Cassette(interactions: [.make(.get, "http://api.test/items?page=2")])).interactions[0]
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let json = String(decoding: try encoder.encode(loaded.request), as: UTF8.self)
        #expect(json == #"{"headers":[],"method":"GET","url":"http:\/\/api.test\/items?page=2"}"#)
        #expect(try JSONDecoder().decode(HTTPRequest.self, from: Data(json.utf8)) == loaded.request)
        let response = String(decoding: try encoder.encode(HTTPResponse(status: 204)), as: UTF8.self)
        #expect(!response.contains("url"))
        #expect(try JSONDecoder().decode(HTTPResponse.self, from: Data(response.utf8)).url == nil)
        #expect(try JSONDecoder().decode(HTTPResponse.self, from: try encoder.encode(loaded.response)) == loaded.response)
    }

    @Test("the query read from the text is Foundation's percent-encoded query", arguments: [
        "http://h/p?a=1&b=%20#f", "http://h/p#f?x", "http://h/p?", "http://h/p", "http://h/?a#", "http://u:p@h:8/p?q=1", "http://h?q",
        "http://h/p?a=1?b=2#c?d", "http://h/p?a=%3F%23&b", "urn:x?y", "mailto:a@b.test?subject=hi",
    ])
    func query(_ text: String) throws {
        let url = try #require(URL(string: text))
        #expect(StoredURL.text(text).percentEncodedQuery == url.query(percentEncoded: true))
        #expect(StoredURL.parsed(url).percentEncodedQuery == url.query(percentEncoded: true))
    }

    @Test("redaction of a loaded URL still finds a password and a key-like query value")
    func redactsLoaded() throws {
        let loaded = try reloaded(Cassette(interactions: [
            .make(.get, "http://alice:hunter2@api.test/a"), .make(.get, "http://api.test/b?api_key=sk123&page=1"),
            .make(.get, "http://api.test/c#x?api_key=not-a-query"), .make(.get, "http://api.test/d?email=a@b.test"),
        ]))
        let redacted = Redactor.standard.redact(loaded)
        #expect(!redacted.interactions[0].request.urlText.contains("hunter2"))
        #expect(!redacted.interactions[1].request.urlText.contains("sk123"))
        #expect(redacted.interactions[1].request.urlText.contains("page=1"))
        // A fragment of pairs is read as a query is (OAuth's `#access_token=…`).
        #expect(redacted.interactions[2].request.urlText == "http://api.test/c#x?api_key=%3CREDACTED%3E")
        #expect(isText(redacted.interactions[3].request.storedURL))   // looked at by the slow path, unchanged
        // The response answered at the request's URL takes the redacted one.
        #expect(redacted.interactions[1].response.storedURL == redacted.interactions[1].request.storedURL)
    }

    @Test("lint reads a loaded URL's scheme and host from its text as Foundation does", arguments: [
        ("HTTP://Host.test/x", false), ("https://h.test", false), ("http://h.test:8080?q", false), ("http://[::1]:80/x", false),
        ("ftp://files.test/a", true), ("http://user@h.test/x", false), ("http:///x", true), ("httpx://h/x", true),
        ("HTTPS://H.test", false), ("http://:80/x", true), ("http://h.test#f", false), ("https:/h.test/x", true),
        ("http://%41pi.test/x", false),
    ])
    func lintReachable(_ text: String, _ unreachable: Bool) throws {
        let loaded = try reloaded(Cassette(interactions: [.make(.get, text)]))
        #expect(CassetteLint.findings(in: loaded).contains { $0.kind == .unreachable } == unreachable)
        // The text alone answers only what Foundation would answer the same way.
        let url = try #require(URL(string: text))
        let foundation = ["http", "https"].contains(url.scheme?.lowercased() ?? "") && !(url.host ?? "").isEmpty
        if CassetteLint.hasHTTPHost(text) { #expect(foundation) }
    }

    @Test("the text alone decides a plain http(s) URL with a host", arguments: [
        "http://api.test/items?page=2", "HTTPS://API.test:8443", "http://127.0.0.1:8080/x#top", "http://[::1]:80/x",
    ])
    func lintFastPath(_ text: String) {
        #expect(CassetteLint.hasHTTPHost(text))
    }

    @Test("a replayed response, a recorded failure, a cassette served at another origin and one scrubbed of a known secret keep their URLs as text")
    func keptAsText() async throws {
        let json = #"{"version": 1, "interactions": [{"recordedAt": "2026-01-02T10:00:00.123Z", "failure": {"kind": "timedOut"}, "request": {"method": "GET", "url": "http://h.test/slow", "headers": []}}]}"#
        let failure = try CassetteCodec.decode(Data(json.utf8)).interactions[0]
        #expect(isText(failure.request.storedURL))
        #expect(isText(failure.response.storedURL))

        let loaded = try reloaded(Cassette(interactions: [.make(.get, "http://api.test/items?page=2"), .make(.get, "http://api.test/key/abcdef123456")]))
        let replayed = try await ReplayTransport(cassette: loaded).send(HTTPRequest(url: try #require(URL(string: "http://api.test/items?page=2"))))
        #expect(isText(replayed.storedURL))

        let moved = loaded.rewritingOrigin(from: try #require(URL(string: "http://api.test")), to: try #require(URL(string: "http://127.0.0.1:9000")))
        #expect(moved.interactions[0].request.urlText == "http://127.0.0.1:9000/items?page=2")
        #expect(isText(moved.interactions[0].request.storedURL))
        #expect(isText(moved.interactions[0].response.storedURL))

        let scrubbed = Redactor.standard.redact(loaded, knownSecrets: ["abcdef123456"])
        #expect(!scrubbed.interactions[1].request.urlText.contains("abcdef123456"))
        #expect(isText(scrubbed.interactions[1].request.storedURL))
        #expect(scrubbed.interactions[1].response.storedURL == scrubbed.interactions[1].request.storedURL)
        #expect(isText(scrubbed.interactions[0].request.storedURL))
        #expect(isText(scrubbed.interactions[0].response.storedURL))
    }

    @Test("a URL relative to a base equals, as a request's URL, the absolute URL it resolves to")
    func relativeEqualsAbsolute() throws {
        let relative = try #require(URL(string: "items?page=2", relativeTo: URL(string: "http://api.test/v1/")))
        let absolute = try #require(URL(string: "http://api.test/v1/items?page=2"))
        #expect(HTTPRequest(url: relative) == HTTPRequest(url: absolute))
        #expect(HTTPRequest(url: relative).hashValue == HTTPRequest(url: absolute).hashValue)
    }
}
