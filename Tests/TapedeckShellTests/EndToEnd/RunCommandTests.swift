import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing

@Suite("tapedeck run against httpbin", .enabled(if: Binary.ready, "needs httpbin and the built binary (make test starts httpbin and sets TAPEDECK_BIN)"))
struct RunCommandTests {
    let base = Binary.httpbin ?? ""

    private func write(_ text: String, _ name: String, in folder: URL) throws {
        try text.write(to: folder.appendingPathComponent(name), atomically: true, encoding: .utf8)
    }

    /// Writes `script` as `name` in a fresh folder and runs `tapedeck run name`.
    private func run(_ script: String, named name: String) throws -> Binary.Outcome {
        let folder = try Binary.temporaryDirectory("run")
        defer { try? FileManager.default.removeItem(at: folder) }
        try write(script, name, in: folder)
        return try Binary.run(["run", name], in: folder)
    }

    @Test("the httpbin tour in Sessions/ passes and exits 0")
    func tour() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let outcome = try Binary.run(["run", "Sessions/httpbin-tour.tape", "--var", "base=\(base)"], in: root)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stdout.contains("tour finished for Ada\n1 passed, 0 failed · "))
    }

    @Test("a failing expect exits 4 with query, expected, actual and location")
    func failingExpect() throws {
        let outcome = try run("base {{env.TAPEDECK_HTTPBIN_URL}}\nget /status/404\nexpect 200\nprint unreachable\n", named: "smoke.tape")
        #expect(outcome.status == 4)
        #expect(outcome.stderr.contains("smoke.tape:3:1: expect failed: status == 200\n  query:    status\n  expected: == 200\n  actual:   404"))
        #expect(!outcome.stdout.contains("unreachable"))
        #expect(outcome.stdout.split(separator: "\n").last?.hasPrefix("0 passed, 1 failed · ") == true)
    }

    @Test("a parse error exits 2 with file:line:column before anything is sent")
    func parseError() throws {
        let outcome = try run("base {{env.TAPEDECK_HTTPBIN_URL}}\nprint sent\nexpect json $.a[?(@.b = 1)] exists\n", named: "bad.tape")
        #expect(outcome.status == 2)
        #expect(outcome.stderr.contains("bad.tape:3:23: invalid JSONPath"))
        #expect(!outcome.stdout.contains("sent"))
    }

    @Test("connection refused exits 3")
    func refused() throws {
        let outcome = try run("base http://127.0.0.1:1\nget /get\n", named: "down.tape")
        #expect(outcome.status == 3)
        #expect(outcome.stderr.contains("down.tape:2:1: cannot connect to 127.0.0.1:1"))
    }

    @Test("usage errors exit 1 and say what to type")
    func usage() throws {
        let folder = try Binary.temporaryDirectory("usage")
        defer { try? FileManager.default.removeItem(at: folder) }
        let noFiles = try Binary.run(["run"], in: folder)
        #expect(noFiles.status == 1 && noFiles.stderr.contains("give at least one script"))
        let missing = try Binary.run(["run", "nope.tape"], in: folder)
        #expect(missing.status == 1 && missing.stderr.contains("cannot read script 'nope.tape'"))
        let badVar = try Binary.run(["run", "-", "--var", "novalue"], in: folder)
        #expect(badVar.status == 1 && badVar.stderr.contains("--var 'novalue' is not name=value"))
    }

    @Test("stdin, --var, --env-file, --continue-on-error and both reports")
    func reports() throws {
        let folder = try Binary.temporaryDirectory("run")
        defer { try? FileManager.default.removeItem(at: folder) }
        try write("NAME=Ada\n", ".env", in: folder)
        try write("base {{base}}\nget /get who=={{NAME}}\nexpect json $.args.who == {{NAME}}\n", "pass.tape", in: folder)
        try write("base {{base}}\nget /get\nexpect 201\nexpect json $.url endsWith /nope\nprint went on\n", "fail.tape", in: folder)
        let outcome = try Binary.run(["run", "pass.tape", "fail.tape", "-", "--continue-on-error", "--var", "base=\(base)",
                                      "--env-file", ".env", "--report-junit", "junit.xml", "--report-tap", "report.tap"],
                                     in: folder, input: "base {{base}}\nget /get\nexpect 200\n")
        #expect(outcome.status == 4, "\(outcome.stderr)")
        #expect(outcome.stdout.contains("went on"))
        #expect(outcome.stdout.split(separator: "\n").last?.hasPrefix("2 passed, 1 failed · ") == true)
        let tap = try String(contentsOf: folder.appendingPathComponent("report.tap"), encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(Array(tap.prefix(4)) == ["TAP version 13", "1..3", "ok 1 - pass.tape", "not ok 2 - fail.tape"])
        #expect(tap.contains("ok 3 - <stdin>"))
        #expect(tap.filter { $0.hasPrefix("    fail.tape:") }.count == 2)
        #if canImport(FoundationXML)
        let document = try XMLDocument(contentsOf: folder.appendingPathComponent("junit.xml"))
        #expect(try document.nodes(forXPath: "//testcase").count == 3)
        let failure = try document.nodes(forXPath: "//testcase[@name='fail.tape']/failure").first as? XMLElement
        #expect(failure?.attribute(forName: "message")?.stringValue == "fail.tape:3:1: expect failed: status == 201")
        #expect(failure?.stringValue?.contains("fail.tape:4:1: expect failed") == true)
        #endif
    }

    @Test("piped commands run in the REPL with no prompt")
    func pipedRepl() throws {
        let folder = try Binary.temporaryDirectory("pipe")
        defer { try? FileManager.default.removeItem(at: folder) }
        let outcome = try Binary.run([], in: folder, input: "base \(base)\nget /get q==1\nexpect json $.args.q == \"1\"\ngte\nprint still here\n",
                                     extraEnvironment: ["HOME": folder.path, "XDG_STATE_HOME": folder.path])
        #expect(outcome.status == 0)
        #expect(outcome.stdout.contains("HTTP/1.1 200 OK"))
        #expect(!outcome.stdout.contains("\u{1B}["))
        #expect(!outcome.stdout.contains("[live]>"))
        #expect(outcome.stdout.hasSuffix("still here\n"))
        #expect(outcome.stderr.contains("<repl>:4:1: unknown command 'gte'"))
    }

    @Test("run --openapi warns on stderr for each exchange that breaks the document and keeps the exit code; a bad document is refused")
    func openAPIWarnings() throws {
        let folder = try Binary.temporaryDirectory("run-openapi")
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(Binary.httpbinOpenAPI.utf8).write(to: folder.appendingPathComponent("spec.yaml"))
        try Data("get {{base}}/get\nexpect 200\nget {{base}}/uuid\n".utf8).write(to: folder.appendingPathComponent("t.tape"))
        let environment = ["HOME": folder.path, "XDG_STATE_HOME": folder.path]
        let run = try Binary.run(["run", "t.tape", "--openapi", "spec.yaml", "--var", "base=\(base)"], in: folder, extraEnvironment: environment)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("warning: this exchange breaks spec.yaml:\n  response body /url: expected integer, found string"), "\(run.stderr)")
        #expect(run.stderr.contains("  unknown path: no path of spec.yaml matches /uuid (schema #/paths)"), "\(run.stderr)")
        #expect(!run.stdout.contains("warning"))
        let missing = try Binary.run(["run", "t.tape", "--openapi", "nope.yaml"], in: folder, extraEnvironment: environment)
        #expect(missing.status != 0)
        #expect(missing.stderr.contains("--openapi: cannot read the OpenAPI document nope.yaml: no such file"), "\(missing.stderr)")
    }
}

