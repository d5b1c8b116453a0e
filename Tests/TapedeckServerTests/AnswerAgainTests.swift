import Foundation
import NIOPosix
import Synchronization
import Tapedeck
@testable import TapedeckServer
import Testing

/// A replayed answer the handlers would give again is given again by the lane to the same head
/// bytes, without asking them (``AnswerAgain``). These prove which answers are marked, that a
/// change of the tapes ends them, and that each play is still counted.
@Suite("Answers given again")
struct AnswerAgainTests {
    static func text(_ body: String) -> HTTPResponse {
        HTTPResponse(status: 200, headers: ["Content-Type": "text/plain"], body: Data(body.utf8))
    }

    /// `/once` recorded once, `/twice` twice ("one", then "two").
    static let sequence = Cassette(interactions: [
        Interaction(request: HTTPRequest(url: SampleCassettes.url("/once")), response: text("once")),
        Interaction(request: HTTPRequest(url: SampleCassettes.url("/twice")), response: text("one")),
        Interaction(request: HTTPRequest(url: SampleCassettes.url("/twice")), response: text("two")),
    ])

    /// A deck at the sample origin with `cassette` loaded, and the file's directory.
    static func deck(_ cassette: Cassette, _ options: DeckOptions) throws -> (Deck, URL) {
        let directory = try Proc.temporaryDirectory()
        let file = try SampleCassettes.write(cassette, to: directory)
        let deck = Deck(options: options, origin: try #require(URL(string: SampleCassettes.origin)))
        try deck.load(path: file.path)
        return (deck, directory)
    }

    static func ask(_ deck: Deck, _ target: String, method: String = "GET", headers: HTTPHeaders = [:]) -> ServerReply? {
        deck.respondAtOnce(IncomingRequest(method: method, target: target, headers: HTTPHeaders([HTTPHeader(name: "Host", value: "api.example.test")] + headers.fields))).reply
    }

    @Test("marked: the last of a request's interactions on a cassette that repeats; not before it, nor a HEAD")
    func marked() throws {
        let (deck, directory) = try Self.deck(Self.sequence, DeckOptions(allowRepeats: true))
        defer { Proc.cleanUp(directory) }
        #expect(Self.ask(deck, "/once")?.again != nil)
        #expect(Self.ask(deck, "/once")?.again != nil)
        let first = try #require(Self.ask(deck, "/twice"))
        #expect(first.again == nil, "one more interaction of /twice is still unplayed")
        #expect(first.response.body == Data("one".utf8))
        let second = try #require(Self.ask(deck, "/twice"))
        #expect(second.response.body == Data("two".utf8))
        let again = try #require(second.again)
        #expect(again.holds)
        #expect(Self.ask(deck, "/once", method: "HEAD")?.again == nil, "a HEAD's answer has no held bytes")
        #expect(Self.ask(deck, "/missing")?.again == nil, "a miss is not a replayed answer")
    }

    @Test("not marked: without repeats, with a credential, with placeholder patterns, with the inspector on")
    func notMarked() throws {
        let (plain, first) = try Self.deck(Self.sequence, DeckOptions())
        defer { Proc.cleanUp(first) }
        #expect(Self.ask(plain, "/once")?.again == nil, "without repeats, the next /once would be a miss: nothing is given again")

        let (repeating, second) = try Self.deck(Self.sequence, DeckOptions(allowRepeats: true))
        defer { Proc.cleanUp(second) }
        #expect(Self.ask(repeating, "/once", headers: ["Authorization": "Bearer abc"])?.again == nil,
                "a credential is learned for later matching: each such request is asked")

        var patterned = Self.sequence
        patterned.interactions.append(Interaction(request: HTTPRequest(url: SampleCassettes.url("/items/%3CREDACTED%3E")), response: Self.text("item")))
        let (withPattern, third) = try Self.deck(patterned, DeckOptions(allowRepeats: true))
        defer { Proc.cleanUp(third) }
        #expect(Self.ask(withPattern, "/once")?.response.body == Data("once".utf8))
        #expect(Self.ask(withPattern, "/once")?.again == nil, "a placeholder pattern could still be unplayed")

        var inspecting = DeckOptions(allowRepeats: true)
        inspecting.inspector = true
        let (inspected, fourth) = try Self.deck(Self.sequence, inspecting)
        defer { Proc.cleanUp(fourth) }
        #expect(Self.ask(inspected, "/once")?.again == nil, "the inspector publishes every answer")
    }

