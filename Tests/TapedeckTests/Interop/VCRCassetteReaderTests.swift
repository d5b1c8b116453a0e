import Foundation
import Testing
@testable import Tapedeck

@Suite("vcrpy YAML reader")
struct VCRCassetteReaderTests {
    private func read(_ name: String) throws -> Cassette {
        try Cassette.decode(InteropFixtures.data(name), format: .vcrYAML, file: name)
    }

    private func error(_ yaml: String, file: String = "bad.yaml") -> String? {
        do {
            _ = try VCRCassetteReader.read(Data(yaml.utf8), file: file, defaultDate: Date())
            return nil
        } catch {
            return error.errorDescription
        }
    }

    @Test("a cassette vcrpy recorded against httpbin: methods, URLs, list headers, text and !!binary bodies")
    func recordedByVCR() throws {
        let cassette = try read("vcrpy-httpbin.yaml")
        #expect(cassette.interactions.count == 8)
        let first = cassette.interactions[0]
        #expect(first.request.method == .get)
        #expect(first.request.url.absoluteString == "http://127.0.0.1:37503/get?a=1&b=two")
        #expect(first.request.headers["X-Test"] == "yes")
        #expect(first.request.body == nil)
        #expect(first.response.status == 200)
        #expect(first.response.text?.contains(#""b": "two""#) == true)
        let post = cassette.interactions[1]
        #expect(post.request.body == Data(#"{"name": "Ada", "n": 1}"#.utf8))
        let bytes = cassette.interactions[3]
        #expect(bytes.response.body == Data(base64Encoded: "RCCCPP3m8cJrMPkOx90B5A=="))
        let teapot = cassette.interactions[4]
        #expect(teapot.response.status == 418)
        #expect(teapot.response.reason == "I'M A TEAPOT")
        #expect(cassette.interactions[5].response.headers.values(for: "set-cookie") == ["a=1", "b=2"])
    }

    @Test("plain scalars stay the text written: no yes→true, 0123→83, 1.0→1, ~→null in headers or bodies")
    func plainScalarsStayText() throws {
        let yaml = """
            interactions:
            - request: {method: GET, uri: 'http://127.0.0.1/x', body: null, headers: {}}
              response:
                status: {code: 200, message: OK}
                headers: {X-Yes: [yes], X-Octal: [0123], X-Float: [1.0], X-Inf: [.inf], X-Date: [2001-12-14]}
                body: {string: on}
            version: 1
            """
        let response = try VCRCassetteReader.read(Data(yaml.utf8), file: "t.yaml", defaultDate: Date()).interactions[0].response
        #expect(response.headers["X-Yes"] == "yes")
        #expect(response.headers["X-Octal"] == "0123")
        #expect(response.headers["X-Float"] == "1.0")
        #expect(response.headers["X-Inf"] == ".inf")
        #expect(response.headers["X-Date"] == "2001-12-14")
        #expect(response.body == Data("on".utf8))
        let badCode = yaml.replacingOccurrences(of: "code: 200", with: "code: [2]")
        #expect(error(badCode, file: "t.yaml") == "t.yaml: interactions[0].response.status.code: expected an integer, found a sequence (line 4)")
    }

    @Test("a decoded gzip body with Content-Encoding left in place keeps its body and loses the header")
    func decodedGzip() throws {
        let gzip = try read("vcrpy-httpbin.yaml").interactions[2].response
        #expect(gzip.headers["Content-Encoding"] == nil)
        #expect(gzip.headers["Content-Length"] == String(gzip.body.count))
        #expect(gzip.text?.contains(#""gzipped": true"#) == true)
    }

    @Test("gzip and deflate bodies stored compressed are decoded, Content-Length rewritten")
    func compressedBodies() throws {
        let cassette = try read("vcrpy-compressed.yaml")
        let expected = #"{"gzipped": true, "text": ""# + String(repeating: "tapedeck ", count: 40) + #""}"#
        for interaction in cassette.interactions {
            #expect(interaction.response.text == expected, "\(interaction.request.url)")
            #expect(interaction.response.headers["Content-Encoding"] == nil)
            #expect(interaction.response.headers["Content-Length"] == "389")
        }
    }

