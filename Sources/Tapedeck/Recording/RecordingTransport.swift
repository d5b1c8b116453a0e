import Foundation

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
/// let recorder = try RecordingTransport(cassette: URL(fileURLWithPath: "Sessions/api.cassette.json"),
///                                       mode: try RecordMode.resolve(.once), inner: live)
/// let response = try await recorder.send(request)
/// try recorder.flush()
/// ```
public final class RecordingTransport: HTTPTransport, Sendable {
    /// How the session records and replays.
    public struct Options: Sendable {
        /// Replay matching, repeats and redirect following.
        public var replay: ReplayTransport.Options
        /// Replaces credentials before anything is written; also applied to incoming requests when matching.
        public var redactor: Redactor { get { replay.redactor } set { replay.redactor = newValue } }
        /// Whether a recorded interaction that still holds a secret is refused.
        public var lint: Bool
        /// Whether each recorded interaction is journaled at once (else held in memory until ``RecordingTransport/flush()``).
        public var autosave: Bool
        /// Whether each journaled interaction is also `fsync`ed, to survive a power cut as well as a killed process.
        public var syncEachInteraction = false
        /// Merged into the cassette's metadata (e.g. ``Cassette/MetadataKey/baseURL``).
        public var metadata: [String: String]
        /// A last change to each interaction before it is stored (after redaction), e.g. rewriting a host.
        public var beforeRecord: (@Sendable (Interaction) -> Interaction)?
        /// Whether a refused connection, unresolved host, timeout or answerless close is stored
        /// as an interaction (``TransportFailure``) and replayed as the same error.
        public var recordFailures = false

        /// Creates options; the defaults redact, lint and journal every interaction as it is recorded.
        public init(replay: ReplayTransport.Options = .init(), lint: Bool = true, autosave: Bool = true,
                    metadata: [String: String] = [:], beforeRecord: (@Sendable (Interaction) -> Interaction)? = nil) {
            self.replay = replay
            self.lint = lint
            self.autosave = autosave
            self.metadata = metadata
            self.beforeRecord = beforeRecord
        }
    }

    /// Counts for status lines (`tape` in the REPL).
    public struct Counts: Sendable, Hashable {
        /// Interactions recorded by this session.
        public var recorded: Int
        /// Responses served from the cassette (repeats counted).
        public var played: Int
        /// Interactions loaded from the file that were never served.
        public var unused: Int
        /// Interactions the cassette holds now.
        public var total: Int
    }

    /// The cassette file.
    public let url: URL
    /// The mode in effect.
    public let mode: RecordMode
    /// The options in effect.
    public let options: Options
    private let inner: any HTTPTransport
    private let replayer: ReplayTransport?
    private let recordsUnmatched: Bool
    /// Where the file's interactions were recorded, when ``ReplayTransport/Options/origin`` serves them elsewhere.
    private let recordedOrigin: URL?
    /// The cassette on disk: journal, merges, recovery.
    public let store: CassetteStore
    /// Every secret redacted so far, replaced wherever it appears in later interactions.
    private let secrets: SecretMemory

    /// Opens a session on `cassette` in `mode` (resolve it with ``RecordMode/resolve(_:environment:)``).
    ///
    /// Throws when the file is malformed, or missing in mode `none`.
    public init(cassette url: URL, mode: RecordMode, inner: any HTTPTransport, options: Options = Options()) throws(CassetteError) {
        self.url = url
        self.mode = mode
        self.inner = inner
        self.options = options
        let secrets = SecretMemory()
        self.secrets = secrets
        // A value can reach an interaction before a later one shows it is a secret (a token in
        // a URL, then the same token in an Authorization header): each merge scrubs what the
        // session has learned from the whole cassette.
        let redactor = options.redactor
        store = try CassetteStore(url: url, replacing: mode == .all, metadata: options.metadata,
                                  options: .init(journalEachInteraction: options.autosave,
                                                 syncEachInteraction: options.syncEachInteraction),
                                  finishing: { cassette in
                                      let known = secrets.secrets
                                      return known.isEmpty ? cassette : redactor.redact(cassette, knownSecrets: known)
                                  })
        let existing = store.opened
        if mode == .replayOnly, existing == nil { throw .missing(path: url.path, context: options.replay.context) }
        if let existing, mode != .all {
            replayer = ReplayTransport(cassette: existing, path: url.path, options: options.replay, mode: mode)
        } else {
            replayer = nil
        }
        recordsUnmatched = mode == .new || mode == .all || existing == nil
        recordedOrigin = mode == .all ? nil : existing?.recordedOrigin
    }

