import Foundation
import TapedeckTestSupport
import Testing
import Tapedeck
@testable import TapedeckShell

@Suite("Tab completion")
struct CompleterTests {
    @Test("the first word completes command names")
    func commands() {
        let completer = Completer()
        #expect(completer.complete(word: "he", before: "").candidates == ["head", "header", "headers", "help"])
        #expect(completer.complete(word: "ex", before: "").candidates == ["exit", "expect"])
    }

    @Test("headers complete from common names and this session's, with a colon")
    func headers() {
        let completer = Completer(sessionHeaders: ["X-Trace-Id"])
        #expect(completer.complete(word: "Auth", before: "header ").candidates == ["Authorization:"])
        #expect(completer.complete(word: "x-tr", before: "get /x ").candidates == ["X-Trace-Id:"])
    }

    @Test("variables complete after {{, paths after a method or cd, files after @ and <")
    func contexts() throws {
        let folder = TestScratch.path("completer")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("bodies"), withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: folder.appendingPathComponent("body.json").path, contents: Data("{}".utf8))
        defer { try? FileManager.default.removeItem(at: folder) }
        let completer = Completer(variables: ["token", "tenant"], paths: ["/users", "/users/1", "/items"], directory: folder)
        #expect(completer.complete(word: "te", before: "get /x Authorization:{{").candidates == ["tenant}}"])
        #expect(completer.complete(word: "/us", before: "get ").candidates == ["/users", "/users/1"])
        #expect(completer.complete(word: "/i", before: "cd ").candidates == ["/items"])
        #expect(completer.complete(word: "bo", before: "post /x file@").candidates == ["bodies/", "body.json"])
        #expect(completer.complete(word: "bod", before: "post /x < ").candidates == ["bodies/", "body.json"])
        #expect(completer.complete(word: "r", before: "show ").candidates == ["request", "response"])
        // A path a variable filled in with a space completes as one word.
        let spaced = Completer(paths: ["/anything/Zoë 😀"], directory: folder)
        #expect(spaced.complete(word: "/an", before: "get ").candidates == ["/anything/Zoë%20😀"])
    }

    @Test("a file name with spaces or quotes completes escaped, and a name typed escaped is read whole")
    func escapedFiles() throws {
        let folder = TestScratch.path("completer-escaped")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("my docs"), withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: folder.appendingPathComponent("my docs/it's here.json").path, contents: Data("{}".utf8))
        defer { try? FileManager.default.removeItem(at: folder) }
        let completer = Completer(directory: folder)
        #expect(completer.complete(word: "my", before: "post /x @").candidates == ["my\\ docs/"])
        // libedit splits the word at an escaped space: what is already on the line is not repeated.
        #expect(completer.complete(word: "docs/it", before: "post /x @my\\ ").candidates == ["docs/it\\'s\\ here.json"])
        #expect(completer.complete(word: "my\\ docs/", before: "post /x @").candidates == ["my\\ docs/it\\'s\\ here.json"])
        // The completed word reads back as the file's name.
        let line = try Parser.parseLine("post /x upload@my\\ docs/it\\'s\\ here.json")
        guard case .request(let request)? = line else {
            Issue.record("\(String(describing: line))")
            return
        }
        #expect(request.items.map(\.text) == ["upload@my docs/it's here.json"])
    }

    @Test("a candidate holding a control character is never offered to libedit, which would show it raw")
    func controlCharacters() {
        var completer = Completer(directory: URL(fileURLWithPath: "/nonexistent"))
        completer.paths = ["/ok", "/bad\u{1B}]0;title\u{07}", "/c1\u{9B}31m"]
        CompletionBridge.completer = completer
        #expect(CompletionBridge.complete(word: "/", before: "get ").candidates == ["/ok"])
        #expect(CompletionBridge.match(at: 0) == "/ok" && CompletionBridge.match(at: 1) == nil)
    }

    @MainActor
    @Test("in replay mode paths complete from the cassette, not only from paths seen; live mode drops them")
    func cassettePaths() async throws {
        let folder = TestScratch.path("completer")
        defer { try? FileManager.default.removeItem(at: folder) }
        let cassette = folder.appendingPathComponent("api.cassette.json")
        let interactions = try ["/users/42", "/users/7/orders", "/health"].map { path in
            Interaction(request: HTTPRequest(method: .get, url: try #require(URL(string: "http://127.0.0.1:1\(path)"))),
                        response: HTTPResponse(status: 200), recordedAt: Date(timeIntervalSince1970: 0))
        }
        try Cassette(interactions: interactions).write(to: cassette, format: .native)
        let shell = Interpreter(transport: StubTransport { _ in HTTPResponse(status: 200) }, output: ShellOutput { _ in },
                                options: .init(environment: [:], workingDirectory: folder))
        shell.cassettes = CassetteController(environment: [:])
        #expect(Completer(for: shell).complete(word: "/us", before: "get ").candidates.isEmpty)
        try await shell.run(source: "replay api.cassette.json", file: SourceLocation.prompt)
        #expect(Completer(for: shell).complete(word: "/us", before: "get ").candidates == ["/users/42", "/users/7/orders"])
        #expect(Completer(for: shell).complete(word: "/h", before: "cd ").candidates == ["/health"])
        try await shell.run(source: "live", file: SourceLocation.prompt)
        #expect(Completer(for: shell).complete(word: "/us", before: "get ").candidates.isEmpty)
    }
}
