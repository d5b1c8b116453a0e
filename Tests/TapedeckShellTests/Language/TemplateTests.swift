import Testing
@testable import TapedeckShell

@Suite("Template checking")
struct TemplateTests {
    /// 200,000 placeholders in one line: the scan that measured each offset from the start of
    /// the text took ~10^11 character steps here (50,000 took 13 s); one pass takes a moment.
    @Test("checking 200,000 placeholders is one pass, and the last one's column is exact")
    func manyPlaceholders() throws {
        let count = 200_000
        let line = "print " + String(repeating: "{{a}}", count: count)
        let statements = try Parser.parseScript(line, file: "big.tape")
        #expect(statements.count == 1)
        #expect(Template.names(in: line).count == count)
        do {
            _ = try Parser.parseScript(line + "{{1bad}}", file: "big.tape")
            Issue.record("an invalid name after 200,000 good ones was accepted")
        } catch {
            #expect(error.location.column == 7 + 5 * count)
            #expect(error.kind == .invalidVariableName("1bad"))
        }
    }

    @Test("offsets, unclosed braces and odd brace runs are found as before")
    func edges() {
        #expect(Template.names(in: "{{a}} x {{ b }}{{c.d}}") == ["a", "b", "c.d"])
        #expect(Template.names(in: "{ {a} }") == [])
        func failure(_ text: String) -> ParseError? {
            do {
                try Template.validate(text, at: SourceLocation(file: "t", line: 1, column: 1))
                return nil
            } catch {
                return error
            }
        }
        #expect(failure("ok {{a}} then {{b") == ParseError(.unclosedInterpolation, at: SourceLocation(file: "t", line: 1, column: 15)))
        #expect(failure("é{{{a}}")?.kind == .invalidVariableName("{a"))
        #expect(failure("é{{{a}}")?.location.column == 2)
        #expect(failure("{{a}}}") == nil)
    }
}
