import Tapedeck
import Testing
@testable import TapedeckShell

@Suite("JSONPath")
struct JSONPathTests {
    let document = try! JSONParser.parse(#"""
    {"store": {"name": "Tapes & Co", "items": [
        {"id": 1, "sku": "a", "tags": ["x"], "price": 9.5},
        {"id": 2, "sku": "b", "tags": [], "price": 20, "sale": true},
        {"id": 3, "sku": "c", "tags": ["y", "z"], "price": 5}
    ]}, "weird key": {"a.b": 7}, "id": 0}
    """#)

    private func evaluate(_ path: String) throws -> JSONValue? {
        try JSONPath(path).evaluate(on: document)
    }

    @Test("names, quoted names, indexes and negative indexes select one value")
    func definite() throws {
        #expect(try evaluate("$.store.name") == .string("Tapes & Co"))
        #expect(try evaluate("$['weird key']['a.b']") == .number("7"))
        #expect(try evaluate("$.store.items[1].sku") == .string("b"))
        #expect(try evaluate("$.store.items[-1].id") == .number("3"))
        #expect(try evaluate("$.store.items[9]") == nil)
        #expect(try evaluate("$.missing") == nil)
        #expect(try evaluate("$") == document)
    }

    @Test("wildcards, descent and filters select arrays")
    func multiple() throws {
        #expect(try evaluate("$.store.items[*].sku") == .array(["a", "b", "c"]))
        #expect(try evaluate("$.store.items.*.id") == .array([1, 2, 3]))
        #expect(try evaluate("$..id") == .array([1, 2, 3, 0]))
        #expect(try evaluate("$.store.items[?(@.sku == 'b')].id") == .array([2]))
        #expect(try evaluate("$.store.items[?(@.price < 10)].sku") == .array(["a", "c"]))
        #expect(try evaluate("$.store.items[?(@.sale)].id") == .array([2]))
        #expect(try evaluate("$.store.items[?(@.id != 2)].id") == .array([1, 3]))
        #expect(try evaluate("$.store.items[?(@.price == 20.0)].id") == .array([2]))
        #expect(try evaluate("$.store.items[?(@.sku == \"zz\")]") == .array([]))
    }

    @Test("syntax errors name the column")
    func errors() {
        let cases: [(String, Int)] = [
            ("store.name", 1), ("$.", 3), ("$.a[", 4), ("$.a[?(@.b = 1)]", 11), ("$.a[x]", 5),
            ("$.a['b]", 5), ("$.a[?(@.b == )]", 14), ("$.a[?(@.b == 1]", 15), ("$a", 2),
        ]
        for (text, column) in cases {
            do {
                _ = try JSONPath(text)
                Issue.record("\(text) compiled")
            } catch {
                #expect(error.column == column, "\(text): \(error.reason)")
                #expect(error.errorDescription?.contains(text) == true)
            }
        }
    }

    @Test("with duplicate keys a path selects the last one, as the core does; descent too")
    func duplicateKeys() throws {
        let doubled = try JSONParser.parse(#"{"a": {"x": 1}, "b": [{"id": 1, "id": 2}], "a": {"y": 2}}"#)
        #expect(try JSONPath("$.a").evaluate(on: doubled) == .object([(key: "y", value: .number("2"))]))
        #expect(try JSONPath("$.b[0].id").evaluate(on: doubled) == .number("2"))
        #expect(try JSONPath("$..id").evaluate(on: doubled) == .array([.number("2")]))
        #expect(try JSONPath("$.a.x").missingReason(in: doubled)?.hasPrefix("$.a has no member 'x'") == true)
    }
}
