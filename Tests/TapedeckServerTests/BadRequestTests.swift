import Foundation
import Tapedeck
import TapedeckServer
import Testing

/// Malformed, oversized, slow and abandoned requests get a clear answer or a closed
/// connection, and the server keeps serving everyone else.
@Suite("Bad requests")
struct BadRequestTests {
    static func withServer(limits: ServerLimits, _ body: (CassetteServer) async throws -> Void) async throws {
        let directory = try Proc.temporaryDirectory()
        defer { Proc.cleanUp(directory) }
        let file = try SampleCassettes.write(SampleCassettes.single(path: "/ok", text: "still serving"), to: directory)
        var options = DeckOptions(allowRepeats: true)
        options.limits = limits
        let server = try await CassetteServer.serve([file], options: options)
        do {
            try await body(server)
            let result = try await Proc.run(Proc.curl, ["-s", server.url.absoluteString + "/ok"])
            #expect(result.text == "still serving", "the server answers others afterwards")
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }

    /// Sends `bytes` on a fresh connection off the cooperative pool and returns all that comes back.
    static func exchange(_ port: Int, _ bytes: Data) async throws -> Data {
        let socket = try RawSocket(port: port)
        return await Blocking.run {
            socket.send(bytes)
            return socket.readToEnd()
        }
    }

    @Test("a malformed request line gets 400 and the connection closes")
    func malformedRequestLine() async throws {
        try await Self.withServer(limits: ServerLimits()) { server in
            let answer = try await Self.exchange(server.listener.port, Data("GET\u{1} nonsense\r\n\r\n".utf8))
            let raw = try #require(RawResponse(answer))
            #expect(raw.status == 400)
            #expect(raw.values(ServerMarker.errorHeader) == ["400"])
        }
    }

    @Test("headers over 64 KB get 431 naming the limit")
    func headersTooLarge() async throws {
        try await Self.withServer(limits: ServerLimits()) { server in
            let big = "GET /ok HTTP/1.1\r\nHost: x\r\n" + (0..<80).map { "X-Filler-\($0): \(String(repeating: "a", count: 1000))\r\n" }.joined() + "\r\n"
            let raw = try #require(RawResponse(try await Self.exchange(server.listener.port, Data(big.utf8))))
            #expect(raw.status == 431)
            #expect(String(decoding: raw.body, as: UTF8.self).contains("over the limit of 65536 bytes"))
        }
    }

    @Test("a URL longer than the head's limit gets 414 saying the URL is too long; a head with two framings gets 400 naming them")
    func namedRefusals() async throws {
        try await Self.withServer(limits: ServerLimits()) { server in
            let long = "GET /ok/" + String(repeating: "a", count: 100_000) + " HTTP/1.1\r\nHost: x\r\n\r\n"
            let tooLong = try #require(RawResponse(try await Self.exchange(server.listener.port, Data(long.utf8))))
            #expect(tooLong.status == 414)
            #expect(String(decoding: tooLong.body, as: UTF8.self).contains("the URL is too long"), "\(String(decoding: tooLong.body, as: UTF8.self))")
            let both = "POST /ok HTTP/1.1\r\nHost: x\r\ncontent-length: 3\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n"
            let framed = try #require(RawResponse(try await Self.exchange(server.listener.port, Data(both.utf8))))
            #expect(framed.status == 400)
            #expect(String(decoding: framed.body, as: UTF8.self).contains("both Content-Length and Transfer-Encoding"),
                    "\(String(decoding: framed.body, as: UTF8.self))")
        }
    }

    @Test("a body over the limit gets 413, by Content-Length or as it streams in chunks")
    func bodyTooLarge() async throws {
        try await Self.withServer(limits: ServerLimits(maxBodyBytes: 1000)) { server in
            let declared = "POST /ok HTTP/1.1\r\nHost: x\r\nContent-Length: 5000\r\n\r\n" + String(repeating: "b", count: 5000)
            let first = try #require(RawResponse(try await Self.exchange(server.listener.port, Data(declared.utf8))))
            #expect(first.status == 413)
            #expect(String(decoding: first.body, as: UTF8.self).contains("--max-body"))
            let chunk = String(repeating: "c", count: 600)
            let chunked = "POST /ok HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n258\r\n\(chunk)\r\n258\r\n\(chunk)\r\n0\r\n\r\n"
            let second = try #require(RawResponse(try await Self.exchange(server.listener.port, Data(chunked.utf8))))
            #expect(second.status == 413)
        }
    }

