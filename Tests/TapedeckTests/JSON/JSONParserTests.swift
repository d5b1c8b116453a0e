import Foundation
import Testing
@testable import Tapedeck

@Suite("JSONParser")
struct JSONParserTests {
    /// Documents whose compact serialization is exactly the input.
    static let compactDocuments: [String] = [
        "null", "true", "false", "0", "-0", "1", "1.0", "-1.50", "1e5", "1E5", "1e+5", "1e-5", "-0.0e-0",
        "12345678901234567890123", "-98765432109876543210.000000000000000000001", "1.7976931348623157e309",
        #""""#, #""plain""#, #""café ✓ 日本語 🎉""#,
        #""quote \" backslash \\ slash / newline \n tab \t cr \r bs \b ff \f""#,
        #""\u0000\u0001\u001f""#,
        "[]", "{}", "[[],{},[[]]]", #"{"b":1,"a":2}"#, #"{"a":1,"a":2}"#,
        #"{"":"empty key","a/b":"slash","m~n":"tilde"}"#,
        #"{"items":[{"qty":2,"price":1.50},{"qty":3,"price":10}],"next":null}"#,
    ]

    @Test("compact documents re-serialize byte for byte", arguments: compactDocuments)
    func compactRoundTrip(document: String) throws {
        let value = try JSONParser.parse(document)
        #expect(JSONWriter.write(value, options: []) as String == document)
        let pretty: String = JSONWriter.write(value, options: .pretty)
        #expect(try JSONParser.parse(pretty) == value)
        #expect(try JSONParser.parse(Data(document.utf8)) == value)
    }

    @Test("number literals are kept exactly as written")
    func numberLiterals() throws {
        #expect(try JSONParser.parse("1.0") == .number("1.0"))
        #expect(try JSONParser.parse("1.0") != .number("1"))
        #expect(try JSONParser.parse("-0") == .number("-0"))
        #expect(try JSONParser.parse(" 12345678901234567890123 ") == .number("12345678901234567890123"))
        #expect(try JSONParser.parse("[1E+2]") == [.number("1E+2")])
    }

    @Test("escapes decode to the characters they name")
    func escapes() throws {
        #expect(try JSONParser.parse(#""a\"b\\c\/d\n\t\r\b\f""#) == .string("a\"b\\c/d\n\t\r\u{8}\u{c}"))
        #expect(try JSONParser.parse(#""\u00e9\u00E9""#) == .string("éé"))
        #expect(try JSONParser.parse(#""\ud83c\udf89!""#) == .string("🎉!"))
        #expect(try JSONParser.parse(#""x\u0000y""#) == .string("x\u{0}y"))
        #expect(try JSONParser.parse("\"日本🎉\"") == .string("日本🎉"))
    }

    @Test("the text between escapes is kept whole, whatever comes before and after it")
    func runsBetweenEscapes() throws {
        #expect(try JSONParser.parse(#""head\"mid\u00e9dle\\tail""#) == .string("head\"midédle\\tail"))
        #expect(try JSONParser.parse("\"\\\"é日本\\n🎉 end\"") == .string("\"é日本\n🎉 end"))
        #expect(try JSONParser.parse(#""\n\n""#) == .string("\n\n"))
        #expect(try JSONParser.parse(#""a\u0041\u0042b\ud83c\udf89c""#) == .string("aABb🎉c"))
        let long = String(repeating: "x", count: 300)
        #expect(try JSONParser.parse("\"\(long)\\\"\(long)\"") == .string(long + "\"" + long))
        // A control character after an escape is refused at its own column.
        let error = try #require(throws: JSONParseError.self) { try JSONParser.parse("\"a\\nb\tc\"") }
        #expect(error.reason == "unescaped control character U+0009 in string")
        #expect(error.column == 6)
    }

    @Test("a string read eight bytes at a time decodes as one read byte by byte: each special byte at each place, before and after an escape")
    func everyPlaceInAWord() throws {
        // (as written between the quotes, the string it stands for); nil: refused.
        let specials: [(String, String?)] = [("\\\"", "\""), ("\\\\", "\\"), ("\\n", "\n"), ("\\u00e9", "é"), ("é", "é"),
                                             ("🎞", "🎞"), ("\t", nil), ("\u{7F}", "\u{7F}")]
        for length in 0...34 {
            for place in 0...length {
                for (written, meant) in specials {
                    for escapeFirst in [false, true] {
                        let lead = escapeFirst ? "\\/" : ""
                        let before = String(repeating: "a", count: place), after = String(repeating: "b", count: length - place)
                        let text = "\"" + lead + before + written + after + "\""
                        if let meant {
                            #expect(try JSONParser.parse(text) == .string((escapeFirst ? "/" : "") + before + meant + after), "\(text)")
                        } else {
                            #expect(throws: JSONParseError.self, "\(text)") { try JSONParser.parse(text) }
                        }
                    }
                }
                // A byte that is not UTF-8, at each place of a run.
                guard length > 0 else { continue }
                var bad = Array(("\"" + String(repeating: "c", count: length) + "\"").utf8)
                bad[1 + min(place, length - 1)] = 0xFF
                #expect(throws: JSONParseError.self) { try JSONParser.parse(Data(bad)) }
            }
        }
    }

