import Foundation
import Testing
@testable import Tapedeck

@Suite("Recorded transport failures in the native format")
struct TransportFailureCodecTests {
    @Test("a failure round-trips through the native format in place of the response")
    func roundTrip() throws {
        let request = HTTPRequest(url: URL(string: "http://127.0.0.1:9/down")!)
        let cassette = Cassette(interactions: [
            Interaction(request: request, response: HTTPResponse(status: 0, reason: "", url: request.url, duration: 1.5),
                        recordedAt: Date(timeIntervalSince1970: 1_700_000_000), failure: TransportFailure(kind: .timedOut, detail: "timed out after 1.5 s")),
        ])
        let data = CassetteCodec.encode(cassette)
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.contains(#""kind": "timedOut""#))
        #expect(!text.contains(#""response""#))
        let decoded = try CassetteCodec.decode(data)
        #expect(decoded.interactions.first?.failure == TransportFailure(kind: .timedOut, detail: "timed out after 1.5 s"))
        #expect(decoded.interactions.first?.response.duration == 1.5)
    }

    @Test("an unknown failure kind names the field and the kinds")
    func unknownKind() {
        let json = #"{"version": 1, "interactions": [{"recordedAt": "2026-01-02T10:00:00.123Z", "failure": {"kind": "gremlins"}, "request": {"method": "GET", "url": "http://h.test/", "headers": []}}]}"#
        #expect {
            try CassetteCodec.decode(Data(json.utf8), source: "c.json")
        } throws: { error in
            let text = (error as? CassetteError)?.errorDescription ?? ""
            return text.contains("/interactions/0/failure/kind") && text.contains("cannotConnect, hostNotFound, timedOut, noResponse")
        }
    }

    @Test("replay throws the recorded failure as the same HTTPError")
    func replayThrows() async throws {
        let request = HTTPRequest(url: URL(string: "http://127.0.0.1:9/down")!)
        let cassette = Cassette(interactions: [
            Interaction(request: request, response: HTTPResponse(status: 0), failure: TransportFailure(kind: .cannotConnect)),
        ])
        let replay = ReplayTransport(cassette: cassette)
        await #expect(throws: HTTPError.cannotConnect(host: "127.0.0.1", port: 9)) { try await replay.send(request) }
        #expect(replay.unusedInteractions.isEmpty, "the failure counts as played")
    }
}
