import Foundation
import Synchronization

/// Wraps any transport and records what goes through it into a cassette file, replaying what
/// is already recorded as the ``RecordMode`` says.
///
/// Each recorded interaction is redacted (``Redactor``), checked by ``SecretLint``, appended
/// under a lock (many concurrent requests lose nothing) and, with `autosave` on, the file is
/// rewritten atomically (temp file + rename) so `kill -9` never leaves a torn cassette.
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
        /// Whether the file is rewritten after each recorded interaction (else only on ``RecordingTransport/flush()``).
        public var autosave: Bool
        /// Merged into the cassette's metadata (e.g. ``Cassette/MetadataKey/baseURL``).
        public var metadata: [String: String]
        /// A last change to each interaction before it is stored (after redaction), e.g. rewriting a host.
        public var beforeRecord: (@Sendable (Interaction) -> Interaction)?

        /// Creates options; the defaults redact, lint and save after every interaction.
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

    private struct State {
        var cassette: Cassette
        var generation = 0
        var recorded = 0
        /// Interactions from this index on were recorded here and are not in the file yet.
        var unwrittenFrom: Int
    }

    /// What the last write left on disk.
    private struct Written {
        var generation = 0
        /// The file as this session last saw it (at open, or after its own write); nil when missing.
        var file: HeldCassetteFile?
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
    private let state: Mutex<State>
    /// The generation last written and the file's stamp; held while writing so writes never interleave.
    private let written: Mutex<Written>

    /// Opens a session on `cassette` in `mode` (resolve it with ``RecordMode/resolve(_:environment:)``).
    ///
    /// Throws when the file is malformed, or missing in mode `none`.
    public init(cassette url: URL, mode: RecordMode, inner: any HTTPTransport, options: Options = Options()) throws(CassetteError) {
        self.url = url
        self.mode = mode
        self.inner = inner
        self.options = options
        let held = HeldCassetteFile(url)
        let existing = held != nil ? try Cassette.load(from: url) : nil
        if mode == .none, existing == nil { throw .missing(path: url.path, context: options.replay.context) }
        var start = (mode == .all ? nil : existing) ?? Cassette()
        start.metadata.merge(options.metadata) { _, new in new }
        if let existing, mode != .all {
            replayer = ReplayTransport(cassette: existing, path: url.path, options: options.replay, mode: mode)
        } else {
            replayer = nil
        }
        recordsUnmatched = mode == .new || mode == .all || existing == nil
        recordedOrigin = mode == .all ? nil : existing?.recordedOrigin
        state = Mutex(State(cassette: start, unwrittenFrom: start.interactions.count))
        written = Mutex(Written(file: held))
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
            case .failure(let error): if !recordsUnmatched { throw error }
            }
        }
        let response = try await inner.send(request)
        try record(Interaction(request: request, response: RecordingTransport.normalized(response, for: request), recordedAt: Date()))
        return response
    }

    /// Redacts, lints and stores one interaction (then saves when `autosave` is on).
    public func record(_ interaction: Interaction) throws(CassetteError) {
        var stored = options.redactor.redact(interaction)
        if let origin = options.replay.origin, let recordedOrigin {
            stored = stored.rewriting(Cassette.originReplacements(from: origin, to: recordedOrigin))
        }
        if let beforeRecord = options.beforeRecord { stored = beforeRecord(stored) }
        let position = state.withLock { $0.cassette.interactions.count }
        if options.lint {
            let findings = SecretLint.findings(in: stored, index: position)
            if !findings.isEmpty { throw .secretsFound(path: url.path, findings: findings, context: options.replay.context) }
        }
        state.withLock { state in
            state.cassette.interactions.append(stored)
            state.generation += 1
            state.recorded += 1
        }
        if options.autosave { try flush() }
    }

    /// Writes the cassette if anything was recorded since the last write (atomically).
    ///
    /// When another session (in this process or another) wrote the file since this one last
    /// did, its interactions are kept: the file is read again and this session's new
    /// interactions are appended to it, under a lock on the directory. So parallel tests that
    /// record into one cassette lose nothing.
    public func flush() throws(CassetteError) {
        try written.withLock { (written: inout Written) throws(CassetteError) in
            let (snapshot, generation, unwrittenFrom) = state.withLock { ($0.cassette, $0.generation, $0.unwrittenFrom) }
            guard generation > written.generation else { return }
            let count = snapshot.interactions.count
            try CassetteFileStamp.withDirectoryLock(for: url) { () throws(CassetteError) in
                var cassette = snapshot
                let someoneElseWrote = written.file.map { !$0.isCurrent(at: url) } ?? FileManager.default.fileExists(atPath: url.path)
                if someoneElseWrote {
                    var merged = try Cassette.load(from: url)
                    merged.interactions += snapshot.interactions[unwrittenFrom..<count]
                    merged.metadata.merge(snapshot.metadata) { _, ours in ours }
                    cassette = merged
                }
                try cassette.write(to: url)
                written.file = HeldCassetteFile(url)
                let merged = cassette.interactions
                state.withLock { state in
                    state.cassette.interactions = merged + state.cassette.interactions[count...]
                    state.cassette.metadata = cassette.metadata
                    state.unwrittenFrom = merged.count
                }
            }
            written.generation = generation
        }
    }

    /// The cassette as recorded so far (what ``flush()`` writes).
    public var cassette: Cassette { state.withLock { $0.cassette } }

    /// Recorded, played, unused and total counts.
    public var counts: Counts {
        let (recorded, total) = state.withLock { ($0.recorded, $0.cassette.interactions.count) }
        return Counts(recorded: recorded, played: replayer?.playedCount ?? 0,
                      unused: replayer?.unusedInteractions.count ?? 0, total: total)
    }

    /// The lines naming never-played interactions, or "".
    public func unusedReport() -> String { replayer?.unusedReport() ?? "" }

    /// Indexes of interactions loaded from the file that were never served, in order.
    public var unusedInteractions: [Int] { replayer?.unusedInteractions ?? [] }

    /// The response as stored: decoded bodies lose `Content-Encoding`, and `Content-Length`
    /// states the stored length; a body that is still gzip (magic bytes) is left alone. The
    /// `Content-Length` of an empty HEAD or 304 response is kept: it describes a GET's body.
    static func normalized(_ response: HTTPResponse, for request: HTTPRequest) -> HTTPResponse {
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
