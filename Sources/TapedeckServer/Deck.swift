import Foundation
import NIOCore
import Synchronization
import Tapedeck
import TapedeckTooling

/// The cassettes a server plays and records, and the one path every request takes through
/// them: control endpoints, mount, the session's transport (the same replay, recording,
/// matching and redaction as everywhere else), network conditions, the unmatched policy.
///
/// A ``CassetteServer`` makes one; its methods do in-process what the control endpoints
/// (`/__tapedeck/…`) do over HTTP:
///
/// ```swift
/// let server = try await CassetteServer.serve([Cassettes.url("cart")])
/// try server.deck.switchTo(paths: [Cassettes.url("empty-cart").path])   // the next test's cassette
/// print(server.deck.status.cassettes.map(\.played))
/// ```
public final class Deck: Sendable {
    /// The options in effect.
    public let options: DeckOptions
    /// The origin clients address; cassettes are served as if recorded there.
    public let origin: URL
    private let tapes: Mutex<[Tape]>
    /// Counts each change of the tapes: a replayed answer given again without the handlers
    /// (``AnswerAgain``) holds while it does not move.
    let tapesVersion = TapesVersion()
    private let recent = Mutex<[String]>([])
    /// The address the server listens on (``origin`` is what clients are told, `--origin`).
    let listener: URL
    /// `scheme://host[:port]` of ``origin`` (``originText(_:)``), what replayed requests are addressed to.
    let originPrefix: String

    /// Whether a request naming `host` (a `Host` value, `name:port`) is addressed to this server.
    func isAddressed(_ host: String) -> Bool {
        ControlGate.accepts(host, origin: origin) || ControlGate.accepts(host, origin: listener)
    }

    /// Whether `url` names this server itself (its listener or its advertised origin).
    func isSelf(_ url: URL) -> Bool {
        // A port neither address has cannot name this server (``ControlGate/accepts(_:origin:)``
        // compares ports first): most upstreams are told apart here, without building a `Host`.
        let port = url.port ?? ControlGate.defaultPort(url)
        guard port == origin.port ?? ControlGate.defaultPort(origin) || port == listener.port ?? ControlGate.defaultPort(listener) else { return false }
        return isAddressed(ControlHandler.hostAndPort(url) + (url.port == nil ? ":\(port)" : ""))
    }

    /// What this server adds to the `Via` of every request it sends upstream, so a request that
    /// comes back around (a proxy pointed at itself, or a ring of proxies) is recognised.
    let viaName = "tapedeck-" + DeckOptions.randomToken().prefix(10)
    /// How often each distinct unmatched request (redacted summary) was seen.
    private let seenUnmatched = Mutex<[String: Int]>([:])
    private let unmatchedCount = Atomic<Int>(0)
    /// Set when ``finish()`` could not write a tape's cassette (its journal is kept): the
    /// command exits non-zero.
    package let finishFailed = Atomic<Bool>(false)
    /// The memory the tapes' held answer bytes may take together (``WireForms``).
    private let wireBudget = WireBudget()
    /// Streams being relayed and recorded: a stop waits for them to be recorded before it writes the cassettes.
    private let openStreams = Mutex<[UUID: Task<Void, Never>]>([:])
    private let plan: FaultPlan

    /// How many mismatch summaries ``status`` keeps.
    static let keptMismatches = 20

    /// Creates an empty deck answering at `origin`.
    package init(options: DeckOptions, origin: URL) {
        self.options = options
        self.origin = options.origin ?? origin
        listener = origin
        originPrefix = Deck.originText(options.origin ?? origin)
        tapes = Mutex([])
        plan = FaultPlan(options.conditions)
    }

    // MARK: Loading

