import Foundation
import NIOCore
import NIOPosix
import Synchronization
import Tapedeck
@testable import TapedeckServer
import Testing

/// A recording tape sends its request from the event loop the request arrived on, with no task
/// (``TapesHandler``'s recording lane), and journals the whole answers of one turn of the loop
/// together (``JournalBatch``). These prove the lane is taken where it applies and not elsewhere,
/// that a client is answered only once its interaction is in the journal, and that batched
/// records are written together, in order, or not at all.
@Suite("The recording lane")
struct RecordingLaneTests {
    /// Runs `body` with a temporary directory and an upstream on loopback answering with
    /// `answer` (by default each request's target and number); the upstream is closed and the
    /// directory removed however `body` ends.
    static func withUpstream(answering answer: @escaping @Sendable (IncomingRequest, Int) async -> ServerReply = { request, number in
                                 .text(200, "\(request.target) #\(number)\n")
                             },
                             _ body: (URL, HTTPListener) async throws -> Void) async throws {
        let directory = try Proc.temporaryDirectory()
        defer { Proc.cleanUp(directory) }
        let upstream = try await UpstreamTransportTests.upstream(answer)
        do {
            try await body(directory, upstream)
        } catch {
            await upstream.close()
            throw error
        }
        await upstream.close()
    }

    /// A deck recording `mode` into `file` from `upstream` through an ``UpstreamTransport``.
    static func deck(recordingTo file: URL, from upstream: URL, mode: RecordMode = .all, recordFailures: Bool = false) throws -> Deck {
        var options = DeckOptions(upstream: upstream, live: try UpstreamTransport(), environment: [:])
        options.recordFailures = recordFailures
        let deck = Deck(options: options, origin: URL(string: "http://127.0.0.1:9")!)
        try deck.record(path: file.path, mode: mode, upstream: upstream)
        return deck
    }

    /// The reply `answer` gives, with the paths the journal holds when it is handed on (read on
    /// the loop, before anything else runs there).
    static func replyAndJournal(_ answer: ServerResponder.Answer, _ file: URL) async throws -> (ServerReply, [String])? {
        guard let coming = answer.pending else { return nil }
        return try await coming.map { reply in
            (reply, (try? Cassette.load(from: file).interactions.map(\.request.url.path)) ?? [])
        }.get()
    }

    static func get(_ target: String) -> IncomingRequest {
        IncomingRequest(method: "GET", target: target, headers: HTTPHeaders([HTTPHeader(name: "Host", value: "127.0.0.1:9")]))
    }

    /// What `deck` answers `request` with at once on `loop`.
    static func atOnce(_ deck: Deck, _ request: IncomingRequest, on loop: any EventLoop) async throws -> ServerResponder.Answer {
        try await loop.submit { deck.respondAtOnce(request) }.get()
    }

    @Test("on an event loop a recording answers from a future, after its interaction is journaled; off the loops it waits for a task")
    func answersFromTheLoop() async throws {
        try await Self.withUpstream { directory, upstream in
            let file = directory.appending(path: "lane.cassette.json")
            let deck = try Self.deck(recordingTo: file, from: upstream.url)
            let loop = MultiThreadedEventLoopGroup.singleton.next()
            for number in 1...3 {
                let answer = try await Self.atOnce(deck, Self.get("/items/\(number)"), on: loop)
                let (reply, journaled) = try #require(try await Self.replyAndJournal(answer, file), "a recording on the loop is answered from a future")
                #expect(reply.response.status == 200)
                #expect(String(decoding: reply.response.body, as: UTF8.self) == "/items/\(number) #\(number)\n")
                // The journal holds it when the answer is handed on: loading the file merges what a session left beside it.
                #expect(journaled == (1...number).map { "/items/\($0)" })
            }
            #expect(deck.respondAtOnce(Self.get("/items/4")).isLater, "off the loops the recording waits for a task")
            #expect(deck.status.cassettes.first?.recorded == 3)
            _ = deck.finish()
        }
    }