    @Test("not marked: an answer from a tape after one that missed, whose choice could still change")
    func laterTapeNotMarked() throws {
        let first = Cassette(interactions: [Interaction(request: HTTPRequest(url: SampleCassettes.url("/elsewhere")), response: Self.text("x"))])
        let (deck, directory) = try Self.deck(first, DeckOptions(allowRepeats: true))
        defer { Proc.cleanUp(directory) }
        try deck.load(path: SampleCassettes.write(Self.sequence, to: directory, name: "second.cassette.json").path)
        let reply = try #require(Self.ask(deck, "/once"))
        #expect(reply.response.body == Data("once".utf8), "the second tape answers")
        #expect(reply.again == nil)
    }

    @Test("every change of the tapes ends every answer given again: a load, a reset, a switch, recording started and stopped")
    func tapesChange() throws {
        let (deck, directory) = try Self.deck(Self.sequence, DeckOptions(allowRepeats: true))
        defer { Proc.cleanUp(directory) }
        var answer = try #require(Self.ask(deck, "/once")?.again)
        func changed(_ change: () throws -> Void, _ comment: Comment) throws {
            #expect(answer.holds)
            try change()
            #expect(!answer.holds, comment)
            answer = try #require(Self.ask(deck, "/once")?.again)
        }
        let other = try SampleCassettes.write(Self.sequence, to: directory, name: "other.cassette.json")
        try changed({ try deck.load(path: other.path, mount: "/v2") }, "a load")
        try changed({ try deck.reset() }, "a reset")
        try changed({ try deck.switchTo(paths: [other.path]) }, "a switch")
        let upstream = try #require(URL(string: "http://127.0.0.1:9"))
        let recording = try SampleCassettes.write(Self.sequence, to: directory, name: "recording.cassette.json")
        try changed({ try deck.startRecording(path: recording.path, mode: .new, upstream: upstream, mount: "/rec") },
                    "recording started")
        try changed({ try deck.stopRecording() }, "recording stopped")
    }

