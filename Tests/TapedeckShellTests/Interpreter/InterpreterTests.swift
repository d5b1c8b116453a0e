import Foundation
import Synchronization
import Tapedeck
import TapedeckTestSupport
import Testing
@testable import TapedeckShell

/// Collects what the shell writes.
final class Captured: Sendable {
    private let text = Mutex("")
    var output: ShellOutput { ShellOutput { chunk in self.text.withLock { $0 += chunk } } }
    var value: String { text.withLock { $0 } }
}

/// A stub that echoes the request as httpbin would and remembers what it was sent.
final class EchoServer: Sendable {
    let requests = Mutex<[HTTPRequest]>([])

    var transport: StubTransport {
        StubTransport { request in
            self.requests.withLock { $0.append(request) }
            let body: JSONValue = [
                "method": .string(request.method.rawValue),
                "url": .string(request.url.absoluteString),
                "headers": .object(request.headers.map { (key: $0.name, value: JSONValue.string($0.value)) }),
                "data": .string(request.body.map { String(decoding: $0, as: UTF8.self) } ?? ""),
                "items": [["id": 1, "name": "a"], ["id": 2, "name": "b"]],
            ]
            return HTTPResponse(status: request.url.path.hasSuffix("/missing") ? 404 : 200,
                                headers: ["Content-Type": "application/json", "X-Count": "2"],
                                body: JSONWriter.write(body, options: []), duration: 0.012)
        }
    }

    var last: HTTPRequest? { requests.withLock { $0.last } }
}

@MainActor
@Suite("Interpreter")
struct InterpreterTests {
    let server = EchoServer()
    let captured = Captured()

    private func shell(_ options: Interpreter.Options = .init(environment: ["HOME": "/home/ada"])) -> Interpreter {
        Interpreter(transport: server.transport, output: captured.output, options: options)
    }

    /// The assertion failure `error` is; nil, recorded as an issue, for anything else.
    private static func assertionFailure(_ error: ShellError?, sourceLocation: Testing.SourceLocation = #_sourceLocation) -> AssertionFailure? {
        guard case .assertionFailed(let failed)? = error else {
            Issue.record("expected an assertion failure, got \(String(describing: error))", sourceLocation: sourceLocation)
            return nil
        }
        return failed
    }

    private func failure(_ shell: Interpreter, _ source: String) async -> ShellError? {
        do {
            try await shell.run(source: source, file: "t.tape")
            return nil
        } catch {
            return error
        }
    }

    @Test("print, vars and show state show a server's control characters captured into a variable, never obey them")
    func printedValuesAreShown() async throws {
        let shell = shell()
        shell.state.variables["h"] = "\u{1B}]0;owned\u{07}x"
        try await shell.run(source: "print {{h}}\nvars\nshow state\n", file: "t.tape")
        let text = captured.value
        #expect(!text.contains("\u{1B}") && !text.contains("\u{07}"), "\(text.debugDescription)")
        #expect(text.contains(#"\x1b]0;owned\x07x"#), "\(text)")
    }

    @Test("a relative path with a query is the path, not a body item, as HTTPie reads the word after the method")
    func relativePathWithQuery() async throws {
        let shell = shell()
        try await shell.run(source: "base http://api.test/v1/\nget users?page=2\nget items/7?x=1 q==2\n", file: "t.tape")
        let sent = server.requests.withLock { $0 }
        #expect(sent.map(\.url.absoluteString) == ["http://api.test/v1/users?page=2", "http://api.test/v1/items/7?x=1&q=2"], "\(sent.map(\.url))")
        #expect(sent.allSatisfy { $0.body == nil })
    }

