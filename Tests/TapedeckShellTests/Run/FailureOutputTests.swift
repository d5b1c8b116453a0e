import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Tapedeck
import Testing
@testable import TapedeckShell

@MainActor
@Suite("What a failing run prints: location, query, expected, actual, the exchange; -v lines; reports")
struct FailureOutputTests {
    let server = EchoServer()

    private func run(_ scripts: [ScriptSource], log: ShellOutput? = nil, continueOnError: Bool = false) async -> (RunSummary, errors: String) {
        let errors = Captured()
        var options = ScriptRunner.Options()
        options.requestLog = log
        options.continueOnError = continueOnError
        let runner = ScriptRunner(transport: server.transport, output: .discarding, errors: errors.output, options: options)
        return (await runner.run(scripts), errors.value)
    }

    @Test("a failed expect names file:line:col, the query, expected, actual and the request it looked at")
    func failureMessage() async {
        let (_, errors) = await run([ScriptSource(name: "smoke.tape", text: "base http://api.test\nget /x\nexpect json $.items count == 3\n")])
        #expect(errors == """
            smoke.tape:3:1: expect failed: json $.items count == 3
              query:    json $.items
              expected: count == 3
              actual:   count 2 in [{"id":1,"name":"a"},{"id":2,"name":"b"}]
              response: GET http://api.test/x → 200 OK

            """)
    }

    @Test("with --continue-on-error, failures are reported in order with a blank line between them")
    func severalFailures() async {
        let (summary, errors) = await run([ScriptSource(name: "c.tape", text: "base http://api.test\nget /x\nexpect 201\nexpect header X-Count == 3\n")],
                                          continueOnError: true)
        #expect(summary.results.first?.failures.count == 2)
        let blocks = errors.components(separatedBy: "\n\n")
        #expect(blocks.count == 2)
        #expect(blocks.first?.hasPrefix("c.tape:3:1: expect failed: status == 201") == true)
        #expect(blocks.last?.hasPrefix("c.tape:4:1: expect failed: header X-Count == 3") == true)
    }

    @Test("a missing JSON member gets a note with the nearest name; a failed capture says capture")
    func missingNote() async {
        let (_, errors) = await run([ScriptSource(name: "m.tape", text: "base http://api.test\nget /x\ncapture m = json $.metod\n")])
        #expect(errors.hasPrefix("m.tape:3:1: capture failed: capture m = json $.metod\n"))
        #expect(errors.contains("  note:     $ has no member 'metod' (members: method, url, headers, data, items); did you mean $.method?\n"))
    }

    @Test("a long actual value is cut with a count of what was left out")
    func longActual() async {
        let (_, errors) = await run([ScriptSource(name: "long.tape", text: "base http://api.test\nget /x\nexpect json $ == 1\n")])
        let actual = errors.split(separator: "\n").first { $0.hasPrefix("  actual:") } ?? ""
        #expect(actual.count < 190)
        #expect(actual.hasSuffix("more characters)"))
    }

    @Test("-v prints one line per request with its location, URL and status")
    func verboseLines() async {
        let log = Captured()
        _ = await run([ScriptSource(name: "a.tape", text: "base http://api.test\nget /x\nget /missing\n")], log: log.output)
        #expect(log.value == "a.tape:2:1  GET http://api.test/x → 200 OK (12 ms)\na.tape:3:1  GET http://api.test/missing → 404 Not Found (12 ms)\n")
    }

    @Test("JUnit: one testcase per file, the failure's message and line; TAP: a YAML block with the location and values")
    func reports() async throws {
        let (summary, _) = await run([
            ScriptSource(name: "pass.tape", text: "base http://api.test\nget /x\nexpect 200\n"),
            ScriptSource(name: "fail.tape", text: "base http://api.test\nget /x\n\nexpect json $.items[0].name == \"z\"\n"),
        ])
        let xml = JUnitReport.xml(for: summary)
        #if canImport(FoundationXML)
        let document = try XMLDocument(xmlString: xml)
        #expect(try document.nodes(forXPath: "//testcase").count == 2)
        let failing = try #require(try document.nodes(forXPath: "//testcase[@name='fail.tape']").first as? XMLElement)
        #expect(failing.attribute(forName: "line")?.stringValue == "4")
        #expect(failing.attribute(forName: "file")?.stringValue == "fail.tape")
        let failure = try #require(failing.elements(forName: "failure").first)
        #expect(failure.attribute(forName: "message")?.stringValue == "fail.tape:4:1: expect failed: json $.items[0].name == \"z\"")
        #expect(failure.stringValue?.contains("actual:   \"a\"") == true)
        #endif
        let tap = TAPReport.text(for: summary).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let start = try #require(tap.firstIndex(of: "not ok 2 - fail.tape"))
        #expect(tap[start + 1] == "  ---")
        let block = Array(tap[(start + 1)...].prefix { $0 != "  ..." })
        #expect(block.contains("  at: \"fail.tape:4:1\""))
        #expect(block.contains("  line: 4"))
        #expect(block.contains("  query: \"json $.items[0].name\""))
        #expect(block.contains("  expected: \"== \\\"z\\\"\""))
        #expect(block.contains("  actual: \"\\\"a\\\"\""))
        #expect(block.contains("  severity: fail"))
        #expect(tap.contains("  ..."))
    }

    @Test("help names an unknown topic where it was typed, and lists commands by group")
    func help() throws {
        do {
            _ = try Parser.parseLine("help gett", file: "<repl>")
            Issue.record("an unknown help topic parsed")
        } catch {
            #expect(error.location.column == 6)
            #expect(error.message.hasPrefix("unknown command 'gett'; did you mean 'get'?"))
        }
        let overview = CommandHelp.overview()
        #expect(overview.contains("Requests:\n  get      send a request\n"))
        #expect(!overview.contains("headers  headers"))
        for entry in CommandHelp.entries {
            let detail = try #require(CommandHelp.detail(entry.name))
            #expect(detail.contains("example: "), "help \(entry.name) has no example")
        }
        let listed = Set(CommandHelp.groups.flatMap(\.1))
        for name in Parser.commandNames {
            #expect(listed.contains(name), "'help' lists no '\(name)'")
            #expect(CommandHelp.detail(name) != nil, "'help \(name)' has no entry")
        }
        #expect(CommandHelp.detail("get")?.contains("--timeout SECONDS") == true)
        #expect(CommandHelp.detail("get")?.contains("application/json when it parses as JSON, else text/plain") == true)
    }

    @Test("the prompt keeps the host and the end of a long path")
    func prompt() throws {
        var state = SessionState()
        state.base = URL(string: "http://127.0.0.1:18642/anything/some/really/long/path")
        state.path = "/users/42/orders/2024/items"
        let shown = state.location()
        #expect(shown.hasPrefix("127.0.0.1:18642/…/"))
        #expect(shown.hasSuffix("/2024/items"))
        #expect(shown.count <= 50)
        state.path = "/"
        state.base = URL(string: "http://api.test/v1")
        #expect(state.location() == "api.test/v1")
    }
}
