import Foundation
import Tapedeck
import TapedeckTestSupport
import Testing

/// One cassette, opened through every front-end, gives the same answers: redirects are
/// followed only when the client asks, repeats only with `--repeat`/`allowRepeats`, and a
/// recorded `<REDACTED>` matches any value in its place (query item, path segment, header,
/// JSON member, form field) and nothing else becomes a wildcard.
@Suite("The same cassette behaves the same in every front-end", .serialized)
struct SameCassetteEverywhereTests {
    /// A row: how the cassette is opened, what is sent, and what each request must get (nil: unmatched).
    struct Row: CustomStringConvertible {
        var name: String
        var setup: Setup
        var probes: [(Probe, Int?)]
        var description: String { name }
    }

    static let rows: [Row] = [
        Row(name: "redirects are served as recorded", setup: Setup(), probes: [
            (Probe(target: "/r"), 302),
        ]),
        Row(name: "redirects are followed when the client follows them", setup: Setup(follow: true), probes: [
            (Probe(target: "/r"), 200),
        ]),
        Row(name: "an interaction plays once", setup: Setup(follow: true), probes: [
            (Probe(target: "/once"), 200),
            (Probe(target: "/once"), nil),
        ]),
        Row(name: "repeats serve the last match again", setup: Setup(repeats: true, follow: true), probes: [
            (Probe(target: "/once"), 200),
            (Probe(target: "/once"), 200),
        ]),
        Row(name: "a placeholder in a query item or path segment matches any value there, nothing else does", setup: Setup(follow: true), probes: [
            (Probe(target: "/cookies/set?cookie=SECRET-789"), 200),
            (Probe(target: "/cookies/set?other=SECRET-789"), nil),
            (Probe(target: "/users/alice-42/profile"), 200),
            (Probe(target: "/users/alice-42/settings"), nil),
            (Probe(target: "/plain?name=bob"), nil),
        ]),
        Row(name: "a placeholder in a compared header or JSON member matches any value there", setup: Setup(match: "header:X-Session-Id,body", follow: true), probes: [
            (Probe(target: "/keyed", headers: [("X-Session-Id", "abc-123")]), 200),
            (Probe(target: "/keyed"), nil),
            (Probe(method: .post, target: "/json", items: "user=a nonce=zzz", body: #"{"user": "a", "nonce": "zzz"}"#, contentType: "application/json"), 200),
            (Probe(method: .post, target: "/json", items: "user=b nonce=zzz", body: #"{"user": "b", "nonce": "zzz"}"#, contentType: "application/json"), nil),
        ]),
        Row(name: "a placeholder in a form field matches any value there", setup: Setup(match: "body:form", follow: true), probes: [
            (Probe(method: .post, target: "/form", items: "--form user=a code=123", body: "user=a&code=123", contentType: "application/x-www-form-urlencoded"), 200),
            (Probe(method: .post, target: "/form", items: "--form user=b code=123", body: "user=b&code=123", contentType: "application/x-www-form-urlencoded"), nil),
        ]),
    ]

    /// The cassette every row opens, recorded at `http://api.test`.
    static func cassette() throws -> URL {
        func exchange(_ method: HTTPMethod, _ target: String, headers: HTTPHeaders = [:], body: String? = nil,
                      status: Int = 200, responseHeaders: HTTPHeaders = ["Content-Type": "text/plain"], answer: String) -> Interaction {
            Interaction(request: HTTPRequest(method: method, url: URL(string: Probe.origin + target)!, headers: headers, body: body.map { Data($0.utf8) }),
                        response: HTTPResponse(status: status, headers: responseHeaders, body: Data(answer.utf8)),
                        recordedAt: Date(timeIntervalSince1970: 1_800_000_000))
        }
        let cassette = Cassette(interactions: [
            exchange(.get, "/r", status: 302, responseHeaders: ["Location": "/final", "Content-Length": "0"], answer: ""),
            exchange(.get, "/final", answer: "final"),
            exchange(.get, "/once", answer: "one"),
            exchange(.get, "/cookies/set?cookie=%3CREDACTED%3E", answer: "cookie"),
            exchange(.get, "/users/%3CREDACTED%3E/profile", answer: "profile"),
            exchange(.get, "/plain?name=alice", answer: "alice"),
            exchange(.get, "/keyed", headers: ["X-Session-Id": "<REDACTED>"], answer: "keyed"),
            exchange(.post, "/json", headers: ["Content-Type": "application/json"], body: #"{"user": "a", "nonce": "<REDACTED>"}"#, answer: "json"),
            exchange(.post, "/form", headers: ["Content-Type": "application/x-www-form-urlencoded"], body: "user=a&code=%3CREDACTED%3E", answer: "form"),
        ])
        let url = try TestScratch.directory("same-cassette").appendingPathComponent("api.cassette.json")
        try cassette.write(to: url)
        return url
    }

    @Test("every front-end gives the row's answers", arguments: FrontEnd.allCases, rows)
    func sameAnswers(frontEnd: FrontEnd, row: Row) async throws {
        guard frontEnd.supports(row.setup) else { return }
        let url = try Self.cassette()
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        let got = try await FrontEndDriver.statuses(row.probes.map(\.0), through: frontEnd, cassette: url, setup: row.setup)
        let expected = row.probes.map(\.1)
        #expect(got == expected, "\(frontEnd), \(row.setup): \(zip(row.probes.map(\.0), got).map { "\($0) → \($1.map(String.init) ?? "unmatched")" })")
    }
}
