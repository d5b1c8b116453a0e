import Foundation

/// How a cassette is opened: the one place every front-end says what it wants.
///
/// The REPL and scripts, `tapedeck run`, `withCassette` and the `.cassette` trait,
/// `URLSession.replaying`/`.recording`, `serve` and `proxy` (and their control endpoints) all
/// fill this value and call ``open(live:)``. Each sets only what differs from the defaults,
/// so a rule (redirects, placeholders, environment overrides) cannot drift between them.
///
/// The defaults: mode from the environment (`TAPEDECK_RECORD_MODE`, else `none` when `CI` is
/// set, else `once`), method + URL matching, no repeats, redirects served as recorded (the
/// client, or `--follow`, follows them), the standard redaction and secret lint, no recorded
/// failures, no network conditions, the standard body limits, no expiry, fixes worded as
/// Swift options.
///
/// ```swift
/// var configuration = CassetteConfiguration(URL(fileURLWithPath: "Sessions/api.cassette.json"))
/// configuration.mode = .new
/// configuration.matcher = Matcher(ignoredQueryItems: ["ts"])
/// let cassette = try configuration.open(live: URLSessionTransport(options: .init(followRedirects: false)))
/// let response = try await cassette.transport.send(request)
/// try cassette.flush()
/// ```
public struct CassetteConfiguration: Sendable {
    /// The cassette file (native JSON, vcrpy YAML or JSON, cassetter YAML or HAR).
    public var url: URL
    /// The record mode asked for; nil takes the default (`none` when `CI` is set, else `once`).
    /// `TAPEDECK_RECORD_MODE` overrides it either way.
    public var mode: RecordMode?
    /// Whether ``mode`` stands even when `TAPEDECK_RECORD_MODE` names another: `replay PATH`,
    /// `tapedeck run --replay`, `serve` and `URLSession.replaying` replay whatever it says.
    public var ignoresModeOverride: Bool
    /// What makes a recorded request match.
    public var matcher: Matcher
    /// Whether the last match is served again once every identical interaction was played.
    public var allowRepeats: Bool
    /// Whether recorded (and, while recording, live) 3xx responses with a `Location` are
    /// followed to the final response. Off by default: the client follows them, as the CLI's
    /// `--follow` and URLSession's own redirect handling do.
    public var followRedirects: Bool
    /// Serve the cassette as if it had been recorded at this origin (`http://127.0.0.1:8080`):
    /// request URLs, `Location` and `Host` headers and text bodies are rewritten from
    /// ``Cassette/recordedOrigin``. Recording stores new interactions back at the recorded
    /// origin, so the file keeps one.
    public var origin: URL?
    /// What is replaced before anything is written, and how incoming requests are compared with
    /// recorded ones. `TAPEDECK_REDACT` adds names to it.
    public var redactor: Redactor
    /// Whether a recorded interaction that still holds a secret is refused (`TAPEDECK_SECRET_LINT=off` turns it off).
    public var lint: Bool
    /// Whether a refused connection, unresolved host, timeout or answerless close is stored as
    /// an interaction (``TransportFailure``) and replayed as the same error.
    public var recordFailures: Bool
    /// Latency and faults played over every answer; nil plays none.
    public var conditions: NetworkConditions?
    /// How large a body the cassette may hold, and how far compressed bodies may expand when read.
    public var limits: BodyLimits
    /// Interactions recorded longer ago than this expire; nil reads `TAPEDECK_MAX_AGE`.
    public var maxAge: MaxAge?
    /// What happens when the cassette holds expired interactions; nil reads `TAPEDECK_ON_EXPIRY`, else `warn`.
    public var onExpiry: ExpiryPolicy?
    /// How the fixes in errors and reports are worded for where they are read (Swift options
    /// unless a front-end passes its own: commands at the REPL, command lines in a CI log).
    public var wording: any FixWording
    /// Merged into the cassette's metadata when recording (e.g. ``Cassette/MetadataKey/baseURL``).
    public var metadata: [String: String]
    /// A last change to each interaction before it is stored (after redaction), e.g. rewriting a host.
    public var beforeRecord: (@Sendable (Interaction) -> Interaction)?
    /// Whether each recorded interaction is journaled at once (else held in memory until ``OpenCassette/flush()``).
    public var autosave: Bool
    /// Whether each journaled interaction is also `fsync`ed, to survive a power cut as well as a killed process.
    public var syncEachInteraction: Bool
    /// Where `TAPEDECK_RECORD_MODE`, `CI`, `TAPEDECK_REDACT`, `TAPEDECK_SECRET_LINT`,
    /// `TAPEDECK_MAX_AGE` and `TAPEDECK_ON_EXPIRY` are read (the process environment unless given).
    public var environment: [String: String]

