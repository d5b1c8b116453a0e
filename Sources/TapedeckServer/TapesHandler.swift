import Foundation
import NIOCore
import NIOPosix
import NIOSSL
import Tapedeck

/// Answers from the tapes ``MountsHandler`` chose (the longest mount that covers the path), through each tape's
/// session transport (the same replay, recording, matching and redaction as everywhere
/// else) with the deck's network conditions played. When no tape answers it passes, noting
/// why in ``HandlerNotes/tapeMiss``: no tape mounted there, or each tape's mismatch report.
package struct TapesHandler: ServerHandler {
    /// The deck whose tapes and fault plan answer; weak, because the deck keeps its own chain.
    private weak let deck: Deck?

    /// Creates the tapes step of `deck`.
    package init(deck: Deck) {
        self.deck = deck
    }

    /// The first tape's answer, or the failure it met (a 400 for a request no tape can take,
    /// a replayed transport failure, a 502/504/500); nil, with a ``TapeMiss`` noted, when no
    /// tape matched.
    package func respond(to incoming: IncomingRequest) async -> ServerReply? {
        guard let deck else { return nil }
        let chosen: [Tape]
        let request: HTTPRequest
        switch TapesHandler.prepare(incoming, deck: deck) {
        case .passed: return nil
        case .answered(let reply): return reply
        case .ready(let tapes, let prepared): (chosen, request) = (tapes, prepared)
        }
        if let refusal = TapesHandler.notSentLive(request, on: chosen[0], incoming: incoming, deck: deck) { return refusal }
        let plan = deck.faultPlan
        let log = deck.options.log
        // Matched on the path the client sent, a mount's prefix and all.
        let fault = plan.fault(method: incoming.method, path: incoming.path)
        // A reset or a timeout answers nothing, so it takes no interaction: a client that
        // retries gets the recorded answer, as through `URLSession.replaying`.
        switch fault {
        case .reset?, .timeout?:
            HandlerNotes.current?.outcome = "fault"
            return ServerReply(response: HTTPResponse(status: 502), fault: TapesHandler.socketPart(of: fault))
        default:
            break
        }
        var reports: [String] = []
        for tape in chosen {
            do {
                let response: HTTPResponse
                if tape.isRecording, fault == nil {
                    // A streamed answer is relayed chunk by chunk as it arrives, and recorded when it ends.
                    let relay = StreamRelay()
                    let sending = Task(executorPreference: EventLoopExecutor.current) {
                        defer { relay.finish() }
                        do {
                            return try await ResponseObserver.$current.withValue(relay.observer) {
                                try await plan.send(request, applying: nil, through: tape.session.transport)
                            }
                        } catch {
                            relay.breakOff()
                            throw error
                        }
                    }
                    if let head = await relay.head() {
                        HandlerNotes.current?.outcome = "recorded"
                        deck.track(Task { _ = await sending.result })
                        Task {
                            if case .failure(let error) = await sending.result { log(TapesHandler.brokeOff(incoming, request, error)) }
                        }
                        return TapesHandler.relayed(head, through: relay, for: request)
                    }
                    response = try await sending.value
                } else {
                    response = try await plan.send(request, applying: TapesHandler.inProcessPart(of: fault), through: tape.session.transport)
                }
                return TapesHandler.reply(response, from: tape, to: request, incoming: incoming, fault: fault, plan: plan, log: log)
            } catch {
                if let reply = TapesHandler.failureReply(error, from: tape, to: request, incoming: incoming, deck: deck, reports: &reports) { return reply }
            }
        }
        HandlerNotes.current?.tapeMiss = .noMatch(reports: reports)
        return nil
    }

    /// The answer of replay-only tapes with no network conditions to play, looked up where
    /// the request arrived (a microsecond's lookup, not worth a task); a recording tape's, sent
    /// from there (``ImmediateAnswer/pending(_:)``, see `recordAtOnce`); ``ImmediateAnswer/waits``
    /// when the deck plays latency or faults, or a tape can only be asked from a task. Gives what
    /// ``respond(to:)`` gives.
    package func respondAtOnce(to incoming: IncomingRequest) -> ImmediateAnswer {
        guard let deck else { return .passed }
        guard let mounted = TapesHandler.tapes(for: incoming, deck: deck) else { return .passed }
        let plan = deck.faultPlan
        guard plan.conditions.isEmpty else { return .waits }
        if mounted.first?.isRecording == true { return TapesHandler.recordAtOnce(incoming, on: mounted, deck: deck) }
        var replays: [ReplayTransport] = []
        for tape in mounted {
            // A session with conditions of its own plays them through its transport, from a task.
            // A recording tape after a replay-only one is asked from a task too.
            guard !tape.isRecording, let replay = tape.session.transport as? ReplayTransport else { return .waits }
            replays.append(replay)
        }
        let chosen: [Tape]
        let request: HTTPRequest
        switch TapesHandler.prepare(incoming, deck: deck) {
        case .passed: return .passed
        case .answered(let reply): return .answered(reply)
        case .ready(let tapes, let prepared): (chosen, request) = (tapes, prepared)
        }
        var reports: [String] = []
        for (tape, replay) in zip(chosen, replays) {
            do {
                let found = try replay.answerFound(request)
                var reply = TapesHandler.reply(found.response, from: tape, to: request, incoming: incoming, fault: nil, plan: plan,
                                               log: deck.options.log)
                // Only the recorded response as recorded, to a request that can get its bytes: a
                // WebSocket session asked for as a plain request is answered with words made for that
                // request (400, 426), which no other request may be handed, and a HEAD gets no body.
                if let position = found.position, found.response.webSocket == nil, request.method != .head, HTTPFastLane.isPlain(reply),
                   let form = tape.wireForms.form(at: position, of: reply.response) {
                    reply.wire = form.bytes
                    // The first tape's steady answer (no tape before it missed, whose choice could
                    // change), when its bytes are held: keeping them costs no memory of their own.
                    if found.steady, form.held, reports.isEmpty, let seen = HandlerNotes.current?.tapesSeen {
                        reply.again = AnswerAgain(replay: replay, position: position, version: deck.tapesVersion, seen: seen)
                    }
                }
                return .answered(reply)
            } catch {
                if let reply = TapesHandler.failureReply(error, from: tape, to: request, incoming: incoming, deck: deck, reports: &reports) {
                    return .answered(reply)
                }
            }
        }
        HandlerNotes.current?.tapeMiss = .noMatch(reports: reports)
        return .passed
    }

    /// A recording tape's answer sent from the event loop `incoming` arrived on, with no task:
    /// what ``respond(to:)`` gives, when the only tape records through the deck's
    /// ``UpstreamTransport`` with no network conditions of its own; ``ImmediateAnswer/waits``
    /// otherwise, or off that transport's loops.
    private static func recordAtOnce(_ incoming: IncomingRequest, on mounted: [Tape], deck: Deck) -> ImmediateAnswer {
        guard mounted.count == 1, let tape = mounted.first, let recorder = tape.session.cassette.recorder,
              tape.session.transport as? RecordingTransport === recorder, !recorder.configuration.followRedirects,
              let upstream = deck.options.live as? UpstreamTransport,
              let loop = MultiThreadedEventLoopGroup.currentEventLoop, upstream.runs(on: loop) else { return .waits }
        let request: HTTPRequest
        switch TapesHandler.prepare(incoming, deck: deck) {
        case .passed: return .passed
        case .answered(let reply): return .answered(reply)
        case .ready(_, let prepared): request = prepared
        }
        if let refusal = TapesHandler.notSentLive(request, on: tape, incoming: incoming, deck: deck) { return .answered(refusal) }
        let notes = HandlerNotes.current
        let log = deck.options.log
        let plan = deck.faultPlan
        // Asked for, in this order, as the tape's transport asks: the cassette, then the upstream.
        var reports: [String] = []
        do {
            if let recorded = try recorder.recordedResponse(to: request) {
                return .answered(TapesHandler.reply(recorded, from: tape, to: request, incoming: incoming, fault: nil, plan: plan, log: log))
            }
        } catch {
            if let reply = TapesHandler.failureReply(error, from: tape, to: request, incoming: incoming, deck: deck, reports: &reports) {
                return .answered(reply)
            }
            HandlerNotes.current?.tapeMiss = .noMatch(reports: reports)
            return .passed
        }
        // A streamed answer is relayed chunk by chunk as it arrives, and recorded when it ends.
        let relay = StreamRelay()
        let live = recorder.beginLive(request, relay: relay.observer)
        let answer = loop.makePromise(of: ServerReply.self)
        relay.whenHead { head in
            guard let head else { return }
            notes?.outcome = "recorded"
            // The stop waits for the stream to end and be recorded.
            deck.track(Task { await relay.finished() })
            answer.succeed(TapesHandler.relayed(head, through: relay, for: request))
        }
        // How the exchange ended, once it is recorded: the client is answered, or a stream it
        // was already answered with is let go of.
        let ended = { @Sendable (ending: Result<HTTPResponse, any Error>) in
            if case .failure = ending { relay.breakOff() }
            relay.finish()
            guard !relay.streamed else {
                if case .failure(let error) = ending { log(TapesHandler.brokeOff(incoming, request, error)) }
                return
            }
            answer.succeed(HandlerNotes.$current.withValue(notes) {
                switch ending {
                case .success(let response):
                    return TapesHandler.reply(response, from: tape, to: request, incoming: incoming, fault: nil, plan: plan, log: log)
                case .failure(let error):
                    // A live exchange never misses as a replay does (that was asked above), so this always answers.
                    var unused: [String] = []
                    return TapesHandler.failureReply(error, from: tape, to: request, incoming: incoming, deck: deck, reports: &unused)
                        ?? ServerReply.failure(error, request: request, log: log)
                }
            })
        }
        upstream.send(request, observer: live.observer, on: loop).whenComplete { sent in
            switch sent {
            case .success(let response) where !relay.streamed:
                // A whole answer is journaled with the others of this turn of the loop.
                do {
                    let stored = try live.storable(try LoopGuardTransport.checked(response))
                    JournalBatch.record(stored, on: loop) { written in ended(written.map { response }.mapError { $0 }) }
                } catch {
                    ended(.failure(error))
                }
            case .success(let response):
                do {
                    ended(.success(try live.finished(try LoopGuardTransport.checked(response))))
                } catch {
                    // The client got the whole stream; only its recording was refused.
                    relay.finish()
                    log(TapesHandler.notRecorded(incoming, request, error))
                }
            case .failure(let error):
                ended(Result {
                    try live.failed(error)
                    throw error
                })
            }
        }
        return .pending(answer.futureResult)
    }

    /// The answer to `request` on `tape` before it goes live, if it is not to: a recording tape
    /// whose upstream is this server (it would record its own 508s), and a recording tape's
    /// WebSocket upgrade, relayed byte for byte.
    private static func notSentLive(_ request: HTTPRequest, on tape: Tape, incoming: IncomingRequest, deck: Deck) -> ServerReply? {
        guard tape.isRecording else { return nil }
        if deck.isSelf(request.url) { return LoopHandler.reply(for: Deck.redactedSummary(incoming), deck: deck) }
        if WebSocketPlan.isUpgrade(incoming.headers) {
            return TapesHandler.recordWebSocket(request, on: tape, incoming: incoming, https: deck.options.https, log: deck.options.log)
        }
        return nil
    }

    /// The reply to `request` whose upstream answered with the stream `head`: relayed through
    /// `relay` as its chunks arrive.
    private static func relayed(_ head: HTTPResponse, through relay: StreamRelay, for request: HTTPRequest) -> ServerReply {
        ServerReply(response: ProxyHeaders.forClient(head, for: request),
                    stream: StreamBody(relay.chunks, isComplete: { relay.isComplete }, written: { relay.written($0) }, abandoned: { relay.abandon() }))
    }

    /// The log line for a stream from `incoming` (sent on as `request`) that broke off with
    /// `error` after its head: credentials in either URL redacted.
    private static func brokeOff(_ incoming: IncomingRequest, _ request: HTTPRequest, _ error: any Error) -> String {
        "the stream from \(Deck.redactedSummary(incoming)) broke off after its head; the client's connection was cut, and the cassette "
            + "does not keep it as a whole answer: " + ServerReply.describe(error, sending: request).text
    }

    /// The log line for a stream from `incoming` (sent on as `request`) relayed whole to its
    /// client but not recorded, for `error`.
    private static func notRecorded(_ incoming: IncomingRequest, _ request: HTTPRequest, _ error: any Error) -> String {
        "the stream from \(Deck.redactedSummary(incoming)) reached the client whole, and is not recorded: " + ServerReply.describe(error, sending: request).text
    }

    /// How far a request got before a tape is asked.
    private enum Preparation {
        /// No tape is mounted over its path (noted).
        case passed
        /// Refused before any tape saw it.
        case answered(ServerReply)
        /// The tapes to ask, in order, and the request the first of them sees.
        case ready([Tape], HTTPRequest)
    }

    /// The tapes of the mount that covers `incoming`; nil (and the miss noted) when none does.
    private static func tapes(for incoming: IncomingRequest, deck: Deck) -> [Tape]? {
        let chosen = HandlerNotes.current?.mounted ?? MountsHandler.tapes(for: incoming.path, among: deck.loadedTapes)
        guard chosen.isEmpty else { return chosen }
        if HandlerNotes.current?.tapeMiss == nil {
            HandlerNotes.current?.tapeMiss = MountsHandler.noTape(for: incoming.path, origin: deck.origin)
        }
        return nil
    }

    /// The tapes of the mount that covers `incoming` and the request they see.
    private static func prepare(_ incoming: IncomingRequest, deck: Deck) -> Preparation {
        guard let chosen = tapes(for: incoming, deck: deck), let first = chosen.first else { return .passed }
        do {
            return .ready(chosen, try TapesHandler.request(incoming, for: first, origin: deck.originPrefix, via: deck.viaName,
                                                           intercepting: deck.options.https?.intercept == true))
        } catch {
            return .answered(ServerReply.text(400, error.localizedDescription + "\n", headers: [ServerMarker.errorHeader: "400"]))
        }
    }

    /// The reply for the `response` `tape` gave: the upstream's answer as the client sees it,
    /// or a recorded one, replayed as a stream, a WebSocket session or a whole body with the
    /// socket's part of `fault`.
    private static func reply(_ response: HTTPResponse, from tape: Tape, to request: HTTPRequest, incoming: IncomingRequest,
                              fault: FaultAction?, plan: FaultPlan, log: @escaping @Sendable (String) -> Void) -> ServerReply {
        let shown = tape.isRecording ? ProxyHeaders.forClient(response, for: request) : response
        HandlerNotes.current?.outcome = tape.isRecording ? "recorded" : "played"
        if let frames = shown.webSocket {
            if WebSocketPlan.isUpgrade(incoming.headers), incoming.headers["Sec-WebSocket-Key"]?.isEmpty ?? true {
                return ServerReply.text(400, "a WebSocket upgrade needs a Sec-WebSocket-Key header (RFC 6455 §4.1)\n",
                                        headers: [ServerMarker.errorHeader: "400"])
            }
            guard WebSocketPlan.isUpgrade(incoming.headers) else {
                return ServerReply.text(426, "\(Deck.redactedSummary(incoming)) was recorded as a WebSocket session: open it with a WebSocket client (ws://)\n",
                                        headers: ["Upgrade": "websocket", ServerMarker.errorHeader: "426"])
            }
            if let refusal = WebSocketPlan.subprotocolRefusal(recorded: shown.headers, offered: incoming.headers, summary: Deck.redactedSummary(incoming)) {
                return refusal
            }
            return ServerReply(response: shown, webSocket: .replay(frames: frames, label: Deck.redactedSummary(incoming),
                                                                         latency: plan.conditions.latency, log: log))
        }
        if let chunks = shown.chunks, fault == nil, request.method != .head {
            return ServerReply(response: shown, stream: .replaying(chunks, latency: plan.conditions.latency))
        }
        return ServerReply(response: shown, fault: TapesHandler.socketPart(of: fault))
    }

    /// The reply for the failure `tape` met; nil for a request it has no match for (its
    /// report is added to `reports`, and the next tape is asked).
    private static func failureReply(_ error: any Error, from tape: Tape, to request: HTTPRequest, incoming: IncomingRequest, deck: Deck,
                                     reports: inout [String]) -> ServerReply? {
        let log = deck.options.log
        switch error {
        case let error as CassetteError:
            guard case .noMatch(let report) = error else { return ServerReply.failure(error, request: request, log: log) }
            reports.append(report.description)
            return nil
        case is LoopGuardTransport.LoopedBack:
            return LoopHandler.reply(for: Deck.redactedSummary(incoming), deck: deck)
        case let error as HTTPError where !tape.isRecording:
            return ServerReply.replayedFailure(error, request: request, log: log)
        default:
            return ServerReply.failure(error, request: request, log: log)
        }
    }

    /// The request a tape sees: at the serving `origin` (`http://127.0.0.1:8080`) for replay (at the host it names, when
    /// `intercepting` and the client sent it as to a proxy), at the upstream (or the
    /// absolute-form target) with proxy headers for recording.
    static func request(_ incoming: IncomingRequest, for tape: Tape, origin: String, via: String, intercepting: Bool = false) throws -> HTTPRequest {
        let method = try HTTPMethod(validating: incoming.method)
        let rest = tape.stripping(incoming.pathAndQuery)
        guard tape.isRecording else {
            let target = intercepting && incoming.isAbsoluteForm ? incoming.target : origin + rest
            guard let url = ParsedTargets.shared.url(target) else {
                throw HTTPError.invalidURL(input: Excerpt.of(target), reason: "not a valid request target")
            }
            return HTTPRequest(method: method, url: url, headers: incoming.headers, body: incoming.body.isEmpty ? nil : incoming.body)
        }
        let forward = incoming.isAbsoluteForm
        let upstream = tape.upstream
        let target: String
        if forward {
            target = incoming.target
        } else if let prefix = tape.upstreamPrefix {
            target = prefix + rest
        } else {
            throw HTTPError.invalidURL(input: Excerpt.of(incoming.target), reason: "this proxy has no upstream of its own: send requests through it as "
                + "a proxy (HTTPS_PROXY or HTTP_PROXY set to its address, or curl -x), or start it with an upstream URL")
        }
        guard let url = PercentEncoding.url(target) else { throw HTTPError.invalidURL(input: Excerpt.of(target), reason: "not a valid request target") }
        let headers = ProxyHeaders.forUpstream(incoming.headers, url: url, client: incoming.remoteAddress, forward: forward, via: via,
                                                upstream: upstream, authority: !forward && rest.hasPrefix("/") ? tape.upstreamAuthority : nil)
        return HTTPRequest(method: method, url: url, headers: headers, body: incoming.body.isEmpty ? nil : incoming.body)
    }

    /// A WebSocket upgrade on a recording tape: relayed to the upstream byte for byte and recorded
    /// as one interaction (the upgrade, the `101`, every frame) when either end leaves.
    static func recordWebSocket(_ request: HTTPRequest, on tape: Tape, incoming: IncomingRequest, https: HTTPSOptions?,
                                log: @escaping @Sendable (String) -> Void) -> ServerReply {
        let summary = Deck.redactedSummary(incoming)
        guard let recorder = tape.session.cassette.recorder else {
            return ServerReply.text(502, "\(summary): this tape does not record\n", headers: [ServerMarker.errorHeader: "502"])
        }
        let scheme = request.url.scheme?.lowercased()
        guard scheme == "http" || scheme == "https", let host = request.url.host() else {
            return ServerReply.text(400, "\(summary): a WebSocket upgrade needs an http:// or https:// target\n", headers: [ServerMarker.errorHeader: "400"])
        }
        var tls: NIOSSLContext?
        if scheme == "https" {
            do { tls = try WebSocketPlan.upstreamTLS(https) } catch {
                return ServerReply.text(502, "\(summary): cannot set up TLS to the upstream: \(error)\n", headers: [ServerMarker.errorHeader: "502"])
            }
        }
        // A session the cassette already holds is replayed, as any recorded request is (mode once, new).
        switch recorder.recordedAnswer(to: request) {
        case .success(let response)?:
            guard let frames = response.webSocket else { return ServerReply(response: response) }
            if let refusal = WebSocketPlan.subprotocolRefusal(recorded: response.headers, offered: incoming.headers, summary: summary) {
                // A client that speaks another subprotocol opens another session: recorded live
                // when the mode records what the cassette does not hold.
                guard recorder.recordsUnmatched else { return refusal }
                break
            }
            HandlerNotes.current?.outcome = "played"
            return ServerReply(response: response, webSocket: .replay(frames: frames, label: summary, latency: .none, log: log))
        case .failure(let error)?:
            return ServerReply.failure(error, request: request, log: log)
        case nil:
            break
        }
        var upgrade = request
        // The proxy drops hop-by-hop headers; an upgrade needs its own back.
        upgrade.headers["Connection"] = "Upgrade"
        upgrade.headers["Upgrade"] = incoming.headers["Upgrade"] ?? "websocket"
        // No extension is negotiated, so frames are recorded as the application sent them
        // (permessage-deflate would record compressed bytes), as mitmproxy does.
        upgrade.headers.remove(name: "Sec-WebSocket-Extensions")
        // The head is written upstream as text: a field that would break its lines (a `Host`
        // decoded from an absolute-form target's `%0D%0A`) is refused here, as any request sent is.
        do throws(HTTPError) {
            try upgrade.validateForSending()
        } catch {
            return ServerReply.text(400, "\(summary): \(error.localizedDescription)\n", headers: [ServerMarker.errorHeader: "400"])
        }
        let recording = WebSocketRecording(request: upgrade, log: log) { interaction in
            do throws(CassetteError) {
                try recorder.record(interaction)
            } catch {
                log("the WebSocket session \(summary) was not recorded: \(error.errorDescription ?? "\(error)")")
            }
        }
        HandlerNotes.current?.outcome = "recorded"
        return ServerReply(response: HTTPResponse(status: 101),
                           webSocket: .record(host: host, port: request.url.port ?? (tls == nil ? 80 : 443), tls: tls,
                                              request: WebSocketPlan.wire(upgrade), recording: recording))
    }

    /// The part of a fault the transport plays (status, and latency for everything).
    static func inProcessPart(of fault: FaultAction?) -> FaultAction? {
        if case .status? = fault { return fault }
        return nil
    }

    /// The part of a fault only the socket can play.
    static func socketPart(of fault: FaultAction?) -> SocketFault? {
        switch fault {
        case .reset?: .reset
        case .truncate?: .truncate
        case .slow(let rate)?: .slow(bytesPerSecond: rate)
        case .timeout?: .hang
        case .status?, nil: nil
        }
    }
}

extension ServerHandler where Self == TapesHandler {
    /// The tapes of `deck` (``TapesHandler``).
    package static func tapes(_ deck: Deck) -> TapesHandler {
        TapesHandler(deck: deck)
    }
}
