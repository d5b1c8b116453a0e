import Foundation
import Testing
@testable import Tapedeck

@Suite("HAR reader")
struct HARReaderTests {
    private func error(_ json: String) -> String? {
        do {
            _ = try HARReader.read(Data(json.utf8), file: "bad.har")
            return nil
        } catch {
            return error.errorDescription
        }
    }

    private func entry(request: String = #""method": "GET", "url": "http://x.test/", "headers": []"#,
                       response: String = #""status": 200, "statusText": "OK", "headers": [], "content": {"size": 0, "mimeType": ""}"#,
                       started: String = "2024-05-01T10:00:00Z") -> String {
        #"{"log": {"version": "1.2", "entries": [{"startedDateTime": "\#(started)", "time": 1, "request": {\#(request)}, "response": {\#(response)}}]}}"#
    }

    @Test("a browser export: BOM, offsets and fractions, pseudo-headers, cookie arrays, params, redirectURL, base64")
    func browser() throws {
        let cassette = try HARReader.read(InteropFixtures.data("browser.har"), file: "browser.har")
        #expect(cassette.interactions.count == 3)
        let first = cassette.interactions[0]
        #expect(first.recordedAt == RFC3339Date.parse("2024-05-01T10:00:00.123Z"))
        #expect(abs(first.response.duration - 0.012345678) < 1e-12)
        #expect(first.request.headers.fields.map(\.name) == ["accept", "Cookie"])
        #expect(first.request.headers["Cookie"] == "session=abc; theme=dark")
        #expect(first.response.headers["Set-Cookie"] == "seen=1; Path=/; HttpOnly; Secure")
        #expect(first.response.headers["content-encoding"] == nil)
        #expect(first.response.headers["content-length"] == "26")
        #expect(first.response.text == "{\"items\": [1, 2], \"n\": 2}\n")
        let login = cassette.interactions[1]
        #expect(login.request.body == Data("user=ada+lovelace&next=%2Fhome%3Fx%3D1".utf8))
        #expect(login.response.headers["Location"] == "https://example.com/home")
        #expect(login.response.reason == "Found")
        #expect(login.recordedAt == RFC3339Date.parse("2024-05-01T10:00:01.500Z"))
        #expect(cassette.interactions[2].response.body == Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
        #expect(cassette.interactions[2].recordedAt.timeIntervalSince1970 == 1_714_557_602.25)
    }

