import Foundation
import NIOCore
import NIOPosix
import struct NIOHTTP1.HTTPRequestHead
import struct NIOHTTP1.HTTPResponseHead
import struct NIOHTTP1.HTTPVersion
import enum NIOHTTP1.HTTPResponseStatus
import Synchronization
import Tapedeck
import TapedeckCurl
@testable import TapedeckServer
import Testing

/// The upstream transport of `serve` and `proxy`, against an upstream of the server's own
/// listener on loopback, whose answers each test scripts.
@Suite("Upstream transport: kept-alive connections, decoding, streams and failures")
struct UpstreamTransportTests {
    /// A listener answering with `answer`, which gets the request and its 1-based number.
    static func upstream(_ answer: @escaping @Sendable (IncomingRequest, Int) async -> ServerReply) async throws -> HTTPListener {
        let count = Atomic<Int>(0)
        return try await HTTPListener.bind(host: "127.0.0.1", port: 0) { request in
            await answer(request, count.add(1, ordering: .relaxed).newValue)
        }
    }

    static func send(_ transport: UpstreamTransport, _ listener: HTTPListener, _ path: String, method: HTTPMethod = .get,
                     headers: HTTPHeaders = [:], body: Data? = nil) async throws -> HTTPResponse {
        try await transport.send(HTTPRequest(method: method, url: URL(string: listener.url.absoluteString + path)!, headers: headers, body: body))
    }

    @Test("requests to one origin, one after another, share one kept-alive connection")
    func keepsConnectionAlive() async throws {
        let listener = try await Self.upstream { request, number in .text(200, "\(number) \(request.target)") }
        let transport = try UpstreamTransport()
        for number in 1...3 {
            let response = try await Self.send(transport, listener, "/items/\(number)?q=a%20b")
            #expect(response.status == 200 && response.text == "\(number) /items/\(number)?q=a%20b", "\(response.text ?? "")")
            #expect(response.url?.absoluteString == listener.url.absoluteString + "/items/\(number)?q=a%20b")
        }
        #expect(listener.acceptedConnections == 1)
        transport.shutdown()
        await listener.close()
    }

    /// An upstream whose answers each wait until `size` requests of the round have arrived (at
    /// most ten seconds), so that each request of a round holds a connection of its own.
    static func rounds(of size: Int) async throws -> HTTPListener {
        let rounds = Rounds(size: size)
        return try await upstream { _, _ in
            await rounds.arrive()
            return .text(200, "ok")
        }
    }

    /// Holds each arrival until `size` have come, or ten seconds after the first of them: no
    /// polling, which would take the threads the other tests' servers answer on.
    actor Rounds {
        let size: Int
        private var waiting: [CheckedContinuation<Void, Never>] = []
        private var round = 0

        init(size: Int) { self.size = size }

        func arrive() async {
            await withCheckedContinuation { continuation in
                waiting.append(continuation)
                if waiting.count >= size {
                    release()
                } else if waiting.count == 1 {
                    let started = round
                    Task {
                        try? await Task.sleep(for: .seconds(10))
                        self.expire(started)
                    }
                }
            }
        }

        private func expire(_ started: Int) {
            if round == started { release() }
        }

        private func release() {
            round += 1
            let released = waiting
            waiting = []
            for continuation in released { continuation.resume() }
        }
    }

    /// Sends a request from a task whose jobs run on `loop`, as the server's tasks do.
    static func send(from loop: any EventLoop, _ transport: UpstreamTransport, _ listener: HTTPListener, _ path: String) async throws -> HTTPResponse {
        try await Task(executorPreference: EventLoopExecutor(loop)) { try await send(transport, listener, path) }.value
    }

