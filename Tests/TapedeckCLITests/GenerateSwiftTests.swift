import Foundation
import TapedeckTestSupport
import Testing

/// Tests/TapedeckTestingTests/Generated/HTTPBinSessionTests.swift is a generated file compiled
/// and run with the TapedeckTesting tests; this test regenerates it and requires the same bytes,
/// so the generator's output is what compiles and passes.
@Suite("tapedeck generate swift", .enabled(if: CLI.isAvailable))
struct GenerateSwiftTests {
    static let testing = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("TapedeckTestingTests")

    @Test("regenerating the committed generated test gives it byte for byte")
    func regenerates() throws {
        let directory = TestScratch.path("tapedeck-generate")
        defer { try? FileManager.default.removeItem(at: directory) }
        let cassettes = directory.appendingPathComponent("__Cassettes__")
        try FileManager.default.createDirectory(at: cassettes, withIntermediateDirectories: true)
        for name in ["httpbin-session.tape", "httpbin.cassette.json"] {
            try FileManager.default.copyItem(at: Self.testing.appendingPathComponent("__Cassettes__/\(name)"),
                                             to: cassettes.appendingPathComponent(name))
        }
        let result = try CLI.run(["generate", "swift", "__Cassettes__/httpbin-session.tape", "--cassette", "__Cassettes__/httpbin.cassette.json",
                                  "--output", "Generated/HTTPBinSessionTests.swift"], directory: directory)
        #expect(result.status == 0, "\(result.stderr)")
        let generated = try String(contentsOf: directory.appendingPathComponent("Generated/HTTPBinSessionTests.swift"), encoding: .utf8)
        let committed = try String(contentsOf: Self.testing.appendingPathComponent("Generated/HTTPBinSessionTests.swift"), encoding: .utf8)
        #expect(generated == committed, "regenerate it with the command at the top of __Cassettes__/httpbin-session.tape")
        #expect(generated.contains(#"#expect(json1.value(at: "/slideshow/title")?.stringValue == "Sample Slide Show")"#))
    }

    @Test("a script whose expect fails against the cassette is refused, naming the line")
    func failingScript() throws {
        let directory = try TestScratch.directory("tapedeck-generate")
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.copyItem(at: Self.testing.appendingPathComponent("__Cassettes__/httpbin.cassette.json"),
                                         to: directory.appendingPathComponent("c.json"))
        try "base http://httpbin.local\nget /json\nexpect 201\n".write(to: directory.appendingPathComponent("s.tape"), atomically: true, encoding: .utf8)
        let result = try CLI.run(["generate", "swift", "s.tape", "--cassette", "c.json", "--output", "STests.swift"], directory: directory)
        #expect(result.status == 4, "a failing expect exits 4, as in tapedeck run")
        #expect(result.stderr.contains("s.tape:3:1: expect failed"))
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("STests.swift").path))
        try "base {{base}}\nget /json\n".write(to: directory.appendingPathComponent("v.tape"), atomically: true, encoding: .utf8)
        let undefined = try CLI.run(["generate", "swift", "v.tape", "--cassette", "c.json", "--output", "VTests.swift"], directory: directory)
        #expect(undefined.status == 2, "an undefined variable is the script's error, not a transport failure")
        #expect(undefined.stderr.contains("v.tape:1:6: undefined variable '{{base}}'"), "\(undefined.stderr)")
    }

    @Test("save --swift at the prompt writes the same kind of test from the session and its cassette")
    func saveAtPrompt() throws {
        let directory = try TestScratch.directory("tapedeck-save-swift")
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.copyItem(at: Self.testing.appendingPathComponent("__Cassettes__/httpbin.cassette.json"),
                                         to: directory.appendingPathComponent("c.json"))
        let input = directory.appendingPathComponent("typed.txt")
        try "replay c.json\nget /json\nexpect 200\nexpect json $.slideshow.author == \"Yours Truly\"\nsave --swift Tests/App/PromptTests.swift\n"
            .write(to: input, atomically: true, encoding: .utf8)
        let result = try CLI.run([], directory: directory, stdin: input)
        #expect(result.status == 0, "\(result.stderr)")
        let text = try String(contentsOf: directory.appendingPathComponent("Tests/App/PromptTests.swift"), encoding: .utf8)
        #expect(text.contains("struct PromptTests {"))
        #expect(text.contains(#".appendingPathComponent("../../c.json")"#))
        #expect(text.contains(#"#expect(json1.value(at: "/slideshow/author")?.stringValue == "Yours Truly")"#))
        #expect(!text.contains("replay c.json"))
        let live = try CLI.run([], directory: directory, stdin: {
            let file = directory.appendingPathComponent("live.txt")
            try "save --swift Tests/App/NoneTests.swift\n".write(to: file, atomically: true, encoding: .utf8)
            return file
        }())
        #expect(live.stderr.contains("start one with 'record PATH' before the requests"))

        // Requests sent before the cassette opened are not in it: the test leaves them out, and
        // keeps what set the session up. A fix is one the user can type at the prompt.
        let server = try FileServer()
        try server.serve("early.json", #"{"early": true}"#)
        let before = directory.appendingPathComponent("before.txt")
        try "base \(server.url.absoluteString)\nheader X-Team: ios\nget /early.json\nexpect 200\nreplay c.json\nbase http://httpbin.local\n"
            .appending("get /json\nexpect 200\nsave --swift Tests/App/LaterTests.swift\n")
            .write(to: before, atomically: true, encoding: .utf8)
        let later = try CLI.run([], directory: directory, stdin: before)
        #expect(server.requests.count == 1, "the live request before the cassette was sent")
        let saved = try String(contentsOf: directory.appendingPathComponent("Tests/App/LaterTests.swift"), encoding: .utf8)
        #expect(!saved.contains("early.json"), "\(saved)")
        #expect(saved.contains("X-Team") && saved.contains("http://httpbin.local/json"))
        #expect(later.status == 0, "\(later.stderr)")
    }
}
