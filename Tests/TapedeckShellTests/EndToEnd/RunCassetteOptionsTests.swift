import Foundation
import Testing

@Suite("tapedeck run --replay with --origin and --match, and the fixes it prints",
       .enabled(if: Binary.ready, "needs httpbin and the built binary (make test starts httpbin and sets TAPEDECK_BIN)"))
struct RunCassetteOptionsTests {
    let base = Binary.httpbin ?? ""
    let other = "http://other.test:1234"

    /// Records `get /get?ts=1` and `get /json` from httpbin into `c.json` in a fresh folder, writes
    /// `files` beside it, and runs `tapedeck ARGUMENTS` there.
    private func replay(_ arguments: [String], files: [String: String] = [:], input: String = "") throws -> Binary.Outcome {
        let folder = try Binary.temporaryDirectory("run-cassette")
        defer { try? FileManager.default.removeItem(at: folder) }
        let environment = ["HOME": folder.path, "XDG_STATE_HOME": folder.path, "TAPEDECK_USAGE_DIR": folder.path]
        try Data("get {{base}}/get?ts=1\nexpect 200\nget {{base}}/json\n".utf8).write(to: folder.appendingPathComponent("record.tape"))
        let recorded = try Binary.run(["run", "record.tape", "--record", "c.json", "--mode", "once", "--var", "base=\(base)"], in: folder,
                                      extraEnvironment: environment)
        #expect(recorded.status == 0, "\(recorded.stderr)")
        for (name, text) in files { try Data(text.utf8).write(to: folder.appendingPathComponent(name)) }
        return try Binary.run(arguments, in: folder, input: input, extraEnvironment: environment)
    }

    @Test("--origin replays a cassette recorded elsewhere; without it the fix names --origin and the real script")
    func origin() throws {
        let script = ["smoke.tape": "get {{base}}/json\nexpect 200\nexpect json $.slideshow.author == \"Yours Truly\"\n"]
        let served = try replay(["run", "smoke.tape", "--replay", "c.json", "--origin", other, "--var", "base=\(other)"], files: script)
        #expect(served.status == 0, "\(served.stderr)")
        #expect(served.stdout.split(separator: "\n").last?.hasPrefix("1 passed, 0 failed · ") == true)
        let refused = try replay(["run", "smoke.tape", "--replay", "c.json", "--var", "base=\(other)"], files: script)
        #expect(refused.status == 3)
        #expect(refused.stderr.contains("smoke.tape:1:1: no recorded interaction matches GET \(other)/json"), "\(refused.stderr)")
        #expect(refused.stderr.contains("  - serve the cassette at the origin you send to: tapedeck run smoke.tape --replay c.json --origin \(other)\n"))
        #expect(refused.stderr.contains("  - record it: tapedeck run smoke.tape --record c.json --mode new"))
        #expect(!refused.stderr.contains("SCRIPT.tape"))
    }

    @Test("--match ignore-query:ts lets another ts match; without it the fix names --match and the real script")
    func match() throws {
        let script = ["api check.tape": "get {{base}}/get?ts=2\nexpect 200\nexpect json $.args.ts == \"1\"\n"]
        let served = try replay(["run", "api check.tape", "--replay", "c.json", "--match", "ignore-query:ts", "--var", "base=\(base)"],
                                files: script)
        #expect(served.status == 0, "\(served.stderr)")
        let refused = try replay(["run", "api check.tape", "--replay", "c.json", "--var", "base=\(base)"], files: script)
        #expect(refused.status == 3)
        #expect(refused.stderr.contains(
            "  - if those query items don't matter, ignore them: tapedeck run 'api check.tape' --replay c.json --match ignore-query:ts\n"),
            "\(refused.stderr)")
        let invalid = try replay(["run", "api check.tape", "--replay", "c.json", "--match", "body:xml"], files: script)
        #expect(invalid.status == 1)
        #expect(invalid.stderr.contains("'body:xml' in the matching spec 'body:xml' is not understood"))
        #expect(invalid.stderr.contains("body, body:raw, body:form, header:NAME, ignore-query:NAME"))
    }

    @Test("the REPL takes --match and --origin, and replay PATH --repeat serves the last match again")
    func repl() throws {
        let input = "get \(other)/get?ts=9\nexpect 200\nreplay c.json --repeat\nget \(other)/json\nget \(other)/json\nexpect 200\nprint done\n"
        let session = try replay(["repl", "--replay", "c.json", "--origin", other, "--match", "ignore-query:ts"], input: input)
        #expect(session.status == 0, "\(session.stderr)")
        #expect(session.stdout.contains("\ndone\nreplay c.json · 0 recorded · 2 played · 1 unused"), "\(session.stdout)")
        let once = try replay(["repl", "--replay", "c.json", "--origin", other], input: "get \(other)/json\nget \(other)/json\n")
        #expect(once.stderr.contains("  - allow reusing the last match: replay c.json --repeat\n"), "\(once.stderr)")
    }
}