    /// Sends `count` requests at once (from `loop`, when given) and gives their statuses.
    static func sendAtOnce(_ count: Int, from loop: (any EventLoop)? = nil, _ transport: UpstreamTransport,
                           _ listener: HTTPListener) async throws -> [Int] {
        try await withThrowingTaskGroup(of: Int.self) { group in
            for number in 0..<count {
                group.addTask {
                    if let loop { return try await send(from: loop, transport, listener, "/items/\(number)").status }
                    return try await send(transport, listener, "/items/\(number)").status
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
    }

    @Test("a burst of 100 requests at once opens 100 connections, and the next burst reuses every one of them")
    func burstsReuseConnections() async throws {
        let listener = try await Self.rounds(of: 100)
        let transport = try UpstreamTransport()
        #expect(try await Self.sendAtOnce(100, transport, listener) == Array(repeating: 200, count: 100))
        #expect(try await Self.sendAtOnce(100, transport, listener) == Array(repeating: 200, count: 100))
        #expect(listener.acceptedConnections == 100, "the second burst found every connection of the first kept")
        transport.shutdown()
        await listener.close()
    }

    /// Runs `body` with the two loops of a group of its own and a transport on them, then shuts
    /// the transport, `listener` and the group down, whatever `body` threw.
    static func onTwoLoops(_ listener: HTTPListener, options: UpstreamTransport.Options = .init(),
                           _ body: ([any EventLoop], UpstreamTransport) async throws -> Void) async throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 2)
        let transport = try UpstreamTransport(options: options, group: group)
        do {
            try await body(Array(group.makeIterator()), transport)
        } catch {
            Issue.record(error)
        }
        transport.shutdown()
        await listener.close()
        try await group.shutdownGracefully()
    }

    @Test("a request sent from one of the transport's loops takes only that loop's idle connections, and makes one there when it has none")
    func idleConnectionsStayOnTheirLoop() async throws {
        let listener = try await Self.upstream { _, number in .text(200, "\(number)") }
        try await Self.onTwoLoops(listener) { (loops, transport) async throws in
            #expect(try await Self.send(from: loops[0], transport, listener, "/a").status == 200)
            #expect(try await Self.send(from: loops[0], transport, listener, "/b").status == 200)
            #expect(listener.acceptedConnections == 1, "the second request on the first loop reused its connection")
            #expect(try await Self.send(from: loops[1], transport, listener, "/c").status == 200)
            #expect(listener.acceptedConnections == 2, "the other loop made a connection of its own rather than take the first loop's")
            #expect(try await Self.send(from: loops[1], transport, listener, "/d").status == 200)
            #expect(try await Self.send(from: loops[0], transport, listener, "/e").status == 200)
            #expect(listener.acceptedConnections == 2, "each loop reused its own")
        }
    }

    @Test("a full pool keeps the connection just released and closes its longest idle one, so one loop's connections never lock out another's")
    func fullPoolKeepsTheNewest() async throws {
        let listener = try await Self.rounds(of: 2)
        try await Self.onTwoLoops(listener, options: .init(idlePerOrigin: 2)) { (loops, transport) async throws in
            // Two connections of the first loop fill the pool.
            #expect(try await Self.sendAtOnce(2, from: loops[0], transport, listener) == [200, 200])
            #expect(listener.acceptedConnections == 2)
            // The second loop has none: it makes one, and the full pool keeps it in the place of the first loop's oldest.
            #expect(try await Self.sendAtOnce(2, from: loops[1], transport, listener) == [200, 200])
            #expect(listener.acceptedConnections == 4)
            #expect(try await Self.sendAtOnce(2, from: loops[1], transport, listener) == [200, 200])
            #expect(listener.acceptedConnections == 4, "the second loop's connections were kept and reused")
        }
    }

    @Test("a field holding a control character is refused before anything is sent, naming the field and the character, never quoting the value")
    func controlCharactersRefused() async throws {
        let listener = try await Self.upstream { _, _ in .text(200, "ok") }
        let transport = try UpstreamTransport()
        for (value, place) in [("secret-a\u{1}b", "U+0001 at byte 9"), ("tab\tis fine but \u{7F} is not", "U+007F at byte 17"),
                               ("\u{1B}[31m", "U+001B at byte 1")] {
            let error = await #expect(throws: HTTPError.self) {
                try await Self.send(transport, listener, "/x", headers: HTTPHeaders([("X-Note", value)]))
            }
            let message = error?.localizedDescription ?? ""
            #expect(message.contains("header 'X-Note' holds the control character \(place)"), "\(message)")
            #expect(!message.contains("secret") && !message.contains("is fine"), "the value is not quoted: \(message)")
        }
        #expect(try await Self.send(transport, listener, "/y", headers: HTTPHeaders([("X-Note", "tab\tis fine")])).status == 200)
        #expect(listener.acceptedConnections == 1, "only the request with a tab reached the upstream")
        transport.shutdown()
        await listener.close()
    }

    @Test("an answer keeps its connection for the next request as its version and Connection tokens say, in any case and order")
    func keepsAliveRule() {
        func head(_ minor: Int, _ fields: [(String, String)], status: Int = 200) -> HTTPResponseHead {
            var head = HTTPResponseHead(version: HTTPVersion(major: 1, minor: minor), status: HTTPResponseStatus(statusCode: status))
            for (name, value) in fields { head.headers.add(name: name, value: value) }
            return head
        }
        #expect(UpstreamHandler.keepsAlive(head(1, [])))
        #expect(UpstreamHandler.keepsAlive(head(1, [("Connection", "keep-alive")])))
        #expect(!UpstreamHandler.keepsAlive(head(1, [("Connection", "close")])))
        #expect(!UpstreamHandler.keepsAlive(head(1, [("connection", "Keep-Alive, CLOSE")])))
        #expect(!UpstreamHandler.keepsAlive(head(1, [("Connection", "keep-alive"), ("CONNECTION", " close ")])))
        #expect(!UpstreamHandler.keepsAlive(head(0, [])))
        #expect(UpstreamHandler.keepsAlive(head(0, [("Connection", "Keep-Alive")])))
        #expect(UpstreamHandler.keepsAlive(head(0, [("Connection", "upgrade,  keep-alive")])))
        #expect(!UpstreamHandler.keepsAlive(head(0, [("Keep-Alive", "timeout=5")])))
        #expect(UpstreamHandler.keepsAlive(head(1, [("X-Connection", "close"), ("Connection", "closed")])), "only the Connection field's whole tokens count")
        #expect(!UpstreamHandler.keepsAlive(head(1, [], status: 101)))
    }

    @Test("a request on a kept-alive connection the upstream dropped goes again on a new one; on a new connection it is an error")
    func droppedConnectionRetried() async throws {
        let listener = try await Self.upstream { _, number in
            number == 2 ? ServerReply(response: HTTPResponse(status: 200), fault: .reset) : .text(200, "answer \(number)")
        }
        let transport = try UpstreamTransport()
        #expect(try await Self.send(transport, listener, "/a").text == "answer 1")
        #expect(try await Self.send(transport, listener, "/b").text == "answer 3", "the dropped request went again")
        #expect(listener.acceptedConnections == 2)
        await listener.close()

        let resetting = try await Self.upstream { _, _ in ServerReply(response: HTTPResponse(status: 200), fault: .reset) }
        await #expect(throws: HTTPError.self) { try await Self.send(transport, resetting, "/c") }
        await resetting.close()
        transport.shutdown()
    }

