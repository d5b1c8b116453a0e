import Foundation
import Testing
@testable import TapedeckShell

@MainActor
@Suite("Script input: line endings, byte-order marks, .env files, --var precedence, include paths")
struct ScriptInputTests {
    let server = EchoServer()

    @Test("CRLF and lone CR line endings split lines, heredocs included")
    func crlf() throws {
        let statements = try Parser.parseScript("base http://api.test\r\nget /x a==1\r\nput /p <<EOF\r\n{\"x\": 1}\r\nEOF\r\nexpect 200\r\n", file: "w.tape")
        #expect(statements.count == 4)
        #expect(statements.map(\.location.line) == [1, 2, 3, 6])
        guard case .request(let put) = statements[2].command, case .heredoc(let body)? = put.body else {
            Issue.record("no heredoc")
            return
        }
        #expect(body.text == "{\"x\": 1}")
        #expect(try Parser.parseScript("print a\rprint b\r", file: "mac.tape").count == 2)
    }

    @Test("a UTF-8 byte-order mark before the first command is ignored")
    func byteOrderMark() throws {
        let statements = try Parser.parseScript("\u{FEFF}base http://api.test\nget /x\n", file: "bom.tape")
        #expect(statements.first?.command == .base(Word("http://api.test", location: SourceLocation(file: "bom.tape", line: 1, column: 6))))
    }

    @Test(".env files: comments, inline comments, quotes, escapes, CRLF; bad lines are located")
    func envFiles() throws {
        let text = "\u{FEFF}# settings\r\nexport A=\"quoted # kept\"\r\nB='single $HOME \\n'\r\nC=plain # comment\r\nD=\"line\\nnext \\\"q\\\"\"\r\nE=\r\nF = spaced  \r\nURL=http://x.test/#frag\r\n"
        let pairs = try EnvFile.parse(text, path: ".env")
        let values = Dictionary(pairs, uniquingKeysWith: { $1 })
        #expect(pairs.map(\.0) == ["A", "B", "C", "D", "E", "F", "URL"])
        #expect(values["A"] == "quoted # kept")
        #expect(values["B"] == "single $HOME \\n")
        #expect(values["C"] == "plain")
        #expect(values["D"] == "line\nnext \"q\"")
        #expect(values["E"] == "")
        #expect(values["F"] == "spaced")
        #expect(values["URL"] == "http://x.test/#frag")
        #expect(throws: EnvFile.Error.self) { try EnvFile.parse("A=1\nnot a pair\n", path: ".env") }
        do {
            _ = try EnvFile.parse("A=1\nB=\"open\n", path: "ci.env")
            Issue.record("an unclosed quote parsed")
        } catch {
            #expect(error.localizedDescription == "ci.env:2:1: 'B=\"open' has an unclosed \" quote; close it on the same line")
        }
    }

    @Test("--var and --env-file values win over a script's set; a set typed at the prompt wins")
    func fixedVariables() async throws {
        let shell = Interpreter(transport: server.transport, output: .discarding, options: .init(environment: [:]))
        shell.state.variables = ["base": "http://ci.test", "who": "ci"]
        shell.fixedVariables = ["base", "who"]
        try await shell.run(source: "set base = http://localhost:8080\nset who = dev\nunset who\nbase {{base}}\nget /x\n", file: "smoke.tape")
        #expect(server.last?.url.absoluteString == "http://ci.test/x")
        #expect(shell.state.variables["who"] == "ci")
        let listed = Captured()
        let lister = Interpreter(transport: server.transport, output: listed.output, options: .init(environment: [:]))
        lister.state.variables = ["base": "http://ci.test", "mine": "1"]
        lister.fixedVariables = ["base"]
        try await lister.run(source: "vars\nshow state\n", file: SourceLocation.prompt)
        #expect(listed.value.hasPrefix("base = http://ci.test  (from --var/--env-file)\nmine = 1\n"))
        #expect(listed.value.contains("send:    timeout 30 s · redirects not followed (--follow)\n"))
        try await shell.run(source: "set who = typed\n", file: SourceLocation.prompt)
        #expect(shell.state.variables["who"] == "typed")
        try await shell.run(source: "set who = script\n", file: "later.tape")
        #expect(shell.state.variables["who"] == "script")
    }

    @Test("the runner fixes --var values for every script")
    func runnerFixesVariables() async {
        var options = ScriptRunner.Options()
        options.variables = ["base": "http://ci.test"]
        let runner = ScriptRunner(transport: server.transport, output: .discarding, errors: .discarding, options: options)
        let summary = await runner.run([ScriptSource(name: "a.tape", text: "set base = http://localhost\nbase {{base}}\nget /x\n")])
        #expect(summary.passed == 1)
        #expect(server.last?.url.host == "ci.test")
    }

    @Test("an error inside an included file names that file as the user would type it")
    func includedFileErrors() async throws {
        let folder = URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent(".tapedeck-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try "print ok\nexpect json $.a[ == 1\n".write(to: folder.appendingPathComponent("inc.tape"), atomically: true, encoding: .utf8)
        let shell = Interpreter(transport: server.transport, output: .discarding,
                                options: .init(environment: [:], workingDirectory: folder))
        do {
            try await shell.run(source: "include inc.tape\n", file: "main.tape")
            Issue.record("the parse error was not reported")
        } catch {
            #expect(error.localizedDescription.hasPrefix("\(folder.lastPathComponent)/inc.tape:2:18: invalid JSONPath"))
            #expect(error.category == .parse)
        }
    }
}
