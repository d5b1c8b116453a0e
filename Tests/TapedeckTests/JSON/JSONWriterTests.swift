import Foundation
import Testing
@testable import Tapedeck

@Suite("JSONWriter")
struct JSONWriterTests {
    let sample: JSONValue = [
        "name": "Zoë",
        "items": [["qty": 2, "price": .number("1.50")], [:], []],
        "empty": [:],
        "ok": true,
        "none": nil,
    ]

    @Test("compact output has no whitespace and keeps member order")
    func compact() {
        let text: String = JSONWriter.write(sample, options: [])
        #expect(text == #"{"name":"Zoë","items":[{"qty":2,"price":1.50},{},[]],"empty":{},"ok":true,"none":null}"#)
    }

    @Test("pretty output indents by two spaces with \"key\": value")
    func pretty() {
        let text: String = JSONWriter.write(sample, options: .pretty)
        #expect(text == """
            {
              "name": "Zoë",
              "items": [
                {
                  "qty": 2,
                  "price": 1.50
                },
                {},
                []
              ],
              "empty": {},
              "ok": true,
              "none": null
            }
            """)
    }

    @Test("sorted keys order members by UTF-8 bytes at every level")
    func sortedKeys() {
        let value: JSONValue = ["b": 1, "a": ["z": 1, "Z": 2, "é": 3, "e": 4], "B": 5, "": 6]
        let text: String = JSONWriter.write(value, options: .sortedKeys)
        #expect(text == #"{"":6,"B":5,"a":{"Z":2,"e":4,"z":1,"é":3},"b":1}"#)
    }

    @Test("sorted keys are deterministic with duplicate keys")
    func sortedDuplicates() {
        let value = JSONValue.object([("k", 1), ("a", 0), ("k", 2), ("k", 3)])
        let first: String = JSONWriter.write(value, options: .sortedKeys)
        #expect(first == #"{"a":0,"k":1,"k":2,"k":3}"#)
        let reversed = JSONValue.object([("k", 3), ("k", 2), ("a", 0), ("k", 1)])
        #expect(JSONWriter.write(reversed, options: .sortedKeys) as String == #"{"a":0,"k":3,"k":2,"k":1}"#)
    }

    @Test("strings escape quotes, backslashes and control characters only")
    func escaping() {
        let value = JSONValue.string("a\"b\\c/d\n\r\t\u{8}\u{c}\u{0}\u{1f}\u{7f}é🎉\u{2028}")
        let text: String = JSONWriter.write(value, options: [])
        #expect(text == "\"a\\\"b\\\\c/d\\n\\r\\t\\b\\f\\u0000\\u001f\u{7f}é🎉\u{2028}\"")
    }

    @Test("a byte to escape is found at every place in runs longer than eight bytes, beside bytes past ASCII")
    func escapingAtEveryPlace() throws {
        for length in 0...40 {
            for place in 0..<max(length, 1) {
                for special in ["\"", "\\", "\n", "\u{1}", "\u{1f}", "é", " ", "\u{7f}"] {
                    var characters = [String](repeating: "a", count: length)
                    if place < length { characters[place] = special }
                    if length > 3 { characters[length - 1] = "ÿ" }
                    let text = characters.joined()
                    let written: String = JSONWriter.write(.string(text), options: [])
                    let expected = "\"" + text.unicodeScalars.map { scalar -> String in
                        switch scalar {
                        case "\"": "\\\""
                        case "\\": "\\\\"
                        case "\n": "\\n"
                        case "\u{1}": "\\u0001"
                        case "\u{1f}": "\\u001f"
                        default: String(scalar)
                        }
                    }.joined() + "\""
                    #expect(written == expected, "length \(length), \(special) at \(place)")
                    #expect(try JSONParser.parse(Data(written.utf8)) == .string(text))
                }
            }
        }
    }

    @Test("keys are escaped like strings")
    func keyEscaping() {
        let text: String = JSONWriter.write(["a\"b\n": 1], options: [])
        #expect(text == #"{"a\"b\n":1}"#)
    }

    @Test("the Data variant holds the same UTF-8 as the String variant")
    func dataVariant() {
        let data: Data = JSONWriter.write(sample, options: [.pretty, .sortedKeys])
        let text: String = JSONWriter.write(sample, options: [.pretty, .sortedKeys])
        #expect(data == Data(text.utf8))
        #expect(!text.hasSuffix("\n"))
    }

    @Test("a large document is written whole, every record in order (its speed is measured by make bench)")
    func largeDocument() throws {
        let record: JSONValue = ["id": 123456, "name": "Zoë \"q\"", "tags": ["a", "b"], "price": .number("12.50")]
        let value = JSONValue.array(Array(repeating: record, count: 20_000))
        let data: Data = JSONWriter.write(value, options: .pretty)
        #expect(data.count > 1_000_000)
        #expect(try JSONParser.parse(data) == value)
    }

    @Test("a layout sets the indent, keeps short scalar arrays on one line and decorates each kind of token")
    func layout() {
        let value: JSONValue = ["pair": ["Accept", "*/*"], "long": .array((0..<30).map { JSONValue($0) }), "ok": true, "n": nil]
        #expect(JSONWriter.write(value, layout: .init(indentWidth: 4, inlineScalarArrays: 40)) == """
            {
                "pair": ["Accept", "*/*"],
                "long": [
                    0,
            """ + (1..<30).map { "\n        \($0)," }.joined().dropLast() + """

                ],
                "ok": true,
                "n": null
            }
            """)
        let marked = JSONWriter.Layout(decorations: [.key: .init(prefix: "<", suffix: ">"), .string: .init(prefix: "[", suffix: "]"),
                                                     .number: .init(prefix: "#", suffix: ""), .literal: .init(prefix: "!", suffix: "")])
        #expect(JSONWriter.write(["a": ["x", 1, false]], layout: marked) == "{\n  <\"a\">: [\n    [\"x\"],\n    #1,\n    !false\n  ]\n}")
    }
}
