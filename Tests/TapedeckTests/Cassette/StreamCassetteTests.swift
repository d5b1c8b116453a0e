import Foundation
import Testing
@testable import Tapedeck

/// Streamed bodies in the native cassette: chunks with their times, events readable in the file.
@Suite("Streamed bodies in cassettes")
struct StreamCassetteTests {
    static func interaction(_ chunks: [BodyChunk], type: String) -> Interaction {
        Interaction(request: HTTPRequest(url: URL(string: "http://api.test/stream")!),
                    response: HTTPResponse(status: 200, headers: ["Content-Type": type], chunks: chunks),
                    recordedAt: Date(timeIntervalSince1970: 1_800_000_000))
    }

    static func roundTrip(_ interaction: Interaction) throws -> (Interaction, String) {
        let data = CassetteCodec.encode(Cassette(interactions: [interaction]))
        let decoded = try CassetteCodec.decode(data)
        #expect(CassetteCodec.encode(decoded) == data, "decoding and encoding again gives the same bytes")
        return (try #require(decoded.interactions.first), String(decoding: data, as: UTF8.self))
    }

    @Test("server-sent events read as their fields, each chunk with its time; the body is the chunks joined")
    func eventsInTheFile() throws {
        let chunks = [BodyChunk(offset: 0, data: Data("id: 1\nevent: tick\ndata: {\"i\":0}\n\n".utf8)),
                      BodyChunk(offset: 0.3004, data: Data(": keep-alive\n\nid: 2\ndata: line one\ndata: line two\n\n".utf8))]
        let (decoded, text) = try Self.roundTrip(Self.interaction(chunks, type: "text/event-stream"))
        #expect(decoded.response.chunks == [chunks[0], BodyChunk(offset: 0.3004, data: chunks[1].data)])
        #expect(decoded.response.body == BodyChunk.joined(chunks))
        #expect(text.contains("\"ms\": 300.4"), "\(text)")
        #expect(text.contains("[\"event\", \"tick\"]") && text.contains("[\"data\", \"{\\\"i\\\":0}\"]") && text.contains("[\":\", \" keep-alive\"]"), "\(text)")
        #expect(!text.contains("\"body\""), "a streamed body is written once, as its chunks")
    }

    @Test("a chunk that cuts an event, uses CR line ends or is binary stays exact, as text or base64", arguments: [
        ("data: half an ev", "text"), ("data: a\r\n\r\n", "text"), ("\u{0}\u{1}binary", "base64"),
    ])
    func exactFallbacks(body: String, kind: String) throws {
        let chunks = [BodyChunk(offset: 0.01, data: Data(body.utf8)), BodyChunk(offset: 0.02, data: Data("data: end\n\n".utf8))]
        let (decoded, text) = try Self.roundTrip(Self.interaction(chunks, type: "text/event-stream"))
        #expect(decoded.response.chunks?.map(\.data) == chunks.map(\.data))
        #expect(text.contains("\"\(kind)\""), "\(text)")
    }

    @Test("NDJSON and binary chunks round-trip byte for byte with their boundaries")
    func otherStreams() throws {
        let lines = (0..<3).map { BodyChunk(offset: Double($0) * 0.05, data: Data("{\"i\":\($0)}\n".utf8)) }
        #expect(try Self.roundTrip(Self.interaction(lines, type: "application/x-ndjson")).0.response.chunks == lines)
        let bytes = (0..<3).map { i in BodyChunk(offset: Double(i) * 0.05, data: Data((0..<256).map { UInt8(($0 + i) % 256) })) }
        #expect(try Self.roundTrip(Self.interaction(bytes, type: "application/octet-stream")).0.response.chunks == bytes)
    }

    @Test("a cassette without chunks loads exactly as before: a whole body, no chunks")
    func wholeBodiesUnchanged() throws {
        let data = Data("""
            {"interactions":[{"duration":0.1,"recordedAt":"2026-01-02T10:00:00.000Z","request":{"headers":[],"method":"GET","url":"http://a.test/"},\
            "response":{"body":{"text":"hello"},"headers":[["Content-Type","text/plain"]],"reason":"OK","status":200}}],"version":1}
            """.utf8)
        let cassette = try CassetteCodec.decode(data)
        #expect(cassette.interactions[0].response.chunks == nil && cassette.interactions[0].response.body == Data("hello".utf8))
        #expect(!String(decoding: CassetteCodec.encode(cassette), as: UTF8.self).contains("chunks"))
    }

    @Test("bad chunks are refused with the place and the fix", arguments: [
        (#""body":{"text":"x"},"chunks":[{"ms":0,"text":"x"}]"#, "/interactions/0/response/chunks", "not both"),
        (#""chunks":[{"ms":5,"text":"a"},{"ms":1,"text":"b"}]"#, "/interactions/0/response/chunks/1/ms", "in the order they came"),
        (#""chunks":[{"ms":0}]"#, "/interactions/0/response/chunks/0", "one of \"events\", \"text\" or \"base64\""),
        (#""chunks":[{"ms":0,"events":[[["data"]]]}]"#, "/interactions/0/response/chunks/0/events/0/0", "[field, value] pair"),
        (#""chunks":{"text":"x"}"#, "/interactions/0/response/chunks", "an array of chunks"),
        (#""chunks":[{"ms":0,"text":"a","base64":"YmI="}]"#, "/interactions/0/response/chunks/0", "keep one of them"),
        (#""chunks":[{"ms":0,"events":[[["event","tick\rdata: injected"]]]}]"#, "/interactions/0/response/chunks/0/events/0/0", "no CR"),
    ])
    func badChunks(member: String, pointer: String, message: String) throws {
        let data = Data("""
            {"interactions":[{"duration":0,"recordedAt":"2026-01-02T10:00:00.000Z","request":{"headers":[],"method":"GET","url":"http://a.test/"},\
            "response":{\(member),"headers":[],"reason":"OK","status":200}}],"version":1}
            """.utf8)
        #expect {
            try CassetteCodec.decode(data, source: "s.json")
        } throws: { error in
            let text = (error as? CassetteError)?.errorDescription ?? ""
            return text.contains(pointer) && text.contains(message)
        }
    }

    @Test("redaction reaches JSON inside events, chunk by chunk, and the body stays the chunks joined")
    func redactedEvents() throws {
        let chunks = [BodyChunk(offset: 0, data: Data("data: {\"access_token\":\"sk-live-123456\",\"i\":0}\n\n".utf8)),
                      BodyChunk(offset: 0.1, data: Data("data: {\"i\":1}\n\n".utf8))]
        let redacted = Redactor.standard.redact(Self.interaction(chunks, type: "text/event-stream"))
        let stored = try #require(redacted.response.chunks)
        #expect(!String(decoding: redacted.response.body, as: UTF8.self).contains("sk-live-123456"))
        #expect(String(decoding: stored[0].data, as: UTF8.self).hasPrefix("data: {\"access_token\":\""))
        #expect(stored[1] == chunks[1] && redacted.response.body == BodyChunk.joined(stored))
    }

    @Test("a secret cut across chunks or spread over data lines is redacted: a recording stores whole events, and redaction reads an event's data whole")
    func splitSecrets() throws {
        let pieces = [BodyChunk(offset: 0, data: Data("data: {\"access_token\": \"sk-liv".utf8)),
                      BodyChunk(offset: 0.2, data: Data("e-abcdef1234567890abcdef\"}\n\n".utf8)),
                      BodyChunk(offset: 0.3, data: Data("data: {\ndata:  \"access_token\": \"sk-live-zyxwvu9876543210\"\ndata: }\n\n".utf8))]
        let headers: HTTPHeaders = ["Content-Type": "text/event-stream"]
        let whole = StreamMedia.wholeMessages(pieces, headers: headers)
        #expect(whole.count == 2 && whole[0].offset == 0.2, "the event completed by the second piece is one chunk, at the time it was whole")
        let stored = Redactor.standard.redact(Interaction(request: HTTPRequest(url: URL(string: "http://a.test/s")!),
                                                          response: HTTPResponse(status: 200, headers: headers, chunks: whole)))
        let text = String(decoding: stored.response.body, as: UTF8.self)
        #expect(!text.contains("sk-live-abcdef") && !text.contains("sk-live-zyxwvu"), "\(text)")
        #expect(ServerSentEvents.parse(stored.response.body).count == 2)
        let unredacted = Interaction(request: HTTPRequest(url: URL(string: "http://a.test/s")!),
                                     response: HTTPResponse(status: 200, headers: headers, chunks: pieces))
        #expect(SecretLint.findings(in: unredacted, index: 0).count >= 2, "the lint reads events whole too")
    }

    @Test("events parse as EventSource does: CRLF, comments, multi-line data, the last id, an unfinished last event")
    func parsing() {
        let events = ServerSentEvents.parse(Data(": hi\r\nid: 7\r\nevent: a\r\ndata: x\r\ndata: y\r\n\r\ndata:z\n\nevent: only\n\ndata: tail".utf8))
        #expect(events == [ServerSentEvents.Event(event: "a", data: "x\ny", id: "7"),
                           ServerSentEvents.Event(data: "z", id: "7"),
                           ServerSentEvents.Event(data: "tail", id: "7")])
    }

    @Test("each event's data is mapped whole whatever ends its lines: LF, CRLF or a bare CR, and every other byte is kept")
    func mappingLineEnds() {
        let upper: (Data) -> Data = { Data(String(decoding: $0, as: UTF8.self).uppercased().utf8) }
        #expect(ServerSentEvents.mapData(Data("id: 1\rdata: a\rdata: b\r\rdata: c\r\n\r\nevent: e\ndata: d".utf8), upper)
            == Data("id: 1\rdata: A\rdata: B\r\rdata: C\r\n\r\nevent: e\ndata: D".utf8))
        #expect(ServerSentEvents.mapData(Data("\u{FEFF}data: a\ndata: b\n\n".utf8), upper) == Data("\u{FEFF}data: A\ndata: B\n\n".utf8),
                "a stream's byte order mark is skipped, as EventSource skips it")
        let unchanged = Data("id: 1\rdata: 1\r\r".utf8)
        #expect(ServerSentEvents.mapData(unchanged) { $0 } == unchanged)
    }

    @Test("a stream's head and chunks journaled as it flows merge into the cassette; its end replaces them")
    func journaledStream() throws {
        let head = Self.interaction([], type: "text/event-stream")
        let one = BodyChunk(offset: 0.1, data: Data("data: 1\n\n".utf8)), two = BodyChunk(offset: 0.2, data: Data("data: 2\n\n".utf8))
        var records = CassetteJournal.record(head, metadata: [CassetteJournal.streamKey: "s"])
        records.append(CassetteJournal.chunkRecord(one, stream: "s"))
        records.append(CassetteJournal.chunkRecord(two, stream: "s"))
        let partial = CassetteJournal.apply(try CassetteJournal.read(records, path: "j").records, to: Cassette(), stamp: nil)
        #expect(partial.interactions.count == 1 && partial.metadata.isEmpty)
        #expect(partial.interactions[0].response.chunks == [one, two])
        #expect(partial.interactions[0].response.body == Data("data: 1\n\ndata: 2\n\n".utf8))

        records.append(CassetteJournal.record(Self.interaction([one], type: "text/event-stream"), metadata: [CassetteJournal.streamKey: "s"]))
        let ended = CassetteJournal.apply(try CassetteJournal.read(records, path: "j").records, to: Cassette(), stamp: nil)
        #expect(ended.interactions.count == 1 && ended.interactions[0].response.chunks == [one])
    }
}

/// WebSocket sessions in the native cassette.
@Suite("WebSocket sessions in cassettes")
struct WebSocketCassetteTests {
    @Test("frames of every kind round-trip with sender and time; a bad frame names its place")
    func roundTrip() throws {
        var response = HTTPResponse(status: 101)
        response.webSocket = [
            WebSocketMessage(offset: 0, sender: .server, kind: .text, data: Data("welcome".utf8)),
            WebSocketMessage(offset: 0.0125, sender: .client, kind: .binary, data: Data([0, 1, 2])),
            WebSocketMessage(offset: 0.02, sender: .client, kind: .ping, data: Data("p".utf8)),
            WebSocketMessage(offset: 0.03, sender: .server, kind: .close, data: WebSocketMessage.closePayload(code: 1001, reason: "going away")),
        ]
        let interaction = Interaction(request: HTTPRequest(url: URL(string: "http://a.test/ws")!), response: response,
                                      recordedAt: Date(timeIntervalSince1970: 1_800_000_000))
        let data = CassetteCodec.encode(Cassette(interactions: [interaction]))
        let decoded = try CassetteCodec.decode(data)
        #expect(decoded.interactions[0].response.webSocket == response.webSocket)
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.contains("\"close\": 1001") && text.contains("\"reason\": \"going away\"") && text.contains("\"ms\": 12.5"), "\(text)")
        let bad = Data(text.replacingOccurrences(of: "\"from\": \"client\"", with: "\"from\": \"browser\"").utf8)
        #expect {
            try CassetteCodec.decode(bad, source: "w.json")
        } throws: { error in
            ((error as? CassetteError)?.errorDescription ?? "").contains("/interactions/0/response/webSocket/1/from")
        }
    }

    @Test("text frames are redacted like JSON bodies and checked by the lint; frames on a status other than 101 are refused")
    func framesRedactedAndLinted() throws {
        var response = HTTPResponse(status: 101)
        response.webSocket = [WebSocketMessage(offset: 0, sender: .client, kind: .text, data: Data(#"{"password": "hunter2hunter2", "i": 1}"#.utf8)),
                              WebSocketMessage(offset: 0.1, sender: .server, kind: .text, data: Data(#"{"access_token": "sk-live-abcdef1234567890abcdef"}"#.utf8))]
        let interaction = Interaction(request: HTTPRequest(url: URL(string: "http://a.test/ws")!), response: response)
        #expect(SecretLint.findings(in: interaction, index: 0).count == 2)
        let redacted = Redactor.standard.redact(interaction)
        let frames = (redacted.response.webSocket ?? []).map { String(decoding: $0.data, as: UTF8.self) }
        #expect(!frames.joined().contains("hunter2") && !frames.joined().contains("sk-live"), "\(frames)")
        #expect(SecretLint.findings(in: redacted, index: 0).isEmpty)

        let data = Data("""
            {"interactions":[{"duration":0,"recordedAt":"2026-01-02T10:00:00.000Z","request":{"headers":[],"method":"GET","url":"http://a.test/"},\
            "response":{"headers":[],"reason":"OK","status":404,"webSocket":[{"from":"server","ms":0,"text":"x"}]}}],"version":1}
            """.utf8)
        #expect {
            try CassetteCodec.decode(data, source: "w.json")
        } throws: { error in
            let text = (error as? CassetteError)?.errorDescription ?? ""
            return text.contains("/interactions/0/response/webSocket") && text.contains("101")
        }
    }

    @Test("the Sec-WebSocket-Key nonce is not taken for a secret")
    func handshakeKeyIsNoSecret() {
        let request = HTTPRequest(url: URL(string: "http://a.test/ws")!, headers: ["Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ=="])
        let findings = SecretLint.findings(in: Interaction(request: request, response: HTTPResponse(status: 101)), index: 0)
        #expect(findings.isEmpty, "\(findings)")
    }
}
