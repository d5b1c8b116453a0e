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

    @Test("a 200 KB item, command, variable name, JSON field or JSONPath prints a short line naming the problem",
          arguments: [
              ("get http://api.test/ \(huge)", "is not a request item"),
              ("\(huge) /get", "unknown command"),
              ("set \(huge)! = 1", "is not a variable name"),
              ("get http://api.test/ a:=[\(huge)", "is not JSON"),
              ("print {{\(huge)!}}", "is not a variable name"),
              ("get http://api.test/\nexpect json $.a[?(@.b=='\(huge)')", "invalid JSONPath"),
          ])
    func bounded(_ source: String, _ problem: String) async {
        let text = await message(source)
        #expect(text.contains(problem))
        #expect(text.contains("more characters)"))
        #expect(text.utf8.count < 1_000, "\(text.prefix(300))")
    }
}