    @Test("a relative path with no base tells the REPL user the base command to type")
    func relativeWithoutBase() async {
        let error = await failure(shell(), "get /users")
        #expect(error?.localizedDescription == "t.tape:1:5: cannot build a URL from '/users': it is relative and no base URL is set; "
            + "run 'base http://host:port' first or give a full URL")
        #expect(server.last == nil)
    }

    @Test("base, cd, persistent headers and query items shape each request; items do not persist")
    func requestComposition() async throws {
        let shell = shell()
        try await shell.run(source: """
            base http://api.test/v1
            header Authorization: Bearer abc
            query lang=en
            cd users
            get 42 X-Once:1 q==x
            """, file: "t.tape")
        let first = try #require(server.last)
        #expect(first.url.absoluteString == "http://api.test/v1/users/42?lang=en&q=x")
        #expect(first.headers["Authorization"] == "Bearer abc")
        #expect(first.headers["X-Once"] == "1")
        try await shell.run(source: "cd ..\nget /status Authorization:override\n", file: "t.tape")
        let second = try #require(server.last)
        #expect(second.url.absoluteString == "http://api.test/v1/status?lang=en")
        #expect(second.headers.values(for: "Authorization") == ["override"])
        #expect(second.headers["X-Once"] == nil)
        #expect(shell.state.path == "/")
    }

    @Test("JSON items, heredoc and form bodies are sent with their content types")
    func bodies() async throws {
        let shell = shell()
        try await shell.run(source: "base http://api.test\npost /p name=Ada age:=36\n", file: "t.tape")
        #expect(server.last?.body.map { String(decoding: $0, as: UTF8.self) } == #"{"name":"Ada","age":36}"#)
        #expect(server.last?.headers["Content-Type"] == "application/json")
        try await shell.run(source: "put /p <<END\n{\"id\": {{n}}}\nEND\n".replacingOccurrences(of: "{{n}}", with: "7"), file: "t.tape")
        #expect(server.last?.body.map { String(decoding: $0, as: UTF8.self) } == #"{"id": 7}"#)
        #expect(server.last?.headers["Content-Type"] == "application/json")
        try await shell.run(source: "post /f --form a=b 'c=d e'\n", file: "t.tape")
        #expect(server.last?.body.map { String(decoding: $0, as: UTF8.self) } == "a=b&c=d+e")
    }

    @Test("expect passes quietly and a failure shows query, expected, actual and location")
    func expectations() async throws {
        let shell = shell()
        try await shell.run(source: """
            base http://api.test
            get /x
            expect 200
            expect header X-Count == 2
            expect json $.items[?(@.id == 2)].name contains "b"
            expect json $.items count == 2
            expect duration < 1000
            """, file: "t.tape")
        let error = await failure(shell, "\n\nexpect json $.items[0].name == \"z\"\n")
        guard let failed = Self.assertionFailure(error) else { return }
        #expect(failed.location == SourceLocation(file: "t.tape", line: 3, column: 1))
        #expect(failed.query == "json $.items[0].name")
        #expect(failed.expected == "== \"z\"")
        #expect(failed.actual == "\"a\"")
        #expect(error?.category == .assertion)
        #expect(failed.message.hasPrefix("t.tape:3:1: expect failed"))
    }

    @Test("expect compares a JSON array or object written after == or contains, spaces and all")
    func structuredValues() async throws {
        let shell = shell()
        try await shell.run(source: """
            base http://api.test
            get /x
            expect json $.items[*].id == [1, 2]
            expect json $.items[0] == {"name": "a", "id": 1.0}
            expect json $.items != [{"id": 1}]
            expect json $.items contains {"id": 2, "name": "b"}
            expect json $.items[*].name == ["a", "b"]   # a comment after the value
            """, file: "t.tape")
        let error = await failure(shell, "expect json $.items[*].id == [2, 1]\n")
        guard let failed = Self.assertionFailure(error) else { return }
        #expect(failed.expected == "== [2, 1]")
        #expect(failed.actual == "[1,2]")
        // A query of text: JSON in it compares as JSON; a bracketed word that is not JSON is
        // text as it was; a template is not an object.
        try await shell.run(source: """
            set first a
            expect body contains [{
            expect body != [1, 2]
            expect header Content-Type != [json]
            expect json $.items[0].name == {{first}}
            """, file: "t.tape")
        // A literal a template fills in is checked once it is filled in.
        let filled = await failure(shell, "set one 1\nexpect json $.items == [{{one}} 2]\n")
        #expect(filled?.errorDescription?.contains("once its templates are filled in") == true, "\(String(describing: filled?.errorDescription))")
        let malformed = await failure(shell, "expect json $.items == [1, 2\n")
        #expect(malformed?.errorDescription?.contains("t.tape:1:") == true, "\(String(describing: malformed?.errorDescription))")
        #expect(malformed?.errorDescription?.contains("quote it to compare it as text") == true, "\(String(describing: malformed?.errorDescription))")
        // Columns count characters: an emoji of two scalars is one.
        let emoji = await failure(shell, "expect json $.a == [\"👍🏽\", x]\n")
        #expect(emoji?.errorDescription?.hasPrefix("t.tape:1:26:") == true, "\(String(describing: emoji?.errorDescription))")
    }

    @Test("clear clears a terminal whether colours are on or not (NO_COLOR), and nothing else")
    func clearOnTerminal() async throws {
        var options = Interpreter.Options(environment: ["NO_COLOR": "1"])
        options.isTerminal = true
        try await shell(options).run(source: "clear\n", file: "t.tape")
        #expect(captured.value.contains("\u{1B}[2J"))
        let piped = Captured()
        try await Interpreter(transport: server.transport, output: piped.output, options: .init(environment: [:])).run(source: "clear\n", file: "t.tape")
        #expect(piped.value.isEmpty)
    }

    @Test("a value cut short in a failure is redacted first: a token across the cut shows none of its characters")
    func cutAcrossToken() async throws {
        let token = "hf_5CYAVH66WxYLwx29Ck9WzTVDPq7RtUvXyZa"
        let transport = StubTransport { _ in HTTPResponse(status: 200, headers: ["Content-Type": "text/plain"], body: Data((String(repeating: "w", count: 100) + " " + token).utf8)) }
        let shell = Interpreter(transport: transport, output: captured.output)
        let error = await failure(shell, "get http://api.test/x\nexpect body contains zzz\n")
        guard let failed = Self.assertionFailure(error) else { return }
        #expect(!failed.actual.contains("hf_5CYAV"), "\(failed.actual)")
    }

    @Test("a very long expected value is cut in the failure as a long actual value is")
    func longExpectedValue() async throws {
        let shell = shell()
        let long = String(repeating: "x", count: 100_000)
        let error = await failure(shell, "base http://api.test\nget /x\nexpect body contains \"\(long)\"\n")
        guard let failed = Self.assertionFailure(error) else { return }
        #expect(failed.message.count < 2_000, "\(failed.message.count) characters")
        #expect(failed.expected.contains("more characters)"), "\(failed.expected.suffix(80))")
    }

    @Test("capture stores a value that later lines interpolate")
    func captures() async throws {
        let shell = shell()
        try await shell.run(source: "base http://api.test\nget /x\ncapture id = json $.items[1].id\ncapture kind = header Content-Type\nget /items/{{id}}\nprint {{kind}} {{env.HOME}}\n", file: "t.tape")
        #expect(server.last?.url.path == "/items/2")
        #expect(captured.value.hasSuffix("application/json /home/ada\n"))
    }

    @Test("bad input fails with its location and the state survives")
    func badInput() async throws {
        let shell = shell()
        if case .noResponse(let command, let at)? = await failure(shell, "expect 200") {
            #expect(command == "expect" && at.line == 1)
        } else {
            Issue.record("no 'needs a response' error")
        }
        try await shell.run(source: "set token = abc\nbase http://api.test\n", file: "t.tape")
        let undefined = await failure(shell, "get /x Authorization:{{tokn}}")
        #expect(undefined?.localizedDescription == "t.tape:1:22: undefined variable '{{tokn}}'; did you mean '{{token}}'? Or define it with 'set tokn = …', 'capture tokn = …' or --var tokn=…")
        #expect(undefined?.category == .runtime)
        #expect(shell.state.base?.absoluteString == "http://api.test")
        #expect(shell.state.variables["token"] == "abc")
        if case .invalidRequest? = await failure(shell, "base ftp://x") {} else { Issue.record("no bad-URL error") }
        if case .cassettesUnavailable? = await failure(shell, "replay x.json") {} else { Issue.record("no cassette error") }
    }

    @Test("include runs a file from the including script's folder, and reports missing files and loops")
    func includes() async throws {
        let folder = try TestScratch.directory("include")
        defer { try? FileManager.default.removeItem(at: folder) }
        try "set shared = yes\n".write(to: folder.appendingPathComponent("login.tape"), atomically: true, encoding: .utf8)
        try "include b.tape\n".write(to: folder.appendingPathComponent("a.tape"), atomically: true, encoding: .utf8)
        try "\ninclude a.tape\n".write(to: folder.appendingPathComponent("b.tape"), atomically: true, encoding: .utf8)
        let shell = shell(.init(environment: [:], workingDirectory: folder))
        try await shell.run(source: "include login.tape\n", file: "t.tape")
        #expect(shell.state.variables["shared"] == "yes")
        if case .includeUnreadable(let path, _, let at)? = await failure(shell, "\ninclude nope.tape") {
            #expect(path == "nope.tape" && at == SourceLocation(file: "t.tape", line: 2, column: 9))
        } else {
            Issue.record("no missing-include error")
        }
        if case .includeRecursion(let chain, let at)? = await failure(shell, "include a.tape") {
            #expect(chain == ["a.tape", "b.tape", "a.tape"])
            #expect(at.file.hasSuffix("b.tape") && at.line == 2)
        } else {
            Issue.record("no recursion error")
        }
    }

    @Test("save writes a script that reproduces the session")
    func save() async throws {
        let folder = TestScratch.path("save")
        defer { try? FileManager.default.removeItem(at: folder) }
        let shell = shell(.init(environment: [:], workingDirectory: folder))
        try await shell.run(source: "base http://api.test\nheader X-A: 1\nvars\npost /p <<EOF\n{\"a\": 1}\nEOF\nexpect 200\nshow curl\n", file: "<repl>")
        _ = await failure(shell, "expect 500")
        try await shell.run(source: "save out/session.tape\n", file: "<repl>")
        let saved = try String(contentsOf: folder.appendingPathComponent("out/session.tape"), encoding: .utf8)
        #expect(saved.hasSuffix("base http://api.test\nheader X-A: 1\npost /p <<EOF\n{\"a\": 1}\nEOF\nexpect 200\n"))
        let replayServer = EchoServer()
        let again = Interpreter(transport: replayServer.transport, output: .discarding)
        try await again.run(source: saved, file: "session.tape")
        #expect(replayServer.last?.headers["X-A"] == "1")
        #expect(replayServer.last?.body == server.last?.body)
    }

    @Test("save replaces credentials and says so; the saved script carries no token")
    func saveRedacts() async throws {
        let folder = TestScratch.path("save")
        defer { try? FileManager.default.removeItem(at: folder) }
        let shell = shell(.init(environment: [:], workingDirectory: folder))
        try await shell.run(source: "base http://api.test\nheader Authorization: Bearer tok-12345678\nget /me api_key==k-secret-1\nsave s.tape\n", file: "<repl>")
        let saved = try String(contentsOf: folder.appendingPathComponent("s.tape"), encoding: .utf8)
        #expect(!saved.contains("tok-12345678") && !saved.contains("k-secret-1"))
        #expect(saved.contains("header Authorization: <REDACTED>\nget /me api_key==<REDACTED>\n"))
        #expect(captured.value.contains("2 credentials replaced by <REDACTED>: use {{variables}} for them"))
    }

    @Test("show curl prints a shell-quoted command")
    func curl() async throws {
        let shell = shell()
        try await shell.run(source: "base http://api.test\npost /p \"note=it's\" X-A:b\nshow curl\n", file: "t.tape")
        #expect(captured.value.contains(#"curl -X POST http://api.test/p -H 'X-A: b' -H 'Content-Type: application/json' -H 'Accept: application/json, */*;q=0.5' --data-binary '{"note":"it'\''s"}'"#)
            || captured.value.contains("--data-binary '{\"note\":\"it'\\''s\"}'"))
        #expect(CurlCommand.quote("it's") == #"'it'\''s'"#)
        #expect(CurlCommand.quote("/plain") == "/plain")
    }

    @Test("continue-on-error records every failure and goes on")
    func continueOnError() async throws {
        let shell = shell(.init(environment: [:], continueOnError: true))
        try await shell.run(source: "base http://api.test\nget /x\nexpect 404\nexpect json $.nope exists\nget /y\n", file: "t.tape")
        #expect(shell.failures.count == 2)
        #expect(server.last?.url.path == "/y")
    }
}
