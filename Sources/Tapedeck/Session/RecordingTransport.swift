import Foundation
import Synchronization

/// Wraps any transport and records what goes through it into a cassette file, replaying what
/// is already recorded as the ``RecordMode`` says.
///
/// Each recorded interaction is redacted (``Redactor``), checked by ``SecretLint`` and handed
/// to a ``CassetteStore``, which appends it to a journal beside the cassette and merges that
/// into the cassette on ``flush()``, on release and at exit: recording costs the same per
/// interaction at any cassette size, `kill -9` loses at most the interaction in flight, and
/// sessions in several processes can record into one cassette at once.
/// gzip/deflate bodies arrive decoded, so `Content-Encoding` is removed and `Content-Length`
/// rewritten; repeated headers stay separate entries. Give it a transport that does not follow
/// redirects to record chains hop by hop; it follows them itself when `followRedirects` is on.
///
/// ```swift
/// let live = URLSessionTransport(options: .init(followRedirects: false))
/// let cassette = try CassetteConfiguration(URL(fileURLWithPath: "Sessions/api.cassette.json"), mode: .once).open(live: live)
/// let response = try await cassette.transport.send(request)   // cassette.recorder is this type
/// try cassette.flush()
/// ```
public final class RecordingTransport: HTTPTransport, Sendable {
    /// Recorded, played, unused and total counts.
    public typealias Counts = OpenCassette.Counts

    /// The cassette file.
    public let url: URL
    /// The mode in effect.
    public let mode: RecordMode
    /// How the cassette was opened (mode resolved, environment applied).
    public let configuration: CassetteConfiguration
    private let inner: any HTTPTransport
    private let replayer: ReplayTransport?
    /// Whether a request the cassette holds no answer for is sent live and recorded (`new`,
    /// `all`, or a cassette not made yet).
    package let recordsUnmatched: Bool
    /// Where the file's interactions were recorded, when ``CassetteConfiguration/origin`` serves them elsewhere.
    private let recordedOrigin: URL?
    /// The cassette on disk: journal, merges, recovery.
    let store: CassetteStore
    /// Every secret redacted so far, replaced wherever it appears in later interactions.
    private let secrets: SecretMemory
    /// How many of the secrets learned the store was checked for (``scrubEarlierRecords()``).
    private let scrubbedSecrets = Atomic<Int>(0)

    /// Opens a recording session as `configuration` says (``CassetteConfiguration/open(live:)``
    /// calls this with the environment applied; a nil mode is `once`).
    ///
    /// Throws when the file is malformed, or missing in mode `none`.
    package init(configuration: CassetteConfiguration, inner: any HTTPTransport) throws(CassetteError) {
        let url = configuration.url
        let mode = configuration.resolvedMode
        self.url = url
        self.mode = mode
        self.inner = inner
        self.configuration = configuration
        let secrets = SecretMemory()
        self.secrets = secrets
        // A value can reach an interaction before a later one shows it is a secret (a token in
        // a URL, then the same token in an Authorization header): each merge scrubs what the
        // session has learned from the whole cassette.
        // A base URL's userinfo password never reaches the file.
        let metadata = configuration.metadata.mapValues { value in
            URL(string: value).map { Redactor.redactingPassword($0).absoluteString } ?? value
        }
        store = try CassetteStore(url: url, replacing: mode == .all, metadata: metadata,
                                  options: .init(journalEachInteraction: configuration.autosave,
                                                 syncEachInteraction: configuration.syncEachInteraction),
                                  finishing: CassetteFinishing(secrets: { secrets.secrets }))
        let existing = store.opened
        if mode == .replayOnly, existing == nil { throw .missing(path: url.path, context: configuration.wording) }
        if let existing, mode != .all {
            replayer = ReplayTransport(cassette: existing, path: url.path, configuration: configuration, mode: mode)
        } else {
            replayer = nil
        }
        recordsUnmatched = mode == .new || mode == .all || existing == nil
        recordedOrigin = mode == .all ? nil : existing?.recordedOrigin
    }