    @Test("network conditions, and a cassette that replays before it records, keep the task; a replayed answer is given at once")
    func whereTheLaneApplies() async throws {
        try await Self.withUpstream { directory, upstream in
            let loop = MultiThreadedEventLoopGroup.singleton.next()
            let slow = Deck(options: DeckOptions(upstream: upstream.url, live: try UpstreamTransport(),
                                                 conditions: NetworkConditions(latency: .fixed(milliseconds: 1)), environment: [:]),
                            origin: URL(string: "http://127.0.0.1:9")!)
            try slow.record(path: directory.appending(path: "slow.cassette.json").path, mode: .all, upstream: upstream.url)
            #expect(try await Self.atOnce(slow, Self.get("/a"), on: loop).isLater)

            // Mode new: the first time it goes live, the second it is played from the cassette at once.
            let file = directory.appending(path: "new.cassette.json")
            let first = try Self.deck(recordingTo: file, from: upstream.url, mode: .new)
            let coming = try #require(try await Self.atOnce(first, Self.get("/b"), on: loop).pending, "a request the cassette does not hold goes live from the loop")
            let live = try await coming.get()
            _ = first.finish()
            let second = try Self.deck(recordingTo: file, from: upstream.url, mode: .new)
            let played = try #require(try await Self.atOnce(second, Self.get("/b"), on: loop).reply, "a request the cassette holds is answered at once")
            #expect(played.response.body == live.response.body)
            #expect(second.status.cassettes.first?.played == 1)
            _ = second.finish()
        }
    }

    @Test("a recording whose journal cannot be written answers with the error, and counts nothing")
    func unwritableJournal() async throws {
        try await Self.withUpstream { directory, upstream in
            // Its directory is replaced by a file once recording has begun (a path no cassette
            // can be written at is refused before).
            let blocker = directory.appending(path: "blocker")
            try FileManager.default.createDirectory(at: blocker, withIntermediateDirectories: true)
            let deck = try Self.deck(recordingTo: blocker.appending(path: "c.cassette.json"), from: upstream.url)
            try FileManager.default.removeItem(at: blocker)
            try Data("x".utf8).write(to: blocker)
            let loop = MultiThreadedEventLoopGroup.singleton.next()
            let coming = try #require(try await Self.atOnce(deck, Self.get("/c"), on: loop).pending, "the recording goes live from the loop")
            let reply = try await coming.get()
            #expect(reply.response.status >= 500, "\(reply.response.status)")
            #expect(!String(decoding: reply.response.body, as: UTF8.self).contains("/c #1"), "the upstream's answer is not handed on unrecorded")
            #expect(deck.status.cassettes.first?.recorded == 0)
            _ = deck.finish()
        }
    }

    @Test("from the loop as from a task: a 508 that came around is answered and not recorded, a refused upstream is recorded as the failure it was")
    func loopsAndFailures() async throws {
        let loop = MultiThreadedEventLoopGroup.singleton.next()
        try await Self.withUpstream(answering: { _, _ in .text(508, "loop\n", headers: [ServerMarker.loopHeader: "elsewhere"]) }) { directory, looping in
            let file = directory.appending(path: "loop.cassette.json")
            let deck = try Self.deck(recordingTo: file, from: looping.url)
            let around = try await Self.atOnce(deck, Self.get("/around"), on: loop)
            let (looped, _) = try #require(try await Self.replyAndJournal(around, file), "the recording goes live from the loop")
            #expect(looped.response.status == 508)
            #expect(deck.status.cassettes.first?.recorded == 0)
            _ = deck.finish()

            let refused = URL(string: "http://127.0.0.1:\(try Self.closedPort())")!
            let failures = directory.appending(path: "failures.cassette.json")
            let failing = try Self.deck(recordingTo: failures, from: refused, recordFailures: true)
            let down = try await Self.atOnce(failing, Self.get("/down"), on: loop)
            let (failed, journaled) = try #require(try await Self.replyAndJournal(down, failures), "the recording goes live from the loop")
            #expect(failed.response.status == 502, "\(failed.response.status)")
            #expect(journaled == ["/down"], "the failure is journaled before the client hears of it")
            #expect(try Cassette.load(from: failures).interactions.first?.failure != nil)
            _ = failing.finish()
        }
    }