    /// How the server opens the cassette at `path`: replay only, or recording what goes to
    /// `upstream` in `mode`. Every tape is opened from this one configuration.
    func configuration(path: String, recording upstream: URL? = nil, records: Bool? = nil, mode: RecordMode = .new) -> CassetteConfiguration {
        var configuration = CassetteConfiguration(URL(fileURLWithPath: path), matcher: options.matcher, allowRepeats: options.allowRepeats,
                                                  wording: FixContext.server(upstream: (upstream ?? options.upstream).map { Redactor.redactingPassword($0).absoluteString }
                                                      ?? (options.https?.intercept == true ? "--intercept" : nil)),
                                                  environment: options.environment)
        // The mode the command line or the control endpoint named stands, as it did before
        // cassettes opened through one configuration: TAPEDECK_RECORD_MODE is for test runs.
        configuration.ignoresModeOverride = true
        if records ?? (upstream != nil) {
            configuration.mode = mode
            if let upstream { configuration.metadata = [Cassette.MetadataKey.baseURL: upstream.absoluteString] }
            configuration.recordFailures = options.recordFailures
        } else {
            configuration.mode = .replayOnly
            // Intercepted requests name their own hosts (`https://api.example.com/…`): the
            // cassette is served at the hosts it was recorded at, not at this server.
            configuration.origin = options.https?.intercept == true ? nil : origin
        }
        return configuration
    }

    /// Opens a tape under `mount` from ``configuration(path:recording:mode:)``.
    private func tape(path: String, mount: String, recording upstream: URL? = nil, records: Bool? = nil,
                      mode: RecordMode = .new) throws(CassetteError) -> Tape {
        let records = records ?? (upstream != nil)
        // A replay tape gets no live transport: its requests are addressed to this server.
        let live: any HTTPTransport = records ? LoopGuardTransport(inner: options.live) : OfflineTransport()
        let session = try CassetteSession(configuration(path: path, recording: upstream, records: records, mode: mode), live: live)
        for warning in session.cassette.warnings { options.log("warning: " + warning) }
        return Tape(mount: Deck.normalizedMount(mount), path: path, session: session, upstream: upstream, isRecording: records,
                    wireBudget: wireBudget)
    }

    /// Adds a cassette to replay (any format Tapedeck reads) under `mount` (`""` for all paths).
    public func load(path: String, mount: String = "") throws(CassetteError) {
        let tape = try tape(path: path, mount: mount)
        changeTapes { $0.append(tape) }
    }

    /// Adds a cassette that records what goes through to `upstream` in `mode`, under `mount`;
    /// with no upstream, only what clients send through the server as their proxy is recorded.
    public func record(path: String, mode: RecordMode, upstream: URL?, mount: String = "") throws(CassetteError) {
        // Refused before anything is sent on: a recording no file can hold would be lost.
        if let problem = OutputPath.problem(with: URL(fileURLWithPath: path)) { throw .writeFailed(path: path, reason: problem) }
        let tape = try tape(path: path, mount: mount, recording: upstream, records: true, mode: mode)
        changeTapes { $0.append(tape) }
    }

    /// Replaces every tape under `mount` with `paths` for replay; the old ones are finished first.
    /// Returns their summaries.
    @discardableResult
    public func switchTo(paths: [String], mount: String = "") throws(CassetteError) -> [String] {
        let mount = Deck.normalizedMount(mount)
        var sessions: [Tape] = []
        for path in paths { sessions.append(try tape(path: path, mount: mount)) }
        let removed = changeTapes { tapes in
            let old = tapes.filter { $0.mount == mount }
            tapes.removeAll { $0.mount == mount }
            tapes.append(contentsOf: sessions)
            return old
        }
        return try removed.map { (tape: Tape) throws(CassetteError) -> String in try tape.session.finish(environment: options.environment) }
    }

    /// Reopens every tape from its file: replay positions start over, recordings are written first.
    public func reset() throws(CassetteError) {
        let current = tapes.withLock { $0 }
        var reopened: [Tape] = []
        for old in current {
            try old.session.finish(environment: options.environment)
            reopened.append(try tape(path: old.path, mount: old.mount, recording: old.upstream, records: old.isRecording,
                                     mode: old.session.mode == .all ? .new : old.session.mode))
        }
        changeTapes { $0 = reopened }
    }

