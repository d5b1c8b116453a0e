import Foundation
import Testing
@testable import Tapedeck

/// Work split across cores gives what the same work in order gives: the values in index order,
/// and the failure a sequential loop would have met first.
@Suite("Chunked work across cores")
struct ChunkedWorkTests {
    struct Bad: Error, Equatable { let index: Int }

    @Test("values come back in index order, for sizes below and far above one chunk")
    func order() {
        for count in [0, 1, 511, 1_024, 10_007, 100_000] {
            #expect(ChunkedWork.map(count) { $0 * 3 } == (0..<count).map { $0 * 3 }, "\(count)")
        }
    }

    @Test("the failure at the lowest index is the one thrown, wherever the chunks fall")
    func firstFailure() {
        #expect(throws: Bad(index: 2_345)) {
            try ChunkedWork.map(20_000) { (index) throws(Bad) -> Int in
                if index == 2_345 || index == 17_000 || index == 9_999 { throw Bad(index: index) }
                return index
            }
        }
    }

    @Test("a cassette of 5,000 interactions decodes in order, and the first bad interaction is the one named")
    func decode() throws {
        let interactions = (0..<5_000).map { Interaction.make(.get, "http://api.test/items/\($0)", body: "{\"i\":\($0)}") }
        let data = CassetteCodec.encode(Cassette(interactions: interactions))
        #expect(try CassetteCodec.decode(data).interactions == interactions)

        var text = String(decoding: data, as: UTF8.self)
        for index in [4_321, 1_234] {
            text = text.replacingOccurrences(of: "\"url\": \"http://api.test/items/\(index)\"", with: "\"url\": 7")
        }
        #expect {
            try CassetteCodec.decode(Data(text.utf8), source: "c.json")
        } throws: { error in
            (error as? CassetteError)?.errorDescription?.contains("/interactions/1234/request/url") == true
        }
    }

    @Test("streamed decoding: a syntax error deep in the list names its element, and a bad version is reported before a bad interaction")
    func streamedErrors() throws {
        let interactions = (0..<9_000).map { Interaction.make(.get, "http://api.test/items/\($0)") }
        let text = String(decoding: CassetteCodec.encode(Cassette(interactions: interactions)), as: UTF8.self)

        let broken = text.replacingOccurrences(of: "\"url\": \"http://api.test/items/8765\"", with: "\"url\": http")
        #expect {
            try CassetteCodec.decode(Data(broken.utf8), source: "c.json")
        } throws: { error in
            guard case .malformedJSON(_, let line, _, let pointer, _) = error as? CassetteError else { return false }
            return pointer == "/interactions/8765/request/url" && line == broken.prefix(upTo: broken.range(of: ": http\n")!.lowerBound).split(separator: "\n", omittingEmptySubsequences: false).count
        }

        let future = text.replacingOccurrences(of: "\"version\": 1", with: "\"version\": 9")
            .replacingOccurrences(of: "\"url\": \"http://api.test/items/3\"", with: "\"url\": 3")
        #expect {
            try CassetteCodec.decode(Data(future.utf8), source: "c.json")
        } throws: { error in
            guard case .unsupportedVersion(_, 9) = error as? CassetteError else { return false }
            return true
        }
    }

    @Test("the parser hands on each element of the streamed array with its index and keeps none")
    func parserStreams() throws {
        var seen: [(Int, JSONValue)] = []
        let value = try JSONParser.parse(Data(#"{"a": [1, [2]], "interactions": [{"x": 1}, [], "s"], "z": {"interactions": [5]}}"#.utf8),
                                         streamingElementsOf: "interactions") { index, element in
            if case .value(let value) = element { seen.append((index, value)) }
        }
        #expect(seen.map(\.0) == [0, 1, 2])
        #expect(seen.map(\.1) == [.object([("x", .number("1"))]), .array([]), .string("s")])
        #expect(value["interactions"] == .array([]))
        #expect(value["a"] == .array([.number("1"), .array([.number("2")])]))
        #expect(value["z"]?["interactions"] == .array([.number("5")]), "only the top-level member is streamed")
    }
}
