import Foundation
import Synchronization
import Tapedeck
import TapedeckServer
import Testing

/// The handler chain a deck answers through: control, tapes, forward, unmatched, each a
/// value that answers or passes on. In-process: no socket, a scratch cassette.
@Suite("Handler chain")
struct HandlerChainTests {
    /// A handler that answers one path with a text and counts how often it was asked.
    final class Probe: ServerHandler {
        /// The one path it answers.
        let path: String
        /// The body it answers with.
        let text: String
        /// Requests asked so far.
        private let count = Mutex(0)

        /// A probe answering `path` with `text`.
        init(answering path: String, with text: String) {
            self.path = path
            self.text = text
        }

        /// How many requests reached it, answered or not.
        var asked: Int { count.withLock { $0 } }

        /// Counts the request; answers it when its path is ``path``.
        func respond(to request: IncomingRequest) async -> ServerReply? {
            count.withLock { $0 += 1 }
            return request.path == path ? .text(200, text) : nil
        }
    }

    /// What a deck logged, in order.
    final class LogLines: Sendable {
        /// The lines, behind a lock: the deck logs from any thread.
        private let storage = Mutex<[String]>([])
        /// Every line so far.
        var lines: [String] { storage.withLock { $0 } }
        /// Adds one line (the deck's `log`).
        func append(_ line: String) { storage.withLock { $0.append(line) } }
    }

    /// An upstream in-process: answers every request with `from upstream` and counts them.
    final class Upstream: Sendable {
        /// Requests sent so far.
        private let count = Mutex(0)
        /// How many requests reached the upstream.
        var requests: Int { count.withLock { $0 } }
        /// The live transport for ``DeckOptions/live``.
        var transport: StubTransport {
            StubTransport { [self] _ in
                count.withLock { $0 += 1 }
                return HTTPResponse(status: 200, headers: ["Content-Type": "text/plain"], body: Data("from upstream".utf8))
            }
        }
    }

    /// Where the decks below serve.
    static let originText = "http://127.0.0.1:8080"
    /// Where they forward (an in-process ``Upstream`` answers).
    static let upstreamText = "http://upstream.test"

    /// `GET target` as it arrives on the socket.
    static func get(_ target: String) -> IncomingRequest {
        IncomingRequest(method: "GET", target: target)
    }

    /// `GET target` addressed to the deck by name, with its control token.
    static func control(_ target: String, _ deck: Deck) -> IncomingRequest {
        IncomingRequest(method: "GET", target: target,
                        headers: HTTPHeaders([HTTPHeader(name: "Host", value: "127.0.0.1:8080"),
                                              HTTPHeader(name: "X-Tapedeck-Token", value: deck.options.controlToken)]))
    }

    /// The reply's body as text, or `(no reply)`.
    static func text(_ reply: ServerReply?) -> String {
        reply.map { String(decoding: $0.response.body, as: UTF8.self) } ?? "(no reply)"
    }

    /// `path` answered with `text`, recorded at the sample origin.
    static func interaction(_ path: String, _ text: String) -> Interaction {
        Interaction(request: HTTPRequest(url: SampleCassettes.url(path)),
                    response: HTTPResponse(status: 200, headers: ["Content-Type": "text/plain"], body: Data(text.utf8)))
    }