    @Test("a proxy whose upstream refuses the connection answers 502 and logs it, with a credential in the URL redacted in both")
    func failureRedacted() async throws {
        let closed = try await Self.upstream { _, _ in .text(200, "") }
        let upstream = closed.url
        await closed.close()
        let directory = try Proc.temporaryDirectory()
        defer { Proc.cleanUp(directory) }
        let logged = Mutex<[String]>([])
        let options = DeckOptions(live: try UpstreamTransport(options: .init(timeout: 5)), log: { line in logged.withLock { $0.append(line) } })
        let proxy = try await CassetteServer.proxy(to: upstream, recordingTo: directory.appendingPathComponent("c.cassette.json"), mode: .all,
                                                   options: options)
        let answer = try await Proc.run(Proc.curl, ["-s", "-w", "\n%{http_code}", proxy.url.absoluteString + "/items?api_key=SECRET-0042&page=2"])
        // A token known by its shape, in the path, is not quoted either.
        let token = "ghp_A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"
        let shaped = try await Proc.run(Proc.curl, ["-s", "-w", "\n%{http_code}", proxy.url.absoluteString + "/users/\(token)/x"])
        await proxy.stop()
        #expect(answer.text.hasSuffix("\n502"), "\(answer.text)")
        #expect(!answer.text.contains("SECRET-0042") && !shaped.text.contains(token), "\(answer.text) \(shaped.text)")
        let lines = logged.withLock { $0 }
        #expect(lines.contains { $0.hasPrefix("error: GET ") && $0.contains("page=2") }, "\(lines)")
        #expect(!lines.contains { $0.contains("SECRET-0042") || $0.contains(token) }, "\(lines)")
    }

    @Test("a proxy whose upstream answers with headers or a body past the limits answers 502 saying which, and keeps serving")
    func tooLargeIs502() async throws {
        let hugeHeader = try OneShotUpstream(answer: Data(("HTTP/1.1 200 OK\r\nX-Big: " + String(repeating: "a", count: 200 * 1024)
            + "\r\nContent-Length: 2\r\n\r\nok").utf8))
        let bigBody = try OneShotUpstream(answer: Data(("HTTP/1.1 200 OK\r\nContent-Length: 4096\r\n\r\n" + String(repeating: "b", count: 4096)).utf8))
        defer { hugeHeader.stop(); bigBody.stop() }
        let directory = try Proc.temporaryDirectory()
        defer { Proc.cleanUp(directory) }
        let transport = try UpstreamTransport(options: .init(timeout: 5, limits: BodyLimits(maximumBodySize: 1024)))
        let options = DeckOptions(live: transport, log: { _ in })
        let proxy = try await CassetteServer.proxy(to: nil, recordingTo: directory.appendingPathComponent("c.cassette.json"), mode: .all,
                                                   options: options)
        // The body's URL is longer than a message quotes whole: its quoted start is redacted too.
        let longQuery = "?api_key=SECRET-0043&pad=" + String(repeating: "p", count: 300)
        for (upstream, says, query) in [(hugeHeader, "headers", ""), (bigBody, "larger than the limit of 1 KiB", longQuery)] {
            let answer = try await Proc.run(Proc.curl, ["-s", "-w", "\n%{http_code}", "-x", proxy.url.absoluteString,
                                                        "http://127.0.0.1:\(upstream.port)/big" + query])
            #expect(answer.text.hasSuffix("\n502"), "\(answer.text)")
            #expect(answer.text.contains(says), "\(answer.text)")
            #expect(!answer.text.contains("SECRET-0043"), "\(answer.text)")
        }
        await proxy.stop()
        transport.shutdown()
    }

    @Test("an upstream answer that breaks HTTP/1.1 framing is logged in the message's words, not the parser's")
    func malformedFramingInPlainWords() async throws {
        let badSize = try OneShotUpstream(answer: Data("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nhello\r\n0\r\n\r\n".utf8))
        let overlong = try OneShotUpstream(answer: Data("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nhello\r\n0\r\n\r\n".utf8))
        defer { badSize.stop(); overlong.stop() }
        let directory = try Proc.temporaryDirectory()
        defer { Proc.cleanUp(directory) }
        let transport = try UpstreamTransport(options: .init(timeout: 5))
        let logged = Mutex<[String]>([])
        let proxy = try await CassetteServer.proxy(to: nil, recordingTo: directory.appendingPathComponent("c.cassette.json"), mode: .all,
                                                   options: DeckOptions(live: transport, log: { line in logged.withLock { $0.append(line) } }))
        // A chunked answer flows to the client as it comes, so the client's connection is cut
        // and the log says why.
        for upstream in [badSize, overlong] {
            _ = try await Proc.run(Proc.curl, ["-s", "-x", proxy.url.absoluteString, "http://127.0.0.1:\(upstream.port)/x"])
        }
        await proxy.stop()
        let lines = logged.withLock { $0 }.joined(separator: "\n")
        for says in ["a chunk size that is not a hexadecimal number", "a chunk longer than its size said"] {
            #expect(lines.contains("is not HTTP/1.1: it has \(says)"), "\(lines)")
        }
        transport.shutdown()
    }