    /// Sends `request` and returns its response (see the type's summary for how).
    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        guard configuration.followRedirects else { return try await sendOne(request) }
        return try await RedirectFollower.follow(request) { hop in try await sendOne(hop) }
    }

    private func sendOne(_ request: HTTPRequest) async throws -> HTTPResponse {
        if let recorded = try recordedResponse(to: request) { return recorded }
        // A stream relayed as it arrives (a front-end observes it) is journaled chunk by chunk.
        let live = LiveRecording(recorder: self, request: request, relay: ResponseObserver.current)
        let response: HTTPResponse
        do {
            if let observer = live.observer {
                response = try await ResponseObserver.$current.withValue(observer) { try await inner.send(request) }
            } else {
                response = try await inner.send(request)
            }
        } catch {
            try live.failed(error)
            throw error
        }
        return try live.finished(response)
    }

    /// What the cassette answers `request` with before anything goes live: its recorded
    /// response, or (thrown) the failure it recorded or the mismatch when the mode records
    /// nothing new; nil when the request is to go live and be recorded.
    package func recordedResponse(to request: HTTPRequest) throws -> HTTPResponse? {
        guard let replayer else { return nil }
        switch replayer.lookup(request) {
        case .success(let response): return response
        case .failure(.recordedFailure(let error)): throw error
        case .failure(let error): if !recordsUnmatched { throw error }
        }
        return nil
    }

    /// Begins recording `request`'s live exchange, for a front-end that sends it itself after
    /// ``recordedResponse(to:)`` gave nil; a stream is shown to `relay` as ``send(_:)`` shows
    /// it to ``ResponseObserver/current``.
    package func beginLive(_ request: HTTPRequest, relay: ResponseObserver?) -> LiveRecording {
        LiveRecording(recorder: self, request: request, relay: relay)
    }

    /// The interaction as it is stored: redacted (with every secret learned so far), rewritten to
    /// the recorded origin, named, and passed through `beforeRecord`.
    fileprivate func prepared(_ interaction: Interaction) -> Interaction {
        var stored = secrets.redact(interaction, with: configuration.redactor)
        if let origin = configuration.origin, let recordedOrigin {
            stored = stored.rewriting(Cassette.originReplacements(from: origin, to: recordedOrigin))
        }
        if stored.recordedBy == nil { stored.recordedBy = CassetteScope.name }
        if let beforeRecord = configuration.beforeRecord { stored = beforeRecord(stored) }
        return stored
    }

    /// `stored`, once it is known to be sendable and, with the lint on, free of secrets.
    fileprivate func checked(_ stored: Interaction) throws(CassetteError) -> Interaction {
        // Checked at index 0 first: the index only places a problem, and asking the store for
        // its count would make concurrent recordings wait for each other's lock.
        if stored.unsendableHeader(index: 0) != nil, let (pointer, problem) = stored.unsendableHeader(index: store.count) {
            throw .invalidField(path: url.path, pointer: pointer, problem: "not recorded: " + problem)
        }
        if configuration.lint, let coding = SecretLint.unreadableCoding(of: stored.response) {
            throw .invalidField(path: url.path, pointer: "/interactions/\(store.count)/response/body",
                                problem: "not recorded: the stream came compressed with \(coding), which Tapedeck cannot decode, so it cannot be "
                                    + "checked for secrets; have the client ask for gzip or identity (Accept-Encoding)")
        }
        if configuration.lint, !SecretLint.findings(in: stored, index: 0).isEmpty {
            throw .secretsFound(path: url.path, findings: SecretLint.findings(in: stored, index: store.count), context: configuration.wording)
        }
        return stored
    }

    /// Journals the head of a stream that began (its body still empty) under `name`.
    fileprivate func beginStream(_ interaction: Interaction, name: String) throws(CassetteError) {
        try store.beginStream(try checked(prepared(interaction)), stream: name)
    }

    /// Journals one chunk of the stream `name`, redacted and linted as the whole body will be. A
    /// chunk that still holds a secret drops the stream from the journal (what was journaled of
    /// it too) and throws ``CassetteError/secretsFound(path:findings:context:)``.
    fileprivate func appendChunk(_ chunk: BodyChunk, of interaction: Interaction, name: String) throws(CassetteError) {
        var single = interaction
        single.response.chunks = [chunk]
        single.response.body = chunk.data
        let stored = prepared(single)
        if configuration.lint {
            // The head was linted when the stream began: only the chunk is read again (an LLM's
            // stream of 2,000 events need not read its long prompt 2,000 times).
            var chunkOnly = stored
            chunkOnly.request = HTTPRequest(method: stored.request.method, url: stored.request.url)
            chunkOnly.response.headers = HTTPHeaders(stored.response.headers.filter { $0.name.caseInsensitiveEquals("Content-Type") })
            let findings = SecretLint.findings(in: chunkOnly, index: store.count)
            if !findings.isEmpty {
                try store.dropStream(name)
                throw .secretsFound(path: url.path, findings: findings, context: configuration.wording)
            }
        }
        try store.appendChunk(stored.response.chunks?.first ?? chunk, stream: name)
    }

    /// What this session answers `request` with from the cassette, as a send would: the recorded
    /// response when one matches, the mismatch when the mode records nothing new, nil when the
    /// request is to be recorded. For front-ends that relay an exchange themselves (a WebSocket).
    package func recordedAnswer(to request: HTTPRequest) -> Result<HTTPResponse, CassetteError>? {
        guard let replayer else { return nil }
        switch replayer.lookup(request) {
        case .success(let response): return .success(response)
        case .failure(let error): return recordsUnmatched ? nil : .failure(error)
        }
    }

    /// Stores `error` as the answer to `request` when ``CassetteConfiguration/recordFailures`` is on and it is a
    /// ``TransportFailure``; under `stream`, in place of that stream's head and chunks. Returns
    /// whether it was stored.
    @discardableResult
    fileprivate func recordFailure(_ error: HTTPError, for request: HTTPRequest, stream: String? = nil) throws(CassetteError) -> Bool {
        guard configuration.recordFailures, let failure = TransportFailure(error) else { return false }
        var seconds = 0.0
        if case .timedOut(_, let limit) = error { seconds = limit }
        try record(Interaction(request: request, response: HTTPResponse(status: 0, reason: "", url: request.url, duration: seconds),
                               recordedAt: Date(), failure: failure), stream: stream)
        return true
    }

    /// Redacts, lints and stores one interaction (journaled at once when `autosave` is on).
    public func record(_ interaction: Interaction) throws(CassetteError) {
        try record(interaction, stream: nil)
    }

    /// ``record(_:)``; a stream's end (`stream`, the name its head was journaled under) replaces
    /// the head and chunks journaled while it flowed.
    fileprivate func record(_ interaction: Interaction, stream: String?) throws(CassetteError) {
        let stored: Interaction
        do {
            stored = try checked(prepared(interaction))
        } catch {
            // The head and chunks journaled as the stream came are not kept either.
            if let stream { try store.dropStream(stream) }
            throw error
        }
        try store.append(stored, stream: stream)
        try scrubEarlierRecords()
    }

    /// After a record whose redaction learned a secret: an earlier record already on disk may
    /// hold it as written (a token sent in a path, shown to be one by a later `Authorization`),
    /// so the store merges at once with it scrubbed (``CassetteStore/scrubAtOnce(_:)``).
    private func scrubEarlierRecords() throws(CassetteError) {
        let total = secrets.count
        // Most records teach nothing new: two atomic loads, no lock.
        guard total > scrubbedSecrets.load(ordering: .acquiring) else { return }
        let handled = scrubbedSecrets.exchange(total, ordering: .acquiringAndReleasing)
        guard total > handled else { return }
        try store.scrubAtOnce(Array(secrets.secrets.dropFirst(handled)))
    }

    /// Journals `stored`, interactions this session's ``LiveRecording/storable(_:)`` made ready
    /// (redacted and linted; each names its ``StorableInteraction/recorder``), in order and in
    /// one write; throws, counting none of them, when the journal cannot be written.
    package func record(stored: [StorableInteraction]) throws(CassetteError) {
        try store.append(stored.map(\.interaction))
        try scrubEarlierRecords()
    }

    /// Merges what this session recorded into the cassette file (atomically), keeping what
    /// other sessions, in this process or others, recorded into it meanwhile
    /// (``CassetteStore/flush()``). Also done when the recorder is released and at exit.
    public func flush() throws(CassetteError) {
        try store.flush()
    }

    /// The cassette as recorded so far: the file with what the session journaled merged in, as
    /// the next ``flush()`` writes it. Recorded interactions live in the journal, not in memory,
    /// so this reads the file each time it is asked for once anything was recorded.
    public var cassette: Cassette { store.cassette }

    /// Recorded, played, unused and total counts.
    public var counts: Counts {
        Counts(recorded: store.appendedCount, played: replayer?.playedCount ?? 0,
               unused: replayer?.unusedInteractions.count ?? 0, total: store.count)
    }

    /// The lines naming never-played interactions, or "".
    public func unusedReport() -> String { replayer?.unusedReport() ?? "" }

    /// Indexes of interactions loaded from the file that were never served, in order.
    public var unusedInteractions: [Int] { replayer?.unusedInteractions ?? [] }

    /// Whether the session replays from what the file held (mode `all` and a new cassette do not).
    package var replaysFromFile: Bool { replayer != nil }

    /// The response as stored: decoded bodies lose `Content-Encoding`, and `Content-Length`
    /// states the stored length; a body that is still gzip (magic bytes) is left alone. The
    /// `Content-Length` of an empty HEAD or 304 response is kept: it describes a GET's body.
    /// `Transfer-Encoding` and `Trailer` go: the stored answer has no framing and no trailers,
    /// and replay would otherwise announce trailers that never come.
    package static func normalized(_ response: HTTPResponse, for request: HTTPRequest) -> HTTPResponse {
        var result = response
        let describesAnotherBody = HTTPResponse.lengthDescribesAnotherBody(method: request.method, status: response.status) && response.body.isEmpty
        let encoding = response.headers["Content-Encoding"]?.lowercased() ?? ""
        let body = response.body
        let stillGzip = body.count >= 2 && body[body.startIndex] == 0x1F && body[body.startIndex + 1] == 0x8B
        // A message stream that came compressed is relayed and kept as it came (it may never
        // end, so it is never decoded whole): its head, before any chunk, and its chunks keep
        // the header that says how to read them (``StreamMedia/keepsEncoding(_:)``).
        if !encoding.isEmpty, encoding != "identity", !stillGzip, !describesAnotherBody, !StreamMedia.keepsEncoding(response) {
            result.headers.remove(name: "Content-Encoding")
            result.headers["Content-Length"] = String(response.body.count)
        }
        result.headers.remove(name: "Transfer-Encoding")
        result.headers.remove(name: "Trailer")
        if let chunks = result.chunks { result.chunks = StreamMedia.wholeMessages(chunks, headers: result.headers) }
        CassetteCodec.fixContentLength(&result.headers, count: result.body.count, describesAnotherBody: describesAnotherBody)
        return result
    }
}

