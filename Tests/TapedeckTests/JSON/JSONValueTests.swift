import Foundation
import Testing
@testable import Tapedeck

@Suite("JSONValue")
struct JSONValueTests {
    @Test("equality is structural: order and literals matter")
    func structuralEquality() {
        #expect(JSONValue.object([("a", 1), ("b", 2)]) != JSONValue.object([("b", 2), ("a", 1)]))
        #expect(JSONValue.object([("a", 1), ("a", 1)]) != JSONValue.object([("a", 1)]))
        #expect(JSONValue.number("1.0") != JSONValue.number("1"))
        #expect(JSONValue.object([("a", [1, "x"])]) == ["a": [1, "x"]])
        #expect(JSONValue.bool(true) != JSONValue.number("1"))
        #expect(JSONValue.array([]) != JSONValue.object([]))
    }

    @Test("equal values hash equally and distinct ones land in distinct set slots")
    func hashing() {
        let set: Set<JSONValue> = [["a": 1, "b": 2], ["a": 1, "b": 2], ["b": 2, "a": 1], .number("1.0"), 1, nil, [nil], []]
        #expect(set.count == 7)
        #expect(set.contains(["b": 2, "a": 1]))
    }

    struct Pair: Sendable, CustomTestStringConvertible {
        var left: String
        var right: String
        var equal: Bool
        var testDescription: String { "\(left) vs \(right)" }
    }