    /// Sends `request` and returns its response (see the type's summary for how).
    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        guard options.replay.followRedirects else { return try await sendOne(request) }
        return try await RedirectFollower.follow(request) { hop in try await sendOne(hop) }
    }

    private func sendOne(_ request: HTTPRequest) async throws -> HTTPResponse {
        if let replayer {
            switch replayer.lookup(request) {
            case .success(let response): return response
            case .failure(.recordedFailure(let error)): throw error
            case .failure(let error): if !recordsUnmatched { throw error }
            }
        }
        let response: HTTPResponse
        do {
            response = try await inner.send(request)
        } catch let error as HTTPError {
            try recordFailure(error, for: request)
            throw error
        }
        try record(Interaction(request: request, response: RecordingTransport.normalized(response, for: request), recordedAt: Date()))
        return response
    }

    /// Stores `error` as the answer to `request` when ``Options/recordFailures`` is on and it is a
    /// ``TransportFailure``.
    private func recordFailure(_ error: HTTPError, for request: HTTPRequest) throws(CassetteError) {
        guard options.recordFailures, let failure = TransportFailure(error) else { return }
        var seconds = 0.0
        if case .timedOut(_, let limit) = error { seconds = limit }
        try record(Interaction(request: request, response: HTTPResponse(status: 0, reason: "", url: request.url, duration: seconds),
                               recordedAt: Date(), failure: failure))
    }

    /// Redacts, lints and stores one interaction (journaled at once when `autosave` is on).
    public func record(_ interaction: Interaction) throws(CassetteError) {
        var stored = secrets.redact(interaction, with: options.redactor)
        if let origin = options.replay.origin, let recordedOrigin {
            stored = stored.rewriting(Cassette.originReplacements(from: origin, to: recordedOrigin))
        }
        if let beforeRecord = options.beforeRecord { stored = beforeRecord(stored) }
        if options.lint {
            let findings = SecretLint.findings(in: stored, index: store.count)
            if !findings.isEmpty { throw .secretsFound(path: url.path, findings: findings, context: options.replay.context) }
        }
        try store.append(stored)
    }

    /// Merges what this session recorded into the cassette file (atomically), keeping what
    /// other sessions, in this process or others, recorded into it meanwhile
    /// (``CassetteStore/flush()``). Also done when the recorder is released and at exit.
    public func flush() throws(CassetteError) {
        try store.flush()
    }

    /// The cassette as recorded so far (after ``flush()``, what the file holds).
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

    /// The response as stored: decoded bodies lose `Content-Encoding`, and `Content-Length`
    /// states the stored length; a body that is still gzip (magic bytes) is left alone. The
    /// `Content-Length` of an empty HEAD or 304 response is kept: it describes a GET's body.
    public static func normalized(_ response: HTTPResponse, for request: HTTPRequest) -> HTTPResponse {
        var result = response
        let describesAnotherBody = (request.method == .head || response.status == 304) && response.body.isEmpty
        let encoding = response.headers["Content-Encoding"]?.lowercased() ?? ""
        let stillGzip = response.body.starts(with: [0x1F, 0x8B])
        if !encoding.isEmpty, encoding != "identity", !stillGzip, !describesAnotherBody {
            result.headers.remove(name: "Content-Encoding")
            result.headers["Content-Length"] = String(response.body.count)
        }
        result.headers.remove(name: "Transfer-Encoding")
        CassetteCodec.fixContentLength(&result.headers, count: result.body.count, describesAnotherBody: describesAnotherBody)
        return result
    }
}