    /// Creates a configuration for the cassette at `url` with the defaults described on the type.
    public init(_ url: URL, mode: RecordMode? = nil, matcher: Matcher = Matcher(), allowRepeats: Bool = false,
                followRedirects: Bool = false, redactor: Redactor = .standard, origin: URL? = nil,
                wording: any FixWording = LibraryFixWording(),
                environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.url = url
        self.mode = mode
        ignoresModeOverride = false
        self.matcher = matcher
        self.allowRepeats = allowRepeats
        self.followRedirects = followRedirects
        self.origin = origin
        self.redactor = redactor
        lint = true
        recordFailures = false
        conditions = nil
        limits = BodyLimits()
        maxAge = nil
        onExpiry = nil
        self.wording = wording
        metadata = [:]
        beforeRecord = nil
        autosave = true
        syncEachInteraction = false
        self.environment = environment
    }

    /// The configuration for a cassette held in memory (``ReplayTransport/init(cassette:path:configuration:)``).
    public static var inMemory: CassetteConfiguration { .replaying(URL(fileURLWithPath: "<memory>"), environment: [:]) }

    /// A replay-only configuration (mode `none`, kept whatever `TAPEDECK_RECORD_MODE` says):
    /// what `replay PATH`, `tapedeck run --replay`, `serve` and `URLSession.replaying` open.
    public static func replaying(_ url: URL, matcher: Matcher = Matcher(), allowRepeats: Bool = false, followRedirects: Bool = false,
                                 origin: URL? = nil, wording: any FixWording = LibraryFixWording(),
                                 environment: [String: String] = ProcessInfo.processInfo.environment) -> CassetteConfiguration {
        var configuration = CassetteConfiguration(url, mode: .replayOnly, matcher: matcher, allowRepeats: allowRepeats,
                                                  followRedirects: followRedirects, origin: origin, wording: wording, environment: environment)
        configuration.ignoresModeOverride = true
        return configuration
    }

    /// The environment variable listing extra names to redact, comma-separated: header and
    /// query item names (`X-Session,sid`) and JSON Pointers into bodies (`/grant`).
    static let redactKey = "TAPEDECK_REDACT"
    /// The environment variable that turns the secret lint off for a false alarm (`off`).
    static let secretLintKey = "TAPEDECK_SECRET_LINT"

    /// This configuration with the environment applied, once: the mode resolved
    /// (``RecordMode/resolve(_:environment:)``), names in `TAPEDECK_REDACT` redacted, the lint off
    /// when `TAPEDECK_SECRET_LINT` is off/false/0/no, and `TAPEDECK_MAX_AGE` and
    /// `TAPEDECK_ON_EXPIRY` read where no age or policy was set. The environment is cleared in
    /// the result, so applying it again changes nothing.
    public func resolved() throws(CassetteError) -> CassetteConfiguration {
        var resolved = self
        if !(ignoresModeOverride && mode != nil) { resolved.mode = try RecordMode.resolve(mode, environment: environment) }
        let entries = (environment[Self.redactKey] ?? "").split(separator: ",")
            .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        for entry in entries {
            if entry.hasPrefix("/") {
                if !resolved.redactor.jsonPaths.contains(entry) { resolved.redactor.jsonPaths.append(entry) }
            } else {
                resolved.redactor.headers.insert(entry.lowercased())
                resolved.redactor.queryItems.insert(entry.lowercased())
            }
        }
        let lintSetting = environment[Self.secretLintKey]?.trimmingCharacters(in: .whitespaces).lowercased() ?? ""
        if ["off", "false", "0", "no"].contains(lintSetting) { resolved.lint = false }
        do {
            if resolved.maxAge == nil { resolved.maxAge = try MaxAge.fromEnvironment(environment) }
            if resolved.maxAge != nil { resolved.onExpiry = try ExpiryPolicy.resolve(onExpiry, environment: environment) }
        } catch {
            throw .expiry(error)
        }
        // Keeps what is read later (usage records) but no override: resolving twice is resolving once.
        resolved.environment = environment.filter {
            ![RecordMode.environmentKey, Self.redactKey, Self.secretLintKey, MaxAge.environmentKey, ExpiryPolicy.environmentKey, "CI"]
                .contains($0.key)
        }
        return resolved
    }

    /// The mode in effect once resolved (``resolved()``); `once` before.
    var resolvedMode: RecordMode { mode ?? .once }
}
