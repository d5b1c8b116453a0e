import Foundation
import TapedeckTestSupport
import Testing
@testable import Tapedeck

@Suite("Reading a document a window at a time")
struct JSONFileWindowTests {
    /// The value an element handed on stands for: itself, or its bytes parsed.
    static func parsed(_ element: StreamedElement) -> Result<JSONValue, JSONParseError> {
        Result { () throws(JSONParseError) in
            switch element {
            case .value(let value): value
            case .bytes(let bytes): try JSONParser.parse(bytes)
            }
        }
    }

    /// What streaming `text` hands on (each element handed on unparsed then parsed, with
    /// `unparsed`), and the document returned, read whole.
    private func whole(_ text: String, unparsed: Bool = false) -> Result<([JSONValue], JSONValue), JSONParseError> {
        var seen: [Result<JSONValue, JSONParseError>] = []
        return Result { () throws(JSONParseError) in
            let root = try JSONParser.parse(Data(text.utf8), streamingElementsOf: "interactions", unparsed: unparsed) {
                seen.append(Self.parsed($1))
            }
            return (try seen.map { element throws(JSONParseError) in try element.get() }, root)
        }
    }

    /// The same, read through a window of `capacity` bytes over a file holding `text`.
    private func windowed(_ text: String, capacity: Int, unparsed: Bool = false,
                          in directory: TemporaryDirectory) throws -> Result<([JSONValue], JSONValue), JSONParseError> {
        let url = directory.file("doc-\(capacity).json")
        try Data(text.utf8).write(to: url)
        let descriptor = open(url.path, O_RDONLY)
        defer { close(descriptor) }
        let window = JSONFileWindow(descriptor: descriptor, capacity: capacity)
        var seen: [(Int, Result<JSONValue, JSONParseError>)] = []
        return Result { () throws(JSONParseError) in
            let root = try JSONParser.parse(window, streamingElementsOf: "interactions", unparsed: unparsed) {
                seen.append(($0, Self.parsed($1)))
            }
            #expect(seen.map(\.0) == Array(seen.indices), "each element is handed on once, in order")
            return (try seen.map { element throws(JSONParseError) in try element.1.get() }, root)
        }
    }

    private static let capacities = [16, 17, 18, 19, 31, 64, 100, 257, 4_096]

    @Test("every element and the rest of the document are read as when the bytes are whole, whatever the window")
    func sameAsWhole() throws {
        let directory = TemporaryDirectory()
        var rng = SeededRandom(seed: 0x5EED_F11E)
        var documents = [
            #"{"interactions": [], "version": 1}"#,
            // An empty array whose `[` ends a window, its `]` in the next.
            #"{"interactions": [ ], "version": 1}"#,
            "{\"interactions\": [\(String(repeating: " ", count: 40))], \"version\": 1}",
            #"{"interactions": [{"a": "b"}, {"c": [1, 2, {"d": "e"}]}, "text", 12.5e3, null], "metadata": {"k": "v"}, "version": 1}"#,
            // Members before the streamed array, a byte order mark, and whitespace well past a window.
            "\u{FEFF}{\"version\": 1, \"metadata\": {\"long\": \"\(String(repeating: "m", count: 300))\"}, \"interactions\": [1, 2, 3]}"
                + String(repeating: " \n", count: 200),
            // One element larger than every window, between small ones.
            #"{"interactions": [1, {"big": "\#(String(repeating: "x", count: 5_000))"}, 3], "version": 1}"#,
            // Escapes and multi-byte text cut across windows.
            #"{"interactions": ["\u00e9\ud83c\udf89\n\"", "日本語テキスト", {"k\\": "🎉"}], "version": 1}"#,
        ]
        for _ in 0..<40 {
            let elements = (0..<Int.random(in: 0...30, using: &rng)).map { _ in RandomJSON.value(&rng) }
            let root = JSONValue.object([("interactions", .array(elements)), ("version", .number("1"))])
            documents.append(JSONWriter.write(root, options: Bool.random(using: &rng) ? [.pretty] : []))
        }
        for text in documents {
            let expected = try whole(text).get()
            let unparsed = try whole(text, unparsed: true).get()
            #expect(unparsed.0 == expected.0, "elements handed on unparsed")
            #expect(unparsed.1 == expected.1, "the document with its elements handed on unparsed")
            for capacity in Self.capacities {
                for handedOnUnparsed in [false, true] {
                    let read = try windowed(text, capacity: capacity, unparsed: handedOnUnparsed, in: directory).get()
                    #expect(read.0 == expected.0, "elements through a \(capacity)-byte window")
                    #expect(read.1 == expected.1, "the document through a \(capacity)-byte window")
                }
            }
        }
    }

