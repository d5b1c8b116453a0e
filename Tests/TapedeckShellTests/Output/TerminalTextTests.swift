import Foundation
import Tapedeck
import Testing
@testable import TapedeckShell

@Suite("Control characters from a server")
struct TerminalTextTests {
    private let hostile = HTTPResponse(
        status: 200, reason: "OK\u{1B}[2J",
        headers: ["Content-Type": "text/plain", "X-Title": "\u{1B}]0;pwned\u{07}tail", "X-\u{1B}[31m": "v"],
        body: Data("before \u{1B}[2J\u{1B}]0;owned\u{07} after\r\nline\rover \u{9B}31m\n".utf8))

    @Test("escapes are shown, not interpreted: ESC, BEL, a lone CR and C1 become \\xNN; tabs and line breaks stay")
    func visible() {
        #expect(TerminalText.visible("a\u{1B}]0;t\u{07}b") == #"a\x1b]0;t\x07b"#)
        #expect(TerminalText.visible("tab\there\r\nnext\rover") == "tab\there\r\nnext\\x0dover")
        #expect(TerminalText.visible("\u{9B}2J\u{7F}\u{2028}") == #"\x9b2J\x7f\u{2028}"#)
        #expect(TerminalText.visible("x\ny", keepLineBreaks: false) == #"x\x0ay"#)
        #expect(TerminalText.visible("plain ünïcode ✓") == "plain ünïcode ✓")
    }

    @Test("on a terminal the status line, header names and values and text bodies carry no raw control character")
    func terminal() {
        let text = ResponseRenderer(options: RenderOptions(colors: false, terminal: true)).render(hostile)
        let controls = text.unicodeScalars.filter { ($0.value < 0x20 && $0 != "\n" && $0 != "\r") || (0x7F...0x9F).contains($0.value) }
        #expect(controls.isEmpty, "raw control characters reached the terminal: \(controls.map(\.value))")
        #expect(text.contains(#"X-Title: \x1b]0;pwned\x07tail"#))
        #expect(text.contains(#"X-\x1b[31m: v"#))
        #expect(text.contains(#"200 OK\x1b[2J"#))
        #expect(text.contains(#"before \x1b[2J\x1b]0;owned\x07 after"#) && text.contains(#"line\x0dover \x9b31m"#))
    }

    @Test("a JSON string with ESC is shown escaped by the JSON writer")
    func json() {
        let response = HTTPResponse(status: 200, headers: ["Content-Type": "application/json"], body: Data(#"{"t":"\u001b]0;x\u0007"}"#.utf8))
        let text = ResponseRenderer(options: RenderOptions(colors: false, terminal: true)).render(response)
        #expect(!text.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 })
    }

    @Test("piped output is byte-exact")
    func piped() {
        let renderer = ResponseRenderer(options: .automatic(isTerminal: false, environment: [:]))
        #expect(renderer.output(for: hostile) == hostile.body)
        var both = RenderOptions.automatic(isTerminal: false, environment: [:])
        both.parts = .response
        #expect(String(decoding: ResponseRenderer(options: both).output(for: hostile), as: UTF8.self).contains("X-Title: \u{1B}]0;pwned\u{07}tail"))
    }

    #if canImport(Glibc)
    @Test("an output on a terminal shows control characters in lines (an error quoting a server's text); on a pipe it writes them as they are")
    func outputOnTerminal() throws {
        var master: Int32 = -1, replica: Int32 = -1
        try #require(openpty(&master, &replica, nil, nil, nil) == 0)
        defer { close(master) }
        let terminal = FileHandle(fileDescriptor: replica, closeOnDealloc: true)
        let hostile = "redirect to 'gopher://x/\u{1B}]0;pwned\u{07}'"
        ShellOutput(handle: terminal).line(hostile)
        var buffer = [UInt8](repeating: 0, count: 256)
        let count = read(master, &buffer, buffer.count)
        let written = String(decoding: buffer.prefix(max(count, 0)), as: UTF8.self)
        #expect(written.hasPrefix(#"redirect to 'gopher://x/\x1b]0;pwned\x07'"#), "\(written.debugDescription)")

        let pipe = Pipe()
        ShellOutput(handle: pipe.fileHandleForWriting).line(hostile)
        try pipe.fileHandleForWriting.close()
        #expect(String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self) == hostile + "\n")
    }
    #endif
}

