import Foundation
import Synchronization
import Tapedeck

extension CassetteController {
    /// Cassettes backed by ``CassetteSession``: `record` honours `--mode` and
    /// `TAPEDECK_RECORD_MODE` (and `CI=true` → `none`), `replay` never touches the network,
    /// and `live`/exit write what was recorded. Mismatch reports and lint refusals word their
    /// fixes for `context`: commands to type (`record PATH --mode new`) unless told otherwise.
    /// `matcher` decides what matches (`--match`); `origin` serves cassettes as if recorded there (`--origin`).
    public static func sessions(environment: [String: String] = ProcessInfo.processInfo.environment,
                                allowRepeats: Bool = false, matcher: Matcher = Matcher(), origin: URL? = nil,
                                context: FixContext = .repl) -> CassetteController {
        let current = CurrentCassette()
        return CassetteController(
            record: { path, mode, live, base in
                let requested = try mode.map { text throws(CassetteError) in try RecordMode(parsing: text) }
                let resolved = try RecordMode.resolve(requested, environment: environment)
                let metadata = base.map { [Cassette.MetadataKey.baseURL: $0.absoluteString] } ?? [:]
                let session = try CassetteSession(path: path, mode: resolved, live: live,
                                                  options: RecordingTransport.Options(
                                                      replay: .init(matcher: matcher, origin: origin), metadata: metadata),
                                                  context: context, environment: environment)
                current.set(session)
                let kind = resolved == .none ? "replay" : "record"
                return Switch(transport: session.transport, mode: "\(kind) \((path as NSString).lastPathComponent)", baseURL: session.baseURL)
            },
            replay: { path, repeats in
                let session = try CassetteSession.replay(path: path, allowRepeats: allowRepeats || repeats, matcher: matcher,
                                                         origin: origin, context: context, environment: environment)
                current.set(session)
                return Switch(transport: session.transport, mode: "replay \((path as NSString).lastPathComponent)", baseURL: session.baseURL)
            },
            finish: {
                guard let session = current.take() else { return nil }
                return try session.finish()
            },
            status: {
                current.peek()?.status.description ?? "live: requests go to the network; start a cassette with 'record PATH' or 'replay PATH'"
            }
        )
    }
}

/// The cassette session in use, shared by the controller's closures.
private final class CurrentCassette: Sendable {
    private let session = Mutex<CassetteSession?>(nil)

    func set(_ value: CassetteSession) { session.withLock { $0 = value } }
    func take() -> CassetteSession? { session.withLock { value in defer { value = nil }; return value } }
    func peek() -> CassetteSession? { session.withLock { $0 } }
}