/// An interaction as it is journaled, redacted and linted: only ``LiveRecording/storable(_:)``
/// makes one, so nothing reaches ``RecordingTransport/record(stored:)`` unredacted.
package struct StorableInteraction: Sendable {
    /// The session that made it ready, under whose rules it was redacted: the one to journal it.
    package let recorder: RecordingTransport
    fileprivate let interaction: Interaction
}

/// One live exchange of a recording session (``RecordingTransport/beginLive(_:relay:)``): made
/// before the request goes out, so that a stream's head and chunks are journaled as they flow
/// (through ``observer``), and told how the exchange ended.
package struct LiveRecording: Sendable {
    private let recorder: RecordingTransport
    private let request: HTTPRequest
    private let stream: StreamJournal?

    fileprivate init(recorder: RecordingTransport, request: HTTPRequest, relay: ResponseObserver?) {
        self.recorder = recorder
        self.request = request
        stream = relay.map { StreamJournal(recorder: recorder, request: request, relay: $0) }
    }

    /// What the live transport shows a stream to: the journal, which hands it on to the relay;
    /// nil when there is no relay.
    package var observer: ResponseObserver? { stream?.observer }

    /// Records the response the exchange ended with (redacted, linted, journaled) and returns it;
    /// throws when it cannot be recorded, or when journaling the stream failed.
    package func finished(_ response: HTTPResponse) throws(CassetteError) -> HTTPResponse {
        try stream?.check()
        try recorder.record(Interaction(request: request, response: RecordingTransport.normalized(response, for: request), recordedAt: Date()),
                            stream: stream?.began == true ? stream?.name : nil)
        return response
    }

    /// The interaction to record for `response`, a whole answer (no stream began), redacted and
    /// linted, for a caller that journals several together (``RecordingTransport/record(stored:)``);
    /// throws when it cannot be recorded. ``finished(_:)`` records it at once.
    package func storable(_ response: HTTPResponse) throws(CassetteError) -> StorableInteraction {
        try stream?.check()
        let interaction = Interaction(request: request, response: RecordingTransport.normalized(response, for: request), recordedAt: Date())
        return StorableInteraction(recorder: recorder, interaction: try recorder.checked(recorder.prepared(interaction)))
    }

    /// The exchange failed with `error`. A transport failure is recorded as the answer with
    /// record-failures on; a stream that broke off after its head was journaled is not kept as
    /// a whole answer: recorded as the failure it ended in, else dropped.
    package func failed(_ error: any Error) throws(CassetteError) {
        // A stream the lint refused was dropped; its client got it, so no failure stands for it.
        guard let error = error as? HTTPError, stream?.refused != true else { return }
        let broken = stream?.began == true ? stream?.name : nil
        if try !recorder.recordFailure(error, for: request, stream: broken), let broken { try recorder.store.dropStream(broken) }
    }
}

