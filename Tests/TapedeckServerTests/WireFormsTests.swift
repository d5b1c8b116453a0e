import Foundation
import NIOCore
import Tapedeck
@testable import TapedeckServer
import Testing

/// A replayed answer's bytes are encoded once and written again as they are (``WireForms``).
/// These prove the bytes are the ones the lane and the codec write, that only answers with
/// those bytes get them, and that the memory they take is bounded.
@Suite("Replayed answers' bytes")
struct WireFormsTests {
    static let response = HTTPResponse(status: 200, headers: HTTPHeaders([("Content-Type", "application/json"), ("X-Order", "first"),
                                                                         ("Content-Length", "999"), ("Connection", "keep-alive")]),
                                       body: Data(#"{"id": 1}"#.utf8))

    @Test("a form is the lane's encoding of the answer, made once and handed out again")
    func formIsTheEncoding() throws {
        let forms = WireForms(budget: WireBudget())
        let form = try #require(forms.form(at: 3, of: Self.response)?.bytes)
        let encoded = HTTPFastLane.encode(Self.response, isHead: false, keepAlive: true, allocator: ByteBufferAllocator())
        #expect(form == encoded)
        let text = String(buffer: form)
        #expect(text.contains("Content-Length: 9\r\n"), "the body's true length, not the recorded field's")
        #expect(!text.contains("Connection"), "a connection that stays open says nothing about it")
        #expect(forms.heldBytes == form.capacity)
        // Another response at the same place is not encoded again: the cassette does not change.
        let again = try #require(forms.form(at: 3, of: HTTPResponse(status: 404))?.bytes)
        #expect(again == form)
        #expect(again.withUnsafeReadableBytes { $0.baseAddress } == form.withUnsafeReadableBytes { $0.baseAddress }, "the same bytes, not a copy")
        #expect(forms.heldBytes == form.capacity)
    }

    @Test("bodies over the largest size are not held, nor any form past the budget")
    func bounded() throws {
        let response = HTTPResponse(status: 200, body: Data(count: 100))
        // The memory one form takes, as the allocator rounds it.
        let size = try #require(WireForms(budget: WireBudget()).form(at: 0, of: response)?.bytes).capacity
        let forms = WireForms(budget: WireBudget(limit: 2 * size + size / 2), largestBody: 100)
        #expect(forms.form(at: 0, of: HTTPResponse(status: 200, body: Data(count: 101))) == nil)
        #expect(forms.heldBytes == 0)
        let first = try #require(forms.form(at: 1, of: response))
        #expect(first.held)
        #expect(forms.heldBytes == size)
        // Within the body size, past the budget: given, not held.
        let second = try #require(forms.form(at: 2, of: response))
        let third = try #require(forms.form(at: 3, of: response))
        #expect(second.held && !third.held, "past the budget, a form is given for one answer only")
        #expect(second.bytes == first.bytes && third.bytes == first.bytes)
        #expect(forms.heldBytes == 2 * size)
        #expect(forms.heldBytes <= forms.budget.limit)
    }

    @Test("the tapes of a deck share one budget, and a tape that goes gives its share back")
    func sharedBudget() throws {
        let response = HTTPResponse(status: 200, body: Data(count: 100))
        let size = try #require(WireForms(budget: WireBudget()).form(at: 0, of: response)?.bytes).capacity
        let budget = WireBudget(limit: 3 * size)
        let first = WireForms(budget: budget)
        for position in 0..<2 { _ = first.form(at: position, of: response) }
        var second: WireForms? = WireForms(budget: budget)
        for position in 0..<2 { _ = second?.form(at: position, of: response) }
        #expect(first.heldBytes == 2 * size)
        #expect(second?.heldBytes == size, "the second tape gets what the first left")
        #expect(budget.room == 0)
        second = nil
        #expect(budget.room == size, "a tape that goes gives back what it held")
        _ = first.form(at: 2, of: response)
        #expect(first.heldBytes == 3 * size)
    }

    @Test("on one connection, repeated answers, a HEAD and a closing answer are the bytes the codec writes, and forms are held")
    func sameBytesOnOneConnection() async throws {
        // A recorded HEAD keeps its Content-Length and has no body: its bytes differ from a GET's form.
        var cassette = SampleCassettes.api()
        cassette.interactions.append(Interaction(request: HTTPRequest(method: .head, url: SampleCassettes.url("/users")),
                                                 response: HTTPResponse(status: 200, headers: HTTPHeaders([("Content-Type", "application/json"),
                                                                                                           ("Content-Length", "38")]))))
        try await ServeClientsTests.withServer([cassette], options: DeckOptions(allowRepeats: true)) { server, _ in
            let lines = ["GET /users", "GET /users", "HEAD /users", "HEAD /users", "GET /logo.png", "GET /users", "HEAD /logo.png", "GET /logo.png"]
            func requests(_ extra: String) -> String {
                lines.map { "\($0) HTTP/1.1\r\nHost: api.example.test\r\n\(extra)\r\n" }.joined()
                    + "GET /users HTTP/1.1\r\nHost: api.example.test\r\n\(extra)Connection: close\r\n\r\n"
            }
            let fast = try await BadRequestTests.exchange(server.listener.port, Data(requests("").utf8))
            // A Content-Length, even of 0, sends each request through the codec.
            let coded = try await BadRequestTests.exchange(server.listener.port, Data(requests("Content-Length: 0\r\n").utf8))
            #expect(!fast.isEmpty)
            #expect(fast == coded, "\(String(decoding: fast, as: UTF8.self).debugDescription) against \(String(decoding: coded, as: UTF8.self).debugDescription)")
            let text = String(decoding: fast, as: UTF8.self)
            #expect(text.hasSuffix(#"Connection: close\#r\#n\#r\#n{"users": [{"id": 1, "name": "Ada"}]}"#))
            #expect(text.contains("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 38\r\n\r\nHTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 38\r\n\r\nHTTP/1.1 200"),
                    "each recorded HEAD answer is its head alone, with its Content-Length")
            let held = server.deck.loadedTapes.map(\.wireForms.heldBytes).reduce(0, +)
            #expect(held > 0, "the replayed answers' forms are held")
        }
    }

    @Test("a WebSocket session asked for as a plain request is answered for that request each time, never with another's words")
    func webSocketAskedPlainly() async throws {
        var session = HTTPResponse(status: 101, headers: ["Upgrade": "websocket", "Connection": "Upgrade"])
        session.webSocket = [WebSocketMessage(offset: 0, sender: .server, kind: .text, data: Data("welcome".utf8))]
        let cassette = Cassette(interactions: [Interaction(request: HTTPRequest(url: SampleCassettes.url("/room?q=A")), response: session)])
        try await ServeClientsTests.withServer([cassette], options: DeckOptions(allowRepeats: true)) { server, _ in
            // Both spellings match the one interaction; each 426 names the target its own request sent.
            let requests = "GET /room?q=%41 HTTP/1.1\r\nHost: x\r\n\r\n" + "GET /room?q=A HTTP/1.1\r\nHost: x\r\n\r\n"
                + "GET /room?q=%41 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
            let text = String(decoding: try await BadRequestTests.exchange(server.listener.port, Data(requests.utf8)), as: UTF8.self)
            let answers = Array(text.components(separatedBy: "HTTP/1.1 426").dropFirst())
            #expect(answers.count == 3, "\(text.debugDescription)")
            #expect(answers.first?.contains("/room?q=%41 was recorded") == true)
            #expect(answers.dropFirst().first?.contains("/room?q=A was recorded") == true, "\(text.debugDescription)")
            #expect(server.deck.loadedTapes.map(\.wireForms.heldBytes).reduce(0, +) == 0, "a reply made for one request is not held")
        }
    }
}