    @Test("a binary body under br is the decoded body a HAR holds, unless Tapedeck marked it still encoded; a URL's fragment is not kept")
    func decodedBodiesAndFragments() throws {
        let wasm = Data([0x00, 0x61, 0x73, 0x6D, 0xFF, 0xFE]).base64EncodedString()
        let browser = entry(request: #""method": "GET", "url": "http://x.test/app.wasm#top", "headers": []"#,
                            response: #""status": 200, "statusText": "OK", "headers": [{"name": "content-encoding", "value": "br"}], "content": {"size": 6, "mimeType": "application/wasm", "text": "\#(wasm)", "encoding": "base64"}"#)
        let read = try HARReader.read(Data(browser.utf8), file: "b.har").interactions[0]
        #expect(read.response.headers["Content-Encoding"] == nil)
        #expect(read.request.url.absoluteString == "http://x.test/app.wasm")
        // Tapedeck's own HAR of a body it could not decode reads back under its coding.
        var kept = read
        kept.response.headers["Content-Encoding"] = "br"
        let written = Cassette(interactions: [kept]).encoded(as: .har).data
        #expect(try HARReader.read(written, file: "t.har").interactions[0].response.headers["Content-Encoding"] == "br")
    }

    @Test("text a HAR holds decoded by its charset is encoded back in it; text mitmproxy read as Latin-1 for want of a charset keeps its bytes")
    func charsets() throws {
        let latin1 = entry(response: #""status": 200, "statusText": "OK", "headers": [{"name": "Content-Type", "value": "text/plain; charset=iso-8859-1"}], "content": {"size": 4, "mimeType": "text/plain; charset=iso-8859-1", "text": "café"}"#)
        #expect(try HARReader.read(Data(latin1.utf8), file: "l.har").interactions[0].response.body == Data([0x63, 0x61, 0x66, 0xE9]))
        let binary = entry(response: #""status": 200, "statusText": "OK", "headers": [], "content": {"size": 3, "mimeType": "application/octet-stream", "text": "\u00ff\u0000\u00e9"}"#)
        #expect(try HARReader.read(Data(binary.utf8), file: "b.har").interactions[0].response.body == Data([0xFF, 0x00, 0xE9]))
        let utf8 = entry(response: #""status": 200, "statusText": "OK", "headers": [], "content": {"size": 5, "mimeType": "text/plain", "text": "café"}"#)
        #expect(try HARReader.read(Data(utf8.utf8), file: "u.har").interactions[0].response.body == Data("café".utf8))
    }

    @Test("a URL that mixes raw characters browsers keep ([ ] | space, non-ASCII) with %XX escapes keeps its escapes: only the raw ones are encoded")
    func mixedEscapes() throws {
        let urls = ["https://h.test/api?filter[name]=a%20b&x=1": "https://h.test/api?filter%5Bname%5D=a%20b&x=1",
                    "https://h.test/a b?c=d e%2Ff": "https://h.test/a%20b?c=d%20e%2Ff",
                    "https://h.test/caf\u{e9}?q=\u{fc}%C3%BC&p=|x|": "https://h.test/caf%C3%A9?q=%C3%BC%C3%BC&p=%7Cx%7C",
                    "https://h.test/plain?q=a%20b": "https://h.test/plain?q=a%20b"]
        for (text, expected) in urls {
            let cassette = try HARReader.read(Data(entry(request: #""method": "GET", "url": "\#(text)", "headers": []"#).utf8), file: "m.har")
            #expect(cassette.interactions[0].request.urlText == expected)
        }
        #expect(PercentEncoding.url("http://[::1]:8080/a b?x=%41")?.absoluteString == "http://[::1]:8080/a%20b?x=%41", "the authority is kept")
    }

    @Test("postData given as params under a multipart type becomes a multipart body, and a type given only as postData's becomes the header; both are redacted")
    func postDataTypes() throws {
        let multipart = entry(request: #""method": "POST", "url": "http://x.test/up", "headers": [{"name": "Content-Type", "value": "multipart/form-data; boundary=B0"}], "postData": {"mimeType": "multipart/form-data; boundary=B0", "params": [{"name": "password", "value": "mpOnlyParams999"}, {"name": "file", "fileName": "a.txt", "contentType": "text/plain"}]}"#)
        let form = entry(request: #""method": "POST", "url": "http://x.test/login", "headers": [], "postData": {"mimeType": "application/x-www-form-urlencoded", "text": "user=ada&password=Pw7h3x9k"}"#)
        let cassette = Redactor.standard.redact(Cassette(interactions: try [multipart, form].flatMap { try HARReader.read(Data($0.utf8), file: "p.har").interactions }))
        let body = String(decoding: try #require(cassette.interactions[0].request.body), as: UTF8.self)
        #expect(body == "--B0\r\nContent-Disposition: form-data; name=\"password\"\r\n\r\n<REDACTED>\r\n"
            + "--B0\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.txt\"\r\nContent-Type: text/plain\r\n\r\n\r\n--B0--\r\n", "\(body)")
        #expect(cassette.interactions[1].request.headers["Content-Type"] == "application/x-www-form-urlencoded")
        #expect(cassette.interactions[1].request.body == Data("user=ada&password=%3CREDACTED%3E".utf8))
        // A name cannot write a header of its own.
        let forged = entry(request: #""method": "POST", "url": "http://x.test/up", "headers": [{"name": "Content-Type", "value": "multipart/form-data; boundary=B0"}], "postData": {"params": [{"name": "a\"\r\nX-Forged: 1", "value": "v"}]}"#)
        let forgedBody = String(decoding: try #require(try HARReader.read(Data(forged.utf8), file: "f.har").interactions[0].request.body), as: UTF8.self)
        #expect(forgedBody.contains(#"name="a%22%0D%0AX-Forged: 1""#) && !forgedBody.contains("\r\nX-Forged"), "\(forgedBody)")
    }

    @Test("a mitmproxy export: decoded gzip content, form postData, base64 binary content")
    func mitmproxy() throws {
        let cassette = try HARReader.read(InteropFixtures.data("mitmproxy.har"), file: "mitmproxy.har")
        #expect(cassette.interactions.map(\.request.method.rawValue) == ["GET", "GET", "POST", "GET", "GET", "GET"])
        #expect(cassette.interactions[2].request.body == Data("a=1&b=two".utf8))
        let gzip = cassette.interactions[3].response
        #expect(gzip.headers["Content-Encoding"] == nil)
        #expect(gzip.text?.contains(#""gzipped": true"#) == true)
        #expect(gzip.headers["Content-Length"] == String(gzip.body.count))
        #expect(cassette.interactions[4].response.body.count == 8)
        #expect(cassette.interactions[5].response.status == 302)
    }

    @Test("malformed archives name the file, the path inside it and the problem")
    func malformed() {
        #expect(error(entry(response: #""status": 200, "headers": [], "content": {"size": 3, "mimeType": "x", "text": "%%%", "encoding": "base64"}"#))
            == "bad.har: log.entries[0].response.content.text: not valid base64 (\"%%%\")")
        #expect(error(entry(response: #""status": "200", "headers": [], "content": {}"#))
            == "bad.har: log.entries[0].response.status: expected an integer, found a string (\"200\")")
        #expect(error(entry(request: #""method": "GET", "headers": []"#))
            == "bad.har: log.entries[0].request: missing required field \"url\"")
        #expect(error(entry(request: #""method": "GET", "url": "http://x.test/", "headers": {}"#))
            == "bad.har: log.entries[0].request.headers: expected an array, found an object")
        #expect(error(entry(started: "yesterday"))
            == "bad.har: log.entries[0].startedDateTime: not an ISO 8601 date-time (a string (\"yesterday\")); expected e.g. 2024-05-01T12:00:00.123Z")
        #expect(error(entry(response: #""status": 200, "headers": [{"value": "x"}], "content": {}"#))
            == "bad.har: log.entries[0].response.headers[0]: missing required field \"name\"")
        #expect(error(entry(response: #""status": 200, "headers": [], "content": {"size": 3, "mimeType": "x", "text": "abc", "encoding": "gzip"}"#))?
            .hasPrefix("bad.har: log.entries[0].response.content.encoding: content.encoding is a string (\"gzip\"), which HAR 1.2 does not define") == true)
        #expect(error(#"{"log": {"version": "1.2"}}"#) == "bad.har: log: missing required field \"entries\"")
        #expect(error(#"{"log": {"entries": [}}"#) == "bad.har:1:22: invalid JSON: expected a value but found '}'")
    }

    @Test("dates with offsets, any fraction and none parse to the same instant")
    func dates() {
        let instant = RFC3339Date.parse("2024-05-01T10:00:00.5Z")
        #expect(instant?.timeIntervalSince1970 == 1_714_557_600.5)
        #expect(RFC3339Date.parse("2024-05-01T12:00:00.500000+02:00") == instant)
        #expect(RFC3339Date.parse("2024-05-01T05:30:00.5-0430") == instant)
        #expect(RFC3339Date.parse("2024-05-01 10:00:00") == Date(timeIntervalSince1970: 1_714_557_600))
        #expect(RFC3339Date.parse("2024-13-01T10:00:00Z") == nil)
        #expect(RFC3339Date.format(Date(timeIntervalSince1970: 1_714_557_600.25), fractionDigits: 6) == "2024-05-01T10:00:00.250000Z")
        #expect(RFC3339Date.format(Date(timeIntervalSince1970: -0.5), fractionDigits: 6) == "1969-12-31T23:59:59.500000Z")
    }
}
