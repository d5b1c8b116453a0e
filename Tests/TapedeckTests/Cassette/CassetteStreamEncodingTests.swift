import Foundation
import TapedeckTestSupport
import Testing
@testable import Tapedeck

/// The cassette writer streams each interaction (``JSONWriter/Stream``); these tests hold it to
/// the bytes the document's tree gives, written by the tree writer, member for member.
@Suite("Cassettes are written piece by piece in the tree's bytes")
struct CassetteStreamEncodingTests {
    /// An interaction as a tree, its members in the order the codec writes them.
    static func tree(_ interaction: Interaction) -> JSONValue {
        var request = interaction.request
        var response = interaction.response
        if let body = request.body { CassetteCodec.fixContentLength(&request.headers, count: body.count) }
        CassetteCodec.fixContentLength(&response.headers, count: response.body.count,
                                       describesAnotherBody: request.method == .head || response.status == 304)
        func headers(_ headers: HTTPHeaders) -> JSONValue { .array(headers.map { .array([.string($0.name), .string($0.value)]) }) }
        var requestMembers: [(key: String, value: JSONValue)] = []
        if let body = request.body { requestMembers.append(("body", CassetteBody.encode(body, contentType: request.headers["Content-Type"]))) }
        requestMembers += [("headers", headers(request.headers)), ("method", .string(request.method.rawValue)),
                           ("url", .string(request.url.absoluteString))]
        var responseMembers: [(key: String, value: JSONValue)] = []
        if let chunks = response.chunks {
            responseMembers.append(("chunks", CassetteChunks.encode(chunks, headers: response.headers)))
        } else if !response.body.isEmpty {
            responseMembers.append(("body", CassetteBody.encode(response.body, contentType: response.headers["Content-Type"])))
        }
        responseMembers += [("headers", headers(response.headers)), ("reason", .string(response.reason)), ("status", JSONValue(response.status))]
        if let url = response.url, url != request.url { responseMembers.append(("url", .string(url.absoluteString))) }
        if let frames = response.webSocket { responseMembers.append(("webSocket", CassetteWebSocket.encode(frames))) }
        var members: [(key: String, value: JSONValue)] = [("duration", .number(CassetteCodec.durationLiteral(response.duration)))]
        if let failure = interaction.failure {
            members.append(("failure", .object([("detail", .string(failure.detail)), ("kind", .string(failure.kind.rawValue))])))
        }
        members.append(("recordedAt", .string(RFC3339Date.format(interaction.recordedAt, fractionDigits: 3))))
        if let owner = interaction.recordedBy { members.append(("recordedBy", .string(owner))) }
        members.append(("request", .object(requestMembers)))
        if interaction.failure == nil { members.append(("response", .object(responseMembers))) }
        return .object(members)
    }

    /// The whole document written from its tree.
    static func treeBytes(_ cassette: Cassette) -> Data {
        var top: [(key: String, value: JSONValue)] = [("interactions", .array(cassette.interactions.map(tree)))]
        if !cassette.metadata.isEmpty {
            let keys = cassette.metadata.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            top.append(("metadata", .object(keys.map { ($0, .string(cassette.metadata[$0] ?? "")) })))
        }
        top.append(("version", JSONValue(cassette.version)))
        var bytes = JSONWriter.writeBytes(.object(top), options: .pretty, layout: CassetteJSONLayout.layout)
        bytes.append(UInt8(ascii: "\n"))
        return Data(bytes)
    }

