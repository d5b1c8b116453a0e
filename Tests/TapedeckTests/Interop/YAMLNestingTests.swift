import Foundation
import Testing
@testable import Tapedeck

@Suite("YAML nesting limit")
struct YAMLNestingTests {
    private func message(_ yaml: String) -> String? {
        do {
            _ = try VCRCassetteReader.read(Data(yaml.utf8), file: "deep.yaml", defaultDate: Date())
            return nil
        } catch {
            return error.errorDescription
        }
    }

    /// A cassette whose one response body is `body`, written as the given YAML value.
    private func cassette(body: String) -> String {
        """
        interactions:
        - request: {method: GET, uri: 'http://127.0.0.1/x', body: null, headers: {}}
          response:
            status: {code: 200, message: OK}
            headers: {}
            body: \(body)
        version: 1
        """
    }

    @Test("5,000 nested [ are refused with the limit and the place instead of overflowing the stack",
          arguments: ["[[[…]]]", "{a: {a: …}}", "a: [[[…"])
    func deepFlow(_ shape: String) {
        // The documents are built here, so test output names the shape, not 10 KB of brackets.
        let yaml = switch shape {
        case "[[[…]]]": String(repeating: "[", count: 5000) + String(repeating: "]", count: 5000)
        case "{a: {a: …}}": String(repeating: "{a: ", count: 5000) + "1" + String(repeating: "}", count: 5000)
        default: "a: " + String(repeating: "[", count: 5000)
        }
        let text = message(yaml)
        #expect(text?.hasPrefix("deep.yaml:1:") == true)
        #expect(text?.contains("nested deeper than 512 levels") == true)
    }

    @Test("deep block sequences and mappings are refused, whether compact or indented")
    func deepBlock() {
        let compact = String(repeating: "- ", count: 5000) + "x\n"
        let indentedSequence = (0..<5000).map { String(repeating: " ", count: $0) + "-" }.joined(separator: "\n") + " x\n"
        let indentedMapping = (0..<5000).map { String(repeating: " ", count: $0) + "a:" }.joined(separator: "\n") + " x\n"
        for yaml in [compact, indentedSequence, indentedMapping] {
            #expect(message(yaml)?.contains("nested deeper than 512 levels") == true)
        }
        #expect(YAMLNesting.firstExcess(in: indentedMapping)?.line == 513)
    }

    @Test("nesting up to the limit reaches the parser, which reads it without crashing")
    func underTheLimit() {
        let flow = String(repeating: "[", count: 500) + String(repeating: "]", count: 500)
        #expect(YAMLNesting.firstExcess(in: flow) == nil)
        #expect(message(flow)?.contains("nested deeper") == false)
        #expect(YAMLNesting.firstExcess(in: String(repeating: "[", count: 513)) != nil)
    }

    @Test("brackets inside quoted, plain and block scalars and comments do not count as nesting")
    func scalarsAreNotNesting() throws {
        let brackets = String(repeating: "[{", count: 3000)
        let indentedLines = (0..<1000).map { "      " + String(repeating: " ", count: $0) + "- [" }.joined(separator: "\n")
        let bodies = [
            "'\(brackets)'",
            "\"\(brackets)\\\"[\"",
            "text\(brackets)",
            "|\n\(indentedLines)",
            "'x' # \(brackets)",
        ]
        for body in bodies {
            let yaml = cassette(body: body)
            #expect(YAMLNesting.firstExcess(in: yaml) == nil, "\(body.prefix(8))")
            let read = try VCRCassetteReader.read(Data(yaml.utf8), file: "ok.yaml", defaultDate: Date())
            #expect(read.interactions.count == 1)
        }
    }
}