    /// Turns recording on for `mount`: its tapes are replaced by one recording into `path`.
    /// The recording is opened first: when it cannot be (a bad path), the tapes stay as they were.
    public func startRecording(path: String, mode: RecordMode, upstream: URL, mount: String = "") throws(CassetteError) {
        // Refused before any tape changes: a path no file can be written at would lose the
        // recording at the stop, and the tape it replaced.
        if let problem = OutputPath.problem(with: URL(fileURLWithPath: path)) { throw .writeFailed(path: path, reason: problem) }
        let fresh = try tape(path: path, mount: mount, recording: upstream, mode: mode)
        let old = changeTapes { tapes in
            let old = tapes.filter { $0.mount == fresh.mount }
            tapes.removeAll { $0.mount == fresh.mount }
            tapes.append(fresh)
            return old
        }
        for tape in old { try tape.session.finish(environment: options.environment) }
    }

    /// Turns recording off: each recording tape is written and replayed from its file from now on
    /// (one that recorded nothing, and so wrote no file, is taken off its mount). Returns the
    /// summaries of the recordings.
    @discardableResult
    public func stopRecording() throws(CassetteError) -> [String] {
        let recording = tapes.withLock { $0.filter(\.isRecording) }
        var summaries: [String] = []
        for old in recording {
            summaries.append(try old.session.finish(environment: options.environment))
            let replay = FileManager.default.fileExists(atPath: old.path) ? try tape(path: old.path, mount: old.mount) : nil
            changeTapes { tapes in
                guard let index = tapes.firstIndex(where: { $0.path == old.path && $0.isRecording }) else { return }
                if let replay { tapes[index] = replay } else { tapes.remove(at: index) }
            }
        }
        return summaries
    }

    /// Keeps `task` (a stream being relayed and recorded) until it ends, for ``settleStreams(within:)``.
    func track(_ task: Task<Void, Never>) {
        let id = UUID()
        openStreams.withLock { $0[id] = task }
        Task { [weak self] in
            await task.value
            _ = self?.openStreams.withLock { $0.removeValue(forKey: id) }
        }
    }

    /// Waits, up to `seconds`, for the streams still open to end and be recorded: their clients
    /// are gone once the listener is closed, so their upstream transfers stop within about a second.
    func settleStreams(within seconds: Double) async {
        let open = openStreams.withLock { Array($0.values) }
        guard !open.isEmpty else { return }
        await withTaskGroup(of: Void.self) { group in
            group.addTask { for task in open { await task.value } }
            group.addTask { try? await Task.sleep(for: .seconds(seconds)) }
            await group.next()
            group.cancelAll()
        }
    }

    /// Writes every recording and returns the tape summary: a status line per cassette (recorded,
    /// played, unused), the never-played interactions, and the unmatched count.
    public func finish() -> String {
        inspector.close()
        var lines: [String] = []
        for tape in tapes.withLock({ $0 }) {
            do {
                lines.append(try tape.session.finish(environment: options.environment))
            } catch {
                finishFailed.store(true, ordering: .relaxed)
                lines.append("error: " + (error.errorDescription ?? "\(error)"))
            }
        }
        lines.append("\(unmatchedCount.load(ordering: .relaxed)) unmatched request\(unmatchedCount.load(ordering: .relaxed) == 1 ? "" : "s")")
        return lines.joined(separator: "\n")
    }

    /// Why `mount` cannot be a mount prefix, or nil: a path (`/v1`, `/api/v2`) of segments in
    /// URL path characters, with no `.` or `..` segment. One rule for `--mount` and the control
    /// endpoints' `mount=`.
    package static func mountProblem(_ mount: String) -> String? {
        let trimmed = normalizedMount(mount)
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~!$&'()*+,;=:@%/".utf8)
        if let bad = trimmed.utf8.first(where: { !allowed.contains($0) }) {
            let shown = bad < 0x20 || bad == 0x7F ? String(format: "the control character 0x%02X", bad)
                : bad >= 0x80 ? "a character past ASCII (percent-encode it)" : "'\(Character(Unicode.Scalar(bad)))'"
            return "a mount prefix is a URL path, and this one holds \(shown); write it as /v1 or /api/v2"
        }
        // Read as a client's path is read: `%2e%2e` is `..`.
        if (trimmed.removingPercentEncoding ?? trimmed).split(separator: "/").contains(where: { $0 == "." || $0 == ".." }) {
            return "a mount prefix has no . or .. segment; write it as /v1 or /api/v2"
        }
        return nil
    }