    /// Interactions of every shape the codec writes: each kind of body, streams, WebSocket
    /// sessions, failures, owners, redirected answers, HEAD and 304, no headers, long values.
    static func interactions(seed: UInt64) throws -> [Interaction] {
        var rng = SeededRandom(seed: seed)
        var result: [Interaction] = []
        for (index, item) in CassetteCodecTests.generatedBodies(seed: seed).enumerated() {
            var headers: HTTPHeaders = [:]
            if let type = item.contentType { headers["Content-Type"] = type }
            try headers.add(name: "X-Quote", value: "say \"hi\" \\ 日本 \t tab")
            try headers.add(name: "X-Long", value: String(repeating: "v", count: Int.random(in: 0...200, using: &rng)))
            var interaction = Interaction.make(.post, "http://api.test/items/\(index)?q=\(index)", requestHeaders: headers,
                                               requestBody: Bool.random(using: &rng) ? item.body : nil, headers: headers,
                                               at: 1_767_348_000_000 + index * 7)
            interaction.response.body = item.body
            interaction.response.duration = Double(Int.random(in: 0...5_000_000, using: &rng)) / 1_000_000
            if Bool.random(using: &rng) { interaction.recordedBy = "suite/test \(index)" }
            if index % 3 == 0 { interaction.response.url = URL(string: "http://api.test/moved/\(index)") }
            result.append(interaction)
        }
        var head = Interaction.make(.head, "http://api.test/h", headers: ["Content-Length": "99"], body: "")
        head.response.headers = [:]
        result.append(head)
        result.append(Interaction.make(.get, "http://api.test/cached", status: 304, headers: ["Content-Length": "12", "ETag": "\"x\""], body: ""))
        result.append(Interaction.make(requestHeaders: [:], headers: [:], body: ""))
        var stream = Interaction.make(headers: ["Content-Type": "text/event-stream"], body: "")
        stream.response.chunks = [BodyChunk(offset: 0, data: Data("data: 1\n\n".utf8)), BodyChunk(offset: 0.25, data: Data([0xFF, 0x00]))]
        stream.response.body = stream.response.chunks!.reduce(Data()) { $0 + $1.data }
        result.append(stream)
        var socket = Interaction.make(.get, "http://api.test/socket", status: 101, headers: ["Upgrade": "websocket"], body: "")
        socket.response.webSocket = [WebSocketMessage(offset: 0, sender: .client, kind: .text, data: Data("hello".utf8)),
                                     WebSocketMessage(offset: 0.5, sender: .server, kind: .binary, data: Data([1, 2, 3])),
                                     WebSocketMessage(offset: 1, sender: .client, kind: .close, data: Data())]
        result.append(socket)
        result.append(Interaction(request: HTTPRequest(url: URL(string: "http://api.test/down")!),
                                  response: HTTPResponse(status: 0, reason: "", url: nil, duration: 30),
                                  recordedAt: Date(timeIntervalSince1970: 1_767_348_000), failure: TransportFailure(kind: .timedOut, detail: "no answer in 30 s"),
                                  recordedBy: "owner"))
        return result
    }

    @Test("every shape of interaction is written as its tree is", arguments: [1, 2, 3, 4] as [UInt64])
    func sameBytesAsTheTree(seed: UInt64) throws {
        let cassette = Cassette(interactions: try Self.interactions(seed: seed), metadata: ["baseURL": "http://api.test", "a \"quoted\"": "1"])
        let streamed = CassetteCodec.encode(cassette)
        #expect(streamed == Self.treeBytes(cassette))
        let decoded = try CassetteCodec.decode(streamed, source: "memory")
        #expect(CassetteCodec.encode(decoded) == streamed, "decoding and writing again gives the same bytes")
    }

    @Test("an empty cassette and one with metadata only are written as their trees are")
    func emptyCassettes() {
        for cassette in [Cassette(interactions: []), Cassette(interactions: [], metadata: ["k": "v"])] {
            #expect(CassetteCodec.encode(cassette) == Self.treeBytes(cassette))
        }
    }

    @Test("the stream writes nested, empty and long containers as the tree writer does, with or without one-line arrays")
    func streamMatchesTheTreeWriter() {
        let long: JSONValue = .array((0..<30).map { JSONValue($0) })
        for layout in [JSONWriter.Layout(inlineScalarArrays: 80), JSONWriter.Layout()] {
            var stream = JSONWriter.Stream(layout: layout)
            stream.beginArray()
            stream.beginObject()
            stream.end()
            stream.beginArray()
            stream.end()
            stream.beginObject()
            stream.key("pair")
            stream.pair("a", "b")
            stream.key("long")
            stream.value(long)
            stream.key("short")
            stream.value([1, 2, 3])
            stream.key("nested")
            stream.beginArray()
            stream.value(["x", .number("1.5")])
            stream.pair("y", "z")
            stream.end()
            stream.key("strings")
            stream.beginObject()
            stream.key("s")
            stream.string("x")
            stream.key("n")
            stream.number("1.5")
            stream.end()
            stream.end()
            stream.end()
            let tree: JSONValue = [[:], [], ["pair": ["a", "b"], "long": long, "short": [1, 2, 3], "nested": [["x", .number("1.5")], ["y", "z"]],
                                  "strings": ["s": "x", "n": .number("1.5")]]]
            #expect(stream.bytes == JSONWriter.writeBytes(tree, options: .pretty, layout: layout))
        }
    }
}
