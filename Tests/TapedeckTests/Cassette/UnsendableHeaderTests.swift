import Foundation
@testable import Tapedeck
import Testing

@Suite("Headers that could not be sent are refused at every door")
struct UnsendableHeaderTests {
    static func write(_ json: String) throws -> (TemporaryDirectory, URL) {
        let directory = TemporaryDirectory()
        let url = directory.file("c.cassette.json")
        try Data(json.utf8).write(to: url)
        return (directory, url)
    }

    static func cassette(responseHeader: String) -> String {
        #"{"version": 1, "interactions": [{"recordedAt": "2026-01-02T10:00:00.123Z", "request": {"method": "GET", "url": "http://h.test/", "headers": []}, "response": {"status": 200, "headers": [["Content-Type", "text/plain"], \#(responseHeader)], "body": {"text": "ok"}}}]}"#
    }

    @Test("loading names the interaction and the header, and never quotes the value")
    func load() throws {
        for (header, expected) in [(#"["X-\u00e9", "1"]"#, #"X-\u{e9}"#), (#"["X-Note", "ok\r\nSet-Cookie: injected=1"]"#, "X-Note")] {
            let (directory, url) = try Self.write(Self.cassette(responseHeader: header))
            #expect {
                try Cassette.load(from: url)
            } throws: { error in
                let text = (error as? CassetteError)?.errorDescription ?? ""
                return text.contains("/interactions/0/response/headers/1") && text.contains(expected) && !text.contains("injected")
            }
            _ = directory
        }
    }

    @Test("recording refuses an answer with such a header and stores nothing")
    func record() async throws {
        let directory = TemporaryDirectory()
        let url = directory.file("r.cassette.json")
        let live = StubTransport { _ in HTTPResponse(status: 200, headers: HTTPHeaders([HTTPHeader(name: "X-\u{e9}", value: "1")]), body: Data("x".utf8)) }
        let opened = try CassetteConfiguration(url, mode: .all, environment: [:]).open(live: live)
        await #expect(throws: CassetteError.self) { try await opened.transport.send(HTTPRequest(url: URL(string: "http://h.test/")!)) }
        try opened.flush()
        let stored = FileManager.default.fileExists(atPath: url.path) ? try Cassette.load(from: url).interactions.count : 0
        #expect(stored == 0)
    }
}
