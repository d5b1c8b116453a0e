import Foundation
import TapedeckTestSupport
import Testing
@testable import Tapedeck

@Suite("Request bodies")
struct RequestBodyTests {
    @Test("JSON keeps key order and number literals, with its content type and length")
    func json() throws {
        var request = HTTPRequest(method: .post, url: URL(string: "http://h/")!)
        try request.setBody(.json(.object([("b", .number("1.0")), ("a", "é")])))
        #expect(request.body == Data(#"{"b":1.0,"a":"é"}"#.utf8))
        #expect(request.headers["Content-Type"] == "application/json")
        #expect(request.headers["Content-Length"] == String(request.body?.count ?? -1))
    }

    @Test("a Content-Type already set is kept")
    func keepsContentType() throws {
        var request = HTTPRequest(method: .post, url: URL(string: "http://h/")!, headers: ["Content-Type": "application/vnd.x+json"])
        try request.setBody(.json(["a": 1]))
        #expect(request.headers.values(for: "Content-Type") == ["application/vnd.x+json"])
    }

    @Test("forms encode space as + and escape reserved characters, and decode back")
    func form() throws {
        let pairs = [("q", "a b&c=d+e"), ("é", "日本"), ("empty", "")]
        let encoded = try RequestBody.form(pairs).encoded()
        #expect(String(decoding: encoded.data, as: UTF8.self) == "q=a+b%26c%3Dd%2Be&%C3%A9=%E6%97%A5%E6%9C%AC&empty=")
        #expect(encoded.contentType == "application/x-www-form-urlencoded")
        #expect(FormEncoding.decode(String(decoding: encoded.data, as: UTF8.self)).map { "\($0.0)=\($0.1)" }
                == pairs.map { "\($0.0)=\($0.1)" })
    }

    @Test("multipart parses back part by part")
    func multipart() throws {
        let parts = [
            MultipartPart.field(name: "title", value: "Ünïcode \"quoted\""),
            MultipartPart(name: "file", filename: "a.png", contentType: "image/png", data: Data([0, 1, 2, 255])),
        ]
        let encoded = try RequestBody.multipart(parts, boundary: "XyZ").encoded()
        #expect(encoded.contentType == "multipart/form-data; boundary=XyZ")
        let parsed = MultipartParser.parse(encoded.data, boundary: "XyZ")
        #expect(parsed.count == 2)
        #expect(parsed[0].headers == [#"Content-Disposition: form-data; name="title""#])
        #expect(parsed[0].body == Data("Ünïcode \"quoted\"".utf8))
        #expect(parsed[1].headers == [#"Content-Disposition: form-data; name="file"; filename="a.png""#, "Content-Type: image/png"])
        #expect(parsed[1].body == Data([0, 1, 2, 255]))
        #expect(encoded.data.suffix(9) == Data("--XyZ--\r\n".utf8))
    }

    @Test("a part containing the boundary is refused")
    func boundaryClash() {
        let part = MultipartPart.field(name: "x", value: "a--B")
        #expect(throws: HTTPError.self) { try RequestBody.multipart([part], boundary: "B").encoded() }
    }

    @Test("files: type from the extension, missing files named")
    func file() throws {
        let url = TestScratch.path("tapedeck").appendingPathExtension("json")
        try Data("{}".utf8).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let encoded = try RequestBody.file(path: url.path).encoded()
        #expect(encoded.contentType == "application/json")
        #expect(encoded.data == Data("{}".utf8))
        let part = try MultipartPart.file(name: "f", path: url.path)
        #expect(part.filename == url.lastPathComponent)
        #expect(throws: HTTPError.fileUnreadable(path: "/nope/x", reason: "no such file")) {
            try RequestBody.file(path: "/nope/x").encoded()
        }
    }

    @Test("raw and text bodies")
    func rawAndText() throws {
        #expect(try RequestBody.raw(Data([1, 2]), contentType: nil).encoded().contentType == nil)
        #expect(try RequestBody.text("hé", contentType: nil).encoded().contentType == "text/plain; charset=utf-8")
        #expect(try RequestBody.text("hé", contentType: nil).encoded().data == Data("hé".utf8))
    }
}

/// Splits multipart/form-data back into parts (headers as lines, body bytes), for tests.
enum MultipartParser {
    struct Part { var headers: [String]; var body: Data }

    static func parse(_ data: Data, boundary: String) -> [Part] {
        let delimiter = Data("--\(boundary)".utf8)
        var parts: [Part] = []
        var cursor = data.startIndex
        while let start = data.range(of: delimiter, in: cursor..<data.endIndex) {
            let afterDelimiter = start.upperBound
            if data[afterDelimiter...].starts(with: Data("--".utf8)) { break }
            let contentStart = afterDelimiter + 2  // CRLF
            guard let next = data.range(of: Data("\r\n".utf8) + delimiter, in: contentStart..<data.endIndex),
                  let blank = data.range(of: Data("\r\n\r\n".utf8), in: contentStart..<next.lowerBound) else { break }
            let headerText = String(decoding: data[contentStart..<blank.lowerBound], as: UTF8.self)
            parts.append(Part(headers: headerText.components(separatedBy: "\r\n"),
                              body: Data(data[blank.upperBound..<next.lowerBound])))
            cursor = next.lowerBound + 2
        }
        return parts
    }
}
