import Foundation
import Tapedeck
import TapedeckServer
import Testing

/// The server answers plain requests without NIO's HTTP codec and hands everything else to it.
/// These prove the two paths cannot be told apart from the socket: the same bytes out, the
/// same order of answers, the same limits and timeouts.
@Suite("The fast lane")
struct FastLaneTests {
    static func parse(_ text: String, maxBytes: Int = 65_536) -> PlainRequestHead.Parsed {
        Array(text.utf8).withUnsafeBytes { PlainRequestHead.parse($0, maxBytes: maxBytes) }
    }

    static func parse(_ bytes: [UInt8], maxBytes: Int = 65_536) -> PlainRequestHead.Parsed {
        bytes.withUnsafeBytes { PlainRequestHead.parse($0, maxBytes: maxBytes) }
    }

    @Test("a plain head is read whole: method, target, fields in order with the spaces before their values dropped, its length")
    func plainHead() throws {
        let head = "GET /users?page=2&sort=a%20b HTTP/1.1\r\nHost: api.example.test\r\nX-Pad: \t padded value\r\nAccept:*/*\r\n\r\n"
        let next = "GET /next HTTP/1.1\r\n\r\n"
        guard case .plain(let parsed) = Self.parse(head + next) else {
            Issue.record("not read as plain")
            return
        }
        #expect(parsed.method == "GET")
        #expect(parsed.target == "/users?page=2&sort=a%20b")
        #expect(parsed.fields == [HTTPHeader(name: "Host", value: "api.example.test"), HTTPHeader(name: "X-Pad", value: "padded value"),
                                  HTTPHeader(name: "Accept", value: "*/*")])
        #expect(parsed.length == head.utf8.count, "the next request's bytes are not part of it")
        #expect(!parsed.closes)
        guard case .plain(let closing) = Self.parse("HEAD /x HTTP/1.1\r\nConnection: Close\r\n\r\n") else {
            Issue.record("a HEAD with Connection: close is plain")
            return
        }
        #expect(closing.closes)
        #expect(closing.target == "/x")
    }

    @Test("every prefix of a plain head waits for more bytes")
    func prefixes() {
        let head = Array("DELETE /items/7 HTTP/1.1\r\nHost: x\r\nEmpty:\r\n\r\n".utf8)
        for end in 0..<head.count {
            #expect(Self.parse(Array(head[..<end])) == .incomplete, "after \(end) bytes")
        }
        if case .plain(let parsed) = Self.parse(head) {
            #expect(parsed.fields.last == HTTPHeader(name: "Empty", value: ""))
        } else {
            Issue.record("the whole head is plain")
        }
    }

    @Test("what the lane does not read is left to the codec", arguments: [
        "POST /users HTTP/1.1\r\nHost: x\r\n\r\n",
        "get /users HTTP/1.1\r\n\r\n",
        "GET /users HTTP/1.0\r\n\r\n",
        "GET /users HTTP/1.1\r\nContent-Length: 0\r\n\r\n",
        "GET /users HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n",
        "GET /users HTTP/1.1\r\nExpect: 100-continue\r\n\r\n",
        "GET /chat HTTP/1.1\r\nUpgrade: websocket\r\n\r\n",
        "GET /users HTTP/1.1\r\nConnection: Upgrade\r\n\r\n",
        "GET /users HTTP/1.1\nHost: x\n\n",
        "GET /users HTTP/1.1\r\nHost: x\r\n folded\r\n\r\n",
        "GET /users HTTP/1.1\r\nHost : x\r\n\r\n",
        "GET /users HTTP/1.1\r\nX-Name: caf\u{E9}\r\n\r\n",
        "GET /a\"b HTTP/1.1\r\n\r\n",
        "GET  /users HTTP/1.1\r\n\r\n",
        "OPTIONS * HTTP/1.1\r\n\r\n",
        "\r\nGET /users HTTP/1.1\r\n\r\n",
        "GET /users HTTP/1.1\r\nX-Control: a\u{1}b\r\n\r\n",
        "GET /users HTTP/1.1\r\nHost: x\r\n\rX\r\n",
        "GET /users HTTP/1.1\r\nProxy-Connection: close\r\n\r\n",
        "GET /users HTTP/1.1\r\nX-Space: value \r\n\r\n",
        "GET /users HTTP/1.1\r\nX-Tab: value\t\r\n\r\n",
        "GET http://api.example.test/users HTTP/1.1\r\n\r\n",
        "GET http://a#b HTTP/1.1\r\n\r\n",
        "GET /users#top HTTP/1.1\r\n\r\n",
    ])
    func notPlain(_ text: String) {
        #expect(Self.parse(text) == .notPlain, "\(text.debugDescription)")
    }

    @Test("a head over the header limit is left to the codec, which answers 431")
    func overLimit() {
        let head = Array("GET /users HTTP/1.1\r\nX-Filler: \(String(repeating: "a", count: 200))\r\n\r\n".utf8)
        #expect(Self.parse(head, maxBytes: 100) == .notPlain)
        #expect(Self.parse(Array(head.prefix(100)), maxBytes: 100) == .notPlain, "no more bytes can make it fit")
        #expect(Self.parse(Array(head.prefix(99)), maxBytes: 100) == .incomplete)
    }

    @Test("a head that came short is read again only once more bytes may end it: its empty line, a bare LF, or the limit")
    func mayEnd() {
        func mayEnd(_ text: String, searched: Int, maxBytes: Int = 65_536) -> Bool {
            Array(text.utf8).withUnsafeBytes { PlainRequestHead.mayEnd($0, searchingFrom: searched, maxBytes: maxBytes) }
        }
        let head = "GET /users HTTP/1.1\r\nHost: x\r\n\r\n"
        #expect(mayEnd(head, searched: 0))
        // The empty line split between what was searched and what came after.
        for searched in head.utf8.count - 4...head.utf8.count - 1 {
            #expect(mayEnd(head, searched: searched), "searched \(searched)")
        }
        #expect(!mayEnd("GET /users HTTP/1.1\r\nHost: x\r\n", searched: 10))
        #expect(!mayEnd("GET /users HTTP/1.1\r\nHost: x\r\n\r", searched: 0))
        #expect(mayEnd("GET /users HTTP/1.1\nHost", searched: 5), "a bare LF")
        #expect(mayEnd("\nGET", searched: 0), "a bare LF first")
        #expect(mayEnd("GET /users HTTP/1.1\r\nX: aaaa", searched: 5, maxBytes: 20), "the limit")
    }

    /// Every response on a connection that ends with the server closing it, split by Content-Length.
    static func responses(_ data: Data) -> [RawResponse] {
        var rest = data[...]
        var found: [RawResponse] = []
        while let end = rest.firstRange(of: Data("\r\n\r\n".utf8)) {
            let headOnly = RawResponse(Data(rest[..<end.upperBound]))
            let length = headOnly.flatMap { Int($0.values("Content-Length").first ?? "") } ?? 0
            let stop = min(rest.endIndex, end.upperBound + length)
            guard let response = RawResponse(Data(rest[..<stop])) else { break }
            found.append(response)
            rest = rest[stop...]
        }
        return found
    }

    @Test("the lane and the codec write the same bytes for the same answer")
    func sameBytes() async throws {
        try await ServeClientsTests.withServer(options: DeckOptions(allowRepeats: true)) { server, _ in
            try await Self.expectSameBytes(server.listener.port,
                                           ["GET /users", "GET /logo.png", "GET /old", "GET /big", "HEAD /users", "GET /nowhere", "DELETE /users"])
        }
    }

    /// Sends each request line through the lane and through the codec, and expects the same answer bytes.
    static func expectSameBytes(_ port: Int, _ lines: [String]) async throws {
        for line in lines {
            let plain = "\(line) HTTP/1.1\r\nHost: api.example.test\r\nConnection: close\r\n\r\n"
            // A Content-Length, even of 0, sends the request through the codec.
            let coded = "\(line) HTTP/1.1\r\nHost: api.example.test\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
            let fast = try await BadRequestTests.exchange(port, Data(plain.utf8))
            let slow = try await BadRequestTests.exchange(port, Data(coded.utf8))
            #expect(!fast.isEmpty)
            #expect(fast == slow, "\(line): \(String(decoding: fast, as: UTF8.self).debugDescription) against \(String(decoding: slow, as: UTF8.self).debugDescription)")
        }
    }

    @Test("pipelined requests are answered in order across the hand-over to the codec")
    func pipelinedAcrossHandOver() async throws {
        try await ServeClientsTests.withServer(options: DeckOptions(allowRepeats: true)) { server, _ in
            let body = #"{"name":"Grace"}"#
            let requests = "GET /users HTTP/1.1\r\nHost: x\r\n\r\n"
                + "GET /logo.png HTTP/1.1\r\nHost: x\r\n\r\n"
                + "POST /users HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)"
                + "GET /users HTTP/1.1\r\nHost: x\r\n\r\n"
                + "GET /old HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
            let answers = Self.responses(try await BadRequestTests.exchange(server.listener.port, Data(requests.utf8)))
            #expect(answers.map(\.status) == [200, 200, 201, 200, 301])
            #expect(answers.last?.values("Connection") == ["close"])
        }
    }

    @Test("a head that arrives in pieces is answered once it is whole, and the connection stays open")
    func inPieces() async throws {
        try await ServeClientsTests.withServer(options: DeckOptions(allowRepeats: true)) { server, _ in
            let socket = try RawSocket(port: server.listener.port)
            let answers: Data = await Blocking.run {
                for piece in ["GE", "T /users HTTP/1.1\r\nHo", "st: x\r\n", "\r", "\n"] {
                    socket.send(piece)
                    Thread.sleep(forTimeInterval: 0.05)
                }
                socket.send("GET /old HTTP/1.1\r\nConnection: close\r\n\r\n")
                return socket.readToEnd()
            }
            #expect(Self.responses(answers).map(\.status) == [200, 301])
        }
    }

    @Test("answers that wait (latency) are written by the lane, in order, in the codec's bytes")
    func waitingAnswers() async throws {
        try await FaultTests.withServer([], latency: .fixed(milliseconds: 50)) { server in
            let port = server.listener.port
            let requests = "GET /users HTTP/1.1\r\nHost: x\r\n\r\n" + "GET /logo.png HTTP/1.1\r\nHost: x\r\n\r\n"
                + "GET /old HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
            let answers = Self.responses(try await BadRequestTests.exchange(port, Data(requests.utf8)))
            #expect(answers.map(\.status) == [200, 200, 301])
            #expect(answers.first?.values("Content-Type") == ["application/json"])
            #expect(answers.dropFirst().first?.values("Content-Type") == ["image/png"])
            #expect(answers.last?.values("Connection") == ["close"])
            try await Self.expectSameBytes(port, ["GET /users", "HEAD /users", "GET /nowhere"])
        }
    }

    @Test("a later answer the lane does not write (a fault) goes to the codec after the lane's answers")
    func waitingFaultHandedOver() async throws {
        try await FaultTests.withServer(["GET /users=reset"], latency: .fixed(milliseconds: 20)) { server in
            let requests = "GET /logo.png HTTP/1.1\r\nHost: x\r\n\r\n" + "GET /users HTTP/1.1\r\nHost: x\r\n\r\n"
                + "GET /logo.png HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
            let answers = Self.responses(try await BadRequestTests.exchange(server.listener.port, Data(requests.utf8)))
            #expect(answers.map(\.status) == [200], "the reset ends the connection after the first answer")
            let after = "GET /logo.png HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
            #expect(Self.responses(try await BadRequestTests.exchange(server.listener.port, Data(after.utf8))).map(\.status) == [200])
        }
    }

    @Test("a request waiting for its answer longer than the read timeout is answered, and the timeout counts again after")
    func waitingOutlastsReadTimeout() async throws {
        var options = DeckOptions(allowRepeats: true)
        options.limits = ServerLimits(readTimeout: 0.5)
        options.conditions = NetworkConditions(latency: .fixed(milliseconds: 1_200), faults: [], seed: 0)
        try await ServeClientsTests.withServer(options: options) { server, _ in
            let socket = try RawSocket(port: server.listener.port, receiveTimeout: 5)
            let outcome: (answer: Data, closed: Bool) = await Blocking.run {
                socket.send("GET /users HTTP/1.1\r\nHost: x\r\n\r\n")
                let answer = socket.read { $0.range(of: Data(#"Ada"}]}"#.utf8)) != nil }
                let start = Date()
                let rest = socket.readToEnd()
                return (answer, rest.isEmpty && Date().timeIntervalSince(start) < 3)
            }
            #expect(Self.responses(outcome.answer).map(\.status) == [200])
            #expect(outcome.closed, "idle after its answer, the connection is closed by the read timeout")
        }
    }

    /// Sends `requests`, closes the sending side, and reads until the server closes: the
    /// statuses of the answers, and whether the close came before the safety timeout.
    static func halfClosed(_ port: Int, _ requests: String) async throws -> (statuses: [Int], closed: Bool) {
        let socket = try RawSocket(port: port, receiveTimeout: 5)
        return await Blocking.run {
            if !requests.isEmpty { socket.send(requests) }
            socket.closeSending()
            let start = Date()
            let answers = socket.readToEnd()
            return (responses(answers).map(\.status), Date().timeIntervalSince(start) < 4)
        }
    }

    /// Expects `statuses` for `requests` sent before a half-close, and the server's close after them.
    static func expectHalfClosed(_ port: Int, _ requests: String, _ statuses: [Int], _ comment: Comment? = nil,
                                 sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let outcome = try await halfClosed(port, requests)
        #expect(outcome.statuses == statuses, comment, sourceLocation: sourceLocation)
        #expect(outcome.closed, "closed after the answers", sourceLocation: sourceLocation)
    }

    @Test("a client that closes its side after its requests gets every answer, at once or later, then the close")
    func halfCloseAnswered() async throws {
        let two = "GET /users HTTP/1.1\r\nHost: x\r\n\r\nGET /logo.png HTTP/1.1\r\nHost: x\r\n\r\n"
        let body = #"{"name":"Grace"}"#
        let coded = "POST /users HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)"
            + "GET /users HTTP/1.1\r\nHost: x\r\n\r\n"
        try await ServeClientsTests.withServer(options: DeckOptions(allowRepeats: true)) { server, _ in
            let port = server.listener.port
            try await Self.expectHalfClosed(port, two, [200, 200], "answered at once by the lane")
            try await Self.expectHalfClosed(port, coded, [201, 200], "read by the codec")
        }
        try await FaultTests.withServer([], latency: .fixed(milliseconds: 100)) { server in
            let port = server.listener.port
            try await Self.expectHalfClosed(port, two, [200, 200], "answered later by the lane")
            try await Self.expectHalfClosed(port, coded, [201, 200], "answered later through the codec")
        }
    }

    @Test("a client that closes its side with nothing or half a request sent is closed at once, half a request refused")
    func halfCloseUnfinished() async throws {
        var options = DeckOptions(allowRepeats: true)
        options.limits = ServerLimits(readTimeout: 30)
        try await ServeClientsTests.withServer(options: options) { server, _ in
            let port = server.listener.port
            try await Self.expectHalfClosed(port, "", [])
            try await Self.expectHalfClosed(port, "GET /users HTTP/1.1\r\nHost: x\r\n", [400])
            try await Self.expectHalfClosed(port, "GET /users HTTP/1.1\r\nHost: x\r\n\r\nGET /use", [200, 400])
            let partBody = "POST /users HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\n{\"a\""
            try await Self.expectHalfClosed(port, partBody, [400])
        }
    }

    @Test("a half-close after answers the socket could not take yet, and bytes the codec reads, cuts none of them off")
    func halfCloseBehindLargeAnswers() async throws {
        let huge = Data(repeating: UInt8(ascii: "h"), count: 4 << 20)
        let cassette = Cassette(interactions: [
            Interaction(request: HTTPRequest(url: URL(string: "http://api.example.test/huge")!),
                        response: HTTPResponse(status: 200, headers: ["Content-Type": "application/octet-stream"], body: huge)),
            Interaction(request: HTTPRequest(url: URL(string: "http://api.example.test/small")!),
                        response: HTTPResponse(status: 200, headers: ["Content-Type": "text/plain"], body: Data("small".utf8))),
        ])
        try await ServeClientsTests.withServer([cassette], options: DeckOptions(allowRepeats: true)) { server, _ in
            let socket = try RawSocket(port: server.listener.port, receiveTimeout: 10)
            let answers: Data = await Blocking.run {
                // The empty line after the second request is not plain: the codec reads it.
                socket.send("GET /huge HTTP/1.1\r\nHost: x\r\n\r\nGET /small HTTP/1.1\r\nHost: x\r\n\r\n\r\n")
                socket.closeSending()
                Thread.sleep(forTimeInterval: 0.3)
                return socket.readToEnd()
            }
            let responses = Self.responses(answers)
            #expect(responses.map(\.status) == [200, 200])
            #expect(responses.map(\.body.count) == [huge.count, 5])
        }
    }

    @Test("a half-close while a timeout fault holds the answer back closes the connection")
    func halfCloseWhileHanging() async throws {
        try await FaultTests.withServer(["GET /users=timeout"]) { server in
            try await Self.expectHalfClosed(server.listener.port, "GET /users HTTP/1.1\r\nHost: x\r\n\r\n", [])
        }
    }

    @Test("a client that leaves while its answer waits leaves the server answering others")
    func clientLeavesWhileWaiting() async throws {
        try await FaultTests.withServer([], latency: .fixed(milliseconds: 200)) { server in
            let port = server.listener.port
            await Blocking.run {
                for _ in 0..<5 {
                    guard let socket = try? RawSocket(port: port) else { continue }
                    socket.send("GET /users HTTP/1.1\r\nHost: x\r\n\r\nGET /logo.png HTTP/1.1\r\nHost: x\r\n\r\n")
                }
            }
            try await Task.sleep(for: .milliseconds(400))
            let request = "GET /logo.png HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
            #expect(Self.responses(try await BadRequestTests.exchange(port, Data(request.utf8))).map(\.status) == [200])
        }
    }

    @Test("thousands of requests pipelined behind one answered later are all answered, in order, one after another")
    func manyPipelinedBehindWaiting() async throws {
        // A server process of its own: the burst does not hold up the event loops the other
        // tests' servers share.
        let directory = try Proc.temporaryDirectory()
        defer { Proc.cleanUp(directory) }
        let file = try SampleCassettes.write(SampleCassettes.api(), to: directory)
        let server = try await ServerProcess(["serve", file.path, "--repeat"])
        let count = 5_000
        // A control path is answered from a task; those behind it wait in the lane's buffer and
        // in the socket until its answer is written, then are answered in order.
        let requests = "GET /__tapedeck/status HTTP/1.1\r\nHost: x\r\n\r\n"
            + String(repeating: "GET /logo.png HTTP/1.1\r\nHost: x\r\n\r\n", count: count)
            + "GET /old HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
        let socket = try RawSocket(port: server.url.port ?? 0)
        async let sent: Bool = Blocking.run { socket.send(requests) }
        let answers = await Blocking.run { socket.readToEnd() }
        let wasSent = await sent
        let stopped = await server.stop()
        #expect(wasSent)
        let statuses = Self.responses(answers).map(\.status)
        #expect(statuses.count == count + 2)
        #expect(statuses.first.map { (400..<500).contains($0) } == true, "the control path refuses a request without its token")
        #expect(statuses.dropFirst().prefix(count).allSatisfy { $0 == 200 })
        #expect(statuses.last == 301)
        #expect(stopped.status == 0, "\(stopped.stderr)")
    }

    @Test("nothing after an answer that closes the connection is answered, on either path")
    func nothingAfterClose() async throws {
        try await FaultTests.withServer([], latency: .fixed(milliseconds: 10)) { server in
            let requests = "GET /users HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n" + "GET /logo.png HTTP/1.1\r\nHost: x\r\n\r\n"
            let answers = Self.responses(try await BadRequestTests.exchange(server.listener.port, Data(requests.utf8)))
            #expect(answers.map(\.status) == [200])
        }
        try await ServeClientsTests.withServer(options: DeckOptions(allowRepeats: true)) { server, _ in
            let requests = "GET /users HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n" + "GET /logo.png HTTP/1.1\r\nHost: x\r\n\r\n"
            let answers = Self.responses(try await BadRequestTests.exchange(server.listener.port, Data(requests.utf8)))
            #expect(answers.map(\.status) == [200])
        }
    }

    @Test("each answer the lane writes starts the read timeout again; an idle connection is still closed")
    func readTimeout() async throws {
        var options = DeckOptions(allowRepeats: true)
        options.limits = ServerLimits(readTimeout: 1)
        try await ServeClientsTests.withServer(options: options) { server, _ in
            let socket = try RawSocket(port: server.listener.port, receiveTimeout: 5)
            let outcome: (answered: Int, closed: Bool) = await Blocking.run {
                var answered = 0
                // Two and a half timeouts long, a request every 0.4 s: the connection lives.
                for _ in 0..<6 {
                    guard socket.send("GET /users HTTP/1.1\r\nHost: x\r\n\r\n") else { break }
                    let answer = socket.read { $0.range(of: Data(#"Ada"}]}"#.utf8)) != nil }
                    if answer.isEmpty { break }
                    answered += 1
                    Thread.sleep(forTimeInterval: 0.4)
                }
                // Then idle: closed within the timeout and a bit.
                let start = Date()
                let rest = socket.readToEnd()
                return (answered, rest.isEmpty && Date().timeIntervalSince(start) < 3)
            }
            #expect(outcome.answered == 6)
            #expect(outcome.closed)
        }
    }
}