    static let semanticPairs: [Pair] = [
        .init(left: "1", right: "1.0", equal: true),
        .init(left: "1", right: "1e0", equal: true),
        .init(left: "100", right: "1e2", equal: true),
        .init(left: "100", right: "1E+2", equal: true),
        .init(left: "0.01", right: "1e-2", equal: true),
        .init(left: "1.50", right: "1.5", equal: true),
        .init(left: "-0", right: "0", equal: true),
        .init(left: "0.000", right: "0e10", equal: true),
        .init(left: "-1", right: "1", equal: false),
        .init(left: "1", right: "1.0000000000000000000001", equal: false),
        .init(left: "12345678901234567890123", right: "12345678901234567890124", equal: false),
        .init(left: "12345678901234567890123", right: "1.2345678901234567890123e22", equal: true),
        .init(left: "10", right: "1", equal: false),
        .init(left: "true", right: "1", equal: false),
        .init(left: "false", right: "0", equal: false),
        .init(left: "null", right: "0", equal: false),
        .init(left: "null", right: "null", equal: true),
        .init(left: #""1""#, right: "1", equal: false),
        .init(left: #""a""#, right: #""a""#, equal: true),
        .init(left: #""a""#, right: #""A""#, equal: false),
        .init(left: #"{"a": 1, "b": 2}"#, right: #"{"b": 2.0, "a": 1}"#, equal: true),
        .init(left: #"{"a": 1, "a": 2}"#, right: #"{"a": 2}"#, equal: true),
        .init(left: #"{"a": 1, "a": 2}"#, right: #"{"a": 1}"#, equal: false),
        .init(left: #"{"a": 1}"#, right: #"{"a": 1, "b": null}"#, equal: false),
        .init(left: #"{"a": 1}"#, right: #"{"b": 1}"#, equal: false),
        .init(left: "[1, 2]", right: "[2, 1]", equal: false),
        .init(left: "[1, 2]", right: "[1.0, 2e0]", equal: true),
        .init(left: "[1]", right: "[1, 1]", equal: false),
        .init(left: "[]", right: "{}", equal: false),
        .init(left: #"{"x": [{"y": 1e3}]}"#, right: #"{"x": [{"y": 1000}]}"#, equal: true),
    ]

    @Test("semantic equality compares like a JSON consumer", arguments: semanticPairs)
    func semanticEquality(pair: Pair) throws {
        let left = try JSONParser.parse(pair.left)
        let right = try JSONParser.parse(pair.right)
        #expect(left.semanticallyEquals(right) == pair.equal)
        #expect(right.semanticallyEquals(left) == pair.equal)
    }

    @Test("accessors return the payload only for the matching case")
    func accessors() {
        let value: JSONValue = ["s": "text", "b": false, "n": 2.5, "a": [1], "o": ["k": nil], "dup": 1, "dup": 2]
        #expect(value["s"]?.stringValue == "text")
        #expect(value["b"]?.boolValue == false)
        #expect(value["n"]?.doubleValue == 2.5)
        #expect(value["a"]?.arrayValue == [1])
        #expect(value["o"]?.objectValue?.first?.key == "k")
        #expect(value["dup"] == 2)
        #expect(value["missing"] == nil)
        #expect(value["s"]?.boolValue == nil)
        #expect(value["n"]?.stringValue == nil)
        #expect(value["a"]?[0] == 1)
        #expect(value["a"]?[1] == nil)
        #expect(value["a"]?[-1] == nil)
        #expect(value[0] == nil)
        #expect(JSONValue.bool(true)["k"] == nil)
        #expect(JSONValue.number("1").boolValue == nil)
    }

    @Test("type names match the JSON types")
    func typeNames() {
        let values: [JSONValue] = [nil, true, 1, "s", [], [:]]
        #expect(values.map(\.typeName) == ["null", "bool", "number", "string", "array", "object"])
    }

    @Test("literals and initialisers build the expected cases")
    func literals() {
        #expect(JSONValue(3) == .number("3"))
        #expect(JSONValue(-7) == .number("-7"))
        #expect(JSONValue(1.0) == .number("1.0"))
        #expect(JSONValue(0.1) == .number("0.1"))
        #expect(JSONValue(Double.nan) == .null)
        #expect(JSONValue(-Double.infinity) == .null)
        let literal: JSONValue = ["b": [1, 2.5, "x", true, nil], "a": [:]]
        #expect(literal == .object([("b", .array([.number("1"), .number("2.5"), .string("x"), .bool(true), .null])), ("a", .object([]))]))
    }

    @Test("Codable round-trips through JSONEncoder and JSONDecoder")
    func codable() throws {
        struct Envelope: Codable, Equatable { var body: JSONValue }
        let body: JSONValue = ["z": [1, 2.5, "x", true, nil], "a": ["nested": [:]], "big": 12345678901]
        let data = try JSONEncoder().encode(Envelope(body: body))
        let decoded = try JSONDecoder().decode(Envelope.self, from: data)
        #expect(decoded.body.semanticallyEquals(body))
        // JSONDecoder hands over an unordered dictionary: keys come back sorted.
        #expect(decoded.body.objectValue?.map(\.key) == ["a", "big", "z"])
        #expect(decoded.body["z"]?[3] == true)
        #expect(decoded.body["z"]?[1] == .number("2.5"))
    }

    @Test("Codable encoding keeps the last duplicate key")
    func codableDuplicates() throws {
        let data = try JSONEncoder().encode(JSONValue.object([("k", 1), ("k", 2)]))
        #expect(try JSONParser.parse(data) == ["k": 2])
    }

    @Test("writing and parsing again keeps key order, duplicates and every literal, compact and pretty")
    func losslessRoundTrip() throws {
        let value = try JSONParser.parse(Data(#"{"b": 1.0, "a": [1e5, -0, "\u00e9"], "b": 12345678901234567890123}"#.utf8))
        #expect(value.objectValue?.map(\.key) == ["b", "a", "b"])
        for options in [JSONWriter.Options(), .pretty] {
            let written: Data = JSONWriter.write(value, options: options)
            #expect(try JSONParser.parse(written) == value, "\(String(decoding: written, as: UTF8.self))")
        }
    }

    @Test("number literals order exactly by value, beyond Double's 53 bits", arguments: [
        ("9007199254740993", "9007199254740992", 1), ("1.0", "1", 0), ("1e2", "100", 0), ("-0", "0", 0),
        ("0.1", "0.12", -1), ("-5", "-4", -1), ("1e400", "1e399", 1), ("-1e400", "1", -1), ("123456789012345678901234567890", "123456789012345678901234567891", -1),
        ("0.000001", "1e-6", 0), ("10", "9.999999999999999999999", 1),
    ])
    func exactNumberOrder(_ a: String, _ b: String, _ expected: Int) {
        #expect(JSONValue.compareNumbers(a, b).signum() == expected)
        #expect(JSONValue.compareNumbers(b, a).signum() == -expected)
    }

    @Test("every reader takes the last of duplicate keys: subscript, pointer, semantic equality and the interop cursor")
    func duplicateKeysLastWins() throws {
        let value = try JSONParser.parse(#"{"a": 1, "b": {"c": true}, "a": 2}"#)
        #expect(value["a"] == .number("2"))
        #expect(value.value(at: "/a") == .number("2"))
        #expect(value.semanticallyEquals(try JSONParser.parse(#"{"b": {"c": true}, "a": 2}"#)))
        let cursor = try JSONCursor.root(Data(#"{"status": 200, "status": 404}"#.utf8), file: "dup.har")
        #expect(try cursor.required("status").int() == 404)
    }
}
