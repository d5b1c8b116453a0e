import Foundation
import TapedeckTestSupport
import Testing

@Suite("REPL in a real terminal (tmux)", .serialized,
       .enabled(if: Binary.ready && TmuxSession.available, "needs tmux, httpbin and the built binary (make test provides them)"))
struct ReplTerminalTests {
    let base = Binary.httpbin ?? ""

    /// Starts `tapedeck ARGUMENTS` in a fresh terminal and home, waits for the prompt, runs
    /// `body`, and always stops the terminal.
    private func withRepl(_ arguments: [String], _ body: (TmuxSession) throws -> Void) throws {
        let tmux = TmuxSession(home: try Binary.temporaryDirectory("repl"))
        defer { tmux.stop(); try? FileManager.default.removeItem(at: tmux.home) }
        try tmux.start(arguments)
        #expect(try tmux.waitFor { $0.contains("[live]>") }.matched)
        try body(tmux)
    }

    private func lines(_ screen: String) -> [String] {
        screen.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
    }

    @Test("Tab completes a command name and a header name")
    func tabCompletion() throws {
        try withRepl(["repl", base]) { tmux in
            try tmux.type("hist", then: "Tab")
            #expect(try tmux.waitFor { $0.contains("[live]> history ") }.matched)
            try tmux.send("C-u")
            try tmux.type("header Authori", then: "Tab")
            #expect(try tmux.waitFor { $0.contains("[live]> header Authorization:") }.matched)
            try tmux.type(" Bearer t0k", then: "Enter")
            try tmux.type("get /get X-Trace-Id:1", then: "Enter")
            #expect(try tmux.waitFor { $0.contains("\"X-Trace-Id\": \"1\"") }.matched)
            try tmux.type("get /get X-Tr", then: "Tab")
            let completed = try tmux.waitFor { $0.contains("get /get X-Trace-Id:") }
            #expect(completed.matched, "a header used this session completes: \(completed.screen)")
        }
    }

    @Test("Tab completes a file name with spaces and quotes, escaped, and the request sends that file")
    func tabCompletesEscapedFile() throws {
        try withRepl(["repl", base]) { tmux in
            let folder = tmux.home.appendingPathComponent("my docs")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Data("escaped-file-body".utf8).write(to: folder.appendingPathComponent("it's here.txt"))
            let typed = (tmux.home.path + "/").replacingOccurrences(of: " ", with: "\\ ")
            try tmux.type("post /post upload@\(typed)my", then: "Tab")
            #expect(try tmux.waitFor { $0.contains("upload@\(typed)my\\ docs/") }.matched)
            try tmux.type("it", then: "Tab")
            #expect(try tmux.waitFor { $0.contains("my\\ docs/it\\'s\\ here.txt") }.matched)
            try tmux.send("Enter")
            let sent = try tmux.waitFor { $0.contains("escaped-file-body") }
            #expect(sent.matched, "the file went as the upload field: \(sent.screen)")
        }
    }

    @Test("a resized terminal lays the line being edited out at its new width")
    func resizedTerminal() throws {
        try withRepl(["repl", base]) { tmux in
            // A short line is not drawn again after the prompt.
            try tmux.type("print hi")
            Thread.sleep(forTimeInterval: 0.3)
            try tmux.resize(width: 90, height: 40)
            try tmux.type(" there")
            let short = try tmux.waitFor(3) { $0.contains("print hi there") }
            #expect(short.matched && short.screen.components(separatedBy: "[live]>").count == 2, "one prompt: \(short.screen)")
            try tmux.send("C-u")
            try tmux.resize(width: 120, height: 40)
            try tmux.type("print aaaaaaaaaa bbbbbbbbbb cccccccccc dddddddddd eeeeeeeeee ffffffffff gggggggggg")
            Thread.sleep(forTimeInterval: 0.3)
            try tmux.resize(width: 50, height: 40)
            Thread.sleep(forTimeInterval: 0.3)
            try tmux.type(" hhhh")
            for _ in 0..<12 { try tmux.send("BSpace") }
            let edited = try tmux.waitFor(3) { $0.split(separator: "\n").contains { $0.hasSuffix("ffffffffff ggg") } }
            #expect(edited.matched, "the line shown is the line held: \(edited.screen)")
            try tmux.send("Enter")
            #expect(try tmux.waitFor { $0.contains("eeeeeeeeee ffffffffff ggg\n") || $0.contains("ffffffffff ggg\ntapedeck") }.matched)
        }
    }