    /// A deck serving at a loopback origin with one cassette written into `directory`:
    /// `/greeting` and whatever `extra` adds, under `mount`.
    static func deck(in directory: URL, options: DeckOptions = DeckOptions(), mount: String = "",
                     extra: [Interaction] = []) throws -> Deck {
        var options = options
        options.environment = ["TAPEDECK_USAGE_DIR": directory.path]
        let cassette = Cassette(interactions: [interaction("/greeting", "hello from the tape")] + extra,
                                metadata: [Cassette.MetadataKey.baseURL: SampleCassettes.origin])
        let file = try SampleCassettes.write(cassette, to: directory, name: "chain.cassette.json")
        let deck = Deck(options: options, origin: try #require(URL(string: Self.originText)))
        try deck.load(path: file.path, mount: mount)
        return deck
    }

    @Test("the chain stops at the first handler that answers and asks none after it")
    func stopsAtFirstAnswer() async throws {
        let passing = Probe(answering: "/elsewhere", with: "never")
        let first = Probe(answering: "/page", with: "first")
        let second = Probe(answering: "/page", with: "second")
        let chain: ServerHandlerChain = [passing, first, second]

        let reply = try #require(await chain.respond(to: Self.get("/page")))
        #expect(Self.text(reply) == "first")
        #expect(passing.asked == 1, "the handler before it was asked and passed")
        #expect(second.asked == 0, "the handler after the answer is never asked")

        #expect(await chain.respond(to: Self.get("/nobody")) == nil, "a chain nobody answers in passes too")
        #expect(second.asked == 1)
    }

    @Test("a handler inserted before the tapes answers its path, and every other path still reaches the tapes")
    func insertedHandlerBeforeTapes() async throws {
        let directory = try Proc.temporaryDirectory()
        defer { Proc.cleanUp(directory) }
        let deck = try Self.deck(in: directory)
        let page = Probe(answering: "/page", with: "a web page")
        var chain = ServerHandlerChain.standard(for: deck)
        let tapes = try #require(chain.handlers.firstIndex { $0 is TapesHandler })
        chain.handlers.insert(page, at: tapes)

        let answered = try #require(await chain.respond(to: Self.get("/page")))
        #expect(answered.response.status == 200)
        #expect(Self.text(answered) == "a web page")
        #expect(deck.status.cassettes.first?.played == 0, "the tapes never saw /page")
        #expect(deck.status.unmatched == 0)

        let greeting = try #require(await chain.respond(to: Self.get("/greeting")))
        #expect(Self.text(greeting) == "hello from the tape")
        #expect(deck.status.cassettes.first?.played == 1)

        let status = try #require(await chain.respond(to: Self.control("/__tapedeck/status", deck)))
        #expect(status.response.headers["Content-Type"] == "application/json", "control still answers before it")
        #expect(page.asked == 2, "asked for /page and /greeting, not for the control path")
    }

    @Test("the unmatched handler answers with the mismatch reports the tapes noted")
    func unmatchedGetsTheTapesReports() async throws {
        let directory = try Proc.temporaryDirectory()
        defer { Proc.cleanUp(directory) }
        let log = LogLines()
        let deck = try Self.deck(in: directory, options: DeckOptions(log: { log.append($0) }))

        // What the tapes note when they pass on /missing, asked on their own.
        let notes = HandlerNotes()
        let passed = await HandlerNotes.$current.withValue(notes) { await TapesHandler(deck: deck).respond(to: Self.get("/missing")) }
        #expect(passed == nil)
        let miss = try #require(notes.tapeMiss)
        guard case .noMatch(let reports) = miss else {
            Issue.record("expected the tapes' mismatch reports, got \(miss)")
            return
        }
        #expect(reports.count == 1)
        #expect(miss.report.contains("no recorded interaction matches GET http://127.0.0.1:8080/missing"))

        // The same report, carried through the chain to the unmatched answer.
        let reply = try #require(await ServerHandlerChain.standard(for: deck).respond(to: Self.get("/missing")))
        #expect(reply.response.status == 404)
        #expect(reply.response.headers[ServerMarker.unmatchedHeader] == "1")
        #expect(Self.text(reply) == miss.report + "\n")
        #expect(log.lines == ["unmatched: " + miss.report])
        #expect(deck.status.unmatched == 1)
        #expect(deck.status.lastMismatches == ["GET /missing"])

        // A token known by its shape in the path (a JWT) is in neither the answer nor the log.
        let jwt = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJsaXZlIn0.c2lnbmF0dXJlLWxpdmU"
        let shaped = try #require(await ServerHandlerChain.standard(for: deck).respond(to: Self.get("/nope/\(jwt)")))
        #expect(!Self.text(shaped).contains(jwt) && !log.lines.joined().contains(jwt), "\(Self.text(shaped))")
    }

    @Test("the unmatched handler answers with the status the policy names and every noted report")
    func unmatchedReadsTheNotes() async throws {
        let directory = try Proc.temporaryDirectory()
        defer { Proc.cleanUp(directory) }
        let deck = try Self.deck(in: directory, options: DeckOptions(unmatched: .status(418)))
        let notes = HandlerNotes()
        notes.tapeMiss = .noMatch(reports: ["first tape: no match", "second tape: no match"])
        let reply = await HandlerNotes.$current.withValue(notes) { await UnmatchedHandler(deck: deck).respond(to: Self.get("/x")) }
        #expect(reply?.response.status == 418)
        #expect(Self.text(reply) == "first tape: no match\n\nsecond tape: no match\n")
        #expect(deck.status.lastMismatches == ["GET /x"])
    }

    @Test("with no tape mounted over the path the unmatched answer says how to load one, and forward does not apply")
    func noTapeIsNotForwarded() async throws {
        let directory = try Proc.temporaryDirectory()
        defer { Proc.cleanUp(directory) }
        let upstream = Upstream()
        let upstreamURL = try #require(URL(string: Self.upstreamText))
        let options = DeckOptions(unmatched: .forward, upstream: upstreamURL, live: upstream.transport)
        let deck = try Self.deck(in: directory, options: options, mount: "/v1")

        let unmounted = await deck.respond(Self.get("/v2/users"))
        #expect(unmounted.response.status == 404)
        #expect(Self.text(unmounted).hasPrefix("no cassette is loaded for /v2/users; load one: curl -X POST 'http://127.0.0.1:8080/__tapedeck/load?cassette=PATH'"))
        #expect(upstream.requests == 0)

        let mounted = await deck.respond(Self.get("/v1/users"))
        #expect(Self.text(mounted) == "from upstream", "tried by the tapes under /v1, then forwarded")
        #expect(upstream.requests == 1)
    }

    @Test("the order matters: control before the tapes, the tapes before forward, forward before unmatched")
    func orderMatters() async throws {
        let directory = try Proc.temporaryDirectory()
        defer { Proc.cleanUp(directory) }
        let upstream = Upstream()
        let upstreamURL = try #require(URL(string: Self.upstreamText))
        let options = DeckOptions(unmatched: .forward, upstream: upstreamURL, live: upstream.transport)
        // The cassette also holds a control path: only the order keeps the tape from answering it.
        let deck = try Self.deck(in: directory, options: options, extra: [Self.interaction("/__tapedeck/status", "from the tape")])

        let status = await deck.respond(Self.control("/__tapedeck/status", deck))
        #expect(status.response.headers["Content-Type"] == "application/json", "control answers, not the tape: \(Self.text(status))")
        #expect((try? JSONDecoder().decode(DeckStatus.self, from: status.response.body)) != nil)

        let greeting = await deck.respond(Self.get("/greeting"))
        #expect(Self.text(greeting) == "hello from the tape", "the tape answers before the upstream is asked")
        #expect(upstream.requests == 0)

        let other = await deck.respond(Self.get("/other"))
        #expect(Self.text(other) == "from upstream", "forward answers before unmatched")
        #expect(upstream.requests == 1)
        #expect(deck.status.unmatched == 0)

        // The same handlers the other way round: unmatched answers everything.
        let reversed = ServerHandlerChain(Array(ServerHandlerChain.standard(for: deck).handlers.reversed()))
        let first = try #require(await reversed.respond(to: Self.get("/__tapedeck/status")))
        #expect(first.response.status == 404)
        #expect(first.response.headers[ServerMarker.unmatchedHeader] == "1")
    }

    @Test("the mounts handler answers nothing and hands the tapes of the longest covering mount to the tapes handler")
    func mountsChooseTheLongest() async throws {
        let directory = try Proc.temporaryDirectory()
        defer { Proc.cleanUp(directory) }
        let deck = try Self.deck(in: directory)
        let inner = Cassette(interactions: [Self.interaction("/greeting", "hello from the v1 tape")],
                             metadata: [Cassette.MetadataKey.baseURL: SampleCassettes.origin])
        let file = try SampleCassettes.write(inner, to: directory, name: "v1.cassette.json")
        try deck.load(path: file.path, mount: "/v1")
        let mountsOnly: ServerHandlerChain = [.mounts(deck)]
        #expect(await mountsOnly.respond(to: Self.get("/v1/greeting")) == nil, "choosing answers nothing")
        #expect(Self.text(await deck.respond(Self.get("/v1/greeting"))) == "hello from the v1 tape")
        #expect(Self.text(await deck.respond(Self.get("/greeting"))) == "hello from the tape")
        #expect(Self.text(await deck.respond(Self.get("/v2/greeting"))).contains("no recorded interaction"),
                "/v2 is under the root mount, which has no /v2/greeting")
    }

