@testable import TapedeckServer
import Testing

/// What the fast lane reads wrong in a head it hands to the codec, so the refusal can name it.
@Suite("A handed-over head's problem")
struct HandedOverHeadTests {
    static func problem(_ text: String, maxBytes: Int = 64) -> HandedOverHead? {
        Array(text.utf8).withUnsafeBytes { HandedOverHead.problem(in: $0, maxBytes: maxBytes) }
    }

    @Test("a request line that reaches the limit unended is too long; one still arriving below it is not yet")
    func requestLine() {
        #expect(Self.problem("GET /" + String(repeating: "a", count: 59)) == .targetTooLong)
        #expect(Self.problem("GET /" + String(repeating: "a", count: 80)) == .targetTooLong)
        #expect(Self.problem("GET /" + String(repeating: "a", count: 20)) == nil)
        #expect(Self.problem("GET /a HTTP/1.1\r\nHost: x\r\n\r\n") == nil)
    }

    @Test("both framings in the head, in any case and with bare LFs, and not once the head has ended")
    func framings() {
        #expect(Self.problem("POST / HTTP/1.1\r\ncontent-LENGTH: 3\r\nTransfer-Encoding: chunked\r\n\r\n", maxBytes: 200) == .framingConflict)
        #expect(Self.problem("POST / HTTP/1.1\nTransfer-Encoding: chunked\nContent-Length: 3\n\n", maxBytes: 200) == .framingConflict)
        #expect(Self.problem("POST / HTTP/1.1\r\nContent-Length: 3\r\n\r\nTransfer-Encoding: x\r\n", maxBytes: 200) == nil)
        #expect(Self.problem("POST / HTTP/1.1\r\nX-Content-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n", maxBytes: 200) == nil)
        #expect(Self.problem("POST / HTTP/1.1\r\nContent-Length-X: 3\r\nTransfer-Encoding: chunked\r\n\r\n", maxBytes: 200) == nil)
    }

    @Test("each problem explains only the refusals it causes")
    func refusals() {
        #expect(HandedOverHead.targetTooLong.refusal(limit: 64, parsing: .headerOverflow)?.status == 414)
        #expect(HandedOverHead.targetTooLong.refusal(limit: 64, parsing: .invalidHeaderToken) == nil)
        #expect(HandedOverHead.framingConflict.refusal(limit: 64, parsing: .unexpectedContentLength)?.status == 400)
        #expect(HandedOverHead.framingConflict.refusal(limit: 64, parsing: .invalidHeaderToken) == nil)
    }
}
