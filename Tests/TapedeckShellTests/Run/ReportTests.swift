import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
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
        #expect(result.line == "1 passed, 2 failed")
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

    @Test("env files give variables; a malformed line names its place")
    func envFile() throws {
        let pairs = try EnvFile.parse("# c\nexport TOKEN='a b'\nBASE=http://x\n\n", path: ".env")
        #expect(pairs.map(\.0) == ["TOKEN", "BASE"])
        #expect(pairs.map(\.1) == ["a b", "http://x"])
        #expect(throws: EnvFile.Error.self) { try EnvFile.parse("oops\n", path: ".env") }
    }
}
