import Foundation
import TapedeckOpenAPI
import Testing

@Suite("OpenAPI documents with alias bombs")
struct OpenAPIAliasBombTests {
    @Test("a document whose aliases expand past the bound is refused before it is decoded, naming the alias")
    func refused() {
        var lines = ["openapi: 3.0.3", "info: {title: bomb, version: '1'}", "x-a0: &a0 [x, x, x, x, x, x, x, x, x]"]
        for level in 1...8 { lines.append("x-a\(level): &a\(level) [" + Array(repeating: "*a\(level - 1)", count: 9).joined(separator: ", ") + "]") }
        lines.append("paths: {}")
        #expect {
            try OpenAPISpec.parse(lines.joined(separator: "\n"), path: "bomb.yaml")
        } throws: { error in
            let text = (error as? any LocalizedError)?.errorDescription ?? "\(error)"
            return text.contains("aliases expand it") && text.contains("*a0 (line 4)") && text.contains("bomb.yaml")
        }
    }

    @Test("a key written twice is named with its line and column, and the document is never quoted")
    func duplicateKey() {
        let document = """
            openapi: 3.0.3
            info: {title: twice, version: '1'}
            paths:
              /a:
                get: {responses: {'200': {description: ok}}}
              /a:
                post: {responses: {'200': {description: ok}}}
            """
        #expect {
            try OpenAPISpec.parse(document, path: "twice.yaml")
        } throws: { error in
            let text = (error as? any LocalizedError)?.errorDescription ?? "\(error)"
            return text.hasPrefix("twice.yaml:") && text.contains("the key '/a' appears more than once") && text.contains("keep one")
                && !text.contains("description: ok")
        }
    }
}
