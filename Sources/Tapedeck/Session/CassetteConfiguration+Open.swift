import Foundation

extension CassetteConfiguration {
    /// Opens the cassette: the one way every front-end does.
    ///
    /// The environment is applied first (``resolved()``). When a maximum age is set and the
    /// cassette holds older interactions, the policy decides: `warn` goes on with a warning in
    /// ``OpenCassette/warnings``, `fail` throws ``CassetteError/expiry(_:)``, `rerecord` records
    /// again in mode `all` when the front-end gave a live transport (a replay-only front-end,
    /// which passes ``OfflineTransport``, warns instead). Nothing expires for a session that
    /// replaces the cassette anyway (mode `all`). Replay only (mode `none`) reads the file into a plain
    /// ``ReplayTransport`` and never touches `live`; any other mode wraps `live` in a
    /// ``RecordingTransport``. `live` must not follow redirects, so chains are recorded hop by hop.
    ///
    /// Throws when the file is malformed, or missing in mode `none`.
    public func open(live: any HTTPTransport = OfflineTransport()) throws(CassetteError) -> OpenCassette {
        var configuration = try resolved()
        var warnings: [String] = []
        var loaded: Cassette?
        if let maxAge = configuration.maxAge, configuration.resolvedMode != .all, FileManager.default.fileExists(atPath: url.path) {
            let cassette = try Cassette.load(from: url, limits: limits)
            loaded = cassette
            let expiry = CassetteExpiry(cassette, maxAge: maxAge)
            if !expiry.expired.isEmpty {
                let report = expiry.report(path: DisplayPath.relative(url.path), total: cassette.interactions.count)
                switch configuration.onExpiry ?? .warn {
                case .warn:
                    warnings.append(report + "\nre-record it (TAPEDECK_ON_EXPIRY=rerecord) or verify it against the live API")
                case .fail:
                    throw .expiry(.expired(report: report))
                case .rerecord where live is OfflineTransport:
                    warnings.append(report + "\nthis session only replays, so it cannot re-record it; record it again (mode all) "
                        + "or verify it against the live API")
                case .rerecord:
                    warnings.append(report + "\nre-recording \(DisplayPath.relative(url.path)) against the live API (rerecord)")
                    configuration.mode = .all
                    loaded = nil
                }
            }
        }
        guard configuration.resolvedMode == .replayOnly else {
            let recorder = try RecordingTransport(configuration: configuration, inner: live)
            return OpenCassette(configuration: configuration, replay: nil, recorder: recorder, warnings: warnings)
        }
        if loaded == nil { loaded = try Self.loadIfPresent(url, limits: limits) }
        // Taken out of `loaded`, so that a rewrite to the served origin changes the one copy in place.
        guard var cassette = loaded.take() else {
            throw .missing(path: url.path, context: modeCameFromCI ? CIDefaultWording(inner: wording) : wording)
        }
        warnings += cassette.loadWarnings(readFrom: url)
        let rewrite = ReplayTransport.serve(&cassette, at: configuration.origin)
        // A replay that no environment turns into a recording says so in its fixes (mode nil: it never records).
        let replay = ReplayTransport(serving: cassette, rewritten: rewrite, path: url.path, configuration: configuration,
                                     mode: configuration.ignoresModeOverride ? nil : .replayOnly)
        return OpenCassette(configuration: configuration, replay: replay, recorder: nil, warnings: warnings)
    }

    private static func loadIfPresent(_ url: URL, limits: BodyLimits) throws(CassetteError) -> Cassette? {
        guard FileManager.default.fileExists(atPath: url.path) || CassetteMerge.hasLeftovers(url) else { return nil }
        return try Cassette.load(from: url, limits: limits)
    }
}

/// The live transport of a replay-only cassette: every request fails, naming the cassette
/// session as the reason (replay never reaches the network).
public struct OfflineTransport: HTTPTransport {
    /// Creates the transport.
    public init() {}

    /// Fails: replay sessions never use the network.
    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        throw HTTPError.transport(url: request.urlText, detail: "replay sessions never use the network")
    }
}

extension CassetteConfiguration {
    /// Whether `CI` alone made this session replay-only (``RecordMode/isCIDefault(_:environment:)``).
    var modeCameFromCI: Bool { RecordMode.isCIDefault(mode, environment: environment) }
}

extension RecordMode {
    /// Whether `CI` alone makes the mode `none`: nothing was requested, `TAPEDECK_RECORD_MODE` is
    /// unset, and `CI` is `true`/`1` (``resolve(_:environment:)``).
    public static func isCIDefault(_ requested: RecordMode?, environment: [String: String] = ProcessInfo.processInfo.environment) -> Bool {
        guard requested == nil, (environment[environmentKey] ?? "").trimmingCharacters(in: .whitespaces).isEmpty else { return false }
        return (try? resolve(nil, environment: environment)) == .replayOnly
    }
}

/// Wording for a cassette that is missing because `CI` made replay-only the default: the
/// front-end's own fix would repeat the command that was just refused, so it says why and how
/// to record anyway. Every other fix is worded by `inner`.
public struct CIDefaultWording: FixWording {
    /// The front-end's own wording.
    public let inner: any FixWording

    /// Wraps the front-end's wording.
    public init(inner: any FixWording) { self.inner = inner }

    /// The CI explanation for ``CassetteFix/recordMissing(path:)``; `inner`'s lines otherwise.
    public func lines(for fix: CassetteFix) -> [String] {
        guard case .recordMissing = fix else { return inner.lines(for: fix) }
        return ["CI is set, so the default record mode is 'none' and a missing cassette is an error; "
                + "to record here anyway, set TAPEDECK_RECORD_MODE=once or ask for a record mode explicitly"]
    }
}