    @Test("through curl too (the transport of tapedeck run): the status, the phrase after it (spaces kept), a status line with no phrase, fields split at their first colon")
    func curlStatusLine() async throws {
        let phrase = try OneShotUpstream(answer: Data(("HTTP/1.1 418 I'M  A TEAPOT\r\nX-Time: 12:30:01\r\nX-Empty:\r\nContent-Length: 2\r\n\r\nok").utf8))
        let bare = try OneShotUpstream(answer: Data("HTTP/1.1 299\r\nContent-Length: 0\r\n\r\n".utf8))
        defer { phrase.stop(); bare.stop() }
        let transport = CurlTransport(options: .init(followRedirects: false))
        let first = try await transport.send(HTTPRequest(url: URL(string: "http://127.0.0.1:\(phrase.port)/a")!))
        #expect(first.status == 418)
        #expect(first.reason == "I'M  A TEAPOT")
        #expect(first.headers["X-Time"] == "12:30:01")
        #expect(first.headers["X-Empty"] == "")
        #expect(first.text == "ok")
        let none = try await transport.send(HTTPRequest(url: URL(string: "http://127.0.0.1:\(bare.port)/b")!))
        #expect(none.status == 299)
    }

    @Test("the reason phrase is the upstream's own, after interim answers; a proxy relays and records it")
    func reasonPhraseKept() async throws {
        let interim = try OneShotUpstream(answer: Data(("HTTP/1.1 103 Early Hints\r\nLink: </a.css>; rel=preload\r\n\r\n"
            + "HTTP/1.1 299 Custom Thing\r\nContent-Length: 2\r\n\r\nok").utf8))
        let known = try OneShotUpstream(answer: Data("HTTP/1.1 200 Okay Then\r\nContent-Length: 2\r\n\r\nok".utf8))
        let bare = try OneShotUpstream(answer: Data("HTTP/1.1 404\r\nContent-Length: 0\r\n\r\n".utf8))
        defer { interim.stop(); known.stop(); bare.stop() }
        let transport = try UpstreamTransport()
        let first = try await transport.send(HTTPRequest(url: URL(string: "http://127.0.0.1:\(interim.port)/a")!))
        #expect(first.status == 299 && first.reason == "Custom Thing" && first.text == "ok", "\(first.status) \(first.reason)")
        let none = try await transport.send(HTTPRequest(url: URL(string: "http://127.0.0.1:\(bare.port)/c")!))
        #expect(none.status == 404 && none.reason == "Not Found", "a status line with no phrase gets the standard one: '\(none.reason)'")

        let directory = try Proc.temporaryDirectory()
        defer { Proc.cleanUp(directory) }
        let cassette = directory.appendingPathComponent("reasons.cassette.json")
        let proxy = try await CassetteServer.proxy(to: nil, recordingTo: cassette, mode: .all,
                                                   options: DeckOptions(live: transport, log: { _ in }))
        let answer = try await Proc.run(Proc.curl, ["-si", "-x", proxy.url.absoluteString, "http://127.0.0.1:\(known.port)/b"])
        await proxy.stop()
        transport.shutdown()
        #expect(answer.text.hasPrefix("HTTP/1.1 200 Okay Then\r\n"), "\(answer.text)")
        #expect(try Cassette.load(from: cassette).interactions.first?.response.reason == "Okay Then")
    }

    @Test("a kept-alive connection gives each answer its own phrase")
    func reasonPerAnswer() async throws {
        let listener = try await Self.upstream { _, number in
            ServerReply(response: HTTPResponse(status: 200, reason: "Answer \(number)", body: Data("\(number)".utf8)))
        }
        let transport = try UpstreamTransport()
        let reasons = [try await Self.send(transport, listener, "/a").reason, try await Self.send(transport, listener, "/b").reason]
        #expect(reasons == ["Answer 1", "Answer 2"])
        #expect(listener.acceptedConnections == 1)
        transport.shutdown()
        await listener.close()
    }

    @Test("status lines are read a byte at a time across reads, after empty lines and interim answers; bodies are not read")
    func statusLinesByteByByte() {
        let reasons = StatusLineReasons()
        reasons.expectResponse()
        for byte in "\r\nHTTP/1.1 103 Early Hints\r\nLink: </a.css>\r\n\r\nHTTP/1.1 299 Custom Thing\r\nContent-Length: 24\r\n\r\n".utf8 {
            reasons.take([byte])
        }
        reasons.take(Array("HTTP/1.1 200 In The Body\r\n".utf8))
        #expect(reasons.reason(for: 299) == "Custom Thing")
        #expect(reasons.reason(for: 200) == nil, "a body that looks like a status line is not read")
        reasons.expectResponse()
        reasons.take(Array("HTTP/1.1 201 Made It\r".utf8))
        reasons.take(Array("\nContent-Length: 0\r\n\r\n".utf8))
        #expect(reasons.reason(for: 201) == "Made It")
    }

    @Test("the head sent upstream drops the request's framing and Connection fields in any case, keeps its Host, and narrows Accept-Encoding")
    func headSentUpstream() throws {
        let url = try #require(URL(string: "http://127.0.0.1:8080/a?b=1"))
        let origin = try #require(UpstreamTransport.Origin(url))
        let request = HTTPRequest(method: .get, url: url, headers: HTTPHeaders([
            ("HOST", "example.test"), ("content-length", "0"), ("Transfer-encoding", "chunked"), ("CONNECTION", "keep-alive"),
            ("expect", "100-continue"), ("Accept-encoding", "br, gzip"), ("X-Kept", "1"), ("Hosts", "kept too"),
        ]))
        let head = String(buffer: UpstreamTransport.wireHead(of: request, origin: origin))
        #expect(head == "GET /a?b=1 HTTP/1.1\r\nHOST: example.test\r\nAccept-encoding: gzip\r\nX-Kept: 1\r\nHosts: kept too\r\n\r\n")
        let bare = String(buffer: UpstreamTransport.wireHead(of: HTTPRequest(method: .post, url: url), origin: origin))
        #expect(bare == "POST /a?b=1 HTTP/1.1\r\nHost: 127.0.0.1:8080\r\nAccept-Encoding: gzip, deflate\r\nContent-Length: 0\r\n\r\n")
    }

