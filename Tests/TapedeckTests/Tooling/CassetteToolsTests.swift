import Foundation
import Testing
@testable import Tapedeck
@testable import TapedeckTooling

@Suite("Cassette lint, diff, table and usage")
struct CassetteToolsTests {
    private func interaction(_ path: String, status: Int = 200, body: String = "ok", headers: HTTPHeaders = [:],
                             requestHeaders: HTTPHeaders = [:]) -> Interaction {
        Interaction(request: HTTPRequest(url: URL(string: "https://api.example.com\(path)")!, headers: requestHeaders),
                    response: HTTPResponse(status: status, headers: headers, body: Data(body.utf8)),
                    recordedAt: InteropFixtures.date)
    }

    @Test("lint finds a bearer token, an exact duplicate, invalid JSON, a stale Content-Encoding and a wrong Content-Length")
    func lint() {
        let cassette = Cassette(interactions: [
            interaction("/me", body: #"{"id": 7"#, headers: ["Content-Type": "application/json"],
                        requestHeaders: ["Authorization": "Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhZGEifQ.c2lnbmF0dXJlc2ln"]),
            interaction("/health"),
            interaction("/health"),
            interaction("/gz", headers: ["Content-Encoding": "gzip"]),
            interaction("/len", headers: ["Content-Length": "10"]),
        ])
        let findings = CassetteLint.findings(in: cassette)
        #expect(findings.map { "\($0.interaction) \($0.field) \($0.kind.rawValue)" } == [
            "0 request.headers.Authorization secret",
            "0 response.body undecodable",
            "3 response.headers.Content-Encoding undecodable",
            "4 response.headers.Content-Length undecodable",
        ])
        #expect(findings[1].description == "interactions[0].response.body: [undecodable] Content-Type is application/json "
            + "but the body is not valid JSON (line 1, column 9: unexpected end of input)")
        #expect(CassetteLint.findings(in: InteropFixtures.sampleCassette()).isEmpty)
        // Identical interactions are served in recorded order: a note, not a finding.
        #expect(CassetteLint.duplicates(in: cassette).map { "\($0.interaction)=\($0.duplicateOf)" } == ["2=1"])
        var ftp = cassette
        ftp.interactions[1].request.url = URL(fileURLWithPath: "/health")
        #expect(CassetteLint.findings(in: ftp).contains { $0.interaction == 1 && $0.kind == .unreachable && $0.field == "request.url" })
    }

    @Test("lint takes an empty answer to a HEAD, and an empty 304, whose Content-Length is the one a GET would get, as the recorder keeps them")
    func lengthOfAnotherBody() {
        var head = interaction("/file", body: "", headers: ["Content-Length": "5"])
        head.request.method = .head
        let notModified = interaction("/file", status: 304, body: "", headers: ["Content-Length": "5"])
        var headWithBody = interaction("/file", body: "abc", headers: ["Content-Length": "5"])
        headWithBody.request.method = .head
        let getEmpty = interaction("/file", body: "", headers: ["Content-Length": "5"])
        let findings = CassetteLint.findings(in: Cassette(interactions: [head, notModified, headWithBody, getEmpty]))
        #expect(findings.map { "\($0.interaction) \($0.field)" } == ["2 response.headers.Content-Length", "3 response.headers.Content-Length"])
    }

    @Test("an unreachable URL is reported without the password in its userinfo")
    func unreachableWithoutPassword() {
        let cassette = Cassette(interactions: [.make(.get, "ftp://alice:hunter2secret@files.test/a.txt", headers: [:], body: "x")])
        let finding = CassetteLint.findings(in: cassette).first { $0.kind == .unreachable }
        #expect(finding?.message.contains("ftp://alice:%3CREDACTED%3E@files.test/a.txt") == true, "\(String(describing: finding?.message))")
        #expect(CassetteLint.findings(in: cassette).allSatisfy { !$0.message.contains("hunter2secret") })
    }

    @Test("diff pairs interactions by method and URL and lists field changes, JSON bodies by pointer")
    func diff() {
        let json: HTTPHeaders = ["Content-Type": "application/json", "Date": "Mon"]
        let old = Cassette(interactions: [
            interaction("/a", body: #"{"n": 1, "keep": true, "gone": 0}"#, headers: json),
            interaction("/removed"),
            interaction("/same"),
        ])
        var changedHeaders = json
        changedHeaders["Date"] = "Tue"
        let new = Cassette(interactions: [
            interaction("/a", status: 201, body: #"{"keep": true, "n": 2, "new": "x"}"#, headers: changedHeaders),
            interaction("/same"),
            interaction("/added"),
        ])
        let text = CassetteDiff(old, new, ignoredHeaders: []).render(oldName: "old.yaml", newName: "new.har")
        #expect(text == """
            --- old.yaml
            +++ new.har
            ~ #0 GET https://api.example.com/a → 201
                response.status: 200 → 201
                response.reason: "OK" → "Created"
                response.headers.Date: "Mon" → "Tue"
                response.body /n: 1 → 2
                response.body /new: (absent) → "x"
                response.body /gone: 0 → (absent)
            - #1 GET https://api.example.com/removed → 200
            + #2 GET https://api.example.com/added → 200
            1 changed, 1 removed, 1 added, 1 unchanged
            """)
        let quiet = CassetteDiff(old, new, ignoredHeaders: ["date"]).render(oldName: "a", newName: "b")
        #expect(!quiet.contains("Date"))
        // A member name holding a line break and an escape cannot forge a line.
        let forged = Cassette(interactions: [interaction("/a", body: "{\"x\\n+ #9 GET http://forged\\u001b[2J\": 1}", headers: json)])
        let shown = CassetteDiff(Cassette(interactions: [interaction("/a", body: "{}", headers: json)]), forged).render(oldName: "a", newName: "b")
        #expect(!shown.split(separator: "\n").contains { $0.hasPrefix("+ #9") } && !shown.contains("\u{1B}"), "\(shown)")
        #expect(shown.contains(#"x\x0a+ #9 GET http:~1~1forged\x1b[2J"#), "\(shown)")
        #expect(CassetteDiff(old, old).isEmpty)
    }

    /// A cassette from elsewhere (a browser's HAR) that was never redacted: a key in a query,
    /// a password in a userinfo, a bearer token its path repeats, a session cookie.
    private func unredacted() -> Cassette {
        Cassette(interactions: [
            interaction("/login?api_key=sk_query_secret_1", requestHeaders: ["Authorization": "Bearer tok_header_secret_22"]),
            Interaction(request: HTTPRequest(url: URL(string: "https://alice:pw_userinfo_333@api.example.com/sessions/tok_header_secret_22")!,
                                             headers: ["Cookie": "sid=cookie_secret_4444"]),
                        response: HTTPResponse(status: 200, headers: ["Set-Cookie": "sid=cookie_secret_4444; Path=/; HttpOnly"], body: Data("ok".utf8)),
                        recordedAt: InteropFixtures.date),
        ])
    }
    private let secrets = ["sk_query_secret_1", "tok_header_secret_22", "pw_userinfo_333", "cookie_secret_4444"]

    @Test("show, diff (text and HTML) and the viewer never print a credential a never-redacted cassette holds, even where another interaction repeats it")
    func viewsRedact() {
        let cassette = unredacted()
        var rotated = cassette
        rotated.interactions[0].request.headers["Authorization"] = "Bearer tok_rotated_secret_55"
        rotated.interactions[1].response.status = 404
        let diff = CassetteDiff(cassette, rotated)
        let shown = [
            CassetteTable.render(cassette, urlWidth: nil),
            diff.render(oldName: "a.har", newName: "b.har"),
            CassetteViewPage.html(for: diff, oldName: "a.har", newName: "b.har"),
            CassetteViewPage.html(for: cassette, name: "a.har"),
        ]
        for text in shown {
            for secret in secrets + ["tok_rotated_secret_55"] { #expect(!text.contains(secret), "\(secret) in \(text)") }
        }
        #expect(shown[0].contains("/sessions/%3CREDACTED%3E"), "\(shown[0])")
        #expect(shown[0].contains("api_key=%3CREDACTED%3E"), "\(shown[0])")
        // A rotated token is no difference; the status still is.
        #expect(shown[1].contains("response.status: 200 → 404"), "\(shown[1])")
        #expect(!shown[1].contains("Authorization"), "\(shown[1])")
    }

    @Test("lint names unredacted Cookie and Set-Cookie values, masked, and not placeholders or a cassette Tapedeck redacted")
    func lintCookies() {
        let findings = CassetteLint.findings(in: unredacted()).filter { $0.message.hasPrefix("cookie value") }
        #expect(findings.map { "\($0.interaction) \($0.field)" } == ["1 request.headers.Cookie", "1 response.headers.Set-Cookie"], "\(findings)")
        #expect(findings.allSatisfy { $0.message.contains("sid=cook…(18 chars)") && !$0.message.contains("cookie_secret_4444") }, "\(findings)")
        #expect(CassetteLint.findings(in: Redactor.standard.redact(unredacted())).isEmpty)
        // An analytics cookie carries a visitor's id, not a credential.
        var tracked = Interaction.make(.get, "http://api.test/page", requestHeaders: ["Cookie": "_ga=GA1.1.123456789.1700000000; _fbp=fb.1.1700000000.42"])
        tracked.response.status = 200
        #expect(CassetteLint.findings(in: Cassette(interactions: [tracked])).isEmpty)
        // A setting of words is not a session; a single word, digits or a long run may be one.
        var settings = Interaction.make(.get, "http://api.test/page", requestHeaders: [
            "Cookie": "tz=Europe%2FBerlin; locale=en-US; theme=dark_mode; keyboard_layout=en-US-international; author_view=compact-list-mode; "
                + "passive_listening=off-by-default; monkey=banana-split-flavour",
        ])
        settings.response.status = 200
        #expect(CassetteLint.findings(in: Cassette(interactions: [settings])).isEmpty)
        for session in ["sid=hunterpassword", "sid=abc-def-12345678", "sid=Europe/Berlinxxxxxxxxxxxxxxxx", "auth=alice:correcthorse",
                        "remember_token=Xk-Qp-Zr-Lm-Wt-Yv-Bn", "sessionid=abcdefg.hijklmn", "pw=correct horse battery staple"] {
            var held = Interaction.make(.get, "http://api.test/page", requestHeaders: ["Cookie": session])
            held.response.status = 200
            #expect(CassetteLint.findings(in: Cassette(interactions: [held])).count == 1, "\(session)")
        }
        // Recording with a redactor that keeps cookies on purpose is not refused for them.
        #expect(SecretLint.findings(in: unredacted().interactions[1], index: 1).allSatisfy { !$0.kind.hasPrefix("cookie") })
    }

    @Test("diff compares a WebSocket session's frames, text quoted and binary in hex, and a recorded failure's kind")
    func diffFramesAndFailures() {
        func session(_ text: String, _ bytes: [UInt8]) -> Interaction {
            var interaction = Interaction.make(.get, "http://chat.test/room")
            interaction.response.status = 101
            interaction.response.webSocket = [WebSocketMessage(offset: 0, sender: .client, kind: .text, data: Data(text.utf8)),
                                              WebSocketMessage(offset: 0.1, sender: .server, kind: .binary, data: Data(bytes))]
            return interaction
        }
        var down = Interaction.make(.get, "http://api.test/down")
        down.failure = TransportFailure(kind: .cannotConnect)
        var late = down
        late.failure = TransportFailure(kind: .timedOut)
        let text = CassetteDiff(Cassette(interactions: [session("hello", [0, 1]), down]), Cassette(interactions: [session("goodbye", [0, 2]), late]))
            .render(oldName: "a", newName: "b")
        #expect(text.contains(#"response.webSocket[0]: client text "hello" → client text "goodbye""#), "\(text)")
        #expect(text.contains("response.webSocket[1]: server binary 0001 (2 bytes) → server binary 0002 (2 bytes)"), "\(text)")
        #expect(text.contains("failure: cannotConnect → timedOut"), "\(text)")
        // Text frames that differ past what a line quotes say where.
        let long = String(repeating: "x", count: 100)
        let far = CassetteDiff(Cassette(interactions: [session(long + "a", [0])]), Cassette(interactions: [session(long + "b", [0])])).render(oldName: "a", newName: "b")
        #expect(far.contains("(they differ at byte 100)"), "\(far)")
    }

    @Test("show renders #, method, URL, status, body size, recorded-at and age columns")
    func table() throws {
        let now = try #require(RFC3339Date.parse("2024-05-31T12:00:00Z"))
        let text = CassetteTable.render(InteropFixtures.sampleCassette(), now: now)
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines[0] == "#  METHOD  URL                                          STATUS  BODY  RECORDED AT           AGE")
        #expect(lines[1] == "0  GET     http://127.0.0.1:8080/get?a=1&b=two%20words     200  45 B  2024-05-01 10:00:00  30 d")
        #expect(lines[3] == "2  PUT     http://127.0.0.1:8080/upload                    200   8 B  2024-05-01 10:00:02  30 d")
        #expect(CassetteTable.byteCount(1536) == "1.5 KB")
    }

    @Test("a long table is written in blocks of whole lines, in order, padded to the widest row of all")
    func tableInBlocks() throws {
        let now = try #require(RFC3339Date.parse("2026-01-10T00:00:00Z"))
        // The widest URL is in the last block, so the first block's padding comes from it.
        let cassette = Cassette(interactions: (0..<20_000).map { index in
            .make(.get, index == 19_999 ? "http://api.test/a-longer-path/at-the-end" : "http://api.test/items/\(index)")
        })
        var blocks: [[UInt8]] = []
        CassetteTable.write(cassette, now: now) { blocks.append($0) }
        #expect(blocks.count == 4)   // the header, then 8,192 rows at most a block
        #expect(blocks.allSatisfy { $0.last == UInt8(ascii: "\n") })
        let lines = String(decoding: blocks.joined(), as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 20_002)   // the header, 20,000 rows, and the end of the last line
        #expect(Set(lines.dropLast().map { $0.count }).count == 1)
        #expect(lines[1].hasPrefix("    0  GET     http://api.test/items/0 "))
        #expect(lines[20_000].hasPrefix("19999  GET     http://api.test/a-longer-path/at-the-end"))
        #expect(String(decoding: blocks.joined(), as: UTF8.self) == CassetteTable.render(cassette, now: now) + "\n")
    }

    @Test("usage round-trips through its file and notices a changed cassette")
    func usage() throws {
        let directory = try InteropFixtures.temporaryDirectory()
        let cassetteURL = directory.appendingPathComponent("a.har")
        let environment = ["TAPEDECK_USAGE_DIR": directory.appendingPathComponent("usage").path]
        #expect(CassetteUsage.url(for: cassetteURL, environment: environment).path.hasPrefix(directory.path + "/usage/a.har-"))
        let cassette = InteropFixtures.sampleCassette()
        let usage = CassetteUsage(cassette: cassette, unused: [3, 1], finishedAt: InteropFixtures.date)
        #expect(usage.unused == [1, 3])
        #expect(usage.matches(cassette))
        var changed = cassette
        changed.interactions.removeLast()
        #expect(!usage.matches(changed))
    }

    @Test("gzip with extra header fields and zlib deflate decode; a truncated stream is an error")
    func inflate() throws {
        let compressed = try InteropFixtures.data("vcrpy-compressed.yaml")
        let cassette = try VCRCassetteReader.read(compressed, file: "c.yaml", defaultDate: Date())
        #expect(cassette.interactions[0].response.body.count == 389)
        let gzip = Data(base64Encoded: "H4sIAAAAAAAAA8tIzcnJBwCGphA2BQAAAA==")!
        #expect(try Inflate.gunzip(gzip, limit: 100) == Data("hello".utf8))
        #expect(throws: Inflate.Failure.self) { try Inflate.gunzip(gzip.prefix(14), limit: 100) }
    }
}
