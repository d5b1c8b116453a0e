import Foundation
import Testing
@testable import Tapedeck
import TapedeckTooling

@Suite("Redaction and secret lint")
struct RedactorTests {
    static let token = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U"

    /// httpbin-style: the response echoes the credentials it was sent.
    static func leakyInteraction() -> Interaction {
        let requestHeaders: HTTPHeaders = ["Authorization": "Bearer \(token)", "Cookie": "session=s3cr3t-cookie; theme=dark",
                                           "Accept": "application/json"]
        let responseHeaders: HTTPHeaders = ["Content-Type": "application/json", "Set-Cookie": "session=n3w-s3cr3t; Path=/; HttpOnly"]
        let echo = #"{"args": {"api_key": "k3y-v4lue-123"}, "headers": {"Authorization": "Bearer \#(token)"}, "password": "hunter22"}"#
        return .make(.post, "http://api.test/login?api_key=k3y-v4lue-123&page=2", requestHeaders: requestHeaders,
                     requestBody: Data(#"{"user": "ada", "password": "hunter22"}"#.utf8), headers: responseHeaders, body: echo)
    }

    @Test("a recorded bearer token, cookie and api_key value never appear in the file")
    func redactsEverywhere() throws {
        var interaction = Self.leakyInteraction()
        interaction.request.headers["Content-Type"] = "application/json"
        let redactor = Redactor(jsonPaths: ["/password"])
        let file = String(decoding: Cassette(interactions: [redactor.redact(interaction)]).encoded(), as: UTF8.self)
        for secret in [Self.token, "s3cr3t-cookie", "n3w-s3cr3t", "k3y-v4lue-123", "hunter22"] {
            #expect(!file.contains(secret), "\(secret) leaked")
        }
        #expect(file.contains(#"["Authorization", "Bearer <REDACTED>"]"#))
        #expect(file.contains("session=<REDACTED>; theme=<REDACTED>"))
        #expect(file.contains("session=<REDACTED>; Path=/; HttpOnly"))
        #expect(file.contains("api_key=%3CREDACTED%3E&page=2"), "other query items stay")
        #expect(SecretLint.findings(in: Cassette(interactions: [redactor.redact(interaction)])).isEmpty)
    }

    @Test("headers named by a redactor are replaced whatever their names hold, set after it is made or empty; others are kept")
    func namedHeaders() {
        var redactor = Redactor(headers: ["x-session", ""])
        redactor.headers.insert("x-trace-secretless")
        let headers: HTTPHeaders = ["X-Session": "abc", "": "empty-name", "X-Trace-Secretless": "t", "Content-Type": "text/plain"]
        let interaction = Interaction(request: HTTPRequest(url: URL(string: "http://api.test/x")!, headers: headers),
                                      response: HTTPResponse(status: 200))
        let redacted = redactor.redact(interaction).request.headers
        #expect(redacted["X-Session"] == Redactor.placeholder)
        #expect(redacted[""] == Redactor.placeholder)
        #expect(redacted["X-Trace-Secretless"] == Redactor.placeholder, "a name added after the redactor was made")
        #expect(redacted["Content-Type"] == "text/plain")
    }

    @Test("a URL header the redactor is told to replace is replaced whole, not only its query")
    func configuredLocation() {
        var interaction = Interaction(request: HTTPRequest(url: URL(string: "http://api.test/login")!), response: HTTPResponse(status: 302))
        interaction.response.headers["Location"] = "https://app.test/internal/session-7731/home?api_key=K1"
        let whole = Redactor(headers: Redactor.defaultHeaders.union(["location"])).redact(interaction)
        #expect(whole.response.headers["Location"] == Redactor.placeholder, "\(String(describing: whole.response.headers["Location"]))")
        let byDefault = Redactor.standard.redact(interaction)
        #expect(byDefault.response.headers["Location"]?.hasPrefix("https://app.test/internal/session-7731/home?api_key=") == true)
        #expect(byDefault.response.headers["Location"]?.contains("K1") == false)
    }

    @Test("the lint refuses an unredacted token and names the interaction and field")
    func lintRefuses() throws {
        let cassette = Cassette(interactions: [.make(), Self.leakyInteraction()])
        #expect(throws: CassetteError.self) { try SecretLint.check(cassette, path: "leaky.cassette.json") }
        let findings = SecretLint.findings(in: cassette)
        let fields = findings.map { "\($0.interaction) \($0.field) \($0.kind)" }
        #expect(fields.contains("1 request header Authorization bearer token"), "\(fields)")
        #expect(fields.contains("1 request query api_key key-like value"), "\(fields)")
        #expect(!fields.contains { $0.contains("response query") || $0.contains("response URL") },
                "a response answered at the request's URL is not reported again: \(fields)")
        var elsewhere = Self.leakyInteraction()
        elsewhere.response.url = URL(string: "http://api.test/next?api_key=abcdef123456")
        let moved = SecretLint.findings(in: elsewhere, index: 0).map(\.field)
        #expect(moved.contains("request query api_key") && moved.contains("response query api_key"), "\(moved)")
        #expect(fields.contains("1 response body /password key-like value"), "\(fields)")
        #expect(fields.contains("1 response body /headers/Authorization bearer token"), "\(fields)")
        let message = CassetteError.secretsFound(path: "leaky.cassette.json", findings: findings, context: FixContext.repl).errorDescription ?? ""
        #expect(message.contains("refusing to save leaky.cassette.json"))
        #expect(!message.contains(Self.token), "the report does not leak the token")
    }

    @Test("the lint finds a bare JWT in a text body")
    func jwtInText() {
        let interaction = Interaction.make(headers: ["Content-Type": "text/plain"], body: "token=\(Self.token)&x=1")
        let findings = SecretLint.findings(in: interaction, index: 0)
        #expect(findings.map(\.kind) == ["JWT"])
        #expect(SecretLint.findings(in: Interaction.make(headers: ["Content-Type": "text/plain"], body: "just eyJ words"), index: 0).isEmpty)
    }

    @Test("incoming requests with the real values redact to the recorded placeholders")
    func replayComparesRedacted() {
        let redactor = Redactor.standard
        let recorded = redactor.redact(Self.leakyInteraction()).request
        let incoming = redactor.redact(Self.leakyInteraction().request)
        #expect(recorded.url == incoming.url)
        #expect(recorded.headers == incoming.headers)
    }

    @Test("JSON paths with wildcards replace values in request and response bodies")
    func jsonPaths() throws {
        let body = #"{"users":[{"name":"a","ssn":"111-22-3333"},{"name":"b","ssn":"444-55-6666"}]}"#
        let interaction = Interaction.make(.post, requestHeaders: ["Content-Type": "application/json"],
                                           requestBody: Data(body.utf8), body: body)
        let redacted = Redactor(jsonPaths: ["/users/*/ssn"]).redact(interaction)
        let expected = #"{"users":[{"name":"a","ssn":"<REDACTED>"},{"name":"b","ssn":"<REDACTED>"}]}"#
        #expect(String(decoding: redacted.request.body ?? Data(), as: UTF8.self) == expected)
        #expect(String(decoding: redacted.response.body, as: UTF8.self) == expected)
    }

    @Test("by default, credential-named JSON members are redacted at any depth, so recording a login passes the lint")
    func credentialKeysByDefault() throws {
        let request = #"{"user":"ada","password":"hunter22","auth":{"refresh_token":"r3fr3sh-t0k3n"},"page":2}"#
        let response = #"{"json":{"password":"hunter22"},"next_page_token":"p4g3-t0k3n","name":"keyboard"}"#
        let interaction = Interaction.make(.post, requestHeaders: ["Content-Type": "application/json"],
                                           requestBody: Data(request.utf8), headers: ["Content-Type": "application/json"],
                                           body: response)
        let redacted = Redactor.standard.redact(interaction)
        #expect(String(decoding: redacted.request.body ?? Data(), as: UTF8.self)
            == #"{"user":"ada","password":"<REDACTED>","auth":{"refresh_token":"<REDACTED>"},"page":2}"#)
        #expect(String(decoding: redacted.response.body, as: UTF8.self)
            == #"{"json":{"password":"<REDACTED>"},"next_page_token":"<REDACTED>","name":"keyboard"}"#)
        #expect(SecretLint.findings(in: redacted, index: 0).isEmpty)
        #expect(!SecretLint.findings(in: interaction, index: 0).isEmpty, "the lint flags what redaction removes")
        let untouched = Redactor.disabled.redact(interaction)
        #expect(untouched.request.body == interaction.request.body)
    }

    @Test("a recording session stores a JSON login without refusing it, and the password never reaches the file")
    func recordsLogin() async throws {
        let directory = TemporaryDirectory()
        let url = directory.file("login.cassette.json")
        let server = StubTransport { request in
            HTTPResponse(status: 200, headers: ["Content-Type": "application/json"], body: request.body ?? Data())
        }
        let recorder = try RecordingTransport(configuration: CassetteConfiguration(url, mode: .all, environment: [:]), inner: server)
        var login = HTTPRequest(method: .post, url: URL(string: "http://api.test/login")!)
        try login.setBody(.json(["user": "ada", "password": "hunter22-secret"]))
        _ = try await recorder.send(login)
        try recorder.flush()
        let file = String(decoding: try Data(contentsOf: url), as: UTF8.self)
        #expect(!file.contains("hunter22-secret"))
        #expect(file.contains(#""password": "<REDACTED>""#), "\(file)")
        let replay = try RecordingTransport(configuration: CassetteConfiguration(url, mode: .replayOnly, environment: [:]), inner: server)
        #expect(try await replay.send(login).status == 200, "the real password still matches on replay")
    }
}
