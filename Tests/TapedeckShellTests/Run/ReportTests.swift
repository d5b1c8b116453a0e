import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Synchronization
import Tapedeck
import Testing
@testable import TapedeckShell

@MainActor
@Suite("Script runner and reports")
struct ReportTests {
    private func summary() async -> RunSummary {
        let server = EchoServer()
        let runner = ScriptRunner(transport: server.transport, output: .discarding, errors: .discarding)
        return await runner.run([
            ScriptSource(name: "pass.tape", text: "base http://api.test\nget /x\nexpect 200\n"),
            ScriptSource(name: "fail <&>.tape", text: "base http://api.test\nget /x\nexpect 201\nexpect 200\n"),
            ScriptSource(name: "broken.tape", text: "gte /x\n"),
        ])
    }

    @Test("each script is a test; the exit code follows the worst failure")
    func exitCodes() async {
        let result = await summary()
        #expect(result.line.hasPrefix("1 passed, 2 failed · 2 requests ("), "\(result.line)")
        #expect(result.exitCode == 2)
        #expect(result.results[1].failures.count == 1)
        #expect(result.results[1].category == .assertion)
        #expect(RunSummary(results: [result.results[0], result.results[1]]).exitCode == 4)
        #expect(RunSummary(results: [result.results[0]]).exitCode == 0)
    }

    @Test("the JUnit report parses as XML with one testcase per script")
    func junit() async throws {
        let xml = JUnitReport.xml(for: await summary())
        #if canImport(FoundationXML)
        let document = try XMLDocument(xmlString: xml)
        let cases = try document.nodes(forXPath: "//testcase")
        #expect(cases.count == 3)
        #expect(try document.nodes(forXPath: "//testcase/failure").count == 1)
        #expect(try document.nodes(forXPath: "//testcase/error[@type='parse']").count == 1)
        let failed = try #require(cases[1] as? XMLElement)
        #expect(failed.attribute(forName: "name")?.stringValue == "fail <&>.tape")
        let message = try document.nodes(forXPath: "//failure/@message").first?.stringValue
        #expect(message == "fail <&>.tape:3:1: expect failed: status == 201")
        #expect(document.rootElement()?.attribute(forName: "failures")?.stringValue == "1")
        #else
        #expect(xml.contains("<testcase"))
        #endif
    }

    @Test("the JUnit timestamp is RFC 3339 in UTC to the second")
    func junitTimestamp() async {
        let xml = JUnitReport.xml(for: await summary(), timestamp: Date(timeIntervalSince1970: 1_714_557_600.7))
        #expect(xml.contains(#"timestamp="2024-05-01T10:00:01Z""#), "\(xml)")
    }

    @Test("a script whose file name holds a line break is one TAP test line, the break escaped")
    func tapNameOnOneLine() async {
        let runner = ScriptRunner(transport: EchoServer().transport, output: .discarding, errors: .discarding)
        let summary = await runner.run([ScriptSource(name: "x\nok 99 - injected.tape", text: "base http://api.test\nget /x\nexpect 500\n")])
        let tap = TAPReport.text(for: summary)
        #expect(tap.contains("not ok 1 - x\\x0aok 99 - injected.tape"), "\(tap)")
        #expect(!tap.split(separator: "\n").contains { $0.hasPrefix("ok 99") }, "\(tap)")
    }

    @Test("reports written to disk carry no credential from a failure text")
    func reportsRedact() async {
        let server = EchoServer()
        let runner = ScriptRunner(transport: server.transport, output: .discarding, errors: .discarding)
        let summary = await runner.run([ScriptSource(name: "leak.tape", text: "base http://api.test\nget /x?api_key=k-4711-secret Authorization:'Bearer tok-4711-secret'\nexpect url == nope\n")])
        let junit = JUnitReport.xml(for: summary)
        let tap = TAPReport.text(for: summary)
        #expect(junit.contains("expect failed") && tap.contains("expect failed"))
        for report in [junit, tap] {
            #expect(!report.contains("k-4711-secret"), "\(report)")
            #expect(report.contains("REDACTED"))
        }
    }

    @Test("expected and actual texts and body excerpts in reports lose every credential the script's exchanges carried")
    func reportsRedactActualTexts() async {
        let scripts = [
            "base http://api.test\npost /token --form password=hunter2-pw client_id=app\nexpect json $.data == nope\n",
            "base http://api.test\npost /login user=ada api_key=k3y-4711-val\nexpect body contains nothing-here\n",
            "base http://api.test\nget /me X-Api-Key:k3y-4711-val\nexpect json $.headers['X-Api-Key'] == nope\n",
        ]
        let runner = ScriptRunner(transport: EchoServer().transport, output: .discarding, errors: .discarding)
        let summary = await runner.run(scripts.enumerated().map { ScriptSource(name: "actual\($0.offset).tape", text: $0.element) })
        #expect(summary.failed == 3)
        let junit = JUnitReport.xml(for: summary)
        let tap = TAPReport.text(for: summary)
        #expect(tap.contains("actual:"), "\(tap)")
        for report in [junit, tap] {
            for secret in ["hunter2-pw", "k3y-4711-val"] {
                #expect(!report.contains(secret), "\(secret) in \(report)")
            }
            #expect(report.contains("<REDACTED>") || report.contains("&lt;REDACTED&gt;"))
        }
    }

