import Foundation
import TapedeckTestSupport
import Testing
@testable import Tapedeck

@Suite("Multipart uploads through APIClient against httpbin", .enabled(if: HTTPBin.isAvailable, "needs httpbin (make test starts it)"))
struct MultipartUploadTests {
    struct Echo: Decodable { var files: [String: String]; var form: [String: String]; var args: [String: String] }

    @Test("an Endpoint with a file part uploads the file's bytes, and the client's default query rides along")
    func uploadsFile() async throws {
        let file = TestScratch.path("notes").appendingPathExtension("txt")
        try Data("line one\nline two\n".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let client = try APIClient(baseURL: HTTPBin.baseURL ?? "", transport: URLSessionTransport(),
                                   defaultQuery: [QueryItem(name: "api_key", value: "k3y")])
        let endpoint = Endpoint<Echo>(method: .post, path: "post", body: .multipart([
            .field(name: "title", value: "Notes"), try .file(name: "notes", contentsOf: file),
        ]))
        let echo = try await client.send(endpoint)
        #expect(echo.files == ["notes": "line one\nline two\n"])
        #expect(echo.form == ["title": "Notes"])
        #expect(echo.args == ["api_key": "k3y"])
    }

    @Test("a file part that cannot be read names the file")
    func missingFile() throws {
        let missing = URL(fileURLWithPath: "/nonexistent/photo.png")
        #expect(throws: HTTPError.fileUnreadable(path: "/nonexistent/photo.png", reason: "no such file")) {
            try MultipartPart.file(name: "photo", contentsOf: missing)
        }
        #expect(throws: HTTPError.self) { try MultipartPart.file(name: "photo", contentsOf: URL(string: "https://x.test/a.png")!) }
    }
}