    @Test("a body Tapedeck cannot decode (br, zstd, a gzip stream cut short) keeps its Content-Encoding, so it is never served as plain text")
    func undecodedKeepsItsHeader() throws {
        var gzip = Data([0x1F, 0x8B, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03])
        gzip.append(contentsOf: [0xAB, 0xCD, 0xEF, 0x01, 0x23, 0x45, 0x67, 0x89, 0xAB, 0xCD])
        for (coding, body) in [("br", Data([0x8B, 0x08, 0x80, 0x68, 0x69, 0x03])), ("zstd", Data([0x28, 0xB5, 0x2F, 0xFD, 0x00])), ("gzip", gzip)] {
            var headers: HTTPHeaders = ["Content-Encoding": coding, "Content-Length": String(body.count)]
            var decoded = body
            #expect(try ContentCoding.normalize(headers: &headers, body: &decoded) == coding)
            #expect(headers["Content-Encoding"] == coding && decoded == body, "\(coding): \(headers)")
        }
        // Text under a coding Tapedeck does not decode is the decoded body (a HAR's text): the header goes.
        var jsonHeaders: HTTPHeaders = ["Content-Encoding": "br"]
        var json = Data(#"{"ok":true}"#.utf8)
        #expect(try ContentCoding.normalize(headers: &jsonHeaders, body: &json) == nil)
        #expect(jsonHeaders["Content-Encoding"] == nil && json == Data(#"{"ok":true}"#.utf8))
        // Applied in turn: the one undone is gone from the header, the one left stays.
        var headers: HTTPHeaders = ["Content-Encoding": "br, gzip"]
        var body = Data([31, 139, 8, 0, 0, 0, 0, 0, 2, 3, 235, 230, 104, 200, 200, 100, 6, 0, 142, 163, 110, 115, 6, 0, 0, 0])
        #expect(try ContentCoding.normalize(headers: &headers, body: &body) == "br")
        #expect(headers["Content-Encoding"] == "br" && body == Data([0x8B, 0x08, 0x80, 0x68, 0x69, 0x03]), "\(headers) \(Array(body))")
    }

    @Test("a pre-1.0 cassette: top-level list, protocol/host/port/path, tuple headers, raw header lines, BytesIO body")
    func legacy() throws {
        let cassette = try read("vcrpy-legacy.yaml")
        #expect(cassette.interactions.count == 2)
        let first = cassette.interactions[0]
        #expect(first.request.url.absoluteString == "http://example.com/users?page=2")
        #expect(first.request.headers.fields.map(\.name) == ["Accept", "User-Agent"])
        #expect(first.response.text == #"{"page": 2}"#)
        #expect(first.response.headers.values(for: "Set-Cookie") == ["a=1", "b=2"])
        let second = cassette.interactions[1]
        #expect(second.request.url.absoluteString == "https://example.com:8443/upload")
        #expect(second.request.body == Data([0x00, 0x01, 0x02, 0xFF]))
        #expect(second.response.status == 201)
        #expect(second.response.text == "created")
    }

    @Test("a pre-1.0 cassette's IPv6 host is put in brackets, with or without a port")
    func legacyIPv6() throws {
        func legacy(host: String, port: Int) -> String {
            "- request:\n    body: null\n    headers: []\n    host: '\(host)'\n    method: GET\n    path: /a?b=1\n"
                + "    port: \(port)\n    protocol: http\n  response:\n    body: ok\n    headers: []\n    status: 200\n"
        }
        let cases = [("::1", 8080, "http://[::1]:8080/a?b=1"), ("fe80::2", 80, "http://[fe80::2]/a?b=1"),
                     ("[::1]", 8080, "http://[::1]:8080/a?b=1"), ("127.0.0.1", 80, "http://127.0.0.1/a?b=1")]
        for (host, port, expected) in cases {
            let cassette = try VCRCassetteReader.read(Data(legacy(host: host, port: port).utf8), file: "old.yaml",
                                                      defaultDate: Date(timeIntervalSince1970: 0))
            #expect(cassette.interactions.first?.request.url.absoluteString == expected)
        }
    }

    @Test("interactions without Tapedeck metadata get the default date and the request URL")
    func defaults() throws {
        let date = Date(timeIntervalSince1970: 1_000)
        let cassette = try VCRCassetteReader.read(InteropFixtures.data("vcrpy-httpbin.yaml"), file: "a.yaml", defaultDate: date)
        #expect(cassette.interactions.allSatisfy { $0.recordedAt == date })
        #expect(cassette.interactions[0].response.url == cassette.interactions[0].request.url)
    }

    @Test("malformed cassettes name the file, the path inside it and the problem")
    func malformed() {
        let request = "  request:\n    method: GET\n    uri: http://x.test/\n"
        #expect(error("interactions:\n-\(request.dropFirst(1))  response:\n    status:\n      code: abc\n")
            == "bad.yaml: interactions[0].response.status.code: expected an integer, found \"abc\" (line 7)")
        #expect(error("interactions:\n-\(request.dropFirst(1))  response:\n    headers: {}\n")
            == "bad.yaml: interactions[0].response: missing required field \"status\" (line 6)")
        #expect(error("interactions:\n- request:\n    uri: http://x.test/\n  response: {status: {code: 200}}\n")
            == "bad.yaml: interactions[0].request: missing required field \"method\" (line 3)")
        #expect(error("interactions:\n-\(request.dropFirst(1))  response:\n    status: {code: 200}\n    body: {string: !!binary \"%%%\"}\n")
            == "bad.yaml: interactions[0].response.body.string: !!binary value is not valid base64 (\"%%%…\") (line 7)")
        #expect(error("interactions:\n- request:\n    method: GET\n    uri: not a url\n  response: {status: {code: 200}}\n")
            == "bad.yaml: interactions[0].request.uri: 'not a url' is not an absolute URL (scheme://host/path) (line 4)")
        // A URL that does not parse is quoted with its password redacted.
        let leaked = error("interactions:\n- request:\n    method: GET\n    uri: 'http://user:s3cret_PW@127.0.0.1:abc/'\n  response: {status: {code: 200}}\n")
        #expect(leaked?.contains("is not an absolute URL") == true && leaked?.contains("s3cret_PW") == false, "\(String(describing: leaked))")
        #expect(error("interactions: {}\nversion: 1\n")
            == "bad.yaml: interactions: expected a sequence, found a mapping (line 1)")
        #expect(error("interactions: []\nversion: 2\n")
            == "bad.yaml: version: vcrpy cassette version 2 is not supported; Tapedeck reads version 1 (line 2)")
        #expect(error("interactions:\n- request: [1\n") == "bad.yaml:3:1: invalid YAML: while parsing a flow sequence did not find expected ',' or ']'")
        #expect(error("") == "bad.yaml: (document): the file is empty")
        // An interim answer replayed alone would leave the client waiting for ever.
        #expect(error("interactions:\n-\(request.dropFirst(1))  response:\n    status:\n      code: 100\n")
            == "bad.yaml: interactions[0].response.status.code: status 100 is an interim answer, never a final one; "
                + "a recorded answer is 101 (a WebSocket upgrade) or 200…999 (line 7)")
        // A key given twice (a merge's leftover) is named by its place; the file is not quoted.
        let twice = error("interactions:\n- request:\n    method: GET\n    method: GET\n    uri: http://x.test/?token=SECRET99x\n  response: {status: {code: 200}}\n")
        #expect(twice == "bad.yaml:3:5: invalid YAML: the key 'method' appears more than once in one mapping (first here; a merge may have left both copies); keep one",
                "\(twice)")
        // A key that is itself a token is quoted redacted.
        let token = error("interactions: []\nsk_live_4eC39HqLyjWDarjtT1zdp7dc: 1\nsk_live_4eC39HqLyjWDarjtT1zdp7dc: 2\n")
        #expect(token?.contains("'<REDACTED>'") == true && token?.contains("4eC39Hq") == false, "\(String(describing: token))")
    }

    @Test("a body that begins with a byte order mark keeps it, as vcrpy replays it; one inside a body and an escaped one stay as they are")
    func leadingBOM() throws {
        let yaml = """
            interactions:
            - request: {body: null, headers: {}, method: GET, uri: 'http://x.test/bom'}
              response:
                body: {string: "\\uFEFF{\\"a\\":1}"}
                headers: {X-Mid: ["a\\uFEFFb"], X-Escaped: ["\\\\uFEFF"]}
                status: {code: 200, message: OK}
            version: 1

            """
        let response = try VCRCassetteReader.read(Data(yaml.utf8), file: "bom.yaml", defaultDate: Date()).interactions[0].response
        #expect(response.body == Data([0xEF, 0xBB, 0xBF]) + Data(#"{"a":1}"#.utf8))
        #expect(response.headers["X-Mid"] == "a\u{FEFF}b")
        #expect(response.headers["X-Escaped"] == #"\uFEFF"#)
    }

    @Test("a .json cassette vcrpy's JSON serializer wrote loads through Cassette.load(from:), native ones do not look like it")
    func vcrJSON() throws {
        let url = InteropFixtures.url("vcrpy-httpbin.json")
        #expect(VCRCassetteReader.looksLikeVCRJSON(try Data(contentsOf: url)))
        let cassette = try Cassette.load(from: url)
        #expect(cassette.interactions.map(\.response.status) == [200, 200, 200, 418])
        #expect(cassette.interactions[1].request.body == Data(#"{"name": "Ada \u2713"}"#.utf8))
        #expect(cassette.interactions[2].response.headers["Content-Encoding"] == nil)
        #expect(cassette.interactions[2].response.text?.contains(#""gzipped": true"#) == true)
        #expect(!VCRCassetteReader.looksLikeVCRJSON(CassetteCodec.encode(InteropFixtures.sampleCassette())))
        // Python's json.dumps writes a character past U+FFFF as two escaped halves; an escaped
        // backslash before a `u` stays text.
        let emoji = try String(contentsOf: url, encoding: .utf8).replacingOccurrences(of: #"Ada \\u2713"#, with: #"Ada \ud83c\udf89 \\ud83c"#)
        let directory = TemporaryDirectory()
        let copy = directory.file("emoji.json")
        try Data(emoji.utf8).write(to: copy)
        #expect(try Cassette.load(from: copy).interactions[1].request.body == Data(#"{"name": "Ada 🎉 \ud83c"}"#.utf8))
    }
}