    @Test("history survives a restart, Up and Ctrl-R recall it, Up recalls a typed token until exit, and the file holds it redacted, mode 0600")
    func historyPersists() throws {
        try withRepl(["repl"]) { tmux in
            try tmux.type("print first-run-marker", then: "Enter")
            try tmux.type("header Authorization: Bearer sekrit-token-4711", then: "Enter")
            // Every spelling of a credential item: quoted whole, and in a pasted curl command.
            try tmux.type("get http://127.0.0.1:9/x 'Authorization:Bearer tok_live_4712'", then: "Enter")
            try tmux.type("curl http://127.0.0.1:9/x -H 'X-Api-Key: sk_live_4713' -u ada:pw_4714", then: "Enter")
            try tmux.type("print second", then: "Enter")
            #expect(try tmux.waitFor { self.lines($0).contains("second") }.matched)
            for _ in 1...4 { try tmux.send("Up") }
            #expect(try tmux.waitFor { $0.contains("[live]> header Authorization: Bearer sekrit-token-4711") }.matched,
                    "Up recalls the token as typed in the running session")
            try tmux.send("C-u")
            try tmux.send("C-d")
            // The history file is written as the REPL exits: read it only once the REPL is gone.
            try #require(try tmux.waitFor(60) { _ in !tmux.isRunning }.matched || !tmux.isRunning)
            let attributes = try FileManager.default.attributesOfItem(atPath: tmux.historyFile.path)
            #expect((attributes[.posixPermissions] as? Int) == 0o600)
            let saved = try String(contentsOf: tmux.historyFile, encoding: .utf8)
            #expect(saved.contains("first-run-marker"))
            for secret in ["sekrit-token-4711", "tok_live_4712", "sk_live_4713", "pw_4714"] {
                #expect(!saved.contains(secret), "a credential reached the history file: \(secret)")
            }
            let lines = saved.replacingOccurrences(of: "\\040", with: " ")  // libedit's file spells a space \040
            #expect(lines.contains("'Authorization:<REDACTED>'"))
            #expect(lines.contains("-H 'X-Api-Key: <REDACTED>' -u ada:<REDACTED>"))
            #expect(saved.contains("REDACTED"))

            try tmux.start(["repl"])
            #expect(try tmux.waitFor { $0.contains("[live]>") }.matched)
            try tmux.send("Up")
            #expect(try tmux.waitFor { $0.contains("[live]> print second") }.matched)
            try tmux.send("C-u")
            try tmux.send("C-r")
            try tmux.type("first-run")
            #expect(try tmux.waitFor { $0.contains("print first-run-marker") }.matched)
            try tmux.send("Enter")
            #expect(try tmux.waitFor { self.lines($0).contains("first-run-marker") }.matched)
        }
    }

    @Test("Ctrl-C abandons a line and cancels a slow request; the session keeps its state")
    func interrupt() throws {
        try withRepl(["repl", base]) { tmux in
            try tmux.type("set kept = yes", then: "Enter")
            #expect(try tmux.waitFor { $0.components(separatedBy: "[live]>").count == 3 }.matched)
            try tmux.type("print abandoned-line")
            #expect(try tmux.waitFor { $0.contains("abandoned-line") }.matched)
            try tmux.send("C-c")
            let echoed = try tmux.waitFor { $0.components(separatedBy: "[live]>").count == 4 }
            #expect(echoed.matched)
            #expect(lines(echoed.screen).contains { $0.hasSuffix("[live]> print abandoned-line^C") }, "\(echoed.screen)")
            #expect(lines(echoed.screen).last?.hasSuffix("[live]>") == true, "a fresh prompt on its own line: \(echoed.screen)")
            try tmux.type("print after-interrupt", then: "Enter")
            let afterLine = try tmux.waitFor { self.lines($0).contains("after-interrupt") }
            #expect(afterLine.matched)
            #expect(!lines(afterLine.screen).contains("abandoned-line"))
            // A server that holds the connection and never answers: C-c goes once it has the request.
            let server = try SilentServer()
            let connected = server.acceptInBackground()
            try tmux.type("get http://127.0.0.1:\(server.port)/slow", then: "Enter")
            #expect(connected.wait(timeout: .now() + 30) == .success, "the request never reached the server")
            try tmux.send("C-c")
            let cancelled = try tmux.waitFor(30) { $0.contains("request cancelled") }
            #expect(cancelled.matched, "\(cancelled.screen)")
            #expect(lines(cancelled.screen).contains { $0.hasPrefix("<repl>:") && $0.hasSuffix("request cancelled") },
                    "the message starts its own line after the terminal's ^C: \(cancelled.screen)")
            try tmux.type("print still {{kept}}", then: "Enter")
            #expect(try tmux.waitFor { self.lines($0).contains("still yes") }.matched)
            #expect(tmux.isRunning)
        }
    }

    @Test("Ctrl-C in a heredoc's continuation lines echoes ^C and drops the whole command")
    func interruptContinuation() throws {
        try withRepl(["repl", base]) { tmux in
            try tmux.type("post /post <<EOF", then: "Enter")
            try tmux.type("{\"half\": ", then: "Enter")
            #expect(try tmux.waitFor { $0.contains("... {\"half\":") }.matched)
            try tmux.send("C-c")
            #expect(try tmux.waitFor { self.lines($0).contains("...") == false && $0.contains("^C") && $0.components(separatedBy: "[live]>").count == 3 }.matched)
            try tmux.type("history", then: "Enter")
            let screen = try tmux.waitFor { self.lines($0).contains("(no history yet)") || $0.contains("1  base") }
            #expect(!screen.screen.contains("1  post /post"), "\(screen.screen)")
        }
    }

    @Test("tapedeck run shows progress on stderr when several files run on a terminal, and none for one file")
    func runProgress() throws {
        let folder = try Binary.temporaryDirectory("progress")
        let tmux = TmuxSession(home: folder)
        defer { tmux.stop(); try? FileManager.default.removeItem(at: folder) }
        let first = folder.appendingPathComponent("first.tape").path
        let second = folder.appendingPathComponent("second.tape").path
        try "base {{base}}\nget /get\nexpect 200\n".write(toFile: first, atomically: true, encoding: .utf8)
        try "base {{base}}\nget /status/500\nexpect 200\n".write(toFile: second, atomically: true, encoding: .utf8)
        try tmux.start(["run", first, second, "--var", "base=\(base)"], holdAfterExit: true)
        let done = try tmux.waitFor { $0.contains("[exit 4]") }
        #expect(done.matched, "\(done.screen)")
        let shown = lines(done.screen)
        #expect(shown.contains("[1/2] \(first)"))
        #expect(shown.contains { $0.hasPrefix("[1/2] \(first): passed (") })
        #expect(shown.contains { $0.hasPrefix("[2/2] \(second): FAILED (") })
        #expect(shown.contains("\(second):3:1: expect failed: status == 200"))
        #expect(shown.contains { $0.hasPrefix("1 passed, 1 failed · 2 requests (") })

        // A fresh server: starting one on a socket whose server is still shutting down fails.
        let alone = TmuxSession(home: folder)
        defer { alone.stop() }
        try alone.start(["run", first, "--var", "base=\(base)"], holdAfterExit: true)
        let single = try alone.waitFor { $0.contains("[exit 0]") }
        #expect(single.matched && !single.screen.contains("[1/1]"), "\(single.screen)")
    }

    @Test("Ctrl-D at the prompt exits 0 and leaves the cursor on a fresh line")
    func endOfInput() throws {
        let tmux = TmuxSession(home: try Binary.temporaryDirectory("eof"))
        defer { tmux.stop(); try? FileManager.default.removeItem(at: tmux.home) }
        try tmux.start(["repl"], holdAfterExit: true)
        #expect(try tmux.waitFor { $0.contains("[live]>") }.matched)
        try tmux.send("C-d")
        let done = try tmux.waitFor { $0.contains("[exit 0]") }
        #expect(done.matched, "\(done.screen)")
        #expect(lines(done.screen).contains("[exit 0]"), "the next output starts its own line: \(done.screen)")
    }

    @Test("UTF-8 typed at the prompt round-trips through a request and back")
    func unicode() throws {
        try withRepl(["repl", base]) { tmux in
            try tmux.type("post /anything name=naïve-🎞", then: "Enter")
            try tmux.type("capture echoed = json $.json.name", then: "Enter")
            try tmux.type("print got {{echoed}} héllo", then: "Enter")
            let result = try tmux.waitFor { self.lines($0).contains("got naïve-🎞 héllo") }
            #expect(result.matched, "\(result.screen)")
        }
    }

    @Test("bad input prints a located error and the REPL keeps going")
    func badInput() throws {
        try withRepl(["repl", base]) { tmux in
            try tmux.type("expect 200", then: "Enter")
            try tmux.type("gte /get", then: "Enter")
            try tmux.type("include missing.tape", then: "Enter")
            try tmux.type("print alive", then: "Enter")
            let screen = try tmux.waitFor { self.lines($0).contains("alive") }
            #expect(screen.matched)
            #expect(screen.screen.contains("<repl>:1:1: 'expect' needs a response"))
            #expect(screen.screen.contains("<repl>:2:1: unknown command 'gte'; did you mean 'get'?"))
            #expect(screen.screen.contains("<repl>:3:9: cannot include 'missing.tape'"))
        }
    }

    @Test("openapi: ls lists the document's paths, Tab completes a path and a body member, a response that breaks it gets a warning")
    func openAPI() throws {
        let folder = try Binary.temporaryDirectory("repl-openapi")
        defer { try? FileManager.default.removeItem(at: folder) }
        let spec = folder.appendingPathComponent("httpbin.yaml")
        try Data(Binary.httpbinOpenAPI.utf8).write(to: spec)
        try withRepl(["repl", base, "--openapi", spec.path]) { tmux in
            try tmux.type("ls", then: "Enter")
            let listing = try tmux.waitFor { $0.contains("status/") }
            #expect(listing.matched && listing.screen.contains("anything/   []") && listing.screen.contains("get         [GET]"),
                    "\(listing.screen)")
            try tmux.type("cd an", then: "Tab")
            #expect(try tmux.waitFor { $0.contains("[live]> cd anything/") }.matched)
            try tmux.type("u", then: "Tab")
            #expect(try tmux.waitFor { $0.contains("[live]> cd anything/users") }.matched)
            try tmux.send("Enter")
            // Type only once the new prompt is drawn: keys sent while libedit redraws land mid-line.
            #expect(try tmux.waitFor { $0.contains("anything/users [live]> ") }.matched)
            try tmux.type("post ag", then: "Tab")
            let member = try tmux.waitFor { $0.contains("[live]> post age:=") }
            #expect(member.matched, "the body member completes with :=, as an integer: \(member.screen)")
            try tmux.type("36", then: "Enter")
            #expect(try tmux.waitFor { $0.contains("\"age\": 36") }.matched)
            try tmux.type("get /get", then: "Enter")
            let warning = try tmux.waitFor {
                $0.contains("warning: this exchange breaks ") && $0.contains("response body /url: expected integer, found string")
            }
            #expect(warning.matched, "\(warning.screen)")
        }
    }

    @Test("a server's control characters captured into a variable are shown escaped by print and vars, never obeyed by the terminal")
    func capturedControlCharacters() throws {
        try withReplay(named: "evil", #"""
        {"version": 1, "interactions": [
          {"recordedAt": "2026-11-24T00:00:00.000Z", "request": {"method": "GET", "url": "http://api.test/evil", "headers": []},
           "response": {"status": 200, "headers": [["Content-Type", "application/json"]],
                        "body": {"json": {"evil": "A\u001b[31mRED\u001b]0;pwned\u0007B"}}}}
        ]}
        """#) { tmux in
            try tmux.type("get http://api.test/evil", then: "Enter")
            try tmux.type("capture x = json $.evil", then: "Enter")
            try tmux.type("print {{x}}", then: "Enter")
            let printed = try tmux.waitFor { $0.contains(#"A\x1b[31mRED\x1b]0;pwned\x07B"#) }
            #expect(printed.matched, "\(printed.screen)")
            try tmux.type("vars", then: "Enter")
            let listed = try tmux.waitFor { $0.split(separator: "\n").filter { $0.contains(#"\x1b]0;pwned"#) }.count >= 2 }
            #expect(listed.matched, "vars shows it escaped too: \(listed.screen)")
            #expect(try tmux.title() != "pwned", "the terminal's title was not set by the server")
        }
    }

    @Test("replaying at the prompt: a recorded 302 shows as 302, a recorded <REDACTED> query value matches any value, nothing else does")
    func replayRules() throws {
        try withReplay(named: "rules", #"""
        {"version": 1, "interactions": [
          {"recordedAt": "2026-11-24T00:00:00.000Z", "request": {"method": "GET", "url": "http://api.test/r", "headers": []},
           "response": {"status": 302, "headers": [["Location", "/final"], ["Content-Length", "0"]]}},
          {"recordedAt": "2026-11-24T00:00:00.000Z", "request": {"method": "GET", "url": "http://api.test/cookies/set?cookie=%3CREDACTED%3E", "headers": []},
           "response": {"status": 200, "headers": [["Content-Type", "text/plain"]], "body": {"text": "cookie set"}}}
        ]}
        """#) { tmux in
            try tmux.type("get http://api.test/r", then: "Enter")
            let redirect = try tmux.waitFor { $0.contains("HTTP/1.1 302") && $0.contains("not followed") }
            #expect(redirect.matched, "\(redirect.screen)")
            try tmux.type("get http://api.test/cookies/set cookie==SECRET-789", then: "Enter")
            let cookie = try tmux.waitFor { $0.contains("cookie set") }
            #expect(cookie.matched, "\(cookie.screen)")
            try tmux.type("get http://api.test/cookies/set other==SECRET-789", then: "Enter")
            let other = try tmux.waitFor { $0.contains("no recorded interaction matches") }
            #expect(other.matched, "\(other.screen)")
            try tmux.type("tape", then: "Enter")
            #expect(try tmux.waitFor { $0.contains("2 played") }.matched, "the REPL kept running after the unmatched request")
        }
    }

    /// Writes `json` as `NAME.cassette.json` in a scratch folder, starts `repl --replay` on it in
    /// a fresh terminal, waits for its prompt, runs `body`, and always removes both.
    private func withReplay(named name: String, _ json: String, _ body: (TmuxSession) throws -> Void) throws {
        let folder = try Binary.temporaryDirectory("repl-\(name)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let cassette = folder.appendingPathComponent("\(name).cassette.json")
        try Data(json.utf8).write(to: cassette)
        let tmux = TmuxSession(home: try Binary.temporaryDirectory("repl"))
        defer { tmux.stop(); try? FileManager.default.removeItem(at: tmux.home) }
        try tmux.start(["repl", "--replay", cassette.path])
        #expect(try tmux.waitFor { $0.contains("replay \(name).cassette.json]>") }.matched)
        try body(tmux)
    }
}