    @Test("a malformed document fails through every window, however early or late it is broken")
    func malformed() throws {
        let directory = TemporaryDirectory()
        let broken = [
            #"{"interactions": [{"a": 1}, {"b": 2,}], "version": 1}"#,
            #"{"interactions": [{"a": 1}, {"b": 2}], "version": 1} trailing"#,
            #"{"interactions": [{"a": 1}, {"b": 2}] "version": 1}"#,
            #"{"interactions": [{"a": 1}, {"b": "unterminated}]}"#,
            #"{"version": 1, "interactions": [{"a": 1}, {"b": 2}"#,
            #"{"interactions": [1, 2, 3,]}"#,
            #"{"interactions": [1, 2, 3]"#,
            "{\"interactions\": [\(Array(repeating: "1", count: 100).joined(separator: ", ")), nul]}",
        ]
        for text in broken {
            for unparsed in [false, true] {
                guard case .failure = whole(text, unparsed: unparsed) else {
                    Issue.record("the document read whole parses: \(text)")
                    continue
                }
                for capacity in Self.capacities {
                    guard case .failure = try windowed(text, capacity: capacity, unparsed: unparsed, in: directory) else {
                        Issue.record("a \(capacity)-byte window read a malformed document: \(text)")
                        continue
                    }
                }
            }
        }
    }

