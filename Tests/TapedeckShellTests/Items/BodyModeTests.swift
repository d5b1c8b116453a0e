import Foundation
import TapedeckTestSupport
import Testing
import Tapedeck
@testable import TapedeckShell

@Suite("Request item bodies")
struct BodyModeTests {
    @Test("form mode urlencodes fields and refuses raw JSON")
    func form() throws {
        let items = try RequestItems.parse(["q=a&b", "lang=en gb"], baseDirectory: nil)
        let body = try items.body(mode: .form)
        #expect(body == .form([("q", "a&b"), ("lang", "en gb")]))
        #expect(try body?.encoded().data == Data("q=a%26b&lang=en+gb".utf8))
        let raw = try RequestItems.parse(["n:=1"], baseDirectory: nil)
        #expect(throws: RequestItemError.jsonFieldInForm(item: "n:=1")) { try raw.body(mode: .form) }
    }

    @Test("files switch to multipart with fields first, then files")
    func multipart() throws {
        let file = TestScratch.path("tapedeck").appendingPathExtension("txt")
        try Data("hi".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let items = try RequestItems.parse(["up@\(file.path)", "title=x"], baseDirectory: nil)
        let body = try items.body(mode: .json, boundary: "B")
        guard case .multipart(let parts, "B")? = body else {
            Issue.record("expected multipart, got \(String(describing: body))")
            return
        }
        #expect(parts.map(\.name) == ["title", "up"])
        #expect(parts[1].filename == file.lastPathComponent)
        #expect(parts[1].data == Data("hi".utf8))
    }

    @Test("multipart mode without files still sends parts")
    func multipartFieldsOnly() throws {
        let items = try RequestItems.parse(["a=1"], baseDirectory: nil)
        guard case .multipart(let parts, _)? = try items.body(mode: .multipart) else {
            Issue.record("expected multipart")
            return
        }
        #expect(parts == [MultipartPart.field(name: "a", value: "1")])
    }

    @Test("no body items means no body")
    func none() throws {
        let items = try RequestItems.parse(["A:b", "q==1"], baseDirectory: nil)
        #expect(try items.body(mode: .json) == nil)
        #expect(try items.body(mode: .form) == nil)
    }

    @Test("a raw body conflicts with body items and names them")
    func raw() throws {
        var items = try RequestItems.parse(["a=1"], baseDirectory: nil)
        items.rawBody = Data("x".utf8)
        #expect(throws: RequestItemError.rawBodyWithItems(items: ["a=1"])) { try items.body(mode: .json) }
        var alone = RequestItems()
        alone.rawBody = Data("x".utf8)
        #expect(try alone.body(mode: .json) == .raw(Data("x".utf8), contentType: "text/plain; charset=utf-8"))
    }

    @Test("a request built from items has query, headers, Accept and JSON body")
    func request() throws {
        let items = try RequestItems.parse(["X-A:1", "q==a b", "name=Ada"], baseDirectory: nil)
        let request = try items.request(url: URL(string: "http://h/p?x=1")!, mode: .json)
        #expect(request.method == .post)
        #expect(request.url.absoluteString == "http://h/p?x=1&q=a%20b")
        #expect(request.headers["Accept"] == "application/json, */*;q=0.5")
        #expect(request.headers["Content-Type"] == "application/json")
        #expect(request.headers["X-A"] == "1")
        #expect(request.body == Data(#"{"name":"Ada"}"#.utf8))
    }
}
