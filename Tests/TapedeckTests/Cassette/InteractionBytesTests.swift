import Foundation
import TapedeckTestSupport
import Testing
@testable import Tapedeck

/// Loading reads an interaction straight from its bytes where it has recording's shape, and
/// from a parsed tree otherwise; these tests hold the two to the same answers.
@Suite("Reading interactions without a tree")
struct InteractionBytesTests {
    /// The elements of `document`'s `interactions`, as loading hands them on.
    static func elements(of document: Data) throws -> [Data] {
        var elements: [Data] = []
        _ = try JSONParser.parse(document, streamingElementsOf: "interactions", unparsed: true) { _, element in
            if case .bytes(let bytes) = element { elements.append(Data(bytes)) }
        }
        return elements
    }

    /// What a decoder made of its input: the value, or the error's text.
    enum Reading<Value: Equatable>: Equatable {
        case value(Value)
        case error(String)

        init(_ read: () throws -> Value) {
            do { self = .value(try read()) } catch { self = .error(String(describing: error)) }
        }
    }

    /// What the tree's decoder makes of `element`.
    static func treeReading(_ element: Data) -> Reading<Interaction> {
        Reading {
            let reader = FieldReader(value: try JSONParser.parse(element), pointer: "/interactions/0", source: "memory")
            return try CassetteCodec.decodeInteraction(reader)
        }
    }

    /// Replaces a byte of `bytes` with one of `interesting`, inserts one, or removes one.
    static func mutate(_ bytes: inout [UInt8], with interesting: [UInt8], using rng: inout SeededRandom) {
        let at = Int.random(in: 0..<bytes.count, using: &rng)
        switch Int.random(in: 0..<3, using: &rng) {
        case 0: bytes[at] = interesting.randomElement(using: &rng)!
        case 1: bytes.insert(interesting.randomElement(using: &rng)!, at: at)
        default: bytes.remove(at: at)
        }
    }

    static func fastReading(_ element: Data) -> Interaction? {
        element.withUnsafeBytes { raw in
            CassetteCodec.decodeInteraction(bytes: raw.bindMemory(to: UInt8.self), sharing: StringTable())
        }
    }

    /// Interactions of every shape recording writes: each kind of body, HEAD and 304, a
    /// response URL of its own, an owner, a zero duration, a missing reason.
    static func recorded(seed: UInt64) throws -> [Interaction] {
        var interactions = try CassetteCodecTests.generatedBodies(seed: seed).enumerated().map { index, item in
            var headers: HTTPHeaders = ["Content-Length": String(item.body.count)]
            if let type = item.contentType { headers["Content-Type"] = type }
            try headers.add(name: "Set-Cookie", value: "a=1")
            var interaction = Interaction.make(.post, "https://api.test/items/\(index)?b=2&a=%20", requestHeaders: headers,
                                               requestBody: item.body, headers: headers, at: 1_767_348_000_000 + index)
            interaction.response.body = item.body
            return interaction
        }
        var head = Interaction.make(.head, "http://api.test:8080/", headers: ["Content-Length": "120"], body: "")
        head.recordedBy = "ci \"nightly\""
        head.response.duration = 0
        interactions.append(head)
        interactions.append(.make(.get, "http://api.test/etag", status: 304, headers: ["Content-Length": "99"], body: ""))
        var redirected = Interaction.make(.get, "http://api.test/old")
        redirected.response.storedURL = StoredURL.plain("http://api.test/new")
        interactions.append(redirected)
        var bare = Interaction.make(.options, "http://api.test/", status: 599, headers: [:], body: "")
        bare.response.reason = ""
        interactions.append(bare)
        return interactions
    }

    @Test("every shape recording writes is read from its bytes, to the interaction the tree gives", arguments: [1, 2, 3] as [UInt64])
    func agreesOnRecorded(seed: UInt64) throws {
        let document = Cassette(interactions: try Self.recorded(seed: seed)).encoded()
        let elements = try Self.elements(of: document)
        #expect(elements.count == (try Self.recorded(seed: seed)).count)
        for element in elements {
            let fast = try #require(Self.fastReading(element), "read without a tree: \(String(decoding: element.prefix(200), as: UTF8.self))")
            #expect(Reading.value(fast) == Self.treeReading(element))
        }
        let loaded = try CassetteCodec.decode(document, source: "memory")
        let whole = try CassetteCodec.decodeWhole(document, source: "memory")
        #expect(loaded.interactions == whole.interactions)
    }