    /// Sends `target` on `socket` and reads its whole answer; returns the body.
    static func body(_ socket: RawSocket, _ target: String) async -> String {
        await Blocking.run {
            socket.send("GET \(target) HTTP/1.1\r\nHost: api.example.test\r\nUser-Agent: answer-again\r\n\r\n")
            let data = socket.read(until: { data in
                guard let end = data.range(of: Data("\r\n\r\n".utf8)),
                      let length = String(decoding: data[..<end.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
                          .first(where: { $0.lowercased().hasPrefix("content-length:") }).flatMap({ Int($0.dropFirst(15).trimmingCharacters(in: .whitespaces)) })
                else { return false }
                return data.count >= end.upperBound + length
            })
            guard let end = data.range(of: Data("\r\n\r\n".utf8)) else { return "" }
            return String(decoding: data[end.upperBound...], as: UTF8.self)
        }
    }

    /// How many requests a responder was asked.
    final class Asked: Sendable {
        let count = Atomic(0)
    }

    /// Runs `body` with a listener whose responder counts the requests it is asked, answering
    /// from a deck with `cassette` (repeating); the count and the listener's port.
    static func counting(_ cassette: Cassette, _ body: (Deck, Asked, Int) async throws -> Void) async throws {
        let (deck, directory) = try Self.deck(cassette, DeckOptions(allowRepeats: true))
        defer { Proc.cleanUp(directory) }
        let asked = Asked()
        let responder = ServerResponder(atOnce: { request in
            asked.count.add(1, ordering: .relaxed)
            return deck.respondAtOnce(request)
        }, later: { await deck.respond($0) })
        deck.tapesVersion.whenAdvanced { [books = responder.books] in books.dropStale() }
        let listener = try await HTTPListener.bind(host: "127.0.0.1", port: 0, answering: responder)
        do { try await body(deck, asked, listener.port) } catch {
            await listener.close()
            throw error
        }
        await listener.close()
    }

    @Test("the same head again is not asked of the handlers: one after another, pipelined, and in pieces")
    func notAskedAgain() async throws {
        try await Self.counting(Self.sequence) { deck, asked, port in
            let socket = try RawSocket(port: port)
            for _ in 0..<4 { #expect(await Self.body(socket, "/once") == "once") }
            #expect(asked.count.load(ordering: .relaxed) == 2, "asked until its head came a second time, then given again")

            // Three identical heads in one write, then a different one.
            let head = "GET /once HTTP/1.1\r\nHost: api.example.test\r\nUser-Agent: answer-again\r\n\r\n"
            let answers = await Blocking.run {
                socket.send(head + head + head + "GET /twice HTTP/1.1\r\nHost: api.example.test\r\nConnection: close\r\n\r\n")
                return socket.readToEnd()
            }
            let text = String(decoding: answers, as: UTF8.self)
            #expect(text.components(separatedBy: "HTTP/1.1 200").count == 5, "\(text.debugDescription)")
            #expect(text.hasSuffix("one"), "the different request is answered after them, in order")
            #expect(asked.count.load(ordering: .relaxed) == 3, "only the different request was asked")

            // The head in two pieces on a new connection: asked at most twice (when the connection
            // runs on another event loop than the first), then given again.
            let other = try RawSocket(port: port)
            var counts: [Int] = []
            for round in 0..<3 {
                let body = await Blocking.run {
                    other.send(String(head.prefix(20)))
                    usleep(50_000)
                    other.send(String(head.dropFirst(20)))
                    return String(decoding: other.read(until: { $0.count > 0 && String(decoding: $0, as: UTF8.self).hasSuffix("once") }), as: UTF8.self)
                }
                #expect(body.hasSuffix("once"), "round \(round)")
                counts.append(asked.count.load(ordering: .relaxed))
            }
            #expect(counts[2] == counts[1], "the third head in pieces was given again: \(counts)")
            #expect(counts[2] <= 5)
            #expect(deck.status.cassettes.first?.played == 11)
        }
    }

    @Test("connections share what their event loop keeps: the same head on many connections is asked twice a loop at most")
    func sharedByConnections() async throws {
        try await Self.counting(Self.sequence) { deck, asked, port in
            // Alone, each connection would ask twice before keeping its answer, and 2 × loops + 2
            // of them would ask more often than twice for each loop.
            let loops = MultiThreadedEventLoopGroup.singleton.makeIterator().reduce(0) { count, _ in count + 1 }
            let connections = 2 * loops + 2
            for _ in 0..<connections {
                let socket = try RawSocket(port: port)
                for _ in 0..<2 { #expect(await Self.body(socket, "/once") == "once") }
            }
            #expect(asked.count.load(ordering: .relaxed) <= 2 * loops, "\(2 * connections) requests on \(connections) connections, asked twice for each of \(loops) loops at most")
            #expect(deck.status.cassettes.first?.played == 2 * connections)
        }
    }

    @Test("a head's end is its first empty line, within the limit", arguments: [
        ("GET / HTTP/1.1\r\n\r\n", 100, 18), ("\r\n\r\nrest", 100, 4), ("GET / HTTP/1.1\r\nA: b\r\n\r\nGET", 100, 24),
        ("GET / HTTP/1.1\n\r\n\r\n", 100, 19), ("GET / HTTP/1.1\r\n\n\r\n", 100, nil), ("GET / HTTP/1.1\r\n", 100, nil),
        ("GET / HTTP/1.1\r\n\r\n", 17, nil), ("\r\n\r", 100, nil), ("", 100, nil),
    ] as [(String, Int, Int?)])
    func headEnd(_ text: String, limit: Int, end: Int?) {
        #expect(Array(text.utf8).withUnsafeBytes { PlainRequestHead.end(of: $0, within: limit) } == end)
    }

    @Test("a book finds a head only whole, through the same tunnel, while its answer holds, keeps a bounded number, and lets go at a change")
    func book() async throws {
        let (deck, directory) = try Self.deck(Self.sequence, DeckOptions(allowRepeats: true))
        defer { Proc.cleanUp(directory) }
        let reply = try #require(Self.ask(deck, "/once"))
        let again = try #require(reply.again)
        let bytes = try #require(reply.wire)
        let books = AnswerBooks()
        deck.tapesVersion.whenAdvanced { books.dropStale() }
        let loop = MultiThreadedEventLoopGroup.singleton.next()
        let book = books.book(for: loop)
        #expect(books.book(for: loop) === book, "one book a loop")
        let head = Array("GET /once HTTP/1.1\r\nHost: a\r\n\r\n".utf8)
        let found = try await loop.submit { () -> [Bool] in
            func find(_ bytes: [UInt8], _ origin: String? = nil) -> Bool { bytes.withUnsafeBytes { book.find($0, tunnelOrigin: origin) } != nil }
            head.withUnsafeBytes { book.keep($0, tunnelOrigin: nil, bytes: bytes, again: again) }
            let emptyAfterOne = book.isEmpty
            head.withUnsafeBytes { book.keep($0, tunnelOrigin: nil, bytes: bytes, again: again) }
            var other = head
            other[5] = UInt8(ascii: "x")
            return [emptyAfterOne, find(head), !find(head, "https://api.example.test:443"), !find(Array(head.dropLast(2))), !find(other)]
        }.get()
        #expect(found == [true, true, true, true, true], "kept on the second coming; found whole, not through a tunnel, not in part, not another head")
        let kept = try await loop.submit { () -> Int in
            for index in 0..<(2 * AnswerBook.slotCount) {
                for _ in 0..<2 {
                    Array("GET /once?\(index) HTTP/1.1\r\n\r\n".utf8).withUnsafeBytes { book.keep($0, tunnelOrigin: nil, bytes: bytes, again: again) }
                }
            }
            return book.count
        }.get()
        #expect(kept <= AnswerBook.slotCount)
        #expect(kept > AnswerBook.slotCount / 2, "the hash spreads heads over the slots")
        try deck.reset()
        // The change let go of every answer on the loop, with no request to find one.
        #expect(try await loop.submit { book.count }.get() == 0)
    }

    @Test("on one connection: the same head is answered again and counted, and a switch or reset is seen at the next request")
    func oneConnection() async throws {
        let other = Cassette(interactions: [Interaction(request: HTTPRequest(url: SampleCassettes.url("/twice")), response: Self.text("switched"))])
        try await ServeClientsTests.withServer([Self.sequence], options: DeckOptions(allowRepeats: true)) { server, directory in
            let socket = try RawSocket(port: server.listener.port)
            var bodies: [String] = []
            for _ in 0..<5 { bodies.append(await Self.body(socket, "/twice")) }
            #expect(bodies == ["one", "two", "two", "two", "two"])
            for _ in 0..<3 { bodies.append(await Self.body(socket, "/once")) }
            #expect(bodies.suffix(3) == ["once", "once", "once"])
            #expect(server.deck.status.cassettes.first?.played == 8, "every answer is counted, those given again too")

            try server.deck.reset()
            #expect(await Self.body(socket, "/twice") == "one", "a reset starts the cassette over")
            #expect(await Self.body(socket, "/twice") == "two")
            #expect(await Self.body(socket, "/twice") == "two")

            let file = try SampleCassettes.write(other, to: directory, name: "other.cassette.json")
            try server.deck.switchTo(paths: [file.path])
            #expect(await Self.body(socket, "/twice") == "switched", "the answer given again ended with the switch")
            #expect(await Self.body(socket, "/twice") == "switched")
            #expect(server.deck.status.cassettes.first?.played == 2)
        }
    }
}
