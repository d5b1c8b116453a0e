import Foundation
@testable import Tapedeck
import Testing

@Suite("A recorded placeholder matches any value in its place, and only there")
struct PlaceholderMatchingTests {
    static func replay(_ interactions: [Interaction], matcher: Matcher = Matcher()) -> ReplayTransport {
        ReplayTransport(cassette: Cassette(interactions: interactions), configuration: .init(URL(fileURLWithPath: "<memory>"), matcher: matcher))
    }

    static func get(_ url: String, headers: HTTPHeaders = [:]) -> HTTPRequest { HTTPRequest(url: URL(string: url)!, headers: headers) }

    @Test("query values, in either spelling, and path segments")
    func urlPlaceholders() throws {
        let replay = Self.replay([
            .make(.get, "http://api.test/cookies/set?cookie=%3CREDACTED%3E", body: "cookie"),
            .make(.get, "http://api.test/users/%3CREDACTED%3E/profile", body: "profile"),
            .make(.get, "http://api.test/multi?a=1&b=%3cREDACTED%3e&a=2", body: "multi"),
        ])
        #expect(try replay.serve(Self.get("http://api.test/cookies/set?cookie=SECRET-789")).status == 200)
        #expect(try replay.serve(Self.get("http://api.test/users/alice/profile")).body == Data("profile".utf8))
        #expect(try replay.serve(Self.get("http://api.test/multi?a=2&b=anything&a=1")).body == Data("multi".utf8))
    }

    @Test("nothing else becomes a wildcard: other names, missing items, other segments, other origins")
    func onlyPlaceholders() {
        let replay = Self.replay([
            .make(.get, "http://api.test/cookies/set?cookie=%3CREDACTED%3E"),
            .make(.get, "http://api.test/users/%3CREDACTED%3E/profile"),
            .make(.get, "http://api.test/plain?name=alice"),
        ])
        for url in ["http://api.test/cookies/set?other=x", "http://api.test/cookies/set", "http://api.test/cookies/set?cookie=a&cookie=b",
                    "http://api.test/users/alice/settings", "http://api.test/users/profile", "http://other.test/users/a/profile",
                    "http://api.test/plain?name=bob"] {
            #expect(throws: CassetteError.self, "\(url)") { try replay.serve(Self.get(url)) }
        }
    }

