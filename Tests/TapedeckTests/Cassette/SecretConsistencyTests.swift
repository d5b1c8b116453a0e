import Foundation
import Testing
@testable import Tapedeck

@Suite("Secrets: one value, one placeholder, everywhere")
struct SecretConsistencyTests {
    static let token = "tok_live_9f8e7d6c5b4a"

    /// A login that returns a token, then requests that reuse it in a path, a query item, a
    /// custom header and a text body; the server echoes what it was sent.
    static func session() -> [HTTPRequest] {
        var login = HTTPRequest(method: .post, url: URL(string: "http://api.test/login")!)
        try? login.setBody(.json(["user": "ada", "password": "hunter22-pw"]))
        var note = HTTPRequest(method: .post, url: URL(string: "http://api.test/notes")!,
                               headers: ["Content-Type": "text/plain", "X-Trace": "trace \(token)"])
        note.body = Data("my token is \(token)".utf8)
        return [
            login,
            HTTPRequest(url: URL(string: "http://api.test/sessions/\(token)")!),
            HTTPRequest(url: URL(string: "http://api.test/items?session=\(token)&page=2")!),
            HTTPRequest(url: URL(string: "http://api.test/me")!, headers: ["Authorization": "Bearer \(token)"]),
            note,
        ]
    }

