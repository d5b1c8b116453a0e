import Testing
@testable import Tapedeck

@Suite("JSONPointer")
struct JSONPointerTests {
    let document: JSONValue = [
        "items": [["qty": 2], ["qty": 3, "tags": []]],
        "a/b": 1,
        "m~n": 2,
        "~1": 3,
        "": 4,
        " ": 5,
        "dup": 1,
        "dup": 2,
        "meta": [:],
    ]

    @Test("pointers walk keys and array indexes", arguments: [
        ("", nil as JSONValue?),
        ("/items/0/qty", 2), ("/items/1/qty", 3), ("/items/1/tags", []),
        ("/a~1b", 1), ("/m~0n", 2), ("/~01", 3), ("/", 4), ("/ ", 5), ("/dup", 2), ("/meta", [:]),
    ] as [(String, JSONValue?)])
    func lookup(pointer: String, expected: JSONValue?) {
        if pointer.isEmpty {
            #expect(document.value(at: pointer) == document)
        } else {
            #expect(document.value(at: pointer) == expected)
        }
    }

    @Test("malformed or dangling pointers find nothing", arguments: [
        "items", "/missing", "/items/2", "/items/-1", "/items/-", "/items/01", "/items/+1", "/items/x",
        "/items/0/qty/deeper", "/m~2n", "/m~", "/a/b", "/meta/x",
    ])
    func misses(pointer: String) {
        #expect(document.value(at: pointer) == nil)
    }

    @Test("tokens escape ~ before / and unescape back")
    func escaping() {
        #expect(JSONValue.escapePointerToken("a/b") == "a~1b")
        #expect(JSONValue.escapePointerToken("m~n") == "m~0n")
        #expect(JSONValue.escapePointerToken("~1") == "~01")
        #expect(JSONValue.escapePointerToken("/~") == "~1~0")
        #expect(JSONValue.escapePointerToken("plain") == "plain")
        for key in ["a/b", "m~n", "~1", "/~", "~~//", "é/🎉"] {
            let value = JSONValue.object([(key: key, value: 1)])
            #expect(value.value(at: "/" + JSONValue.escapePointerToken(key)) == 1, "key \(key)")
        }
    }

    @Test("flattened leaves list every scalar and empty container in document order")
    func leaves() {
        let leaves = document.flattenedLeaves()
        #expect(leaves.map(\.pointer) == [
            "/items/0/qty", "/items/1/qty", "/items/1/tags", "/a~1b", "/m~0n", "/~01", "/", "/ ", "/dup", "/dup", "/meta",
        ])
        #expect(leaves.map(\.value) == [2, 3, [], 1, 2, 3, 4, 5, 1, 2, [:]])
        for leaf in leaves where leaf.pointer != "/dup" {
            #expect(document.value(at: leaf.pointer) == leaf.value)
        }
    }

    @Test("a scalar or empty document is its own single leaf")
    func scalarLeaves() {
        #expect(JSONValue("x").flattenedLeaves().map(\.pointer) == [""])
        #expect(JSONValue.array([]).flattenedLeaves().map(\.value) == [[]])
    }
}
