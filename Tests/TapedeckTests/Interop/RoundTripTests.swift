import Foundation
import TapedeckTestSupport
import Testing
@testable import Tapedeck

@Suite("Round trips through vcrpy YAML and HAR")
struct RoundTripTests {
    @Test("native → vcrpy YAML → native keeps every field, dates and durations included")
    func vcrRoundTrip() throws {
        let cassette = InteropFixtures.sampleCassette()
        let (yaml, warnings) = cassette.encoded(as: .vcrYAML)
        #expect(warnings.isEmpty)
        let back = try Cassette.decode(yaml, format: .vcrYAML, file: "rt.yaml")
        #expect(back.metadata == cassette.metadata)
        #expect(back.interactions.count == cassette.interactions.count)
        for (original, read) in zip(cassette.interactions, back.interactions) {
            #expect(read.normalizedForComparison() == original.normalizedForComparison())
        }
    }

    @Test("what a format cannot hold is named, never written so the file cannot be read back: a recorded failure, a WebSocket session's frames")
    func whatAFormatCannotHold() throws {
        var session = Interaction.make(.get, "http://chat.test/room")
        session.response.status = 101
        session.response.webSocket = [WebSocketMessage(offset: 0, sender: .server, kind: .text, data: Data("hi".utf8))]
        var failed = Interaction.make(.get, "http://api.test/down")
        failed.failure = TransportFailure(kind: .cannotConnect, detail: "connection refused")
        let cassette = Cassette(interactions: [.make(.get, "http://api.test/ok"), session, failed])
        for format in [CassetteFormat.vcrYAML, .cassetter, .har] {
            let (data, warnings) = cassette.encoded(as: format)
            let said = warnings.map(\.description).joined(separator: "\n")
            #expect(said.contains("interactions[1].response.webSocket: \(format) has no place for a WebSocket session's frames; its 1 frame is left out") == (format != .har),
                    "\(said)")
            #expect(said.contains("interactions[2].failure: a recorded failure (cannotConnect)"), "\(said)")
            let back = try Cassette.decode(data, format: format, file: "out")
            #expect(back.interactions.count == (format == .har ? 3 : 2), "\(format)")
        }
        // A duration too large to round is written as it is, still JSON.
        var slow = Interaction.make(.get, "http://api.test/slow")
        slow.response.duration = 1e305
        #expect(throws: Never.self) { try Cassette.decode(CassetteCodec.encode(Cassette(interactions: [slow])), format: .native, file: "slow.json") }
    }

    @Test("a WebSocket session's frames go to HAR as Chrome writes them and come back, every kind and offset")
    func harWebSocketFrames() throws {
        var session = Interaction.make(.get, "http://chat.test/room")
        session.response.status = 101
        session.response.webSocket = [
            WebSocketMessage(offset: 0.25, sender: .client, kind: .text, data: Data("hi ✓".utf8)),
            WebSocketMessage(offset: 0.5, sender: .server, kind: .binary, data: Data([0, 1, 0xFF])),
            WebSocketMessage(offset: 0.75, sender: .server, kind: .ping, data: Data("p".utf8)),
            WebSocketMessage(offset: 1.5, sender: .client, kind: .close, data: WebSocketMessage.closePayload(code: 1000, reason: "bye")),
        ]
        let (har, warnings) = Cassette(interactions: [session]).encoded(as: .har)
        #expect(warnings.isEmpty, "\(warnings)")
        #expect(String(decoding: har, as: UTF8.self).contains(#""_resourceType" : "websocket""#) || String(decoding: har, as: UTF8.self).contains(#""_resourceType": "websocket""#))
        let frames = try #require(try Cassette.decode(har, format: .har, file: "ws.har").interactions.first?.response.webSocket)
        #expect(frames.map(\.kind) == [.text, .binary, .ping, .close] && frames.map(\.sender) == [.client, .server, .server, .client])
        #expect(frames.map(\.data) == session.response.webSocket?.map(\.data))
        for (read, written) in zip(frames, session.response.webSocket ?? []) { #expect(abs(read.offset - written.offset) < 0.001, "\(read.offset)") }
    }

    @Test("a Chrome HAR's WebSocket messages are read; a bad type, opcode or status is named where it stands")
    func chromeWebSocketMessages() throws {
        func har(status: Int = 101, type: String = "receive", opcode: Int = 1) -> Data {
            Data(#"""
            {"log": {"version": "1.2", "entries": [{"startedDateTime": "2026-11-29T10:00:00.000Z", "time": 5, "_resourceType": "websocket",
              "request": {"method": "GET", "url": "wss://chat.test/socket", "headers": []},
              "response": {"status": \#(status), "statusText": "Switching Protocols", "headers": [{"name": "Upgrade", "value": "websocket"}], "content": {"size": 0, "mimeType": "x-unknown"}},
              "_webSocketMessages": [{"type": "send", "time": 1795946400.5, "opcode": 1, "data": "{\"op\":\"join\"}"},
                                     {"type": "\#(type)", "time": 1795946401.25, "opcode": \#(opcode), "data": "AAE="}]}]}}
            """#.utf8)
        }
        let frames = try #require(try Cassette.decode(har(opcode: 2), format: .har, file: "chrome.har").interactions.first?.response.webSocket)
        #expect(frames.map(\.sender) == [.client, .server] && frames.map(\.kind) == [.text, .binary])
        #expect(frames.first?.data == Data(#"{"op":"join"}"#.utf8) && frames.last?.data == Data([0, 1]))
        #expect(abs((frames.first?.offset ?? 0) - 0.5) < 0.001 && abs((frames.last?.offset ?? 0) - 1.25) < 0.001)
        // A time in milliseconds is read as such.
        let milliseconds = Data(String(decoding: har(opcode: 2), as: UTF8.self).replacingOccurrences(of: "1795946401.25", with: "1795946401250").utf8)
        let inMilliseconds = try #require(try Cassette.decode(milliseconds, format: .har, file: "chrome.har").interactions.first?.response.webSocket)
        #expect(abs((inMilliseconds.last?.offset ?? 0) - 1.25) < 0.001, "\(inMilliseconds.map(\.offset))")
        // Messages out of time order are played in time order.
        let late = Data(String(decoding: har(opcode: 2), as: UTF8.self).replacingOccurrences(of: "1795946400.5", with: "1795946402.5").utf8)
        let ordered = try #require(try Cassette.decode(late, format: .har, file: "chrome.har").interactions.first?.response.webSocket)
        #expect(ordered.map(\.kind) == [.binary, .text] && ordered.map(\.offset) == ordered.map(\.offset).sorted())
        // Over HTTP/2 the session is answered 200; replayed over HTTP/1.1 it is a 101.
        let overHTTP2 = try #require(try Cassette.decode(har(status: 200, opcode: 2), format: .har, file: "chrome.har").interactions.first?.response)
        #expect(overHTTP2.status == 101 && overHTTP2.webSocket?.count == 2)
        // A close payload whose code is never sent (1005) is refused where it stands.
        for (bad, said) in [(har(type: "sent"), "_webSocketMessages[1].type"), (har(opcode: 7), "_webSocketMessages[1].opcode"),
                            (har(status: 404), "_webSocketMessages"), (har(opcode: 8), "_webSocketMessages[1].data")] {
            #expect { try Cassette.decode(bad, format: .har, file: "chrome.har") } throws: { error in
                "\(error)".contains(said) && "\(error)".contains("chrome.har")
            }
        }
    }

    @Test("native → HAR → native keeps every field, dates and durations included")
    func harRoundTrip() throws {
        let cassette = InteropFixtures.sampleCassette()
        let (har, warnings) = cassette.encoded(as: .har)
        #expect(warnings.map(\.description) == [
            "interactions[2].request.body: 8 bytes that are not UTF-8 text; HAR 1.2 has no encoding for binary "
                + "request bodies, so they are kept in postData._base64Body, which only Tapedeck reads",
        ])
        let back = try Cassette.decode(har, format: .har, file: "rt.har")
        #expect(back.metadata == cassette.metadata)
        #expect(back.interactions.count == cassette.interactions.count)
        for (original, read) in zip(cassette.interactions, back.interactions) {
            #expect(read.normalizedForComparison() == original.normalizedForComparison())
        }
    }

    @Test("vcrpy YAML → HAR → vcrpy YAML gives the same file")
    func crossFormat() throws {
        let yaml = VCRCassetteWriter.write(InteropFixtures.sampleCassette()).data
        let viaHAR = try Cassette.decode(HARWriter.write(
            try Cassette.decode(yaml, format: .vcrYAML, file: "a.yaml")).data, format: .har, file: "b.har")
        #expect(String(decoding: VCRCassetteWriter.write(viaHAR).data, as: UTF8.self)
            == String(decoding: yaml, as: UTF8.self))
    }

    @Test("interleaved repeated response headers are grouped in YAML, with a warning")
    func interleavedHeaders() throws {
        var cassette = InteropFixtures.sampleCassette()
        cassette.interactions[0].response.headers = HTTPHeaders([("A", "1"), ("B", "2"), ("A", "3")])
        let (yaml, warnings) = cassette.encoded(as: .vcrYAML)
        #expect(warnings.map(\.description) == [
            "interactions[0].response.headers: vcrpy groups repeated header names, so interleaved repeated "
                + "headers are written grouped by name",
        ])
        let back = try Cassette.decode(yaml, format: .vcrYAML, file: "h.yaml")
        #expect(back.interactions[0].response.headers.fields.map(\.value) == ["1", "3", "2"])
    }

    @Test("the YAML is what vcrpy writes: sorted keys, lists of header values, !!binary for bytes")
    func yamlShape() throws {
        let yaml = String(decoding: VCRCassetteWriter.write(InteropFixtures.sampleCassette()).data, as: UTF8.self)
        #expect(yaml.hasPrefix("interactions:\n- request:\n    body: null\n    headers:\n      Accept:\n      - application/json\n"))
        #expect(yaml.contains("    body: !!binary |\n      AAH+/4lQTkc=\n"))
        #expect(yaml.contains("      string: '123'\n"))
        #expect(yaml.contains("      X-Trace:\n      - 'yes'\n"))
        #expect(yaml.contains("    body: '{\"name\": \"Ada\", \"tags\": [\"a\", \"b\"], \"n\": 1.0}'\n"))
        #expect(yaml.contains("    status:\n      code: 418\n      message: I'm a teapot\n"))
        #expect(yaml.hasSuffix("version: 1\n"))
    }

    @Test("500 random nasty bodies and reasons survive YAML and HAR byte for byte")
    func randomBodies() throws {
        var generator = SeededRandom(seed: 0x2017_0500)
        let alphabet = Array("ab \t\n\r\"'\\:#-?&*!|>%@`{}[],~ \u{0}\u{7}\u{1B}\u{7F}\u{85}\u{A0}\u{2028}\u{FEFF}é✓😀yesnonull123.5e3")
        let cassette = Cassette(interactions: (0..<500).map { index in
            let text = String((0..<Int.random(in: 0...30, using: &generator)).map { _ in
                alphabet.randomElement(using: &generator) ?? "a"
            })
            return Interaction(
                request: HTTPRequest(method: .post, url: URL(string: "http://x.test/\(index)")!, body: Data(text.utf8)),
                response: HTTPResponse(status: 200, reason: text.filter { $0 != "\n" && $0 != "\r" && $0 != "\u{FEFF}" },
                                       body: Data(text.utf8)),
                recordedAt: InteropFixtures.date)
        })
        for format in [CassetteFormat.vcrYAML, .har] {
            let back = try Cassette.decode(cassette.encoded(as: format).data, format: format, file: "random")
            #expect(back.interactions.map(\.request.body) == cassette.interactions.map(\.request.body), "\(format)")
            #expect(back.interactions.map(\.response.body) == cassette.interactions.map(\.response.body), "\(format)")
            #expect(back.interactions.map(\.response.reason) == cassette.interactions.map(\.response.reason), "\(format)")
        }
    }
}