    static let server = StubTransport { request in
        if request.url.path == "/login" {
            return HTTPResponse(status: 200, headers: ["Content-Type": "application/json"],
                                body: Data(#"{"access_token": "\#(token)", "token_type": "bearer"}"#.utf8))
        }
        let echo = request.url.absoluteString + " " + String(decoding: request.body ?? Data(), as: UTF8.self)
        return HTTPResponse(status: 200, headers: ["Content-Type": "text/plain", "Location": request.url.absoluteString],
                            body: Data(echo.utf8))
    }

    @Test("the lint names each field a value redacted elsewhere still shows in, with the value masked, and no field twice")
    func redactedElsewhere() {
        // Interaction 0 carries the token in a credential header (a finding of its own); 1 and 2
        // carry it where only the cassette-wide redaction would find it.
        let first = Interaction(request: HTTPRequest(url: URL(string: "http://api.test/login")!, headers: ["X-Api-Key": Self.token]),
                                response: HTTPResponse(status: 204))
        var echo = HTTPRequest(method: .post, url: URL(string: "http://api.test/notes")!, headers: ["Content-Type": "text/plain"])
        echo.body = Data("note about \(Self.token)".utf8)
        let second = Interaction(request: echo, response: HTTPResponse(status: 201, headers: ["Content-Type": "text/plain"],
                                                                      body: Data("saved \(Self.token)".utf8)))
        let third = Interaction(request: HTTPRequest(url: URL(string: "http://api.test/s/\(Self.token)")!), response: HTTPResponse(status: 200))
        let findings = SecretLint.findings(in: Cassette(interactions: [first, second, third]))
        let elsewhere = findings.filter { $0.kind.hasPrefix("value redaction would replace") }
        #expect(findings.contains { $0.interaction == 0 && $0.field == "request header X-Api-Key" }, "\(findings)")
        #expect(Set(elsewhere.map { "\($0.interaction) \($0.field)" }) == ["1 request body", "1 response body", "2 request URL"], "\(elsewhere)")
        #expect(elsewhere.count == 3)
        #expect(!elsewhere.contains { $0.interaction == 0 }, "a field already found is not named again")
        for finding in elsewhere { #expect(!finding.excerpt.contains(Self.token), "\(finding)") }
    }

    @Test("a Basic credential echoed by the server, in a text body, an HTML body or a header, never reaches the file")
    func basicEchoed() async throws {
        let basic = Data("ada:s3cret-pw".utf8).base64EncodedString()
        let echo = StubTransport { request in
            let sent = request.headers["Authorization"] ?? ""
            let html = request.url.path == "/html"
            return HTTPResponse(status: 200, headers: ["Content-Type": html ? "text/html" : "text/plain", "X-Echo": sent],
                                body: Data((html ? "<p>you sent <code>\(sent)</code></p>" : "you sent \(sent)").utf8))
        }
        let directory = TemporaryDirectory()
        let url = directory.file("basic.cassette.json")
        let recorder = try RecordingTransport(configuration: CassetteConfiguration(url, mode: .all, environment: [:]), inner: echo)
        for path in ["/text", "/html"] {
            _ = try await recorder.send(HTTPRequest(url: URL(string: "http://api.test" + path)!, headers: ["Authorization": "Basic " + basic]))
        }
        try recorder.flush()
        let file = String(decoding: try Data(contentsOf: url), as: UTF8.self)
        #expect(!file.contains(basic), "\(file)")
        #expect(file.contains("you sent <REDACTED>"))
        // Free text (a report's failure message) is redacted by the same rule.
        #expect(Redactor.standard.redact(text: "got Basic \(basic) back") == "got Basic <REDACTED> back")
        #expect(Redactor.standard.redact(text: "Basic information about routes") == "Basic information about routes")
    }

    @Test("a token from a login response never reaches the file, wherever later requests reuse it")
    func tokenReusedAcrossInteractions() async throws {
        let directory = TemporaryDirectory()
        let url = directory.file("reuse.cassette.json")
        let recorder = try RecordingTransport(configuration: CassetteConfiguration(url, mode: .all, environment: [:]), inner: Self.server)
        for request in Self.session() { _ = try await recorder.send(request) }
        try recorder.flush()
        let file = String(decoding: try Data(contentsOf: url), as: UTF8.self)
        #expect(!file.contains(Self.token), "\(file)")
        #expect(!file.contains("hunter22-pw"))
        #expect(file.contains("http://api.test/sessions/%3CREDACTED%3E"), "the URL placeholder is the placeholder, percent-encoded")
        #expect(file.contains("session=%3CREDACTED%3E&page=2"))
        #expect(file.contains("my token is <REDACTED>"))
        #expect(!file.contains("\"REDACTED") && !file.contains("=REDACTED"), "one placeholder style")
        let cassette = try Cassette.load(from: url)
        #expect(SecretLint.findings(in: cassette).isEmpty)
        #expect(Redactor.standard.redact(cassette) == cassette, "redacting the saved cassette again changes nothing")
    }

    @Test("a token that reaches a URL before a later request shows it is a secret is scrubbed from the earlier interaction too, on disk at once")
    func backwardReuse() async throws {
        let directory = TemporaryDirectory()
        let url = directory.file("backward.cassette.json")
        let recorder = try RecordingTransport(configuration: CassetteConfiguration(url, mode: .all, environment: [:]), inner: Self.server)
        _ = try await recorder.send(HTTPRequest(url: URL(string: "http://api.test/sessions/\(Self.token)")!))
        _ = try await recorder.send(HTTPRequest(url: URL(string: "http://api.test/me")!,
                                                headers: ["Authorization": "Bearer \(Self.token)"]))
        // Before any flush (a process killed now): no file beside the cassette holds it.
        for name in try FileManager.default.contentsOfDirectory(atPath: directory.url.path) {
            let held = String(decoding: try Data(contentsOf: directory.file(name)), as: UTF8.self)
            #expect(!held.contains(Self.token), "\(name): \(held)")
        }
        try recorder.flush()
        let file = String(decoding: try Data(contentsOf: url), as: UTF8.self)
        #expect(!file.contains(Self.token), "\(file)")
        #expect(file.contains("http://api.test/sessions/%3CREDACTED%3E"))
    }

    @Test("replay matches requests that carry the real token and requests that send back the replayed placeholder")
    func replayMatchesRealAndPlaceholder() async throws {
        let directory = TemporaryDirectory()
        let url = directory.file("reuse.cassette.json")
        let recorder = try RecordingTransport(configuration: CassetteConfiguration(url, mode: .all, environment: [:]), inner: Self.server)
        for request in Self.session() { _ = try await recorder.send(request) }
        try recorder.flush()

        let real = try ReplayTransport(contentsOf: url)
        var withHeader = HTTPRequest(url: URL(string: "http://api.test/sessions/\(Self.token)")!,
                                     headers: ["Authorization": "Bearer \(Self.token)"])
        _ = try await real.send(Self.session()[0])
        #expect(try await real.send(withHeader).status == 200, "the token is learned from the header and found in the path")
        withHeader.url = URL(string: "http://api.test/items?session=\(Self.token)&page=2")!
        #expect(try await real.send(withHeader).status == 200)

        // A client replaying the login gets the placeholder as its token and sends it back.
        let replayed = try ReplayTransport(contentsOf: url)
        let login = try await replayed.send(Self.session()[0])
        let json = try JSONParser.parse(login.body)
        let received = try #require(json["access_token"]?.stringValue)
        #expect(received == Redactor.placeholder)
        let path = try #require(URL(string: "http://api.test/sessions/" + PercentEncoding.encodePathSegment(received)))
        #expect(try await replayed.send(HTTPRequest(url: path)).status == 200)
        let query = try URLComposer.compose(base: try URLComposer.parseBase("http://api.test"), path: "/items",
                                            query: [QueryItem(name: "session", value: received), QueryItem(name: "page", value: "2")])
        #expect(try await replayed.send(HTTPRequest(url: query)).status == 200)
    }

    @Test("the lint reports a value that is redacted in one interaction but left in another")
    func lintSeesLeftovers() {
        let login = Interaction.make(.post, "http://api.test/login", body: #"{"access_token": "<REDACTED>"}"#)
        let leaky = Interaction.make(.post, "http://api.test/login", body: #"{"access_token": "\#(Self.token)"}"#)
        let reuse = Interaction.make(.get, "http://api.test/sessions/\(Self.token)", headers: ["Content-Type": "text/plain"], body: "ok")
        let findings = SecretLint.findings(in: Cassette(interactions: [login, leaky, reuse]))
        let fields = findings.map { "\($0.interaction) \($0.field)" }
        #expect(fields.contains("1 response body /access_token"), "\(fields)")
        #expect(fields.contains("2 request URL"), "\(fields)")
        #expect(findings.allSatisfy { !$0.description.contains(Self.token) })
        let redacted = Redactor.standard.redact(Cassette(interactions: [login, leaky, reuse]))
        #expect(SecretLint.findings(in: redacted).isEmpty)
        #expect(Redactor.standard.redact(redacted) == redacted, "idempotent")
    }

    @Test("credential-named fields of form and multipart bodies are redacted like JSON members, and the lint sees them")
    func formAndMultipart() throws {
        let form = "user=ada&password=hunter2%2B&client_secret=s3cr3t+value&grant_type=password"
        let boundary = "XyZ123"
        let multipart = "--\(boundary)\r\nContent-Disposition: form-data; name=\"user\"\r\n\r\nada\r\n"
            + "--\(boundary)\r\nContent-Disposition: form-data; name=\"api_key\"\r\n\r\nk3y-v4lue-99\r\n"
            + "--\(boundary)\r\nContent-Disposition: form-data; name=\"password\"; filename=\"password.txt\"\r\n\r\nfile body\r\n"
            + "--\(boundary)--\r\n"
        let formInteraction = Interaction.make(.post, "http://api.test/token",
                                               requestHeaders: ["Content-Type": "application/x-www-form-urlencoded"],
                                               requestBody: Data(form.utf8), headers: ["Content-Type": "text/plain"],
                                               body: "got hunter2+ and s3cr3t value")
        let multipartInteraction = Interaction.make(.post, "http://api.test/upload",
                                                    requestHeaders: ["Content-Type": "multipart/form-data; boundary=\(boundary)"],
                                                    requestBody: Data(multipart.utf8))
        let raw = Cassette(interactions: [formInteraction, multipartInteraction])
        let fields = SecretLint.findings(in: raw).map { "\($0.interaction) \($0.field)" }
        #expect(fields.contains("0 request body password"), "\(fields)")
        #expect(fields.contains("0 request body client_secret"), "\(fields)")
        #expect(fields.contains("1 request body api_key"), "\(fields)")

        let redacted = Redactor.standard.redact(raw)
        let formBody = String(decoding: redacted.interactions[0].request.body ?? Data(), as: UTF8.self)
        #expect(formBody == "user=ada&password=%3CREDACTED%3E&client_secret=%3CREDACTED%3E&grant_type=password")
        #expect(String(decoding: redacted.interactions[0].response.body, as: UTF8.self) == "got <REDACTED> and <REDACTED>")
        let multipartBody = String(decoding: redacted.interactions[1].request.body ?? Data(), as: UTF8.self)
        #expect(multipartBody.contains("name=\"api_key\"\r\n\r\n<REDACTED>\r\n"))
        #expect(multipartBody.contains("ada\r\n") && multipartBody.contains("file body"), "other fields and files stay")
        #expect(redacted.interactions[1].request.headers["Content-Length"] == nil
            || redacted.interactions[1].request.headers["Content-Length"] == String(multipartBody.utf8.count))
        #expect(SecretLint.findings(in: redacted).isEmpty)

        // Replay with body matching still matches the real form.
        let replay = ReplayTransport(cassette: redacted, configuration: .init(URL(fileURLWithPath: "<memory>"), matcher: Matcher(body: .form)))
        let incoming = HTTPRequest(method: .post, url: URL(string: "http://api.test/token")!,
                                   headers: ["Content-Type": "application/x-www-form-urlencoded"], body: Data(form.utf8))
        #expect(throws: Never.self) { try replay.serve(incoming) }
    }

    @Test("a request served on replay's fast path still teaches its header's token, so a later request with it in the path matches")
    func fastPathLearns() throws {
        let me = Interaction.make(.get, "http://api.test/me", requestHeaders: ["Authorization": "Bearer \(Self.token)"], body: "ada")
        let byToken = Interaction.make(.get, "http://api.test/sessions/\(Self.token)", body: "open")
        let recorded = Redactor.standard.redact(Cassette(interactions: [me, byToken]))
        #expect(recorded.interactions[1].request.url.path.contains("REDACTED"))
        let replay = ReplayTransport(cassette: recorded)
        let first = HTTPRequest(method: .get, url: URL(string: "http://api.test/me")!, headers: ["Authorization": "Bearer \(Self.token)"])
        #expect(String(decoding: try replay.serve(first).body, as: UTF8.self) == "ada")
        let second = HTTPRequest(method: .get, url: URL(string: "http://api.test/sessions/\(Self.token)")!)
        #expect(String(decoding: try replay.serve(second).body, as: UTF8.self) == "open")
    }

    @Test("a value is replaced elsewhere only where it stands whole, a cookie's plain word ('application', 'dismiss') only in its own field, a letters-only password everywhere")
    func wholeValuesOnly() {
        let cookie = Interaction.make(.get, "http://api.test/prefs", requestHeaders: ["Cookie": "fmt=application; banner=dismiss; sid=s3ss10n-id"],
                                      headers: ["Content-Type": "application/json"], body: #"{"banner":"dismissed","id":"s3ss10n-idx","echo":"s3ss10n-id"}"#)
        let redacted = Redactor.standard.redact(Cassette(interactions: [cookie])).interactions[0]
        #expect(redacted.response.headers["Content-Type"] == "application/json")
        #expect(redacted.request.headers["Cookie"] == "fmt=<REDACTED>; banner=<REDACTED>; sid=<REDACTED>")
        let body = String(decoding: redacted.response.body, as: UTF8.self)
        #expect(body.contains(#""banner":"dismissed""#) && body.contains(#""id":"s3ss10n-idx""#) && body.contains(#""echo":"<REDACTED>""#), "\(body)")
        #expect(Redactor.standard.redact(text: "/x/tok123abc and tok123abcd", knownSecrets: ["tok123abc"]) == "/x/<REDACTED> and tok123abcd")
        // A letters-only password is a credential wherever it is echoed.
        var login = Interaction.make(.post, "http://api.test/login", headers: ["Content-Type": "text/plain"], body: "you sent password=swordfishes")
        login.request.headers["Content-Type"] = "application/x-www-form-urlencoded"
        login.request.body = Data("user=ada&password=swordfishes".utf8)
        let echoed = Redactor.standard.redact(Cassette(interactions: [login])).interactions[0]
        #expect(!String(decoding: echoed.response.body, as: UTF8.self).contains("swordfishes"), "\(String(decoding: echoed.response.body, as: UTF8.self))")
    }

    @Test("a cassette redacted whole loses what only its shape gives away: a vendor key in a text body, a JWT, a token as a URL's user name, and a failure's words")
    func tokenShapes() throws {
        let jwt = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhZGEifQ.c2lnbmF0dXJlc2ln"
        let text = Interaction.make(.get, "https://ghp_aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789@github.test/repo",
                                    headers: ["Content-Type": "text/plain"], body: "key sk_live_4eC39HqLyjWDarjtT1zdp7dc and \(jwt)")
        var failed = Interaction.make(.get, "http://api.test/fail?access_token=FAILQ_888x", requestHeaders: ["Authorization": "Bearer FAILAUTH_999x"])
        failed.failure = TransportFailure(kind: .cannotConnect, detail: "could not connect to /fail?access_token=FAILQ_888x with Bearer FAILAUTH_999x")
        let cassette = Redactor.standard.redact(Cassette(interactions: [text, failed]))
        let written = String(decoding: CassetteCodec.encode(cassette), as: UTF8.self)
        for secret in ["ghp_aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789", "sk_live_4eC39HqLyjWDarjtT1zdp7dc", jwt, "FAILQ_888x", "FAILAUTH_999x"] {
            #expect(!written.contains(secret), "\(secret) in \(written)")
        }
        #expect(cassette.interactions[0].request.urlText == "https://%3CREDACTED%3E@github.test/repo")
        // A private key goes whole, BEGIN to END, in a text body or a JSON member of any name.
        let pem = "-----BEGIN PRIVATE KEY-----\nMIICeAIBADANBgkqhkiG9w0BAQEFAASCAmIwggJeAgEAAoGBAKEYmaterial\n-----END PRIVATE KEY-----"
        let keys = Redactor.standard.redact(Cassette(interactions: [
            Interaction.make(.get, "http://api.test/k", headers: ["Content-Type": "text/plain"], body: "key:\n" + pem + "\nafter"),
            Interaction.make(.get, "http://api.test/j", headers: ["Content-Type": "application/json"], body: #"{"key": "\#(pem.replacingOccurrences(of: "\n", with: "\\n"))"}"#),
        ]))
        let keysText = String(decoding: CassetteCodec.encode(keys), as: UTF8.self)
        #expect(!keysText.contains("MIICeAIBADAN") && keysText.contains("after"), "\(keysText)")
        #expect(SecretLint.findings(in: cassette).isEmpty, "\(SecretLint.findings(in: cassette))")
    }

    @Test("a redirect's Location and a URL's fragment lose their tokens (OAuth's #access_token=…), and the lint names one left")
    func locationAndFragment() {
        var redirect = Interaction.make(.get, "http://auth.test/authorize")
        redirect.response.status = 302
        redirect.response.headers["Location"] = "https://app.test/cb?code=c0de&access_token=TOKq5678xyz#access_token=TOKfrag1234&token_type=bearer"
        let page = Interaction.make(.get, "https://app.test/cb#access_token=TOKfrag1234&token_type=bearer")
        let cassette = Cassette(interactions: [redirect, page])
        #expect(SecretLint.findings(in: cassette).contains { $0.field.hasPrefix("response header") }, "\(SecretLint.findings(in: cassette))")
        let redacted = Redactor.standard.redact(cassette)
        let text = String(decoding: CassetteCodec.encode(redacted), as: UTF8.self)
        for secret in ["TOKq5678xyz", "TOKfrag1234"] { #expect(!text.contains(secret), "\(secret) in \(text)") }
        #expect(redacted.interactions[0].response.headers["Location"]?.hasSuffix("#access_token=%3CREDACTED%3E&token_type=bearer") == true,
                "\(String(describing: redacted.interactions[0].response.headers["Location"]))")
    }

    @Test("free text loses credential pairs, header lines, bearer tokens and every known secret")
    func text() {
        let text = #"actual: {"access_token":"abc123xyz789","api_key":"k-1234567","name":"ok"} then password=hunter2&x=1"#
            + "\nAuthorization: Basic QWxhZGRpbjpvcGVu\nand again abc123xyz789, hunter2"
        let redacted = Redactor.standard.redact(text: text)
        for secret in ["abc123xyz789", "k-1234567", "hunter2", "QWxhZGRpbjpvcGVu"] {
            #expect(!redacted.contains(secret), "\(secret) in \(redacted)")
        }
        #expect(redacted.contains(#""name":"ok""#))
        #expect(Redactor.standard.redact(text: "plain words", knownSecrets: ["words"]) == "plain words", "short values stay")
        #expect(Redactor.standard.redact(text: "value 9f8e7d6c5b", knownSecrets: ["9f8e7d6c5b"]) == "value <REDACTED>")
    }
}