    /// A port nothing listens on.
    static func closedPort() throws -> Int {
        let channel = try ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton).bind(host: "127.0.0.1", port: 0).wait()
        let port = channel.localAddress?.port ?? 9
        try channel.close().wait()
        return port
    }

    @Test("through a listener: concurrent GETs on the lane and a POST with a body through the codec are all answered and recorded")
    func throughAListener() async throws {
        try await Self.withUpstream(answering: { request, _ in .text(200, "\(request.method) \(request.target) \(request.body.count)\n") }) { directory, upstream in
            let file = directory.appending(path: "listener.cassette.json")
            let server = try await CassetteServer.proxy(to: upstream.url, recordingTo: file, mode: .all,
                                                        options: DeckOptions(live: try UpstreamTransport(), environment: [:]))
            let base = server.url.absoluteString
            let urls = (1...24).map { "\(base)/many/\($0)" }
            let many: Proc.Result, posted: Proc.Result
            do {
                many = try await Proc.run(Proc.curl, ["-s", "--parallel", "--parallel-max", "12", "-w", "%{http_code}\\n"] + urls.flatMap { ["-o", "/dev/null", $0] })
                posted = try await Proc.run(Proc.curl, ["-s", "-X", "POST", "--data-binary", "twelve bytes", "\(base)/posted"])
            } catch {
                _ = await server.stop()
                throw error
            }
            let summary = await server.stop()
            #expect(many.text.split(separator: "\n").filter { $0 == "200" }.count == 24, "\(many.text)")
            #expect(posted.text == "POST /posted 12\n")
            let recorded = try Cassette.load(from: file).interactions.map(\.request.url.path)
            #expect(Set(recorded) == Set((1...24).map { "/many/\($0)" } + ["/posted"]))
            #expect(summary.contains("25 recorded"), "\(summary)")
        }
    }

    /// ``withUpstream(answering:_:)`` with an upstream that answers each request (its method
    /// and target) after `delay`; `body` also gets a wait until the upstream was asked `count` times.
    static func withSlowUpstream(_ delay: Duration,
                                 _ body: (URL, HTTPListener, _ askedFor: @Sendable (Int) async throws -> Void) async throws -> Void) async throws {
        let asked = Counter()
        try await withUpstream(answering: { request, _ in
            asked.add()
            try? await Task.sleep(for: delay)
            return .text(200, "\(request.method) \(request.target)\n")
        }) { directory, upstream in
            try await body(directory, upstream) { count in
                for _ in 0..<500 where asked.value < count { try await Task.sleep(for: .milliseconds(10)) }
            }
        }
    }

    /// How many times the slow upstream was asked.
    final class Counter: Sendable {
        private let count = Mutex(0)
        var value: Int { count.withLock { $0 } }
        func add() { count.withLock { $0 += 1 } }
    }

    @Test("a stop while answers are on their way lets them reach their clients, on the lane and through the codec, and records each once")
    func stopDrains() async throws {
        try await Self.withSlowUpstream(.milliseconds(600)) { directory, upstream, askedFor in
            let file = directory.appending(path: "drain.cassette.json")
            let server = try await CassetteServer.proxy(to: upstream.url, recordingTo: file, mode: .all,
                                                        options: DeckOptions(live: try UpstreamTransport(), environment: [:]))
            let base = server.url.absoluteString
            async let got = Proc.run(Proc.curl, ["-s", "-w", " %{http_code}", "\(base)/got"])
            async let posted = Proc.run(Proc.curl, ["-s", "-w", " %{http_code}", "-X", "POST", "--data-binary", "x", "\(base)/posted"])
            // Stopped once both requests are on their way upstream.
            try await askedFor(2)
            let summary = await server.stop()
            #expect(try await got.text == "GET /got\n 200")
            #expect(try await posted.text == "POST /posted\n 200")
            #expect(Set(try Cassette.load(from: file).interactions.map(\.request.url.path)) == ["/got", "/posted"])
            #expect(summary.contains("2 recorded"), "\(summary)")
        }
    }

    @Test("a stop waits no longer than its grace for an answer that does not come")
    func stopGrace() async throws {
        try await Self.withSlowUpstream(.seconds(20)) { directory, upstream, askedFor in
            let server = try await CassetteServer.proxy(to: upstream.url, recordingTo: directory.appending(path: "grace.cassette.json"), mode: .all,
                                                        options: DeckOptions(live: try UpstreamTransport(options: .init(timeout: 60)), environment: [:]))
            async let waiting = Proc.run(Proc.curl, ["-s", "-w", "%{http_code}", server.url.absoluteString + "/slow"])
            try await askedFor(1)
            let started = ContinuousClock.now
            _ = await server.listener.close(grace: 0.5)
            let waited = ContinuousClock.now - started
            _ = await server.stop()
            #expect(waited < .seconds(3), "\(waited)")
            #expect(try await waiting.text == "000", "the client's connection was closed")
        }
    }

    @Test("stopping a recording that recorded nothing stops it, and takes its tape off the mount")
    func stopRecordingNothing() async throws {
        let directory = try Proc.temporaryDirectory()
        defer { Proc.cleanUp(directory) }
        let deck = Deck(options: DeckOptions(environment: [:]), origin: URL(string: "http://127.0.0.1:9")!)
        let file = directory.appending(path: "empty.cassette.json")
        try deck.startRecording(path: file.path, mode: .new, upstream: URL(string: "http://127.0.0.1:9")!)
        #expect(deck.status.cassettes.contains { $0.recording })
        let summaries = try deck.stopRecording()
        #expect(summaries.count == 1 && summaries[0].contains("0 recorded"), "\(summaries)")
        #expect(!deck.status.cassettes.contains { $0.recording })
        #expect(!FileManager.default.fileExists(atPath: file.path))
    }

    @Test("requests pipelined behind ones refused before they go out are all answered, in order")
    func pipelinedRefusals() async throws {
        let directory = try Proc.temporaryDirectory()
        defer { Proc.cleanUp(directory) }
        // An upstream no connection can be made to: each request is refused before it goes out,
        // so its answer is there when the lane asks for it. (`proxy(to:)` refuses such an
        // upstream; the deck takes it as it is given.)
        let server = try await CassetteServer.serve([], options: DeckOptions(live: try UpstreamTransport(), environment: [:]))
        try server.deck.startRecording(path: directory.appending(path: "refused.cassette.json").path, mode: .all, upstream: URL(string: "ftp://127.0.0.1/")!)
        let count = 2_000
        let requests = String(repeating: "GET /refused HTTP/1.1\r\nHost: x\r\n\r\n", count: count)
            + "GET /last HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
        let socket: RawSocket
        do {
            socket = try RawSocket(port: server.url.port ?? 0)
        } catch {
            _ = await server.stop()
            throw error
        }
        async let sent: Bool = Blocking.run { socket.send(requests) }
        let answers = String(decoding: await Blocking.run { socket.readToEnd() }, as: UTF8.self)
        #expect(await sent)
        _ = await server.stop()
        let statuses = answers.components(separatedBy: "HTTP/1.1 ").dropFirst().map { $0.prefix(3) }
        #expect(statuses.count == count + 1)
        #expect(Set(statuses).count == 1, "\(Set(statuses))")
        #expect(statuses.first.map { $0 != "200" } == true)
    }

    /// `path`'s interaction as `recorder` journals it.
    static func storable(_ path: String, _ recorder: RecordingTransport) throws -> StorableInteraction {
        try recorder.beginLive(HTTPRequest(url: URL(string: "http://127.0.0.1:9\(path)")!), relay: nil)
            .storable(HTTPResponse(status: 200, body: Data(path.utf8)))
    }

    @Test("answers of one turn of the loop are journaled together, in order, before any of them is told")
    func oneTurnOneWrite() async throws {
        let directory = try Proc.temporaryDirectory()
        defer { Proc.cleanUp(directory) }
        let file = directory.appending(path: "batch.cassette.json")
        let recorder = try RecordingTransport(configuration: CassetteConfiguration(file, mode: .all), inner: OfflineTransport())
        let loop = MultiThreadedEventLoopGroup.singleton.next()
        let stored = try ["/1", "/2", "/3"].map { try Self.storable($0, recorder) }
        let seen = try await loop.submit { () -> EventLoopFuture<[[String]]> in
            let told = loop.makePromise(of: [[String]].self)
            let counts = NIOLoopBoundBox([[String]](), eventLoop: loop)
            for interaction in stored {
                JournalBatch.record(interaction, on: loop) { written in
                    // What the journal holds when each is told: all three, in order, for each.
                    let held = (try? Cassette.load(from: file).interactions.map(\.request.url.path)) ?? []
                    counts.value.append(written.isSuccess ? held : ["failed"])
                    if counts.value.count == 3 { told.succeed(counts.value) }
                }
            }
            return told.futureResult
        }.get().get()
        #expect(seen == Array(repeating: ["/1", "/2", "/3"], count: 3))
        #expect(recorder.counts.recorded == 3)
    }

    @Test("a batch whose journal cannot be written tells each of its answers, and appends none")
    func failedBatch() async throws {
        let directory = try Proc.temporaryDirectory()
        defer { Proc.cleanUp(directory) }
        let blocker = directory.appending(path: "blocker")
        try Data("x".utf8).write(to: blocker)
        let recorder = try RecordingTransport(configuration: CassetteConfiguration(blocker.appending(path: "c.cassette.json"), mode: .all),
                                              inner: OfflineTransport())
        let loop = MultiThreadedEventLoopGroup.singleton.next()
        let stored = try ["/1", "/2"].map { try Self.storable($0, recorder) }
        let failures = try await loop.submit { () -> EventLoopFuture<Int> in
            let told = loop.makePromise(of: Int.self)
            let failed = NIOLoopBoundBox(0, eventLoop: loop)
            let answered = NIOLoopBoundBox(0, eventLoop: loop)
            for interaction in stored {
                JournalBatch.record(interaction, on: loop) { written in
                    if !written.isSuccess { failed.value += 1 }
                    answered.value += 1
                    if answered.value == 2 { told.succeed(failed.value) }
                }
            }
            return told.futureResult
        }.get().get()
        #expect(failures == 2)
        #expect(recorder.counts.recorded == 0)
    }
}
