import Foundation
import TapedeckTestSupport
import Testing
@testable import Tapedeck

@Suite("Native cassette codec")
struct CassetteCodecTests {
    /// Bodies of every kind the codec distinguishes.
    static func generatedBodies(seed: UInt64) -> [(contentType: String?, body: Data)] {
        var rng = SeededRandom(seed: seed)
        let words = ["alpha", "β", "日本", "emoji 🎞", "quote \"q\"", "back\\slash", "tab\t", "line\nbreak", "/path/"]
        var text = ""
        for _ in 0..<Int.random(in: 1...30, using: &rng) { text += words.randomElement(using: &rng)! + " " }
        let json: JSONValue = [
            "id": JSONValue(Int.random(in: 0...1_000_000, using: &rng)),
            "price": .number("1.0"), "big": .number("12345678901234567890123"),
            "name": .string(text), "tags": ["a", "b"], "nested": ["empty": [], "none": nil, "flag": true],
        ]
        let binary = Data((0..<Int.random(in: 1...512, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) })
        var large = Data()
        for index in 0..<20_000 { large.append(contentsOf: "line \(index) \(text)\n".utf8) }
        return [
            ("text/plain; charset=utf-8", Data(text.utf8)),
            ("application/json", JSONWriter.write(json, options: [])),
            ("application/json", JSONWriter.write(json, options: .pretty) + Data("\n".utf8)),
            ("application/problem+json", JSONWriter.write(json, options: .pretty)),
            ("application/json", Data(#"{"spaced": 1, "python": [1, 2]}"#.utf8)),
            ("application/json", Data("not json {".utf8)),
            ("application/octet-stream", binary),
            ("image/png", Data([0x89, 0x50, 0x4E, 0x47, 0x00, 0x0D])),
            (nil, Data()),
            ("text/plain", Data("nul\u{0}inside".utf8)),
            ("text/plain", large),
        ]
    }

    @Test("round-trips generated text, JSON, binary, empty and large bodies byte for byte", arguments: [1, 2, 3] as [UInt64])
    func roundTrip(seed: UInt64) throws {
        let bodies = Self.generatedBodies(seed: seed)
        let interactions = try bodies.enumerated().map { index, item in
            var headers: HTTPHeaders = [:]
            if let type = item.contentType { headers["Content-Type"] = type }
            headers["Content-Length"] = String(item.body.count)
            try headers.add(name: "Set-Cookie", value: "a=1")
            try headers.add(name: "Set-Cookie", value: "b=2; Expires=Wed, 21 Oct 2026 07:28:00 GMT")
            var interaction = Interaction.make(.post, "http://api.test/items/\(index)?b=2&a=1", requestHeaders: headers,
                                               requestBody: item.body, headers: headers, at: 1_767_348_000_000 + index)
            interaction.response.body = item.body
            return interaction
        }
        let cassette = Cassette(interactions: interactions, metadata: ["baseURL": "http://api.test"])
        let encoded = cassette.encoded()
        let decoded = try CassetteCodec.decode(encoded, source: "memory")
        #expect(decoded.interactions.count == interactions.count)
        for (original, copy) in zip(interactions, decoded.interactions) {
            #expect(copy.request.body == original.request.body)
            #expect(copy.response.body == original.response.body)
            #expect(copy.response.headers == original.response.headers)
            #expect(copy.request.url == original.request.url)
            #expect(copy.response.status == original.response.status)
            #expect(abs(copy.recordedAt.timeIntervalSince(original.recordedAt)) < 0.0006)
            #expect(copy.response.duration == original.response.duration)
        }
        #expect(decoded.metadata == ["baseURL": "http://api.test"])
        #expect(decoded.encoded() == encoded, "decode then encode gives the same bytes")
    }

    @Test("encoding the same cassette twice gives identical bytes with sorted keys and a trailing newline")
    func determinism() throws {
        let cassette = Cassette(interactions: [.make(), .make(.delete, "http://api.test/items/1", status: 204, body: "")],
                                metadata: ["z": "1", "a": "2"])
        let first = cassette.encoded()
        #expect(first == cassette.encoded())
        let text = String(decoding: first, as: UTF8.self)
        #expect(text.hasSuffix("}\n"))
        #expect(!text.contains("\\/"), "slashes are not escaped")
        let interactions = try #require(text.range(of: "\"interactions\""))
        let metadata = try #require(text.range(of: "\"metadata\""))
        let version = try #require(text.range(of: "\"version\": 1"))
        #expect(interactions.lowerBound < metadata.lowerBound && metadata.lowerBound < version.lowerBound)
        #expect(text.contains(#""recordedAt": "2026-01-02T10:00:00.123Z""#))
    }

    @Test("stores JSON bodies as structure, text as text, binary as base64 and headers as ordered pairs")
    func readableLayout() throws {
        var headers: HTTPHeaders = ["Content-Type": "application/json"]
        try headers.add(name: "Set-Cookie", value: "a=1")
        try headers.add(name: "Set-Cookie", value: "b=2")
        let json = Interaction.make(headers: headers, body: "{\n  \"items\": [\n    1,\n    2\n  ]\n}\n")
        let text = Interaction.make(headers: ["Content-Type": "text/html"], body: "<p>hi</p>")
        var binary = Interaction.make(headers: ["Content-Type": "image/png"])
        binary.response.body = Data([0xFF, 0x00, 0x01])
        let file = String(decoding: Cassette(interactions: [json, text, binary]).encoded(), as: UTF8.self)
        #expect(file.contains(#""layout": "pretty-newline""#))
        #expect(file.contains(#""items": [1, 2]"#))
        #expect(file.contains(#""text": "<p>hi</p>""#))
        #expect(file.contains(#""base64": "/wAB""#))
        #expect(file.contains(#"["Set-Cookie", "a=1"],"#) && file.contains(#"["Set-Cookie", "b=2"]"#))
    }

    @Test("a JSON body is kept as structure in the one layout that gives its bytes back, and as text when none does")
    func jsonLayouts() {
        let cases: [(String, CassetteBody.Layout?)] = [
            (#"{"a":"x \" y","b":[1,2]}"#, .compact),
            ("{\"a\":\"tab\\t and space\"}\n", .compactNewline),
            ("{\n  \"a\": 1\n}", .pretty),
            ("{\n  \"a\": 1\n}\n", .prettyNewline),
            (#"{"id": 1, "name": "item 1"}"#, nil),
            (#"{"a":1} "#, nil),
            ("{\"a\":1}\r\n", nil),
            (#"{"b":1,"a":2}"#, .compact),
            ("[1,2", nil),
        ]
        for (text, layout) in cases {
            #expect(CassetteBody.structuredJSON(Data(text.utf8))?.1 == layout, "\(text.debugDescription)")
        }
        #expect(!CassetteBody.hasSpacingOutsideStrings(Data(#"{"a b":"c\"d e","f":["g h"]}"#.utf8)))
        #expect(CassetteBody.hasSpacingOutsideStrings(Data(#"{"a\\": 1}"#.utf8)), "an escaped backslash ends before the quote")
        #expect(CassetteBody.hasSpacingOutsideStrings(Data("[1,\t2]".utf8)))
    }

    @Test("rewrites Content-Length to the served body's length on decode")
    func contentLengthRegenerated() throws {
        let source = """
        {"interactions": [{"recordedAt": "2026-01-02T10:00:00Z",
          "request": {"headers": [], "method": "GET", "url": "http://api.test/"},
          "response": {"body": {"json": {"a": [1, 2]}}, "headers": [["Content-Length", "999"]], "status": 200}}],
         "version": 1}
        """
        let cassette = try CassetteCodec.decode(Data(source.utf8), source: "hand.json")
        let response = try #require(cassette.interactions.first?.response)
        #expect(String(decoding: response.body, as: UTF8.self) == #"{"a":[1,2]}"#)
        #expect(response.headers["Content-Length"] == "11")
        #expect(response.reason == "OK")
    }

    @Test("writes atomically into a new directory and loads the file back")
    func writeAndLoad() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("nested/dir/a.cassette.json")
        let cassette = Cassette(interactions: [.make()])
        try cassette.write(to: url)
        #expect(try Cassette.load(from: url).encoded() == cassette.encoded())
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: url.deletingLastPathComponent().path)
        #expect(leftovers == ["a.cassette.json"], "no temporary files are left behind")
    }
}