    @Test("what the deck answers at once, on the connection's thread, is what it answers awaited; what must wait is not answered at once")
    func atOnceAgreesWithAwaited() async throws {
        let directory = try Proc.temporaryDirectory()
        defer { Proc.cleanUp(directory) }
        let extra = [Self.interaction("/items?page=2", "page two"),
                     Interaction(request: HTTPRequest(url: SampleCassettes.url("/gone")), response: HTTPResponse(status: 410, body: Data("gone".utf8)))]
        let requests = [Self.get("/greeting"), Self.get("/items?page=2"), Self.get("/gone"), Self.get("/missing"),
                        IncomingRequest(method: "G E T", target: "/greeting"),
                        IncomingRequest(method: "GET", target: "http://127.0.0.1:8080/greeting")]
        for name in ["at-once", "awaited", "slow", "forward"] {
            try FileManager.default.createDirectory(at: directory.appending(path: name), withIntermediateDirectories: true)
        }
        let atOnce = try Self.deck(in: directory.appending(path: "at-once"), extra: extra)
        let awaited = try Self.deck(in: directory.appending(path: "awaited"), extra: extra)
        for request in requests {
            let now = try #require(atOnce.respondAtOnce(request).reply, "\(request.method) \(request.target) is answered at once")
            let later = await awaited.respond(request)
            #expect(now.response.status == later.response.status, "\(request.target)")
            #expect(Self.text(now).replacingOccurrences(of: directory.path + "/at-once", with: "")
                == Self.text(later).replacingOccurrences(of: directory.path + "/awaited", with: ""), "\(request.target)")
        }
        #expect(atOnce.status.cassettes.first?.played == awaited.status.cassettes.first?.played)
        #expect(atOnce.status.unmatched == awaited.status.unmatched)
        #expect(atOnce.status.unmatched > 0, "a miss is answered at once too")

        // Latency to play, a control command or a request to forward: only the awaited path answers.
        let slow = try Self.deck(in: directory.appending(path: "slow"), options: DeckOptions(conditions: NetworkConditions(latency: .fixed(milliseconds: 1))))
        #expect(slow.respondAtOnce(Self.get("/greeting")).isLater)
        #expect(Self.text(await slow.respond(Self.get("/greeting"))) == "hello from the tape")
        #expect(atOnce.respondAtOnce(Self.control("/__tapedeck/status", atOnce)).isLater)
        let upstream = Upstream()
        let forwarding = try Self.deck(in: directory.appending(path: "forward"),
                                       options: DeckOptions(unmatched: .forward, upstream: URL(string: Self.upstreamText), live: upstream.transport))
        #expect(forwarding.respondAtOnce(Self.get("/greeting")).reply.map(Self.text) == "hello from the tape")
        #expect(forwarding.respondAtOnce(Self.get("/other")).isLater, "forwarding waits for the upstream")
        #expect(upstream.requests == 0)
    }
}