    /// `script` run against the echo server with its exchanges kept, and every report of it:
    /// JSON, JUnit, TAP and each HTML page.
    private static func everyReport(of script: String, named name: String) async -> (RunSummary, [String]) {
        var options = ScriptRunner.Options()
        options.keepsExchanges = true
        let runner = ScriptRunner(transport: EchoServer().transport, output: .discarding, errors: .discarding, options: options)
        let summary = await runner.run([ScriptSource(name: name, text: script)])
        let pages = RunReport.html(for: summary).values.map { String(decoding: $0, as: UTF8.self) }
        return (summary, [String(decoding: RunReport.json(for: summary), as: UTF8.self), JUnitReport.xml(for: summary), TAPReport.text(for: summary)] + pages)
    }

    @Test("a JWT, a bearer token and a vendor key a request sends under any header name leave every report")
    func reportsRedactTokenShapes() async {
        let jwt = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U"
        let stripe = "sk_live_4eC39HqLyjWDarjtT1zdp7dc"
        let script = "base http://api.test\nget /anything X-Custom:\(jwt) 'X-Forward-Auth:Bearer custom_bearer_123456' X-Key:\(stripe)\nexpect 999\n"
        let (_, reports) = await Self.everyReport(of: script, named: "tokens.tape")
        for report in reports {
            for secret in [jwt, "custom_bearer_123456", stripe] { #expect(!report.contains(secret), "\(secret) in \(report.prefix(600))") }
        }
    }

    @Test("a failed expect whose values differ only in a credential says so in every report, rather than showing two equal values")
    func credentialOnlyDifference() async {
        let script = "base http://api.test\nget /me 'Authorization:Bearer tok_live_REPEATED_777'\nexpect json $.headers.Authorization == 'Bearer tok_live_OTHER_999'\n"
        let errors = Mutex("")
        let runner = ScriptRunner(transport: EchoServer().transport, output: .discarding, errors: ShellOutput { text in errors.withLock { $0 += text } })
        let summary = await runner.run([ScriptSource(name: "credential.tape", text: script)])
        #expect(summary.failed == 1)
        let reports = [errors.withLock { $0 }, String(decoding: RunReport.json(for: summary), as: UTF8.self), JUnitReport.xml(for: summary),
                       TAPReport.text(for: summary)]
        for report in reports {
            #expect(report.contains("only a credential differs, shown redacted on both sides"), "\(report)")
            #expect(!report.contains("tok_live_REPEATED_777") && !report.contains("tok_live_OTHER_999"), "\(report)")
        }
        // A text check whose text looked for is a credential says so too.
        let (_, endsWith) = await Self.everyReport(of: "base http://api.test\nget /me 'Authorization:Bearer tok_live_REPEATED_777'\n"
            + "expect json $.headers.Authorization endsWith 'Bearer tok_live_OTHER_999'\n", named: "ends.tape")
        #expect(endsWith.allSatisfy { $0.contains("the text looked for holds a credential, shown redacted") || !$0.contains("endsWith") }, "\(endsWith)")
        #expect(endsWith.contains { $0.contains("the text looked for holds a credential, shown redacted") })
    }

    @Test("a text body's bearer token, JWT and password pair leave the JSON and HTML reports, and a URL's password every failure text")
    func reportsRedactTextBodies() async throws {
        let jwt = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.abcdefghijklmnop"
        let script = "base http://api.test\npost /c --raw 'Authorization: Bearer sekrit_bearer_123456 password=hunter2secret3 \(jwt)'\n"
            + "get /x?password=hunter2secret4\nexpect 201\n"
        let (summary, reports) = await Self.everyReport(of: script, named: "bodies.tape")
        for report in reports {
            for secret in ["sekrit_bearer_123456", "hunter2secret3", "hunter2secret4", jwt] {
                #expect(!report.contains(secret), "\(secret) in \(report.prefix(400))")
            }
        }
        #expect(summary.results.first?.exchanges.count == 2)
        let failure = try #require(summary.results.first?.failures.first)
        #expect(!failure.localizedDescription.contains("hunter2secret4"), "\(failure.localizedDescription)")
    }

    @Test("the TAP report has a plan, one line per script and a YAML block per failure")
    func tap() async {
        let lines = TAPReport.text(for: await summary()).split(separator: "\n").map(String.init)
        #expect(lines[0] == "TAP version 13")
        #expect(lines[1] == "1..3")
        #expect(lines[2] == "ok 1 - pass.tape")
        #expect(lines[3] == "not ok 2 - fail <&>.tape")
        #expect(lines[4] == "  ---")
        #expect(lines.contains("  at: \"fail <&>.tape:3:1\""))
        #expect(lines.contains("  severity: fail"))
        #expect(lines.contains("not ok 3 - broken.tape"))
        #expect(lines.last == "  ...")
    }

    @Test("TAP's YAML strings escape what YAML cannot print (DEL, C1, line separators), as the cassette writer does")
    func tapYAMLStrings() {
        #expect(TAPReport.yamlString("a\u{7F}b\u{85}c\u{2028}d\te\"") == #""a\x7Fb\x85c\u2028d\te\"""#)
        #expect(TAPReport.yamlString("Zoë ✓") == "\"Zoë ✓\"")
    }

    @Test("env files give variables; a malformed line names its place")
    func envFile() throws {
        let pairs = try EnvFile.parse("# c\nexport TOKEN='a b'\nBASE=http://x\n\n", path: ".env")
        #expect(pairs.map(\.0) == ["TOKEN", "BASE"])
        #expect(pairs.map(\.1) == ["a b", "http://x"])
        #expect(throws: EnvFile.Error.self) { try EnvFile.parse("oops\n", path: ".env") }
    }
}
