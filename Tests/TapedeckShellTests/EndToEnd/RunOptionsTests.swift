import Foundation
import Testing

@Suite("tapedeck run and the REPL as users drive them: flags, verbose lines, script formats",
       .enabled(if: Binary.ready, "needs httpbin and the built binary (make test starts httpbin and sets TAPEDECK_BIN)"))
struct RunOptionsTests {
    let base = Binary.httpbin ?? ""

    /// Runs `tapedeck ARGUMENTS` in a fresh folder holding `files`.
    private func run(_ arguments: [String], files: [String: String] = [:], input: String = "") throws -> Binary.Outcome {
        let folder = try Binary.temporaryDirectory("run-options")
        defer { try? FileManager.default.removeItem(at: folder) }
        for (name, text) in files {
            try Data(text.utf8).write(to: folder.appendingPathComponent(name))
        }
        return try Binary.run(arguments, in: folder, input: input,
                              extraEnvironment: ["HOME": folder.path, "XDG_STATE_HOME": folder.path])
    }

    @Test("-v prints each request with its script location and status")
    func verbose() throws {
        let outcome = try run(["run", "-v", "t.tape", "--var", "base=\(base)"],
                              files: ["t.tape": "base {{base}}\nget /get\nget /status/418\nexpect 418\n"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let lines = outcome.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 3)
        #expect(lines[0].hasPrefix("t.tape:2:1  GET \(base)/get → 200 OK ("))
        #expect(lines[1].hasPrefix("t.tape:3:1  GET \(base)/status/418 → 418 I'M A TEAPOT ("))
        #expect(lines[2].hasPrefix("1 passed, 0 failed · 2 requests ("), "\(lines[2])")
    }

    @Test("HTTPie's localhost shorthand works in a script's request line, as on the command line")
    func localhostShorthand() throws {
        let port = try #require(URL(string: base)?.port)
        let outcome = try run(["run", "t.tape"], files: ["t.tape": "get :\(port)/get q==1\nexpect 200\nexpect json $.args.q == \"1\"\n"])
        #expect(outcome.status == 0, "\(outcome.stdout)\(outcome.stderr)")
    }

    @Test("--timeout stops a slow request (exit 3) and a request's own --timeout overrides it")
    func timeout() throws {
        // The error is the proof (httpbin answers /delay/3 with 200 after 3 s), not a wall-clock bound.
        let outcome = try run(["run", "t.tape", "--timeout", "1", "--var", "base=\(base)"],
                              files: ["t.tape": "base {{base}}\nget /delay/1 --timeout 3\nexpect 200\nget /delay/3\n"])
        #expect(outcome.status == 3)
        #expect(outcome.stderr.contains("t.tape:4:1: request to \(base)/delay/3 timed out after 1 s; raise it with --timeout SECONDS"), "\(outcome.stderr)")
        let usage = try run(["run", "t.tape", "--timeout", "0"], files: ["t.tape": "print x\n"])
        #expect(usage.status == 1 && usage.stderr.contains("--timeout 0 must be a positive number of seconds"))
    }

    @Test("redirects are followed with --follow (session or request), not by default")
    func follow() throws {
        let script = "base {{base}}\nget /redirect/2\nexpect 302\nexpect header Location == /relative-redirect/1\nget /redirect/2 --follow\nexpect 200\nexpect json $.url endsWith /get\n"
        let plain = try run(["run", "t.tape", "--var", "base=\(base)"], files: ["t.tape": script])
        #expect(plain.status == 0, "\(plain.stderr)")
        let following = try run(["run", "t.tape", "--follow", "--var", "base=\(base)"],
                                files: ["t.tape": "base {{base}}\nget /redirect/2\nexpect 200\n"])
        #expect(following.status == 0, "\(following.stderr)")
        let repl = try run(["repl", base, "--follow", "--timeout", "5"], input: "get /redirect/1\nexpect 200\nprint followed\n")
        #expect(repl.status == 0 && repl.stdout.hasSuffix("followed\n"), "\(repl.stderr)")
    }

    @Test("CRLF scripts, a byte-order mark on stdin, .env comments and --var over set all work")
    func scriptFormats() throws {
        let crlf = try run(["run", "w.tape", "-", "--env-file", ".env", "--var", "base=\(base)"], files: [
            "w.tape": "base {{base}}\r\nset who = script\r\nput /put <<EOF\r\n{\"who\": \"{{who}}\", \"team\": \"{{TEAM}}\"}\r\nEOF\r\nexpect json $.json.who == \"cli\"\r\nexpect json $.json.team == \"ios apps\"\r\n",
            ".env": "# CI settings\r\nTEAM=\"ios apps\"  # quoted\r\nwho=cli # inline comment\r\n",
        ], input: "\u{FEFF}print from stdin {{who}}\n")
        #expect(crlf.status == 0, "\(crlf.stderr)")
        #expect(crlf.stdout.contains("from stdin cli\n2 passed, 0 failed · "))
    }

    @Test("the REPL sends the default headers and a typed raw body, and show request shows them")
    func replDefaults() throws {
        let outcome = try run(["repl", base], input: "post /post --raw hello\nexpect json $.headers.User-Agent startsWith tapedeck/\nexpect json $.headers.Content-Type == \"text/plain; charset=utf-8\"\nshow request\n")
        #expect(outcome.status == 0)
        #expect(outcome.stderr.isEmpty, "\(outcome.stderr)")
        #expect(outcome.stdout.contains("POST /post HTTP/1.1\nHost: 127.0.0.1:"))
        #expect(outcome.stdout.contains("User-Agent: tapedeck/0.1.0\nAccept: */*\nContent-Type: text/plain; charset=utf-8\nContent-Length: 5\n\nhello"))
    }

    @Test("a session saved at the prompt runs as a passing script")
    func saveThenRun() throws {
        let folder = try Binary.temporaryDirectory("save-run")
        defer { try? FileManager.default.removeItem(at: folder) }
        let environment = ["HOME": folder.path, "XDG_STATE_HOME": folder.path]
        let session = try Binary.run(["repl", base], in: folder, input: """
            header X-Team: ios
            get /get q==1
            expect json $.args.q == "1"
            capture team = json $.headers.X-Team
            expect 500
            post /post <<EOF
            {"team": "{{team}}"}
            EOF
            expect json $.json.team == ios
            save saved.tape

            """, extraEnvironment: environment)
        #expect(session.status == 0)
        let rerun = try Binary.run(["run", "saved.tape"], in: folder, extraEnvironment: environment)
        #expect(rerun.status == 0, "\(rerun.stderr)")
        #expect(rerun.stdout.hasPrefix("1 passed, 0 failed · ") && rerun.stdout.split(separator: "\n").count == 1, "\(rerun.stdout)")
        let saved = try String(contentsOf: folder.appendingPathComponent("saved.tape"), encoding: .utf8)
        #expect(!saved.contains("expect 500"))
    }
}