    @Test("a read timeout past what the clock counts is no limit, not a crash")
    func hugeReadTimeout() async throws {
        for seconds in [1e10, 1e300] {
            try await Self.withServer(limits: ServerLimits(readTimeout: seconds)) { _ in }
        }
    }

    @Test("a client that sends its headers a byte at a time is dropped after the read timeout")
    func slowloris() async throws {
        try await Self.withServer(limits: ServerLimits(readTimeout: 1)) { server in
            let socket = try RawSocket(port: server.listener.port)
            let request = Array("GET /ok HTTP/1.1\r\nHost: x\r\nX-Slow: \(String(repeating: "z", count: 200))\r\n\r\n".utf8)
            let outcome: (closed: Bool, sent: Int) = await Blocking.run {
                var sent = 0
                for byte in request {
                    guard socket.send(Data([byte])) else { break }
                    sent += 1
                    Thread.sleep(forTimeInterval: 0.05)
                }
                return (socket.waitForClose(), sent)
            }
            #expect(outcome.closed)
            #expect(outcome.sent < request.count, "the server closed before the headers were complete")
        }
    }

    @Test("a kept-alive connection in use for longer than the read timeout stays open, and closes once idle for that long")
    func readTimeoutCountsFromIdle() async throws {
        try await Self.withServer(limits: ServerLimits(readTimeout: 1)) { server in
            let socket = try RawSocket(port: server.listener.port)
            let started = ContinuousClock.now
            let outcome: (answers: Int, closed: Bool) = await Blocking.run {
                var answers = 0
                // Eight requests 0.3 s apart: 2.4 s on one connection, never idle for a second.
                for _ in 0..<8 {
                    guard socket.send("GET /ok HTTP/1.1\r\nHost: x\r\n\r\n") else { break }
                    let answer = socket.read(until: { String(decoding: $0, as: UTF8.self).hasSuffix("still serving") })
                    guard String(decoding: answer, as: UTF8.self).hasSuffix("still serving") else { break }
                    answers += 1
                    Thread.sleep(forTimeInterval: 0.3)
                }
                return (answers, socket.waitForClose())
            }
            #expect(outcome.answers == 8, "the connection stayed open while in use")
            #expect(outcome.closed)
            #expect(ContinuousClock.now - started < .seconds(5), "closed about a second after the last answer")
        }
    }

    @Test("an answer goes out with its recorded fields in order and case, its true length, and no fields of another hop")
    func wireFields() async throws {
        let directory = try Proc.temporaryDirectory()
        defer { Proc.cleanUp(directory) }
        let fields: HTTPHeaders = HTTPHeaders([("x-first", "1"), ("content-length", "5"), ("Connection", "keep-alive"), ("Keep-Alive", "timeout=5"),
                                               ("Transfer-Encoding", "chunked"), ("X-Last", "2")])
        let cassette = Cassette(interactions: [
            Interaction(request: HTTPRequest(url: SampleCassettes.url("/wire")), response: HTTPResponse(status: 200, headers: fields, body: Data("hello".utf8))),
            Interaction(request: HTTPRequest(url: SampleCassettes.url("/none")), response: HTTPResponse(status: 204, headers: fields)),
        ], metadata: [Cassette.MetadataKey.baseURL: SampleCassettes.origin])
        let server = try await CassetteServer.serve([try SampleCassettes.write(cassette, to: directory)], options: DeckOptions(allowRepeats: true))
        let port = server.listener.port
        let answer = try #require(RawResponse(try await Self.exchange(port, Data("GET /wire HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".utf8))))
        #expect(answer.headers.map(\.0) == ["x-first", "content-length", "X-Last", "Connection"], "\(answer.headers)")
        #expect(answer.values("content-length") == ["5"] && answer.values("Connection") == ["close"])
        #expect(String(decoding: answer.body, as: UTF8.self) == "hello")
        let empty = try #require(RawResponse(try await Self.exchange(port, Data("GET /none HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".utf8))))
        #expect(empty.status == 204 && empty.headers.map(\.0) == ["x-first", "X-Last", "Connection"], "\(empty.headers)")
        await server.stop()
    }

    @Test("a client that disconnects mid-body leaves the server serving")
    func disconnectMidBody() async throws {
        try await Self.withServer(limits: ServerLimits()) { server in
            for _ in 0..<5 {
                let socket = try RawSocket(port: server.listener.port)
                socket.send("POST /ok HTTP/1.1\r\nHost: x\r\nContent-Length: 100000\r\n\r\n" + String(repeating: "d", count: 1000))
            }
        }
    }
}