/// The observer a recording session puts between a live transport and a front-end that relays
/// a stream (``ResponseObserver``): it journals the head when the stream begins and each chunk
/// before the front-end passes it on, so `kill -9` mid-stream keeps what a client already saw.
/// A stream that comes compressed is journaled only whole, when it ends.
/// A journal that cannot be written stops the transfer; ``check()`` then throws why.
fileprivate final class StreamJournal: Sendable {
    /// The name its records are journaled under, made when a stream begins (most answers are
    /// not streams, and a UUID costs three system calls).
    var name: String {
        named.withLock { name in
            if let name { return name }
            let made = UUID().uuidString
            name = made
            return made
        }
    }
    private let named = Mutex<String?>(nil)
    private let recorder: RecordingTransport
    private let request: HTTPRequest
    private let relay: ResponseObserver
    /// `refused`: a chunk the secret lint refused; the stream was dropped from the journal, and
    /// the rest is relayed without being journaled.
    private let state = Mutex<(head: Interaction?, failure: CassetteError?, refused: CassetteError?, joiner: MessageJoiner?)>((nil, nil, nil, nil))

    init(recorder: RecordingTransport, request: HTTPRequest, relay: ResponseObserver) {
        self.recorder = recorder
        self.request = request
        self.relay = relay
    }

    /// Whether the stream's head was journaled.
    var began: Bool { state.withLock { $0.head != nil } }

    /// Whether the secret lint refused a chunk (the stream was dropped from the journal).
    var refused: Bool { state.withLock { $0.refused != nil } }

    /// Throws the journal's failure, if writing it failed, or the secret lint's refusal.
    func check() throws(CassetteError) {
        if let failure = state.withLock({ $0.failure ?? $0.refused }) { throw failure }
    }

    var observer: ResponseObserver {
        ResponseObserver(head: { [self] head in
            let interaction = Interaction(request: request, response: RecordingTransport.normalized(head, for: request), recordedAt: Date())
            // A compressed stream's chunks cannot be redacted or linted as they come: it is
            // relayed, and journaled only whole, decoded for the lint (`kill -9` mid-stream then
            // keeps none of it, rather than bytes no one has read for secrets).
            if StreamMedia.keepsEncoding(interaction.response) { return relay.head(head) }
            do throws(CassetteError) {
                try recorder.beginStream(interaction, name: name)
                state.withLock { $0.head = interaction; $0.joiner = MessageJoiner(headers: head.headers) }
            } catch {
                // Observed all the same, so the first chunk stops the transfer (an endless stream would never end).
                state.withLock { $0.failure = error }
                return true
            }
            return relay.head(head)
        }, chunk: { [self] chunk in
            let (head, failed) = state.withLock { ($0.head, $0.failure != nil) }
            guard !failed else { return false }
            guard let head else { return relay.chunk(chunk) }
            // Only whole messages are journaled, so a secret cut in two is redacted like any other.
            let whole = state.withLock { state in state.joiner?.add(chunk) }
            do throws(CassetteError) {
                if let whole { try recorder.appendChunk(whole, of: head, name: name) }
            } catch {
                guard case .secretsFound = error else {
                    state.withLock { $0.failure = error }
                    return false
                }
                // Not recorded, but the client still gets its stream.
                state.withLock { $0.refused = error; $0.head = nil }
            }
            return relay.chunk(chunk)
        }, stop: { [relay] in relay.stop() })
    }
}