    @Test("a request's head goes upstream as the request line, each field as sent in order, and the empty line, written whole")
    func requestHeadBytes() throws {
        let url = try #require(URL(string: "http://127.0.0.1:8080/items?q=%41&sort"))
        let origin = try #require(UpstreamTransport.Origin(url))
        let request = HTTPRequest(method: .post, url: url, headers: HTTPHeaders([("Host", "127.0.0.1:8080"), ("X-Two", "a"), ("x-two", "b, c")]),
                                  body: Data("abc".utf8))
        #expect(String(buffer: UpstreamTransport.wireHead(of: request, origin: origin))
            == "POST /items?q=%41&sort HTTP/1.1\r\nHost: 127.0.0.1:8080\r\nX-Two: a\r\nx-two: b, c\r\nAccept-Encoding: gzip, deflate\r\nContent-Length: 3\r\n\r\n")
        let root = try #require(URL(string: "http://127.0.0.1:8080"))
        let purge = HTTPRequest(method: try HTTPMethod(validating: "PURGE"), url: root,
                                headers: HTTPHeaders([("Host", "h"), ("Accept-Encoding", "identity")]))
        #expect(String(buffer: UpstreamTransport.wireHead(of: purge, origin: origin))
            == "PURGE / HTTP/1.1\r\nHost: h\r\nAccept-Encoding: identity\r\n\r\n")
        // A long field is written whole, and an Accept-Encoding that
        // grows as it is narrowed ("gzip,gzip" becomes "gzip, gzip") too.
        let cookie = String(repeating: "k=v; ", count: 2000)
        let grown = Array(repeating: "gzip", count: 500).joined(separator: ",")
        let long = HTTPRequest(method: .get, url: url, headers: HTTPHeaders([("Host", "h"), ("Cookie", cookie), ("Accept-Encoding", grown)]))
        let written = String(buffer: UpstreamTransport.wireHead(of: long, origin: origin))
        #expect(written == "GET /items?q=%41&sort HTTP/1.1\r\nHost: h\r\nCookie: \(cookie)\r\nAccept-Encoding: "
            + UpstreamTransport.decodableEncodings(grown) + "\r\n\r\n")
        #expect(UpstreamTransport.decodableEncodings(grown).utf8.count > grown.utf8.count)
        // Room that falls short: the head is written again whole, not cut short.
        for room in [0, 10, 40] {
            #expect(String(buffer: UpstreamTransport.wireHead(of: long, origin: origin, room: room)) == written)
            #expect(String(buffer: UpstreamTransport.wireHead(of: request, origin: origin, room: room))
                == String(buffer: UpstreamTransport.wireHead(of: request, origin: origin)))
        }
        // The narrowest values that grow: an empty Accept-Encoding, and a stream client's, become "identity".
        let stream = HTTPRequest(method: .get, url: url, headers: HTTPHeaders([("Host", "h"), ("Accept", "text/event-stream"), ("Accept-Encoding", "")]))
        #expect(String(buffer: UpstreamTransport.wireHead(of: stream, origin: origin))
            == "GET /items?q=%41&sort HTTP/1.1\r\nHost: h\r\nAccept: text/event-stream\r\nAccept-Encoding: identity\r\n\r\n")
    }

    @Test("status lines read the same wherever the reads split them: whole, in two at every byte, or a byte at a time")
    func statusLinesAcrossSplits() {
        let bytes = Array("\r\nHTTP/1.1 103 Early Hints\r\nLink: </a.css>\r\n\r\nHTTP/1.1 299 Custom Thing\r\nContent-Length: 24\r\n\r\nHTTP/1.1 200 In The Body\r\n".utf8)
        func read(_ pieces: [[UInt8]]) -> [String?] {
            let reasons = StatusLineReasons()
            reasons.expectResponse()
            for piece in pieces { reasons.take(piece) }
            return [reasons.reason(for: 103), reasons.reason(for: 299), reasons.reason(for: 200)]
        }
        let expected: [String?] = ["Early Hints", "Custom Thing", nil]
        #expect(read([bytes]) == expected)
        #expect(read(bytes.map { [$0] }) == expected)
        for split in 1..<bytes.count {
            #expect(read([Array(bytes[..<split]), Array(bytes[split...])]) == expected, "split at \(split)")
        }
        // A line over the longest read keeps no phrase, and the next answer's line is read again.
        let reasons = StatusLineReasons()
        reasons.expectResponse()
        reasons.take(Array(("HTTP/1.1 200 " + String(repeating: "x", count: StatusLineReasons.maximumLine)).utf8))
        reasons.take(Array("\r\n".utf8))
        #expect(reasons.reason(for: 200) == nil)
        reasons.expectResponse()
        reasons.take(Array("HTTP/1.1 201 Short\r\n".utf8))
        #expect(reasons.reason(for: 201) == "Short")
    }

    @Test("status lines parse to their code and phrase; anything else, or a phrase with control characters, to nothing")
    func statusLines() {
        func parse(_ line: String) -> String? { StatusLineReasons.parse(Array(line.utf8)).map { "\($0.code) \($0.reason)" } }
        #expect(parse("HTTP/1.1 200 OK\r") == "200 OK")
        #expect(parse("HTTP/1.0 599 Network Connect Timeout Error") == "599 Network Connect Timeout Error")
        #expect(parse("HTTP/1.1 204") == "204 ")
        #expect(parse("HTTP/1.1 20 OK") == nil)
        #expect(parse("HTTP/1.1 2000 OK") == nil)
        #expect(parse("ICY 200 OK") == nil)
        #expect(parse("HTTP/1.1 200 O\u{1B}[31mK") == nil)
    }

    @Test("a POST on a kept-alive connection the upstream drops is not sent again: it may have been carried out")
    func postNotResent() async throws {
        let seen = Mutex<[String]>([])
        let listener = try await Self.upstream { request, number in
            seen.withLock { $0.append("\(request.method) \(request.target)") }
            return number == 2 ? ServerReply(response: HTTPResponse(status: 200), fault: .reset) : .text(200, "answer \(number)")
        }
        let transport = try UpstreamTransport()
        #expect(try await Self.send(transport, listener, "/first").text == "answer 1")
        do {
            _ = try await Self.send(transport, listener, "/order", method: .post, body: Data("x".utf8))
            Issue.record("the dropped POST answered")
        } catch let error as HTTPError {
            #expect(error.errorDescription?.contains("not sent twice") == true, "\(error)")
        }
        #expect(seen.withLock { $0 } == ["GET /first", "POST /order"], "the POST reached the upstream once")
        #expect(try await Self.send(transport, listener, "/after", method: .post).text == "answer 3")
        transport.shutdown()
        await listener.close()
    }

    @Test("an answer in a coding it cannot decode is an error naming the coding, not bytes without their coding")
    func undecodableCoding() async throws {
        let listener = try await Self.upstream { _, _ in
            ServerReply(response: HTTPResponse(status: 200, headers: ["Content-Encoding": "br", "Content-Type": "text/plain"], body: Data([0x8B, 1, 2, 3])))
        }
        let transport = try UpstreamTransport()
        do {
            _ = try await Self.send(transport, listener, "/br")
            Issue.record("a br body was handed on")
        } catch let error as HTTPError {
            #expect(error.errorDescription?.contains("Content-Encoding br") == true, "\(error)")
        }
        transport.shutdown()
        await listener.close()
    }

    @Test("a stream of many tiny pieces that arrive together is kept as the reads that brought them, not piece by piece")
    func tinyPiecesJoined() async throws {
        // 2,000 one-byte HTTP chunks written at once: they arrive in a few reads, not 2,000.
        var answer = Data("HTTP/1.1 200 OK\r\nContent-Type: application/x-ndjson\r\nTransfer-Encoding: chunked\r\n\r\n".utf8)
        for _ in 0..<2000 { answer.append(Data("1\r\nz\r\n".utf8)) }
        answer.append(Data("0\r\n\r\n".utf8))
        let upstream = try OneShotUpstream(answer: answer)
        defer { upstream.stop() }
        let transport = try UpstreamTransport()
        let observed = Atomic<Int>(0)
        let observer = ResponseObserver(head: { _ in true }, chunk: { _ in
            observed.add(1, ordering: .relaxed)
            return true
        })
        let request = HTTPRequest(url: URL(string: "http://127.0.0.1:\(upstream.port)/tiny")!)
        let response = try await ResponseObserver.$current.withValue(observer) { try await transport.send(request) }
        #expect(response.body == Data(String(repeating: "z", count: 2000).utf8))
        let chunks = response.chunks?.count ?? 0
        #expect(chunks >= 1 && chunks < 100, "\(chunks) chunks for 2,000 pieces sent at once")
        #expect(observed.load(ordering: .relaxed) == chunks, "the observer saw each chunk kept")
        transport.shutdown()
    }

    @Test("a POST's body and length reach the upstream, a HEAD answer has no body, and headers keep their order")
    func methodsAndBodies() async throws {
        let listener = try await Self.upstream { request, _ in
            let echo = "\(request.method) length=\(request.headers["Content-Length"] ?? "none") body=\(String(decoding: request.body, as: UTF8.self))"
            return ServerReply(response: HTTPResponse(status: 201, headers: HTTPHeaders([("X-B", "2"), ("X-A", "1"), ("Content-Type", "text/plain")]),
                                                      body: Data(echo.utf8)))
        }
        let transport = try UpstreamTransport()
        let posted = try await Self.send(transport, listener, "/p", method: .post, headers: ["Content-Type": "text/plain"], body: Data("hello".utf8))
        #expect(posted.status == 201 && posted.text == "POST length=5 body=hello", "\(posted.text ?? "")")
        #expect(posted.headers.map { $0.name }.filter { $0.hasPrefix("X-") } == ["X-B", "X-A"])
        let empty = try await Self.send(transport, listener, "/p", method: .post)
        #expect(empty.text == "POST length=0 body=", "\(empty.text ?? "")")
        let head = try await Self.send(transport, listener, "/h", method: .head)
        #expect(head.status == 201 && head.body.isEmpty)
        #expect(try await Self.send(transport, listener, "/after-head").text?.hasPrefix("GET") == true, "the connection still reads answers after a HEAD")
        #expect(listener.acceptedConnections == 1)
        transport.shutdown()
        await listener.close()
    }

    @Test("a gzip body is decoded, and Accept-Encoding asks only for what can be decoded")
    func decodesGzip() async throws {
        // gzip of "hello, decoded world\n" three times.
        let gzipped = Data([31, 139, 8, 0, 0, 0, 0, 0, 2, 3, 203, 72, 205, 201, 201, 215, 81, 72, 73, 77, 206, 79, 73, 77, 81, 40, 207, 47, 202,
                            73, 225, 202, 32, 90, 16, 0, 220, 166, 44, 8, 63, 0, 0, 0])
        let listener = try await Self.upstream { request, _ in
            ServerReply(response: HTTPResponse(status: 200, headers: ["Content-Encoding": "gzip", "X-Asked": request.headers["Accept-Encoding"] ?? "none"],
                                               body: gzipped))
        }
        let transport = try UpstreamTransport()
        let plain = try await Self.send(transport, listener, "/z")
        #expect(plain.text == String(repeating: "hello, decoded world\n", count: 3), "\(plain.body.count) bytes")
        #expect(plain.headers["X-Asked"] == "gzip, deflate")
        let narrowed = try await Self.send(transport, listener, "/z", headers: ["Accept-Encoding": "br, zstd;q=0.9, gzip;q=0.8"])
        #expect(narrowed.headers["X-Asked"] == "gzip;q=0.8")
        let none = try await Self.send(transport, listener, "/z", headers: ["Accept-Encoding": "br"])
        #expect(none.headers["X-Asked"] == "identity")
        // Codings it decodes, written as it writes them, reach the upstream as the client sent them.
        let kept = try await Self.send(transport, listener, "/z", headers: ["Accept-Encoding": "deflate, GZip;q=0.5"])
        #expect(kept.headers["X-Asked"] == "deflate, GZip;q=0.5")
        let respaced = try await Self.send(transport, listener, "/z", headers: ["Accept-Encoding": "gzip,deflate"])
        #expect(respaced.headers["X-Asked"] == "gzip, deflate")
        // A stream is asked for uncompressed, so its events can be passed on as they come.
        let events = try await Self.send(transport, listener, "/z", headers: ["Accept": "text/event-stream", "Accept-Encoding": "gzip"])
        #expect(events.headers["X-Asked"] == "identity")

        // Chunked and compressed, as most servers send JSON: decoded whole, not kept compressed.
        let chunked = try await Self.upstream { _, _ in
            let (pieces, continuation) = AsyncStream<Data>.makeStream(bufferingPolicy: .unbounded)
            continuation.yield(gzipped.prefix(20))
            continuation.yield(gzipped.dropFirst(20))
            continuation.finish()
            return ServerReply(response: HTTPResponse(status: 200, headers: ["Content-Type": "application/json", "Content-Encoding": "gzip"]),
                               stream: StreamBody(pieces))
        }
        let whole = try await Self.send(transport, chunked, "/chunked")
        #expect(whole.text == String(repeating: "hello, decoded world\n", count: 3) && whole.chunks == nil, "\(whole.body.count) bytes")
        await chunked.close()

        var small = UpstreamTransport.Options()
        small.limits = BodyLimits(maximumBodySize: 20)
        await #expect(throws: HTTPError.self) { try await Self.send(try UpstreamTransport(options: small), listener, "/z") }
        transport.shutdown()
        await listener.close()
    }

    /// An upstream sending three server-sent events 150 ms apart.
    static func eventStream() async throws -> HTTPListener {
        try await upstream { _, _ in
            let chunks = (0..<3).map { BodyChunk(offset: Double($0) * 0.15, data: Data("data: \($0)\n\n".utf8)) }
            return ServerReply(response: HTTPResponse(status: 200, headers: ["Content-Type": "text/event-stream"]),
                               stream: .replaying(chunks, latency: .recorded))
        }
    }

    @Test("a stream is shown to the observer chunk by chunk as it arrives, and keeps its chunks and their times")
    func observesStream() async throws {
        let listener = try await Self.eventStream()
        let seen = Mutex<[(Double, String)]>([])
        let heads = Atomic<Int>(0)
        let observer = ResponseObserver(head: { head in
            heads.add(1, ordering: .relaxed)
            return head.isStream
        }, chunk: { chunk in
            seen.withLock { $0.append((chunk.offset, String(decoding: chunk.data, as: UTF8.self))) }
            return true
        })
        let transport = try UpstreamTransport()
        let response = try await ResponseObserver.$current.withValue(observer) { try await Self.send(transport, listener, "/events") }
        let chunks = seen.withLock { $0 }
        #expect(heads.load(ordering: .relaxed) == 1)
        #expect(chunks.map(\.1).joined() == "data: 0\n\ndata: 1\n\ndata: 2\n\n", "\(chunks)")
        #expect(response.text == "data: 0\n\ndata: 1\n\ndata: 2\n\n")
        #expect((response.chunks?.count ?? 0) >= 3)
        #expect((chunks.last?.0 ?? 0) >= 0.2, "the last event came about 300 ms after the head: \(chunks)")
        transport.shutdown()
        await listener.close()
    }

    @Test("an observer whose reader left ends the stream with what arrived, as an answer")
    func readerLeaves() async throws {
        let listener = try await Self.eventStream()
        let observer = ResponseObserver(head: { _ in true }, chunk: { _ in false })
        let transport = try UpstreamTransport()
        let response = try await ResponseObserver.$current.withValue(observer) { try await Self.send(transport, listener, "/events") }
        #expect(response.text == "data: 0\n\n", "it did not wait for the rest of the stream")
        transport.shutdown()
        await listener.close()
    }

    @Test("a POST with no body goes out with Content-Length 0 and no type, from curl as from the upstream transport")
    func emptyPost() async throws {
        let upstream = try await Self.upstream { request, _ in
            .text(200, "\(request.headers["Content-Length"] ?? "none") \(request.headers["Content-Type"] ?? "none") \(request.body.count)")
        }
        let request = HTTPRequest(method: .post, url: URL(string: "http://127.0.0.1:\(upstream.port)/empty")!)
        for transport in [CurlTransport() as any HTTPTransport, try UpstreamTransport() as any HTTPTransport] {
            for _ in 0..<20 {
                let response = try await transport.send(request)
                #expect(String(decoding: response.body, as: UTF8.self) == "0 none 0", "\(type(of: transport))")
            }
        }
        await upstream.close()
    }

    @Test("an answer whose body stops short of its Content-Length says how much of it came")
    func bodyCutShort() async throws {
        let short = try OneShotUpstream(answer: Data("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nshort".utf8))
        defer { short.stop() }
        let transport = try UpstreamTransport(options: .init(timeout: 5))
        defer { transport.shutdown() }
        let url = "http://127.0.0.1:\(short.port)/cut"
        do {
            _ = try await transport.send(HTTPRequest(url: URL(string: url)!))
            Issue.record("an answer cut short was taken whole")
        } catch let error as HTTPError {
            #expect(error == .noResponse(url: url, detail: "the upstream closed the connection after 5 of the 100 body bytes its Content-Length announced"),
                    "\(error)")
        }
    }

    @Test("a refused port, a slow upstream, an unknown host and a cancelled task give the errors every transport gives")
    func failures() async throws {
        let closed = try await Self.upstream { _, _ in .text(200, "") }
        let port = closed.port
        await closed.close()
        let transport = try UpstreamTransport(options: .init(timeout: 0.3))
        do {
            _ = try await transport.send(HTTPRequest(url: URL(string: "http://127.0.0.1:\(port)/")!))
            Issue.record("a closed port answered")
        } catch let error as HTTPError {
            #expect(error == .cannotConnect(host: "127.0.0.1", port: port), "\(error)")
        }

        let slow = try await Self.upstream { _, _ in
            try? await Task.sleep(for: .seconds(3))
            return .text(200, "late")
        }
        do {
            _ = try await Self.send(transport, slow, "/slow")
            Issue.record("a slow upstream answered within the timeout")
        } catch let error as HTTPError {
            #expect(error == .timedOut(url: slow.url.absoluteString + "/slow", seconds: 0.3), "\(error)")
        }

        do {
            _ = try await transport.send(HTTPRequest(url: URL(string: "http://no-such-host.invalid/")!))
            Issue.record("an unknown host answered")
        } catch let error as HTTPError {
            #expect(error == .hostNotFound("no-such-host.invalid"), "\(error)")
        }

        let patient = try UpstreamTransport(options: .init(timeout: 30))
        let task = Task { try await Self.send(patient, slow, "/slow") }
        try await Task.sleep(for: .milliseconds(200))
        task.cancel()
        let started = ContinuousClock.now
        do {
            _ = try await task.value
            Issue.record("a cancelled request answered")
        } catch let error as HTTPError {
            #expect(error == .cancelled(url: slow.url.absoluteString + "/slow"), "\(error)")
        }
        #expect(ContinuousClock.now - started < .seconds(2))
        transport.shutdown()
        patient.shutdown()
        await slow.close()
    }

    @Test("Accept-Encoding is narrowed to the codings the transport decodes; a list of them already as written is sent as it came")
    func decodableEncodings() {
        // The rule as first written: every item taken apart, trimmed, kept if decodable, joined with ", ".
        func reference(_ value: String) -> String {
            let kept = value.split(separator: ",").map { $0.trimmingHTTPSpace() }.filter { item in
                let coding = item.split(separator: ";").first.map { $0.trimmingHTTPSpace().lowercased() } ?? ""
                return ["gzip", "x-gzip", "deflate", "identity"].contains(coding)
            }
            return kept.isEmpty ? "identity" : kept.joined(separator: ", ")
        }
        #expect(UpstreamTransport.isDecodableAsWritten("gzip, deflate"))
        #expect(UpstreamTransport.isDecodableAsWritten("GZip;q=1.0, identity;q=0.5"))
        #expect(!UpstreamTransport.isDecodableAsWritten("gzip, deflate, br"), "br is not decoded")
        #expect(!UpstreamTransport.isDecodableAsWritten("gzip,deflate"), "the list is written again with \", \"")
        #expect(!UpstreamTransport.isDecodableAsWritten(""))
        #expect(UpstreamTransport.decodableEncodings("gzip, deflate, br") == "gzip, deflate")
        #expect(UpstreamTransport.decodableEncodings("br, zstd") == "identity")
        let items = ["gzip", "GZIP", "x-gzip", "deflate", "identity", "br", "zstd", "gzip;q=0.5", "deflate ;q=1", " gzip", "gzip ", "",
                     " ", "*", "gzíp", "\tdeflate"]
        let separators = [",", ", ", " ,", ",  ", ",\t", ", ,"]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<20_000 {
            let count = Int.random(in: 1...4, using: &generator)
            var value = items.randomElement(using: &generator) ?? ""
            for _ in 1..<count {
                value += (separators.randomElement(using: &generator) ?? ",") + (items.randomElement(using: &generator) ?? "")
            }
            #expect(UpstreamTransport.decodableEncodings(value) == reference(value), "\(value.debugDescription)")
        }
    }
}
