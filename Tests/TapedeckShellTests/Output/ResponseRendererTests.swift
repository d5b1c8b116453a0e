import Foundation
import Testing
import Tapedeck
@testable import TapedeckShell

@Suite("Response renderer")
struct ResponseRendererTests {
    private let json = HTTPResponse(
        status: 200, headers: ["Content-Type": "application/json", "X-Id": "7"],
        body: Data(#"{"z":1,"a":[true,null],"s":"é\n"}"#.utf8), duration: 0.0123)

    @Test("plain output has the status line with time and size, headers, and JSON in received key order")
    func plain() {
        let text = ResponseRenderer(options: RenderOptions(colors: false)).render(json)
        #expect(text == """
            HTTP/1.1 200 OK  (12 ms, 34 B)
            Content-Type: application/json
            X-Id: 7

            {
                "z": 1,
                "a": [
                    true,
                    null
                ],
                "s": "é\\n"
            }

            """)
    }

    @Test("colours are ANSI sequences and only when asked")
    func colours() {
        let coloured = ResponseRenderer(options: RenderOptions(colors: true)).render(json)
        #expect(coloured.contains("\u{1B}[32m200 OK\u{1B}[0m"))
        #expect(coloured.contains("\u{1B}[34m\"z\"\u{1B}[0m: \u{1B}[36m1\u{1B}[0m"))
        #expect(!ResponseRenderer(options: RenderOptions(colors: false)).render(json).contains("\u{1B}"))
    }

    @Test("--print letters choose the parts")
    func parts() throws {
        let bodyOnly = ResponseRenderer(options: RenderOptions(format: false, parts: try PrintParts(letters: "b")))
        #expect(bodyOnly.render(json) == #"{"z":1,"a":[true,null],"s":"é\n"}"# + "\n")
        let headersOnly = ResponseRenderer(options: RenderOptions(parts: try PrintParts(letters: "h")))
        #expect(headersOnly.render(json).hasSuffix("X-Id: 7\n"))
        #expect(throws: RenderOptionError.invalidPrintLetters("hx")) { try PrintParts(letters: "hx") }
        #expect(try PrintParts(letters: "HBhb") == .all)
    }

    @Test("binary bodies are a boxed note on a terminal and raw bytes when piped")
    func binary() {
        let bytes = Data([0x89, 0x50, 0x4E, 0x47, 0x00, 0xFF])
        let png = HTTPResponse(status: 200, headers: ["Content-Type": "image/png"], body: bytes)
        let note = ResponseRenderer(options: RenderOptions(parts: .responseBody)).render(png)
        #expect(note == """
            +-----------------------------------------------------------+
            | NOTE: binary data not shown in terminal (image/png, 6 B) |
            +-----------------------------------------------------------+

            """.replacingOccurrences(of: "-----------------------------------------------------------", with: String(repeating: "-", count: 58)))
        let piped = ResponseRenderer(options: RenderOptions(parts: .responseBody, terminal: false))
        #expect(piped.output(for: png) == bytes)
    }

    @Test("a body in the charset its Content-Type names is shown as text, and written out as its own bytes")
    func charsets() {
        let latin1 = Data([0x43, 0x61, 0x66, 0xE9, 0x20, 0x2D, 0x20, 0xA3, 0x35])   // "Café - £5" in ISO-8859-1
        let page = HTTPResponse(status: 200, headers: ["Content-Type": "text/plain; charset=ISO-8859-1"], body: latin1)
        #expect(ResponseRenderer(options: RenderOptions(parts: .responseBody)).render(page) == "Café - £5\n")
        #expect(ResponseRenderer(options: RenderOptions(parts: .responseBody, terminal: false)).output(for: page) == latin1)
        let json = HTTPResponse(status: 200, headers: ["Content-Type": #"application/json; charset="windows-1252""#],
                                body: Data([0x7B, 0x22, 0x6E, 0x22, 0x3A, 0x22, 0x80, 0x22, 0x7D]))
        #expect(ResponseRenderer(options: RenderOptions(format: false, parts: .responseBody)).render(json) == "{\"n\":\"€\"}\n")
        // A charset on a binary type is not a reason to read it as text; expect reads the body as it is shown.
        let binary = HTTPResponse(status: 200, headers: ["Content-Type": "application/octet-stream; charset=ISO-8859-1"], body: latin1)
        #expect(ResponseRenderer(options: RenderOptions(parts: .responseBody)).render(binary).contains("binary data not shown in terminal (application/octet-stream, 9 B)"))
        #expect(page.text == "Café - £5" && binary.text == nil)
        // UTF-16 with no byte order mark is read little-endian, as HTTPie reads it.
        let utf16 = HTTPResponse(status: 200, headers: ["Content-Type": "text/plain; charset=utf-16"], body: Data([0x68, 0x00, 0x69, 0x00]))
        #expect(utf16.text == "hi")
        // With no charset, bytes that are not UTF-8 are binary, as before.
        let unnamed = HTTPResponse(status: 200, headers: ["Content-Type": "text/plain"], body: latin1)
        #expect(ResponseRenderer(options: RenderOptions(parts: .responseBody)).render(unnamed).contains("binary data not shown"))
    }

    @Test("automatic options honour the terminal, NO_COLOR and TERM=dumb")
    func automatic() {
        #expect(RenderOptions.automatic(isTerminal: true, environment: [:]).colors)
        #expect(!RenderOptions.automatic(isTerminal: true, environment: ["NO_COLOR": "1"]).colors)
        #expect(!RenderOptions.automatic(isTerminal: true, environment: ["TERM": "dumb"]).colors)
        let piped = RenderOptions.automatic(isTerminal: false, environment: [:])
        #expect(!piped.colors && !piped.format && piped.parts == .responseBody)
    }

    @Test("the request shows its line, Host, headers and body")
    func request() throws {
        var request = HTTPRequest(method: .post, url: URL(string: "http://localhost:8080/p%20q?a=1")!)
        try request.headers.add(name: "X-A", value: "b")
        try request.setBody(.json(["k": "v"]))
        let text = ResponseRenderer(options: RenderOptions(parts: [.requestHeaders, .requestBody])).render(request)
        #expect(text == """
            POST /p%20q?a=1 HTTP/1.1
            Host: localhost:8080
            X-A: b
            Content-Type: application/json
            Content-Length: 9

            {
                "k": "v"
            }


            """)
        // An IPv6 host is shown as the wire has it.
        let v6 = ResponseRenderer(options: RenderOptions(parts: [.requestHeaders])).render(HTTPRequest(url: URL(string: "http://[::1]:8080/x")!))
        #expect(v6.contains("Host: [::1]:8080\n"), "\(v6)")
    }

    @Test("sizes and durations read naturally")
    func units() {
        #expect(ResponseRenderer.byteCount(429) == "429 B")
        #expect(ResponseRenderer.byteCount(2048) == "2.0 KB")
        #expect(ResponseRenderer.byteCount(3 * 1024 * 1024) == "3.0 MB")
        #expect(ResponseRenderer.milliseconds(0.0004) == "0.4 ms")
        #expect(ResponseRenderer.milliseconds(0.2504) == "250 ms")
        #expect(ResponseRenderer.milliseconds(1.5) == "1.50 s")
    }

    @Test("a reason phrase missing from the response falls back to the standard one")
    func reason() {
        let teapot = HTTPResponse(status: 418, reason: "", duration: 0)
        #expect(ResponseRenderer(options: RenderOptions(showTiming: false)).statusLine(teapot) == "HTTP/1.1 418 I'm a teapot")
    }
}
