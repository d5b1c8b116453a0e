import Foundation
import Tapedeck
import Testing
@testable import TapedeckShell

@MainActor
@Suite("Error messages quote a bounded excerpt")
struct ErrorExcerptTests {
    nonisolated static let huge = String(repeating: "x", count: 200_000)

    private func message(_ source: String) async -> String {
        let shell = Interpreter(transport: StubTransport { _ in HTTPResponse(status: 200) },
                                output: ShellOutput { _ in }, options: .init(environment: [:]))
        do {
            try await shell.run(source: source, file: "big.tape")
            return ""
        } catch {
            return error.localizedDescription
        }
    }

    /// A 200 KB source, shown in test output by its label alone.
    struct Case: Sendable, CustomTestStringConvertible {
        var label: String
        var source: String
        var problem: String
        var testDescription: String { label }
    }

    @Test("a 200 KB item, command, variable name, JSON field or JSONPath prints a short line naming the problem",
          arguments: [
              Case(label: "item", source: "get http://api.test/ \(huge)", problem: "is not a request item"),
              Case(label: "command", source: "\(huge) /get", problem: "unknown command"),
              Case(label: "variable name", source: "set \(huge)! = 1", problem: "is not a variable name"),
              Case(label: "JSON field", source: "get http://api.test/ a:=[\(huge)", problem: "is not JSON"),
              Case(label: "template", source: "print {{\(huge)!}}", problem: "is not a variable name"),
              Case(label: "JSONPath", source: "get http://api.test/\nexpect json $.a[?(@.b=='\(huge)')", problem: "invalid JSONPath"),
          ])
    func bounded(_ example: Case) async {
        let source = example.source, problem = example.problem
        let text = await message(source)
        #expect(text.contains(problem))
        #expect(text.contains("more characters)"))
        #expect(text.utf8.count < 1_000, "\(text.prefix(300))")
    }
}
