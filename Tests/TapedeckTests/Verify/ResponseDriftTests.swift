import Foundation
import Synchronization
import Testing
@testable import Tapedeck

@Suite("Comparing a recorded response with the live one")
struct ResponseDriftTests {
    private func json(_ text: String, status: Int = 200) -> HTTPResponse {
        HTTPResponse(status: status, headers: ["Content-Type": "application/json"], body: Data(text.utf8))
    }

    private func lines(_ recorded: String, _ live: String, _ options: DriftOptions = DriftOptions()) -> [String] {
        ResponseDrift.compare(recorded: json(recorded), live: json(live), options: options).map(\.description)
    }

    @Test("members added, removed and retyped are reported at escaped JSON Pointers")
    func shape() {
        let found = lines(#"{"a": 1, "b/c": "x", "d": {"e": true}}"#, #"{"a": "1", "d": {"e": true, "f": null}}"#)
        #expect(found == ["body /a: number → string [retyped]", "body /b~1c: string → (absent) [removed]",
                          "body /d/f: (absent) → null [added]"])
    }

    @Test("values are compared only when asked")
    func values() throws {
        #expect(lines(#"{"a": 1}"#, #"{"a": 2}"#).isEmpty)
        let options = try DriftOptions(compare: "values")
        #expect(lines(#"{"a": 1, "l": [1]}"#, #"{"a": 2, "l": [1, 2]}"#, options) == ["body /a: 1 → 2", "body /l: 1 elements → 2 elements"])
    }

    @Test("ignored pointers skip their subtree, with * for any key or index")
    func ignore() throws {
        let options = try DriftOptions(compare: nil, ignoring: ["/meta", "/items/*/at"])
        #expect(lines(#"{"meta": {"t": 1}, "items": [{"at": 1}]}"#, #"{"meta": {"t": "x"}, "items": [{"at": "y"}]}"#, options).isEmpty)
    }

    @Test("status and chosen headers; non-JSON bodies by content type and size class")
    func statusHeadersAndText() throws {
        let options = try DriftOptions(compare: "status,headers:ETag,shape")
        let old = HTTPResponse(status: 200, headers: ["Content-Type": "text/plain", "ETag": "1"], body: Data("hi".utf8))
        var new = HTTPResponse(status: 404, headers: ["Content-Type": "text/html", "ETag": "2"], body: Data("hi".utf8))
        #expect(ResponseDrift.compare(recorded: old, live: new, options: options).map(\.description)
            == ["status: 200 → 404", #"header ETag: "1" → "2""#, "content type: text/plain → text/html"])
        new = HTTPResponse(status: 200, headers: ["Content-Type": "text/plain", "ETag": "1"], body: Data(count: 2048))
        #expect(ResponseDrift.compare(recorded: old, live: new, options: options).map(\.description)
            == ["body size: under 1 KB → 1 KB to 1 MB"])
    }

    @Test("bad --compare and --ignore values name the fix")
    func badOptions() {
        #expect(throws: VerifyError.invalidCompare("body")) { try DriftOptions(compare: "status,body") }
        #expect(throws: VerifyError.invalidIgnore("data.x")) { try DriftOptions(compare: nil, ignoring: ["data.x"]) }
    }

    @Test("placeholders are filled from variables and TAPEDECK_ environment variables")
    func credentials() throws {
        let fill = CredentialFill(variables: ["authorization": "t0k"], environment: ["TAPEDECK_API_KEY": "k 1"])
        let request = HTTPRequest(url: URL(string: "http://api.test/x?api_key=%3CREDACTED%3E&q=1")!,
                                  headers: ["Authorization": "Bearer <REDACTED>"])
        let filled = try fill.apply(to: request, interaction: 0)
        #expect(filled.headers["Authorization"] == "Bearer t0k")
        #expect(filled.url.absoluteString == "http://api.test/x?api_key=k%201&q=1")
        let empty = CredentialFill(variables: [:], environment: [:])
        #expect(throws: VerifyError.self) { try empty.apply(to: request, interaction: 3) }
    }

    @Test("credentials go to the cassette's own origin only: an interaction edited to name another host gets none, and nothing is sent there")
    func credentialsStayWithTheCassette() async {
        let seen = Mutex<[String]>([])
        let live = StubTransport { request in
            seen.withLock { $0.append("\(request.url.host ?? "") \(request.headers["Authorization"] ?? "none")") }
            return HTTPResponse(status: 200)
        }
        let cassette = Cassette(interactions: [
            Interaction(request: HTTPRequest(url: URL(string: "http://api.test/a")!, headers: ["Authorization": "Bearer <REDACTED>"]),
                        response: HTTPResponse(status: 200)),
            Interaction(request: HTTPRequest(url: URL(string: "http://evil.test/b")!, headers: ["Authorization": "Bearer <REDACTED>"]),
                        response: HTTPResponse(status: 200)),
        ])
        let verifier = CassetteVerifier(live: live, options: .init(credentials: CredentialFill(variables: ["authorization": "s3cret"], environment: [:])))
        let report = await verifier.verify(cassette, path: "c.json")
        #expect(report.interactions[0].outcome == .unchanged)
        guard case .failed(let message) = report.interactions[1].outcome else { Issue.record("the edited interaction was sent"); return }
        #expect(message.contains("would carry a credential to evil.test, but it was recorded against api.test"), "\(message)")
        #expect(seen.withLock { $0 } == ["api.test Bearer s3cret"])
    }

    @Test("a live request that fails is reported without the credentials filled into it, and its report lines are one each")
    func failureRedacted() async {
        let live = StubTransport { request in throw HTTPError.timedOut(url: request.urlText, seconds: 1) }
        let cassette = Cassette(interactions: [
            Interaction(request: HTTPRequest(url: URL(string: "http://api.test/a?api_key=%3CREDACTED%3E")!, headers: ["Authorization": "Bearer <REDACTED>"]),
                        response: HTTPResponse(status: 200)),
        ])
        let fill = CredentialFill(variables: ["api_key": "sk_live_51HqLyjWDarjtT1zdp7dcXYZreq", "authorization": "s3cret-token-4711"], environment: [:])
        let report = await CassetteVerifier(live: live, options: .init(credentials: fill)).verify(cassette, path: "c.json")
        guard case .failed(let message) = report.interactions[0].outcome else { Issue.record("\(report.interactions[0].outcome)"); return }
        #expect(message.contains("timed out"), "\(message)")
        for secret in ["sk_live_51HqLyjWDarjtT1zdp7dcXYZreq", "s3cret-token-4711"] { #expect(!report.render().contains(secret), "\(report.render())") }
    }

    @Test("a recorded transport failure met again is unchanged; one that answers now is drift, and an update keeps the answer")
    func recordedFailures() async {
        var failed = Interaction(request: HTTPRequest(url: URL(string: "http://api.test/down")!), response: HTTPResponse(status: 0))
        failed.failure = TransportFailure(kind: .cannotConnect, detail: "connection refused")
        let cassette = Cassette(interactions: [failed])
        let still = CassetteVerifier(live: StubTransport { _ in throw HTTPError.cannotConnect(host: "api.test", port: 80) })
        let same = await still.verify(cassette, path: "c.json")
        #expect(same.interactions[0].outcome == .unchanged)
        #expect(same.render().hasPrefix("#0 GET http://api.test/down → (failed)  unchanged"), "\(same.render())")
        let up = CassetteVerifier(live: StubTransport { _ in HTTPResponse(status: 200, body: Data("ok".utf8)) })
        let answered = await up.verify(cassette, path: "c.json")
        guard case .drifted(let drifts, _) = answered.interactions[0].outcome else { Issue.record("\(answered.interactions[0].outcome)"); return }
        #expect(drifts.map(\.description) == ["status: (cannotConnect: connection refused) → 200"], "\(drifts)")
        let updated = up.updating(cassette, with: answered)
        #expect(updated.interactions[0].failure == nil && updated.interactions[0].response.status == 200)
    }
}