    @Test("what recording does not write is left to the tree", arguments: [
        #"{"failure": {"detail": "x", "kind": "timeout"}, "recordedAt": "2026-01-02T10:00:00.123Z", "request": {"headers": [], "method": "GET", "url": "http://a.test/"}}"#,
        #"{"recordedAt": "2026-01-02T10:00:00.123Z", "request": {"headers": [], "method": "GET", "url": "http://a.test/"}, "response": {"headers": [], "status": 200}, "note": 1}"#,
        #"{"recordedAt": "2026-01-02T10:00:00.123Z", "recordedAt": "2026-01-02T10:00:00.123Z", "request": {"headers": [], "method": "GET", "url": "http://a.test/"}, "response": {"headers": [], "status": 200}}"#,
        #"{"recordedAt": "2026-01-02T10:00:00.123Z", "request": {"headers": [], "method": "GET", "url": "http://user@a.test/"}, "response": {"headers": [], "status": 200}}"#,
        #"{"recordedAt": "2026-01-02T10:00:00.123Z", "request": {"headers": [], "method": "GET", "url": "http://a.test/"}, "response": {"headers": [], "status": 200, "chunks": []}}"#,
        #"{"recordedAt": "2026-01-02T10:00:00.123Z", "request": {"headers": [], "method": "G T", "url": "http://a.test/"}, "response": {"headers": [], "status": 200}}"#,
        #"{"recordedAt": "2026-01-02T10:00:00.123Z", "request": {"headers": [], "method": "GET", "url": "http://a.test/"}, "response": {"headers": [], "status": 1000}}"#,
        #"{"recordedAt": "2026-01-02T10:00:00.123Z", "request": {"headers": [], "method": "GET", "url": "http://a.test/"}, "response": {"headers": [], "status": 2e2}}"#,
        #"{"recordedAt": "yesterday", "request": {"headers": [], "method": "GET", "url": "http://a.test/"}, "response": {"headers": [], "status": 200}}"#,
        #"{"recordedAt": "2026-01-02T10:00:00.123Z", "request": {"headers": [["A"]], "method": "GET", "url": "http://a.test/"}, "response": {"headers": [], "status": 200}}"#,
        #"{"recordedAt": "2026-01-02T10:00:00.123Z", "request": {"headers": [], "method": "GET", "url": "http://a.test/"}, "response": {"body": {"layout": "pretty", "json": 1}, "headers": [], "status": 200}}"#,
        #"{"recordedAt": "2026-01-02T10:00:00.123Z", "request": {"headers": [], "method": "GET", "url": "http://a.test/"}, "response": {"body": {"text": "a", "extra": 1}, "headers": [], "status": 200}}"#,
        #"{"recordedAt": "2026-01-02T10:00:00.123Z", "request": {"headers": [], "method": "GET", "url": "http://a.test/"}, "response": {"body": {"base64": "***"}, "headers": [], "status": 200}}"#,
        #"{"recordedAt": "2026-01-02T10:00:00.123Z", "request": {"headers": [], "method": "GET", "url": "http://a.test/"}, "response": {"headers": [], "status": 200}} x"#,
    ])
    func fallsBack(element: String) {
        #expect(Self.fastReading(Data(element.utf8)) == nil)
    }

    @Test("a mutated interaction read from its bytes is the one its tree gives", arguments: [1, 2, 3, 4] as [UInt64])
    func agreesUnderMutation(seed: UInt64) throws {
        var rng = SeededRandom(seed: seed)
        let originals = try Self.elements(of: Cassette(interactions: [
            .make(.post, "http://api.test/a?q=1", requestHeaders: ["Content-Length": "2"], requestBody: Data("hi".utf8)),
            .make(.head, "http://api.test/b", status: 304, headers: ["Content-Length": "5"], body: ""),
        ]).encoded()).map(Array.init)
        let interesting = Array(#"{}[],:"\ 0123-.eEtfnu/"#.utf8) + [0x0A, 0x00, 0xC3, 0xFF]
        var fastReads = 0
        for _ in 0..<3_000 {
            var bytes = originals.randomElement(using: &rng)!
            for _ in 0..<Int.random(in: 1...3, using: &rng) { Self.mutate(&bytes, with: interesting, using: &rng) }
            let element = Data(bytes)
            guard let fast = Self.fastReading(element) else { continue }
            fastReads += 1
            #expect(Reading.value(fast) == Self.treeReading(element),
                    "\(String(decoding: element, as: UTF8.self))")
        }
        #expect(fastReads > 100, "some mutations still have recording's shape")
    }

    @Test("a mutated document loads as its whole tree reads, or fails with the same error", arguments: [1, 2, 3] as [UInt64])
    func documentAgreesUnderMutation(seed: UInt64) throws {
        var rng = SeededRandom(seed: seed)
        let original = Array(Cassette(interactions: (0..<3).map { .make(.get, "http://api.test/items/\($0)") }).encoded())
        let interesting = Array(#"{}[],:"\ 0-e"#.utf8) + [0xEF, 0xBB, 0xBF]
        for _ in 0..<1_500 {
            var bytes = original
            Self.mutate(&bytes, with: interesting, using: &rng)
            let document = Data(bytes)
            let loaded = Reading { try CassetteCodec.decode(document, source: "memory").interactions }
            let whole = Reading { try CassetteCodec.decodeWhole(document, source: "memory").interactions }
            #expect(loaded == whole, "\(String(decoding: document, as: UTF8.self))")
        }
    }
}
