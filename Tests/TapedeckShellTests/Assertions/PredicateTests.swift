import Tapedeck
import Testing
@testable import TapedeckShell

@Suite("Predicates")
struct PredicateTests {
    private let here = SourceLocation(file: "t", line: 1, column: 1)

    private func word(_ text: String, quoted: Bool = false) -> Word { Word(text, quoted: quoted, location: here) }

    private func test(_ predicate: Predicate, _ actual: JSONValue?, _ expected: String? = nil, lenient: Bool = false) throws -> Bool {
        try predicate.test(actual, expected: expected ?? predicate.valueWord?.text, lenient: lenient)
    }

    @Test("comparisons are typed: numbers by value, strings by text, no cross-type equality for JSON")
    func typedComparisons() throws {
        #expect(try test(.compare(.equal, word("36")), .number("36.0")))
        #expect(try test(.compare(.equal, word("36", quoted: true)), .number("36")) == false)
        #expect(try test(.compare(.equal, word("1")), .string("1")) == false)
        #expect(try test(.compare(.equal, word("1")), .string("1"), lenient: true))
        #expect(try test(.compare(.equal, word("true")), .bool(true)))
        #expect(try test(.compare(.equal, word("null")), .null))
        #expect(try test(.compare(.notEqual, word("null")), .number("0")))
        #expect(try test(.compare(.less, word("10")), .number("9.99")))
        #expect(try test(.compare(.greaterOrEqual, word("b")), .string("b")))
        #expect(try test(.compare(.greater, word("1")), .string("x")) == false)
        #expect(try test(.compare(.equal, word("1")), nil) == false)
        #expect(try test(.compare(.notEqual, word("1")), nil))
    }

    @Test("a text compared with a JSON array or object is read as JSON; text that is not JSON is not equal")
    func textAgainstStructured() throws {
        #expect(try test(.compare(.equal, word("[1, 2]")), .string("[1,2]"), lenient: true))
        #expect(try test(.compare(.equal, word(#"{"a": [true]}"#)), .string(#"{ "a" : [ true ] }"#), lenient: true))
        #expect(try test(.compare(.equal, word("[1, 2]")), .string("[2,1]"), lenient: true) == false)
        #expect(try test(.compare(.notEqual, word("[1, 2]")), .string("not json"), lenient: true))
        #expect(try test(.compare(.equal, word("[1, 2]")), .string("[1,2]")) == false, "a JSON string is not an array")
    }

    @Test("numbers compare exactly, not as Double: 9007199254740993 is not 9007199254740992")
    func exactNumbers() throws {
        #expect(try test(.compare(.equal, word("9007199254740992")), .number("9007199254740993")) == false)
        #expect(try test(.compare(.notEqual, word("9007199254740992")), .number("9007199254740993")))
        #expect(try test(.compare(.greater, word("9007199254740992")), .number("9007199254740993")))
        #expect(try test(.compare(.equal, word("9007199254740993")), .string("9007199254740993"), lenient: true))
        #expect(try test(.compare(.equal, word("1e2")), .number("100.0")))
    }

    @Test("contains, startsWith, endsWith and matches work on text, arrays and objects")
    func textPredicates() throws {
        #expect(try test(.contains(word("pe")), .string("tapes")))
        #expect(try test(.contains(word("2")), .array([1, 2])))
        #expect(try test(.contains(word("2", quoted: true)), .array([1, 2])) == false)
        #expect(try test(.contains(word("k")), .object([(key: "k", value: .null)])))
        #expect(try test(.startsWith(word("ta")), .string("tapes")))
        #expect(try test(.endsWith(word("es")), .string("tapes")))
        #expect(try test(.matches(word("^t.p")), .string("tapes")))
        #expect(try test(.matches(word("^x")), .string("tapes")) == false)
    }

    @Test("exists, types and count")
    func structure() throws {
        #expect(try test(.exists, .null))
        #expect(try test(.exists, nil) == false)
        for (keyword, value) in [("isString", JSONValue.string("")), ("isNumber", 1), ("isBool", false),
                                 ("isArray", []), ("isObject", [:]), ("isNull", .null)] {
            #expect(try test(.isType(keyword), value), "\(keyword)")
            #expect(try test(.isType(keyword), .string("x")) == (keyword == "isString"))
        }
        #expect(try test(.count(.equal, word("3")), .array([1, 2, 3])))
        #expect(try test(.count(.less, word("2")), .object([(key: "a", value: 1)])))
        #expect(try test(.count(.equal, word("1")), .number("1")) == false)
    }

    @Test("JSON number literals are recognised exactly")
    func numberLiterals() {
        for good in ["0", "-1", "1.5", "1e5", "-0.5E-3"] { #expect(ValueLiteral.isNumber(good), "\(good)") }
        for bad in ["01", "1.", ".5", "1e", "+1", "0x1", "", "-"] { #expect(!ValueLiteral.isNumber(bad), "\(bad)") }
    }
}
