import Testing
@testable import TapedeckShell
import TapedeckTooling

@Suite("Line scanner")
struct LineScannerTests {
    private func words(_ line: String) throws -> [Word] {
        var scanner = LineScanner(line, start: SourceLocation(file: "t", line: 1, column: 1))
        var result: [Word] = []
        while let word = try scanner.word() { result.append(word) }
        return result
    }

    @Test("a value quoted as a shell word reads back as one word, quotes, spaces and # included", arguments: [
        "it's", "Sessions/my tests/o'brien.json", "a \"b\" # c", "''", "plain/path.json", "tab\there", "Zoë's", "\\'",
    ])
    func shellWordsReadBack(_ text: String) throws {
        #expect(try words(ShellWord.quote(text)).map(\.text) == [text])
        #expect(try words("record " + ShellWord.quote(text) + " --mode new").map(\.text) == ["record", text, "--mode", "new"])
    }

    @Test("splits on whitespace and keeps columns")
    func splitsWords() throws {
        let found = try words("get  /users   q==1")
        #expect(found.map(\.text) == ["get", "/users", "q==1"])
        #expect(found.map(\.location.column) == [1, 6, 15])
    }

    @Test("single quotes are literal, double quotes allow \\\" and \\\\, backslash escapes outside")
    func quoting() throws {
        let found = try words(#"a 'b c\n' "d \"e\" \\ \d" f\ g"#)
        #expect(found.map(\.text) == ["a", #"b c\n"#, #"d "e" \ \d"#, "f g"])
        #expect(found.map(\.quoted) == [false, true, true, false])
    }

    @Test("an unquoted word starting with # ends the line")
    func comments() throws {
        #expect(try words("get /x # note").map(\.text) == ["get", "/x"])
        #expect(try words("get /x#frag").map(\.text) == ["get", "/x#frag"])
        #expect(try words("  # only a comment").isEmpty)
    }

    @Test("an unclosed quote is an error at the opening quote")
    func unclosedQuote() {
        #expect(throws: ParseError(.unclosedQuote("\""), at: SourceLocation(file: "t", line: 1, column: 7))) {
            try words(#"print "oops"#)
        }
        #expect(throws: ParseError(.unclosedQuote("'"), at: SourceLocation(file: "t", line: 1, column: 5))) {
            try words("set 'x")
        }
    }

    @Test("a JSONPath keeps spaces inside brackets and quotes")
    func jsonPath() throws {
        var scanner = LineScanner(#"$.a[?(@.k == "x y")].b == 3"#, start: SourceLocation(file: "t", line: 1, column: 1))
        #expect(try scanner.jsonPath()?.text == #"$.a[?(@.k == "x y")].b"#)
        #expect(try scanner.word()?.text == "==")
    }

    @Test("UTF-8 text keeps its characters and columns count characters")
    func unicode() throws {
        let found = try words("print héllo 🎞️ 'naïve'")
        #expect(found.map(\.text) == ["print", "héllo", "🎞️", "naïve"])
        #expect(found[3].location.column == 15)
    }
}