    @Test("a document broken early stops at its error: the window neither grows nor reads on to the file's end")
    func brokenEarly() throws {
        let directory = TemporaryDirectory()
        let tail = (0..<5_000).map { #"{"n": \#($0)}"# }.joined(separator: ", ")
        let url = directory.file("broken.json")
        try Data(#"{"interactions": [{"a": 1}, {"b": 2 x}, \#(tail)], "version": 1}"#.utf8).write(to: url)
        let descriptor = open(url.path, O_RDONLY)
        defer { close(descriptor) }
        let window = JSONFileWindow(descriptor: descriptor, capacity: 64)
        #expect(throws: JSONParseError.self) {
            try JSONParser.parse(window, streamingElementsOf: "interactions") { _, _ in }
        }
        #expect(window.capacity == 64)
        #expect(!window.atEnd)
    }

    @Test("a cassette decoded through a window is the one decoded whole, and its errors name the same place")
    func cassettes() throws {
        let directory = TemporaryDirectory()
        let cassette = Cassette(interactions: (0..<300).map { index in
            Interaction.make(.post, "http://api.test/items/\(index)?page=\(index)", requestBody: Data(#"{"n":\#(index)}"#.utf8),
                             body: #"{"id":\#(index),"name":"item \#(index)","filler":"\#(String(repeating: "y", count: index % 97))"}"#)
        }, metadata: ["baseURL": "http://api.test"])
        let url = directory.file("big.cassette.json")
        try cassette.write(to: url)
        for capacity in [64, 1_000, 65_536] {
            let descriptor = open(url.path, O_RDONLY)
            defer { close(descriptor) }
            let read = try CassetteCodec.decode(JSONFileWindow(descriptor: descriptor, capacity: capacity), file: url,
                                                maximumFileSize: .max)
            #expect(read == cassette)
        }

        // The same interaction given twice as `interactions`: the last one counts, as when read whole.
        var text = try String(contentsOf: url, encoding: .utf8)
        text = text.replacingOccurrences(of: "\"metadata\": {", with: "\"interactions\": [],\n  \"metadata\": {")
        try Data(text.utf8).write(to: url)
        let descriptor = open(url.path, O_RDONLY)
        defer { close(descriptor) }
        let twice = try CassetteCodec.decode(JSONFileWindow(descriptor: descriptor, capacity: 512), file: url, maximumFileSize: .max)
        #expect(twice.interactions.isEmpty)

        // A broken interaction deep in the file: the error is the whole read's, with line and column.
        let broken = try String(contentsOf: url, encoding: .utf8)
            .replacingOccurrences(of: "\"http://api.test/items/250?page=250\"", with: "\"http://api.test/items/250?page=250\" x")
        try Data(broken.utf8).write(to: url)
        var expected: CassetteError?
        do { _ = try CassetteCodec.decode(Data(broken.utf8), source: url.path) } catch { expected = error }
        guard case .malformedJSON(_, let line, let column, let pointer, _)? = expected else {
            Issue.record("the broken cassette decoded")
            return
        }
        #expect(line > 1000 && column > 1 && pointer.hasPrefix("/interactions/250"))
        let again = open(url.path, O_RDONLY)
        defer { close(again) }
        #expect {
            try CassetteCodec.decode(JSONFileWindow(descriptor: again, capacity: 700), file: url, maximumFileSize: .max)
        } throws: { error in
            guard case .malformedJSON(_, line, column, pointer, _)? = error as? CassetteError else { return false }
            return true
        }
    }

    @Test("interactions moved into the array batch by batch arrive in order, whether the size guessed from the first ones is under or over")
    func batchesMovedInOrder() throws {
        let directory = TemporaryDirectory()
        let count = CassetteCodec.streamingBatch * 20 + 17
        let make = { (index: Int, large: Bool) in
            Interaction.make(.get, "http://api.test/items/\(index)", body: large ? String(repeating: "b", count: 600) : "s")
        }
        // Small ones first: the guess is too many. Large ones first: too few, and the array grows.
        let orders = [(0..<count).map { make($0, $0 >= 2_048) }, (0..<count).map { make($0, $0 < 2_048) }]
        for interactions in orders {
            let cassette = Cassette(interactions: interactions)
            let url = directory.file("batches.cassette.json")
            try cassette.write(to: url)
            let descriptor = open(url.path, O_RDONLY)
            defer { close(descriptor) }
            let window = JSONFileWindow(descriptor: descriptor, capacity: 1 << 16)
            let read = try CassetteCodec.decode(window, file: url, maximumFileSize: .max)
            #expect(read == cassette)
        }

        // A broken interaction after batches were moved is still the error, with its place.
        let url = directory.file("late.cassette.json")
        try Cassette(interactions: (0..<count).map { make($0, false) }).write(to: url)
        let broken = try String(contentsOf: url, encoding: .utf8)
            .replacingOccurrences(of: "\"http://api.test/items/4000\"", with: "4000")
        try Data(broken.utf8).write(to: url)
        let descriptor = open(url.path, O_RDONLY)
        defer { close(descriptor) }
        #expect {
            try CassetteCodec.decode(JSONFileWindow(descriptor: descriptor, capacity: 1 << 16), file: url, maximumFileSize: .max)
        } throws: { error in
            guard case .invalidField(_, let pointer, _)? = error as? CassetteError else { return false }
            return pointer.hasPrefix("/interactions/4000")
        }
    }

    @Test("the number of elements is guessed from the bytes the first ones took, a little over")
    func expectedElements() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("even.json")
        let elements = (0..<10_000).map { #"{"n": "\#(String(format: "%05d", $0))"}"# }.joined(separator: ", ")
        try Data(#"{"interactions": [\#(elements)]}"#.utf8).write(to: url)
        let descriptor = open(url.path, O_RDONLY)
        defer { close(descriptor) }
        let window = JSONFileWindow(descriptor: descriptor, capacity: 4_096)
        #expect(window.expectedElements(parsed: 0) == nil)
        var guesses: [Int] = []
        _ = try JSONParser.parse(window, streamingElementsOf: "interactions") { index, _ in
            if (index + 1) % 1_000 == 0, let guess = window.expectedElements(parsed: index + 1) { guesses.append(guess) }
        }
        #expect(guesses.count == 10)
        for guess in guesses { #expect(guess >= 10_000 && guess <= 10_700, "\(guess)") }
    }

    @Test("a read that fails is reported as the file being unreadable, with the reason")
    func readFailure() throws {
        let directory = TemporaryDirectory()
        let descriptor = open(directory.url.path, O_RDONLY | O_DIRECTORY)
        defer { close(descriptor) }
        let window = JSONFileWindow(descriptor: descriptor, capacity: 64)
        #expect(window.failure != nil)
        #expect {
            try CassetteCodec.decode(window, file: directory.url, maximumFileSize: .max)
        } throws: { error in
            guard case .unreadable(_, let reason) = error as? CassetteError else { return false }
            return reason.localizedCaseInsensitiveContains("directory")
        }
    }

    @Test("a cassette larger than the window threshold loads through a window, the same as read whole")
    func loadsLargeFiles() throws {
        let directory = TemporaryDirectory()
        let filler = String(repeating: "z", count: 4_000)
        let cassette = Cassette(interactions: (0..<(CassetteCodec.windowedFileSize / 4_000 + 200)).map { index in
            Interaction.make(.get, "http://api.test/items/\(index)", body: #"{"i":\#(index),"f":"\#(filler)"}"#)
        })
        let url = directory.file("large.cassette.json")
        try cassette.write(to: url)
        #expect((FileAccess.size(of: url) ?? 0) > CassetteCodec.windowedFileSize)
        #expect(try Cassette.load(from: url) == cassette)

        // Broken near its end, it is refused with the line and column of the break.
        var text = try String(contentsOf: url, encoding: .utf8)
        let last = try #require(text.range(of: "\"http://api.test/items/\(cassette.interactions.count - 1)\"", options: .backwards))
        text.insert(contentsOf: " x", at: last.upperBound)
        try Data(text.utf8).write(to: url)
        let line = text[..<last.upperBound].split(separator: "\n", omittingEmptySubsequences: false).count
        #expect {
            try Cassette.load(from: url)
        } throws: { error in
            guard case .malformedJSON(_, let at, let column, let pointer, _) = error as? CassetteError else { return false }
            return at == line && column > 1 && pointer.hasPrefix("/interactions/\(cassette.interactions.count - 1)")
        }
    }
}

@Suite("Header strings shared while decoding")
struct StringTableTests {
    @Test("equal strings come back as one copy; short and very long ones are left alone")
    func shares() {
        let table = StringTable()
        let first = String(repeating: "application/json", count: 1) + "; charset=utf-8"
        let second = ["application/json", "; charset=utf-8"].joined()
        #expect(address(first) != address(second), "two copies to begin with")
        let kept = table.shared(first)
        let again = table.shared(second)
        #expect(again == second && address(again) == address(kept), "the second is the first's copy")
        let long = String(repeating: "z", count: 300)
        #expect(address(table.shared(long)) == address(long))
    }

    private func address(_ string: String) -> UnsafeRawPointer? {
        var string = string
        return string.withUTF8 { UnsafeRawPointer($0.baseAddress) }
    }
}