    static func normalizedMount(_ mount: String) -> String {
        var trimmed = mount.trimmingCharacters(in: .whitespaces)
        while trimmed.hasSuffix("/") { trimmed.removeLast() }
        if !trimmed.isEmpty, !trimmed.hasPrefix("/") { trimmed = "/" + trimmed }
        return trimmed
    }

    // MARK: Answering

    /// The handlers every request goes through, built on first use: the chain holds the
    /// deck weakly, so it cannot be built before the deck is.
    private let handlerChain = Mutex<ServerHandlerChain?>(nil)

    /// The standard chain, built on first use.
    private var chain: ServerHandlerChain {
        handlerChain.withLock { stored in
            if let stored { return stored }
            let built = ServerHandlerChain.standard(for: self)
            stored = built
            return built
        }
    }

    /// Answers one request through ``ServerHandlerChain/standard(for:)``: control endpoints,
    /// the tapes of the longest mount that covers it, the upstream, the unmatched answer.
    package func respond(_ incoming: IncomingRequest) async -> ServerReply {
        let chain = self.chain
        guard publishes(incoming) else {
            if let reply = await chain.respond(to: incoming) { return reply }
            // The standard chain ends with the unmatched answer, which always answers.
            return UnmatchedHandler(deck: self).answer(incoming)
        }
        let start = ContinuousClock.now
        let notes = HandlerNotes()
        let reply = await HandlerNotes.$current.withValue(notes) {
            await chain.respondSharingNotes(to: incoming)
        } ?? UnmatchedHandler(deck: self).answer(incoming)
        publish(reply, to: incoming, notes: notes, since: start)
        return reply
    }

    /// ``respond(_:)``'s answer when the handlers give it without waiting (a replayed
    /// answer, a miss, a page) or from a future on the calling event loop (a recording sent
    /// from there); ``ServerResponder/Answer/later`` when one of them must wait in a task.
    ///
    /// The handlers are told the tapes' version from before they were asked, for an answer they
    /// would give again to the same request (``AnswerAgain``), unless the inspector publishes it.
    package func respondAtOnce(_ incoming: IncomingRequest) -> ServerResponder.Answer {
        let start = ContinuousClock.now
        let publishes = publishes(incoming)
        let notes = HandlerNotes(tapesSeen: publishes ? nil : tapesVersion.current)
        let answer = HandlerNotes.$current.withValue(notes) { chain.respondAtOnceSharingNotes(to: incoming) }
        let reply: ServerReply
        switch answer {
        case .answered(let given): reply = given
        case .passed: reply = HandlerNotes.$current.withValue(notes) { UnmatchedHandler(deck: self).answer(incoming) }
        case .waits: return .later
        case .pending(let given):
            guard publishes else { return .pending(given) }
            return .pending(given.map { [self] reply in
                publish(reply, to: incoming, notes: notes, since: start)
                return reply
            })
        }
        if publishes { publish(reply, to: incoming, notes: notes, since: start) }
        return .reply(reply)
    }

    /// Whether the answer to `incoming` is published to the inspector: with the inspector
    /// on, each answer but the inspector's and the control endpoints'.
    private func publishes(_ incoming: IncomingRequest) -> Bool {
        options.inspector && !ControlHandler.isControl(incoming.path)
    }

    /// Publishes how `reply` answered `incoming` (noted in `notes`), its status and how long
    /// it took since `start`.
    private func publish(_ reply: ServerReply, to incoming: IncomingRequest, notes: HandlerNotes, since start: ContinuousClock.Instant) {
        let elapsed = ContinuousClock.now - start
        let unmatched = reply.response.headers[ServerMarker.unmatchedHeader] != nil
        let outcome = unmatched ? "unmatched" : notes.outcome ?? (reply.response.headers[ServerMarker.errorHeader] != nil ? "refused" : "answered")
        inspector.publish(method: incoming.method, target: Deck.redactedSummary(incoming).split(separator: " ", maxSplits: 1).last.map(String.init) ?? "",
                          status: reply.response.status,
                          milliseconds: Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15,
                          outcome: outcome, report: unmatched ? String(decoding: reply.response.body, as: UTF8.self) : nil)
    }

