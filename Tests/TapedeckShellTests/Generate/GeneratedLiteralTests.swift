import Foundation
@testable import TapedeckShell
import Tapedeck
import TapedeckTestSupport
import Testing

/// Generated Swift cannot run code that the data chose: every value becomes a literal that
/// compiles to exactly that value.
@Suite("Generated Swift literals")
@MainActor
struct GeneratedLiteralTests {
    static let hostile: [String] = [
        "plain", "\"", "\\", "\"\"\"", "\\#(", "\\(", "*/", "/*", "line\nbreak", "cr\rlf", "tab\there", "nul\u{0}byte",
        "##\"#", "\"#)\nprint(\"injected\")\n//", #"abc\#({ print("injected") }())"#, #"\(print("injected"))"#,
        "é👍 ünïcode", "\u{2028}sep\u{2029}", "\u{1b}[31mred", "#\"\"#", "\\\\#(x)",
    ]

    @Test("hostile values compile to exactly themselves and run nothing")
    func compiledValuesEqualOriginals() throws {
        let folder = try TestScratch.directory("literals")
        defer { try? FileManager.default.removeItem(at: folder) }
        let source = "let values: [String] = [\n" + Self.hostile.map { "    " + SwiftTestGenerator.literal($0) + "," }.joined(separator: "\n")
            + "\n]\nfor value in values { print(value.unicodeScalars.map { String($0.value, radix: 16) }.joined(separator: \" \")) }\n"
        let file = folder.appendingPathComponent("main.swift")
        try source.write(to: file, atomically: true, encoding: .utf8)
        let binary = folder.appendingPathComponent("literals").path
        let compiled = try ChildProcess.run("/usr/bin/env", ["swiftc", file.path, "-o", binary])
        #expect(compiled.status == 0, "\(String(decoding: compiled.stderr, as: UTF8.self))\n\(source)")
        let run = try ChildProcess.run(binary, [])
        let printed = String(decoding: run.stdout, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        let expected = Self.hostile.map { $0.unicodeScalars.map { String($0.value, radix: 16) }.joined(separator: " ") }
        #expect(Array(printed.map(String.init)) == expected)
        #expect(!String(decoding: run.stdout, as: UTF8.self).contains("injected\n"), "no injected statement ran")
    }

    @Test("a script name with a line break or an interpolation lands escaped in the suite, the test and the comments")
    func names() {
        let name = "evil\")\nprint(\"x\")\n//\\(1)"
        #expect(SwiftTestGenerator.literal(name + " passes").hasPrefix("\"evil\\\")\\nprint(\\\"x\\\")\\n//\\\\(1)"))
        #expect(!SwiftTestGenerator.comment(name).contains("\n"))
        #expect(SwiftTestGenerator.identifier("9 bad-name") == "_9_bad_name")
    }

    @Test("a quoted value compares as a string, as the interpreter compares it; an unquoted number as a number")
    func quotedValues() throws {
        let statements = try Parser.parseScript("expect json $.a == \"2\"\nexpect json $.a == 2\n", file: "t.tape")
        let interpreter = Interpreter(transport: StubTransport { _ in HTTPResponse(status: 200) }, output: .discarding,
                                      options: .init(environment: [:]))
        let lines = try statements.compactMap { statement -> String? in
            guard case .expect(let assertion) = statement.command else { return nil }
            return try SwiftTestGenerator.expectLine(assertion, number: 1, interpreter: interpreter)
        }
        #expect(lines == [#"#expect(json1.value(at: "/a")?.stringValue == "2")"#, #"#expect((json1.value(at: "/a")?.doubleValue ?? .nan) == 2)"#])
    }
}
