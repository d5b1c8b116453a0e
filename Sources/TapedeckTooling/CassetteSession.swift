import Foundation
@_spi(Tooling) import Tapedeck

/// What the REPL, scripts and the CLI hold while a cassette is in use: the mode, the file, the
/// counts, a ``transport`` to send through, and ``finish()`` to write and report.
///
/// ```swift
/// // record PATH --mode new
/// let session = try CassetteSession(path: "Sessions/api.cassette.json", mode: .new,
///                                   live: URLSessionTransport(options: .init(followRedirects: false)))
/// // replay PATH --repeat
/// let offline = try CassetteSession.replay(path: "Sessions/tour.cassette.json", allowRepeats: true)
/// let response = try await offline.transport.send(request)
/// print(offline.status)          // replay Sessions/tour.cassette.json · 0 recorded · 1 played · 5 unused · 6 in cassette
/// print(try offline.finish())    // the same line, then the never-played interactions
/// ```
public final class CassetteSession: Sendable {
    /// A snapshot for the `tape` command.
    public struct Status: Sendable, Hashable, CustomStringConvertible {
        /// `record` (modes once/new/all) or `replay` (mode none).
        public var kind: String
        /// The mode in effect.
        public var mode: RecordMode
        /// The cassette path as given.
        public var path: String
        /// Recorded, played, unused and total counts.
        public var counts: RecordingTransport.Counts

        /// `record Sessions/a.cassette.json (mode new) · 2 recorded · 3 played · 1 unused · 9 in cassette`.
        public var description: String {
            let modeText = kind == "replay" ? "" : " (mode \(mode))"
            return "\(kind) \(FixContext.display(path))\(modeText) · \(counts.recorded) recorded · \(counts.played) played · "
                + "\(counts.unused) unused · \(counts.total) in cassette"
        }
    }

    /// The cassette path as given (relative paths are resolved against the working directory).
    public let path: String
    /// The mode in effect (after `TAPEDECK_RECORD_MODE`, when the caller resolved it).
    public var mode: RecordMode { recorder.mode }
    /// Send requests through this.
    public var transport: any HTTPTransport { recorder }
    /// The underlying recorder, for options and counts.
    public let recorder: RecordingTransport

    /// The environment variable listing extra names to redact, comma-separated: header and
    /// query item names (`X-Session,sid`) and JSON Pointers into bodies (`/grant`).
    public static let redactKey = "TAPEDECK_REDACT"
    /// The environment variable that turns the secret lint off for a false alarm (`off`).
    public static let secretLintKey = "TAPEDECK_SECRET_LINT"

    /// Opens `path` in `mode`, sending what must be recorded through `live`.
    ///
    /// Redirects are followed only as `live` follows them (the CLI's `--follow`), unless
    /// `options.replay.followRedirects` is set: then a non-following `live` records each hop
    /// and the session follows them, live and on replay. Errors word their fixes for
    /// `context` (`tapedeck run` unless told). `TAPEDECK_REDACT` and `TAPEDECK_SECRET_LINT`
    /// in `environment` add redactions and turn the lint off, since CLI users have no options.
    public init(path: String, mode: RecordMode, live: any HTTPTransport,
                options: RecordingTransport.Options = RecordingTransport.Options(replay: .init(followRedirects: false)),
                context: FixContext = .run(scripts: []),
                environment: [String: String] = ProcessInfo.processInfo.environment) throws(CassetteError) {
        self.path = path
        var options = CassetteSession.applying(environment, to: options)
        options.replay.context = context
        recorder = try RecordingTransport(cassette: URL(fileURLWithPath: path), mode: mode, inner: live, options: options)
    }

    /// Opens `path` for replay only (mode `none`): nothing reaches the network. Recorded
    /// redirects are served as recorded unless `followRedirects` (the CLI's `--follow`);
    /// `origin` serves the cassette as if recorded there (``ReplayTransport/Options/origin``).
    public static func replay(path: String, allowRepeats: Bool = false, followRedirects: Bool = false,
                              matcher: Matcher = Matcher(), origin: URL? = nil, context: FixContext = .run(scripts: []),
                              environment: [String: String] = ProcessInfo.processInfo.environment) throws(CassetteError) -> CassetteSession {
        let replay = ReplayTransport.Options(matcher: matcher, allowRepeats: allowRepeats, followRedirects: followRedirects,
                                             origin: origin)
        let offline = StubTransport { request in
            throw HTTPError.transport(url: request.url.absoluteString, detail: "replay sessions never use the network")
        }
        return try CassetteSession(path: path, mode: .replayOnly, live: offline, options: .init(replay: replay),
                                   context: context, environment: environment)
    }

    /// `options` with the names in `TAPEDECK_REDACT` redacted and the lint off when `TAPEDECK_SECRET_LINT` is off/false/0/no.
    static func applying(_ environment: [String: String], to options: RecordingTransport.Options) -> RecordingTransport.Options {
        var options = options
        let entries = (environment[redactKey] ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        for entry in entries {
            if entry.hasPrefix("/") {
                options.redactor.jsonPaths.append(entry)
            } else {
                options.redactor.headers.insert(entry.lowercased())
                options.redactor.queryItems.insert(entry.lowercased())
            }
        }
        let lint = environment[secretLintKey]?.trimmingCharacters(in: .whitespaces).lowercased() ?? ""
        if ["off", "false", "0", "no"].contains(lint) { options.lint = false }
        return options
    }

    /// The base URL stored in the cassette's metadata (at the replay `origin`, when one is set);
    /// the REPL adopts it when it has no base.
    public var baseURL: URL? {
        let cassette = recorder.cassette
        guard let base = cassette.baseURL, let origin = recorder.options.replay.origin, let recorded = cassette.recordedOrigin else {
            return cassette.baseURL
        }
        return URL(string: Cassette.apply(Cassette.originReplacements(from: recorded, to: origin), to: base.absoluteString))
    }

    /// Mode, path and counts.
    public var status: Status {
        Status(kind: mode == .replayOnly ? "replay" : "record", mode: mode, path: path, counts: recorder.counts)
    }

    /// Writes anything recorded (atomically) and what was played (``CassetteUsage``, for
    /// `tapedeck cassette prune`), and returns the status line plus the never-played
    /// interactions, one per line.
    ///
    /// Only a failure to write the cassette throws. The usage record is auxiliary: when it
    /// cannot be written (say `~/.cache` is read-only), the text ends with a `warning:` line
    /// naming the directory and the fix (`TAPEDECK_USAGE_DIR`) instead.
    @discardableResult
    public func finish(environment: [String: String] = ProcessInfo.processInfo.environment) throws(CassetteError) -> String {
        try recorder.flush()
        let usageWarning = recorder.writeUsage(environment: environment)
        let unused = recorder.unusedReport()
        let lines = [status.description] + (unused.isEmpty ? [] : [unused]) + (usageWarning.map { [$0] } ?? [])
        return lines.joined(separator: "\n")
    }
}