    @Test("compared headers, JSON members and form fields")
    func bodyPlaceholders() throws {
        let json = Interaction.make(.post, "http://api.test/json", requestHeaders: ["Content-Type": "application/json"],
                                    requestBody: Data(#"{"user":"a","items":[{"nonce":"<REDACTED>"}]}"#.utf8))
        #expect(try Self.replay([json], matcher: Matcher(body: .json))
            .serve(HTTPRequest(method: .post, url: URL(string: "http://api.test/json")!, body: Data(#"{"items":[{"nonce":7}],"user":"a"}"#.utf8))).status == 200)
        #expect(throws: CassetteError.self) {
            try Self.replay([json], matcher: Matcher(body: .json))
                .serve(HTTPRequest(method: .post, url: URL(string: "http://api.test/json")!, body: Data(#"{"items":[],"user":"a"}"#.utf8)))
        }
        let form = Interaction.make(.post, "http://api.test/form", requestBody: Data("user=a&code=%3CREDACTED%3E".utf8))
        #expect(try Self.replay([form], matcher: Matcher(body: .form))
            .serve(HTTPRequest(method: .post, url: URL(string: "http://api.test/form")!, body: Data("code=991&user=a".utf8))).status == 200)
        let keyed = Interaction.make(.get, "http://api.test/keyed", requestHeaders: ["X-Session-Id": "<REDACTED>"])
        let byHeader = Self.replay([keyed], matcher: Matcher(headers: ["X-Session-Id"]))
        #expect(try byHeader.serve(Self.get("http://api.test/keyed", headers: ["X-Session-Id": "abc"])).status == 200)
        #expect(throws: CassetteError.self) { try byHeader.serve(Self.get("http://api.test/keyed")) }
    }

    static func multipart(boundary: String, fields: [(String, String?, String)]) -> HTTPRequest {
        var body = ""
        for (name, filename, content) in fields {
            body += "--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\"" + (filename.map { "; filename=\"\($0)\"" } ?? "") + "\r\n"
            if filename != nil { body += "Content-Type: text/plain\r\n" }
            body += "\r\n\(content)\r\n"
        }
        body += "--\(boundary)--\r\n"
        return HTTPRequest(method: .post, url: URL(string: "http://api.test/upload")!,
                           headers: ["Content-Type": "multipart/form-data; boundary=\(boundary)"], body: Data(body.utf8))
    }

    @Test("multipart bodies match by part whatever the boundary, and the report shows where a part differs")
    func multipart() throws {
        let recorded = Self.multipart(boundary: "----a1b2c3", fields: [("title", nil, "notes"), ("token", nil, "<REDACTED>"),
                                                                      ("file", "notes.txt", "first line\nsecond line")])
        let replay = ReplayTransport(cassette: Cassette(interactions: [Interaction(request: recorded, response: HTTPResponse(status: 201), recordedAt: Date())]),
                                     configuration: .init(URL(fileURLWithPath: "<memory>"), matcher: Matcher(body: .raw)))
        let same = Self.multipart(boundary: "----zz99", fields: [("title", nil, "notes"), ("token", nil, "t0k3n"),
                                                                 ("file", "notes.txt", "first line\nsecond line")])
        #expect(try replay.serve(same).status == 201)
        let changed = Self.multipart(boundary: "----yy88", fields: [("title", nil, "notes"), ("token", nil, "t0k3n"),
                                                                    ("file", "notes.txt", "first line\nsecond LINE")])
        #expect {
            try replay.serve(changed)
        } throws: { error in
            let text = "\(error)"
            return text.contains(#"body part 3 (name "file"): differs at byte 18 (of 22 → 22): …"rst line\nsecond line" → …"rst line\nsecond LINE""#)
        }
    }

    @Test("the report shows where two bodies first differ, past any common prefix")
    func firstDifference() throws {
        let prefix = String(repeating: "x", count: 200)
        let recorded = Interaction.make(.post, "http://api.test/raw", requestBody: Data((prefix + "-alpha-tail").utf8))
        let replay = Self.replay([recorded], matcher: Matcher(body: .raw))
        #expect {
            try replay.serve(HTTPRequest(method: .post, url: URL(string: "http://api.test/raw")!, body: Data((prefix + "-beta-tail").utf8)))
        } throws: { error in
            "\(error)".contains(#"body: differs at byte 201 (of 211 → 210): …"xxxxxxxxxxxxxxx-alpha-tail" → …"xxxxxxxxxxxxxxx-beta-tail""#)
        }
    }

    @Test("an exact match plays before a placeholder pattern, whatever the matcher compares")
    func exactFirst() throws {
        let interactions: [Interaction] = [.make(.get, "http://api.test/users/%3CREDACTED%3E/profile", body: "A"),
                                           .make(.get, "http://api.test/users/alice/profile", body: "B")]
        for matcher in [Matcher(), Matcher(headers: ["Accept"])] {
            let replay = Self.replay(interactions, matcher: matcher)
            let first = try replay.serve(Self.get("http://api.test/users/alice/profile"))
            let second = try replay.serve(Self.get("http://api.test/users/alice/profile"))
            #expect(String(decoding: first.body, as: UTF8.self) == "B" && String(decoding: second.body, as: UTF8.self) == "A", "\(matcher.spec)")
            #expect(replay.unusedInteractions.isEmpty)
        }
    }

    @Test("a recorded REDACTED value of an ordinary item is a value, not a placeholder; of a credential item it is")
    func legacyPlaceholder() throws {
        let replay = Self.replay([.make(.get, "http://api.test/docs?state=REDACTED"), .make(.get, "http://api.test/keys?api_key=REDACTED")])
        #expect(throws: CassetteError.self) { try replay.serve(Self.get("http://api.test/docs?state=open")) }
        #expect(try replay.serve(Self.get("http://api.test/docs?state=REDACTED")).status == 200)
        #expect(try replay.serve(Self.get("http://api.test/keys?api_key=real-key-123")).status == 200)
        #expect(!Redactor.isWholePlaceholder("%3credacted%3e") && Redactor.isWholePlaceholder("%3cREDACTED%3e"))
    }
}
