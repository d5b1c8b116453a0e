import Foundation
import Synchronization
import Tapedeck
import TapedeckTooling

/// What the interpreter calls for `record`, `replay`, `live` and `tape`: one ``CassetteSession``
/// at a time. `record` honours `--mode` and `TAPEDECK_RECORD_MODE` (and `CI=true` → `none`),
/// `replay` never touches the network, and `live`/exit write what was recorded. Mismatch
/// reports and lint refusals word their fixes for `context`: commands to type
/// (`record PATH --mode new`) unless told otherwise.
public final class CassetteController: Sendable {
    /// Where requests go after a `record` or `replay`.
    public struct Switch: Sendable {
        /// The transport to send through.
        public var transport: any HTTPTransport
        /// The prompt's mode description (`record tour.cassette.json`).
        public var mode: String
        /// The base URL the cassette was recorded against, if it says.
        public var baseURL: URL?
        /// The URL paths the cassette holds, for Tab completion.
        public var paths: [String] = []
        /// Why requests go to the network while recording (`Sessions/a.json did not exist, so …`),
        /// added to a request's connection error so it does not look like a replay failure.
        public var recordingReason: String?
        /// What opening the cassette has to say (an expiry warning), to print once.
        public var warnings: [String] = []
    }

    /// What every `record` and `replay` opens with: matcher, origin, repeats, wording, environment.
    private let template: CassetteConfiguration
    private let current = Mutex<CassetteSession?>(nil)

    /// Creates a controller. `matcher` decides what matches (`--match`); `origin` serves
    /// cassettes as if recorded there (`--origin`); `allowRepeats` applies to every `replay`.
    /// Redirects are served as recorded: the prompt's `--follow` follows them, hop by hop.
    package init(environment: [String: String] = ProcessInfo.processInfo.environment,
                allowRepeats: Bool = false, matcher: Matcher = Matcher(), origin: URL? = nil, context: FixContext = .repl) {
        template = CassetteConfiguration(URL(fileURLWithPath: "/"), matcher: matcher, allowRepeats: allowRepeats,
                                         origin: origin, wording: context, environment: environment)
    }

    private init(template: CassetteConfiguration) {
        self.template = template
    }

    /// A controller with the same settings and no cassette open: one per script when scripts
    /// run side by side, so one script's `record` never switches another's requests.
    package func fresh() -> CassetteController {
        CassetteController(template: template)
    }

    /// Starts recording `path` (mode once/new/all/none or nil for the default) around the
    /// live transport, noting the session's base URL; returns where requests go now.
    public func record(_ path: String, _ mode: String?, _ live: any HTTPTransport, _ base: URL?) throws(CassetteError) -> Switch {
        var configuration = template
        configuration.url = URL(fileURLWithPath: path)
        configuration.mode = try mode.map { text throws(CassetteError) in try RecordMode(parsing: text, source: "--mode") }
        configuration.metadata = base.map { [Cassette.MetadataKey.baseURL: $0.absoluteString] } ?? [:]
        let existed = FileManager.default.fileExists(atPath: path)
        let session = try CassetteSession(configuration, live: live)
        current.withLock { $0 = session }
        let kind = session.mode == .replayOnly ? "replay" : "record"
        let reason: String? = switch session.mode {
        case .once where !existed: "recording: \(path) did not exist, so mode once sends requests to the network to record them"
        case .new: "recording: mode new sends requests \(path) has no match for to the network"
        case .all: "recording: mode all sends every request to the network"
        default: nil
        }
        return Switch(transport: session.transport, mode: "\(kind) \((path as NSString).lastPathComponent)", baseURL: session.baseURL,
                      paths: Self.paths(in: session), recordingReason: reason, warnings: session.cassette.warnings)
    }

    /// Starts replaying `path` (`repeats`: serve the last match again once all were played);
    /// returns the transport and the mode description.
    public func replay(_ path: String, _ repeats: Bool) throws(CassetteError) -> Switch {
        var configuration = template
        configuration.url = URL(fileURLWithPath: path)
        configuration.mode = .replayOnly
        configuration.ignoresModeOverride = true
        configuration.allowRepeats = template.allowRepeats || repeats
        let session = try CassetteSession(configuration)
        current.withLock { $0 = session }
        return Switch(transport: session.transport, mode: "replay \((path as NSString).lastPathComponent)", baseURL: session.baseURL,
                      paths: Self.paths(in: session), warnings: session.cassette.warnings)
    }

    /// Finishes the current cassette (writes a recording, reports unused replays); returns a
    /// line for the user, if any.
    public func finish() throws(CassetteError) -> String? {
        guard let session = current.withLock({ value in defer { value = nil }; return value }) else { return nil }
        return try session.finish(environment: template.environment)
    }

    /// The current cassette's path with what it recorded so far written (`save --swift`
    /// generates from it), or nil when requests go live.
    public func flushedPath() throws(CassetteError) -> String? {
        guard let session = current.withLock({ $0 }) else { return nil }
        try session.cassette.flush()
        return session.path
    }

    /// The distinct URL paths of a cassette's requests (at most 2,000), for Tab completion.
    private static func paths(in session: CassetteSession) -> [String] {
        var seen = Set<String>()
        for interaction in session.cassette.cassette.interactions where seen.count < 2_000 {
            seen.insert(interaction.request.url.path)
        }
        return seen.sorted()
    }

    /// A description of the current cassette state for `tape`.
    public func status() -> String {
        current.withLock { $0 }?.status.description
            ?? "live: requests go to the network; start a cassette with 'record PATH' or 'replay PATH'"
    }
}
