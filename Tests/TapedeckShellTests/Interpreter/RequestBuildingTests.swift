import Foundation
import Tapedeck
import TapedeckTestSupport
import Testing
@testable import TapedeckShell

@MainActor
@Suite("Requests as sent: default headers, precedence, raw body types, show request/curl")
struct RequestBuildingTests {
    let server = EchoServer()
    let captured = Captured()

    private func shell() -> Interpreter {
        Interpreter(transport: server.transport, output: captured.output, options: .init(environment: [:]))
    }

    private func sent(_ source: String, _ shell: Interpreter? = nil) async throws -> HTTPRequest {
        try await (shell ?? self.shell()).run(source: "base http://api.test\n" + source, file: "t.tape")
        return try #require(server.last)
    }

    @Test("every request carries the library's default headers, as the one-shot CLI sends them")
    func defaultHeaders() async throws {
        let request = try await sent("get /x")
        #expect(Array(request.headers.fields.map(\.name).prefix(2)) == ["User-Agent", "Accept"])
        #expect(request.headers["User-Agent"] == HTTPRequest.defaultUserAgent)
        #expect(request.headers["Accept"] == "*/*")
        let json = try await sent("post /x a=1")
        #expect(json.headers.values(for: "Accept") == ["application/json, */*;q=0.5"])
        let own = try await sent("get /x User-Agent:mine/1")
        #expect(own.headers.values(for: "User-Agent") == ["mine/1"])
    }

    @Test("show request and show curl print exactly the headers that were sent")
    func showMatchesSent() async throws {
        let shell = shell()
        let request = try await sent("header X-Team: ios\nget /x q==1\nshow request\nshow curl", shell)
        let text = captured.value
        for field in request.headers {
            #expect(text.contains("\(field.name): \(field.value)"), "show request/curl lacks \(field.name)")
        }
        #expect(text.contains("GET /x?q=1 HTTP/1.1\nHost: api.test\nUser-Agent: tapedeck/"))
        #expect(text.contains("curl 'http://api.test/x?q=1' -H 'User-Agent: \(HTTPRequest.defaultUserAgent)' -H 'Accept: */*' -H 'X-Team: ios'"))
    }

    @Test("-v, -b, --headers and --print choose what the REPL shows of one exchange")
    func printFlags() async throws {
        let shell = Interpreter(transport: server.transport, output: captured.output,
                                options: .init(environment: [:], echoResponses: true))
        try await shell.run(source: "base http://api.test\npost /x a=1 -v\n", file: "t.tape")
        #expect(captured.value.hasPrefix("POST /x HTTP/1.1\nHost: api.test\nUser-Agent: tapedeck/"))
        #expect(captured.value.contains("\n\n{\n    \"a\": \"1\"\n}\n\nHTTP/1.1 200 OK"))
        let body = Captured()
        let quiet = Interpreter(transport: server.transport, output: body.output, options: .init(environment: [:], echoResponses: true))
        try await quiet.run(source: "base http://api.test\nget /x -b\nget /x --print h\n", file: "t.tape")
        #expect(body.value.hasPrefix("{\n"))
        #expect(body.value.contains("}\nHTTP/1.1 200 OK"))
        #expect(!body.value.contains("GET /x HTTP/1.1"))
        #expect(throws: ParseError.self) { try Parser.parseLine("get /x --print Z", file: "t.tape") }
    }

    @Test("count on a value that has no size says so")
    func countNote() async throws {
        let shell = shell()
        do {
            try await shell.run(source: "base http://api.test\nget /x\nexpect json $.items[0].id count == 1\n", file: "t.tape")
            Issue.record("count on a number passed")
        } catch {
            #expect(error.localizedDescription.contains("  actual:   1\n  note:     count needs an array, an object or a string"))
        }
    }

    @Test("base takes HTTPie's URL shorthands")
    func baseShorthand() async throws {
        let shell = shell()
        try await shell.run(source: "base :8080/api\nget /x\n", file: "t.tape")
        #expect(server.last?.url.absoluteString == "http://localhost:8080/api/x")
        try await shell.run(source: "base api.test:9000\nget /y\n", file: "t.tape")
        #expect(server.last?.url.absoluteString == "http://api.test:9000/y")
    }

    @Test("an item header beats a persistent header, which beats the type the body implies")
    func headerPrecedence() async throws {
        let shell = shell()
        let persistent = try await sent("header Content-Type: application/vnd.api+json\npost /x a=1", shell)
        #expect(persistent.headers.values(for: "Content-Type") == ["application/vnd.api+json"])
        let item = try await sent("post /x a=1 Content-Type:application/merge-patch+json", shell)
        #expect(item.headers.values(for: "Content-Type") == ["application/merge-patch+json"])
        let accept = try await sent("header Accept: text/csv\npost /x a=1", shell)
        #expect(accept.headers.values(for: "Accept") == ["text/csv"])
    }

    @Test("a raw body without a Content-Type is JSON when it parses as JSON, else plain text")
    func rawBodyTypes() async throws {
        let shell = shell()
        #expect(try await sent(#"post /x --raw '{"a": 1}'"#, shell).headers["Content-Type"] == "application/json")
        #expect(try await sent("post /x --raw 42", shell).headers["Content-Type"] == "application/json")
        #expect(try await sent("post /x --raw hello", shell).headers["Content-Type"] == "text/plain; charset=utf-8")
        #expect(try await sent("post /x <<EOF\n[1, 2]\nEOF", shell).headers["Content-Type"] == "application/json")
        #expect(try await sent("post /x <<EOF\nname: tapes\nEOF", shell).headers["Content-Type"] == "text/plain; charset=utf-8")
        #expect(try await sent("post /x --raw hello Content-Type:text/csv", shell).headers.values(for: "Content-Type") == ["text/csv"])
        let folder = try TestScratch.directory("raw")
        defer { try? FileManager.default.removeItem(at: folder) }
        try #"{"from": "file"}"#.write(to: folder.appendingPathComponent("payload"), atomically: true, encoding: .utf8)
        try "<a/>".write(to: folder.appendingPathComponent("doc.xml"), atomically: true, encoding: .utf8)
        #expect(try await sent("post /x < \(folder.path)/payload", shell).headers["Content-Type"] == "application/json")
        #expect(try await sent("post /x < \(folder.path)/doc.xml", shell).headers["Content-Type"] == "application/xml")
    }

    @Test("the raw-body rule lives in the shared item code the CLI uses too")
    func sharedRule() throws {
        var items = RequestItems()
        items.rawBody = Data(#"{"a": [1]}"#.utf8)
        #expect(try items.request(url: URL(string: "http://api.test")!, mode: .json).headers["Content-Type"] == "application/json")
        items.rawBody = Data("a=b".utf8)
        #expect(try items.request(url: URL(string: "http://api.test")!, mode: .json).headers["Content-Type"] == "text/plain; charset=utf-8")
        #expect(RequestItems.rawContentType(for: Data([0xFF, 0xFE, 0x00])) == "application/octet-stream")
        items.rawBodyContentType = "application/xml"
        #expect(try items.request(url: URL(string: "http://api.test")!, mode: .json).headers["Content-Type"] == "application/xml")
    }
}