    @Test("object members keep document order and duplicates")
    func memberOrder() throws {
        let value = try JSONParser.parse(#"{"z": 1, "a": 2, "z": 3}"#)
        let keys = value.objectValue?.map(\.key)
        #expect(keys == ["z", "a", "z"])
        #expect(value["z"] == 3)
    }

    @Test("a UTF-8 byte order mark at the start is skipped")
    func byteOrderMark() throws {
        let data = Data([0xEF, 0xBB, 0xBF]) + Data(#"{"a": 1}"#.utf8)
        #expect(try JSONParser.parse(data) == ["a": 1])
        #expect(throws: JSONParseError.self) { try JSONParser.parse(Data(" ".utf8) + Data([0xEF, 0xBB, 0xBF]) + Data("1".utf8)) }
    }

    @Test("nesting up to 512 levels parses and 513 is refused")
    func depthLimit() throws {
        let deepest = String(repeating: "[", count: 512) + String(repeating: "]", count: 512)
        #expect(throws: Never.self) { try JSONParser.parse(deepest) }
        let tooDeep = String(repeating: "[", count: 513) + String(repeating: "]", count: 513)
        let error = try #require(throws: JSONParseError.self) { try JSONParser.parse(tooDeep) }
        #expect(error.reason == "nesting deeper than 512 levels")
        #expect(error.column == 513)
        #expect(error.path == "/" + Array(repeating: "0", count: 512).joined(separator: "/"))
        let hugelyDeep = String(repeating: "{\"a\":", count: 100_000)
        #expect(throws: JSONParseError.self) { try JSONParser.parse(hugelyDeep) }
    }

    struct Failure: CustomTestStringConvertible, Sendable {
        var input: String
        var line: Int
        var column: Int
        var path: String
        var reason: String
        var testDescription: String { input.debugDescription }
    }

    static let failures: [Failure] = [
        .init(input: "", line: 1, column: 1, path: "", reason: "unexpected end of input"),
        .init(input: "  \n ", line: 2, column: 2, path: "", reason: "unexpected end of input"),
        .init(input: "[1, 2", line: 1, column: 6, path: "", reason: "unexpected end of input"),
        .init(input: #"{"a": "#, line: 1, column: 7, path: "/a", reason: "unexpected end of input"),
        .init(input: #"{"a": 1 "b": 2}"#, line: 1, column: 9, path: "", reason: "expected ',' or '}' after object member"),
        .init(input: "{\"items\": [\n  {\"qty\": 1}\n  {\"qty\": 2}]}", line: 3, column: 3, path: "/items",
              reason: "expected ',' or ']' after array element"),
        .init(input: #"{"a": 1,}"#, line: 1, column: 9, path: "", reason: "trailing comma before '}'"),
        .init(input: "[1,]", line: 1, column: 4, path: "", reason: "trailing comma before ']'"),
        .init(input: "{a: 1}", line: 1, column: 2, path: "", reason: "expected '\"' to start an object key but found 'a'"),
        .init(input: #"{"a" 1}"#, line: 1, column: 6, path: "", reason: "expected ':' after object key"),
        .init(input: #"{"a": "open"#, line: 1, column: 7, path: "/a", reason: "unterminated string"),
        .init(input: #"["ok", "bad \q"]"#, line: 1, column: 13, path: "/1", reason: "invalid escape '\\q'"),
        .init(input: "{\"k\": \"é\tx\"}", line: 1, column: 9, path: "/k", reason: "unescaped control character U+0009 in string"),
        .init(input: "\"line\nbreak\"", line: 1, column: 6, path: "", reason: "unescaped control character U+000A in string"),
        .init(input: #""\u12G4""#, line: 1, column: 2, path: "", reason: "invalid unicode escape '\\u12G4'"),
        .init(input: #"["\ud800"]"#, line: 1, column: 3, path: "/0", reason: "lone surrogate '\\ud800'"),
        .init(input: #""\ud800\u0041""#, line: 1, column: 2, path: "", reason: "lone surrogate '\\ud800'"),
        .init(input: #""\udc00""#, line: 1, column: 2, path: "", reason: "lone surrogate '\\udc00'"),
        .init(input: "{\"items\": [{\"qty\": 01}]}", line: 1, column: 20, path: "/items/0/qty", reason: "number '01' has a leading zero"),
        .init(input: "-", line: 1, column: 1, path: "", reason: "number '-' needs a digit after '-'"),
        .init(input: "[1.]", line: 1, column: 2, path: "/0", reason: "number '1.' needs a digit after '.'"),
        .init(input: "1e+", line: 1, column: 1, path: "", reason: "number '1e+' needs a digit in its exponent"),
        .init(input: ".5", line: 1, column: 1, path: "", reason: "expected a value but found '.'"),
        .init(input: "+1", line: 1, column: 1, path: "", reason: "expected a value but found '+'"),
        .init(input: "NaN", line: 1, column: 1, path: "", reason: "expected a value but found 'N'"),
        .init(input: "[Infinity]", line: 1, column: 2, path: "/0", reason: "expected a value but found 'I'"),
        .init(input: "[tru]", line: 1, column: 2, path: "/0", reason: "invalid literal, expected 'true'"),
        .init(input: "nul", line: 1, column: 4, path: "", reason: "unexpected end of input"),
        .init(input: "{\"a\": // note\n 1}", line: 1, column: 7, path: "/a", reason: "comments are not allowed in JSON"),
        .init(input: "{} x", line: 1, column: 4, path: "", reason: "trailing characters after the JSON value"),
        .init(input: "1 2", line: 1, column: 3, path: "", reason: "trailing characters after the JSON value"),
        .init(input: "[\"日本\", é]", line: 1, column: 8, path: "/1", reason: "expected a value but found 'é'"),
        .init(input: "{\"a/b\": {\"m~n\": [true, x]}}", line: 1, column: 24, path: "/a~1b/m~0n/1",
              reason: "expected a value but found 'x'"),
        .init(input: "[\u{1}]", line: 1, column: 2, path: "/0", reason: "expected a value but found U+0001"),
    ]

    @Test("each malformed document reports its line, column, path and reason", arguments: failures)
    func failure(_ failure: Failure) throws {
        let error = try #require(throws: JSONParseError.self) { try JSONParser.parse(failure.input) }
        #expect(error.reason == failure.reason)
        #expect(error.line == failure.line)
        #expect(error.column == failure.column)
        #expect(error.path == failure.path)
        #expect(error.errorDescription == "line \(failure.line), column \(failure.column): \(failure.reason)")
    }

    @Test("invalid UTF-8 inside a string is rejected, not repaired")
    func invalidUTF8() throws {
        for bad: [UInt8] in [[0xFF], [0xC3], [0xED, 0xA0, 0x80], [0xF0, 0x90, 0x80]] {
            let data = Data([UInt8(ascii: "\"")] + bad + [UInt8(ascii: "\"")])
            let error = try #require(throws: JSONParseError.self) { try JSONParser.parse(data) }
            #expect(error.reason == "invalid UTF-8 in string")
            let escaped = Data([UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "n")] + bad + [UInt8(ascii: "\"")])
            #expect(throws: JSONParseError.self) { try JSONParser.parse(escaped) }
        }
    }

    @Test("the offset counts bytes while the column counts characters")
    func offsetVersusColumn() throws {
        let error = try #require(throws: JSONParseError.self) { try JSONParser.parse("\n\"é\" x") }
        #expect(error.offset == 6)
        #expect(error.line == 2)
        #expect(error.column == 5)
        let withBOM = try #require(throws: JSONParseError.self) {
            try JSONParser.parse(Data([0xEF, 0xBB, 0xBF]) + Data("[,]".utf8))
        }
        #expect(withBOM.offset == 4)
        #expect(withBOM.column == 2)
    }

    @Test("a large document parses whole (its speed is measured by make bench, loading large cassettes)")
    func largeDocument() throws {
        let record = #"{"id": 123456, "name": "Zoë \"quoted\" \u00e9", "tags": ["a", "b", "c"], "price": 12.50, "ok": true, "n": null}"#
        let document = "[" + Array(repeating: record, count: 20_000).joined(separator: ",\n") + "]"
        let value = try JSONParser.parse(document)
        #expect(value.arrayValue?.count == 20_000)
        #expect(value[19_999]?["name"] == "Zoë \"quoted\" é")
        #expect(value[19_999]?["price"] == .number("12.50"))
    }
}