    /// Changes the tapes with `change`, and counts the change (``tapesVersion``).
    private func changeTapes<Result>(_ change: (inout [Tape]) -> Result) -> Result {
        tapes.withLock { tapes in
            defer { tapesVersion.advance() }
            return change(&tapes)
        }
    }

    /// The live inspector's feed (``DeckOptions/inspector``).
    let inspector = InspectorFeed()

    /// The tapes loaded now, in the order they were loaded.
    var loadedTapes: [Tape] { tapes.withLock { $0 } }

    /// The network conditions every answer from the tapes plays, with their seeded draws.
    var faultPlan: FaultPlan { plan }

    /// Counts `incoming` as unmatched for ``status`` and ``finish()``, keeping the summaries
    /// (`METHOD target`) of the last ``keptMismatches``.
    /// Returns how many times this summary was counted before (0 the first time), so the log
    /// can print a full report once per distinct request and a counted line after that.
    @discardableResult
    func countUnmatched(_ incoming: IncomingRequest) -> Int {
        unmatchedCount.add(1, ordering: .relaxed)
        let summary = Deck.redactedSummary(incoming)
        recent.withLock { recent in
            recent.append(summary)
            if recent.count > Deck.keptMismatches { recent.removeFirst(recent.count - Deck.keptMismatches) }
        }
        return seenUnmatched.withLock { seen in
            let before = seen[summary] ?? 0
            // Bounded: past this many distinct requests, each is reported in full once more.
            if before == 0, seen.count >= Deck.keptDistinctMismatches { seen.removeAll(keepingCapacity: true) }
            seen[summary] = before + 1
            return before
        }
    }

    /// How many distinct unmatched requests the log remembers having reported in full.
    static let keptDistinctMismatches = 10_000

    /// `METHOD target` with credentials in the target replaced, as cassettes redact them: what
    /// ``status`` and the log show of a request (one redaction for every channel).
    static func redactedSummary(_ incoming: IncomingRequest) -> String {
        // A tunnel's target is the host and port it opens (`api.example.com:443`), no path.
        if incoming.method.caseInsensitiveEquals("CONNECT") { return "CONNECT \(Excerpt.visible(incoming.target))" }
        guard let url = URL(string: "http://summary.local" + incoming.pathAndQuery) else { return "\(incoming.method) (unreadable target)" }
        // A credential the request carries in a header (a bearer token) is scrubbed where its
        // target repeats it (`/sessions/TOKEN`), as the log's report scrubs it.
        let redacted = Redactor.standard.redact(HTTPRequest(url: url, headers: incoming.headers), knownSecrets: []).request.url
        let path = redacted.path(percentEncoded: true)
        let query = redacted.query(percentEncoded: true).map { "?" + $0 } ?? ""
        // And a token known by its shape (a JWT, a vendor key) wherever the target holds it.
        return Redactor.standard.redact(text: "\(incoming.method) \(path.isEmpty ? "/" : path)\(query)")
    }

    /// `scheme://host[:port]` of `url`, an IPv6 host in brackets.
    static func originText(_ url: URL) -> String {
        let scheme = url.scheme ?? "http", host = url.host ?? "127.0.0.1"
        let shownHost = host.bracketedIfIPv6
        return "\(scheme)://\(shownHost)" + (url.port.map { ":\($0)" } ?? "")
    }

    /// The upstream's path prefix without a trailing slash (`http://h/api/` → `/api`).
    static func basePath(_ url: URL) -> String {
        var path = url.path(percentEncoded: true)
        while path.hasSuffix("/") { path.removeLast() }
        return path
    }

    // MARK: Status

    /// The counts of every tape and the last mismatches, for `GET /__tapedeck/status`.
    public var status: DeckStatus {
        let cassettes = tapes.withLock { $0 }.map { tape in
            let status = tape.session.status
            return DeckStatus.CassetteStatus(path: tape.path, mount: tape.mount.isEmpty ? "/" : tape.mount, mode: status.mode.rawValue,
                                             recording: tape.isRecording, recorded: status.counts.recorded, played: status.counts.played,
                                             unused: status.counts.unused, total: status.counts.total)
        }
        return DeckStatus(origin: origin.absoluteString, cassettes: cassettes, unmatched: unmatchedCount.load(ordering: .relaxed),
                          lastMismatches: recent.withLock { $0 })
    }
}
