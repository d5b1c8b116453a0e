import Foundation
import Tapedeck

/// How a ``Deck`` serves and records: matching, repeats, the origin clients see, what an
/// unmatched request gets, the upstream and live transport for recording, and the network
/// conditions to play.
public struct DeckOptions: Sendable {
    /// What makes a recorded request match (method and URL always).
    public var matcher: Matcher
    /// Whether the last match is served again once all identical interactions were played.
    public var allowRepeats: Bool
    /// The origin clients address (`http://10.0.2.2:8080` from an emulator); nil means the
    /// listening URL. Cassettes are served as if recorded there (URLs, `Location`, bodies).
    public var origin: URL?
    /// What an unmatched request gets.
    public var unmatched: UnmatchedPolicy
    /// Where a proxy sends requests, and where `forward` sends unmatched ones.
    public var upstream: URL?
    /// The live transport for the upstream; it must not follow redirects (they are recorded hop by hop).
    public var live: any HTTPTransport
    /// Latency and faults applied to every served answer.
    public var conditions: NetworkConditions
    /// Header, body and time limits per connection.
    public var limits: ServerLimits
    /// Where unmatched requests and errors are logged (the CLI writes them to stderr).
    public var log: @Sendable (String) -> Void
    /// Read for `TAPEDECK_REDACT`, `TAPEDECK_SECRET_LINT` and the usage directory.
    public var environment: [String: String]
    /// The token every control endpoint needs, sent as `X-Tapedeck-Token: TOKEN` or
    /// `Authorization: Bearer TOKEN`: random for each run unless given (`--control-token`).
    /// Without it, any page a browser opens or any local process could load and record files.
    public var controlToken: String = DeckOptions.randomToken()
    /// The folder the cassette paths control endpoints name must stay under (`--cassette-dir`;
    /// the working directory unless given).
    public var cassetteDirectory = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
    /// Whether a proxy stores refused connections, unresolved hosts and timeouts as
    /// interactions (``Tapedeck/TransportFailure``), to replay them as the same failure.
    public var recordFailures = false
    /// Whether the live inspector answers at `/__tapedeck/ui/TOKEN/` (`--ui`): a page where
    /// requests appear as they are answered, pushed as server-sent events.
    public var inspector = false
    /// HTTPS: the CA that signs leaves, whether the socket itself speaks TLS, and whether
    /// `CONNECT` tunnels are intercepted (``HTTPSOptions``); nil: plain HTTP, and a `CONNECT` gets 501.
    public var https: HTTPSOptions?

    /// Creates options; the defaults match on method + URL, answer unmatched requests 404 and
    /// use `URLSessionTransport` (not following redirects) for the upstream.
    public init(matcher: Matcher = Matcher(), allowRepeats: Bool = false, origin: URL? = nil,
                unmatched: UnmatchedPolicy = .status(404), upstream: URL? = nil,
                live: any HTTPTransport = URLSessionTransport(options: .init(followRedirects: false)),
                conditions: NetworkConditions = NetworkConditions(), limits: ServerLimits = ServerLimits(),
                log: @escaping @Sendable (String) -> Void = { _ in },
                environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.matcher = matcher
        self.allowRepeats = allowRepeats
        self.origin = origin
        self.unmatched = unmatched
        self.upstream = upstream
        self.live = live
        self.conditions = conditions
        self.limits = limits
        self.log = log
        self.environment = environment
    }

    /// 32 hexadecimal characters from the system's random source.
    public static func randomToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<16).map { _ in String(format: "%02x", UInt8.random(in: 0...255, using: &generator)) }.joined()
    }
}

/// How a server speaks HTTPS, with leaves a ``LocalCA`` signs.
///
/// ```swift
/// let authority = try LocalCA.openOrCreate(in: LocalCA.defaultDirectory()).authority
/// var options = DeckOptions()
/// options.https = HTTPSOptions(authority: authority, serveNames: ["localhost", "127.0.0.1", "::1"])
/// let server = try await CassetteServer.serve([cassette], options: options)   // https://127.0.0.1:PORT
/// ```
public struct HTTPSOptions: Sendable {
    /// The CA that signs every leaf.
    public var authority: LocalCA
    /// The names the socket's own leaf covers (`serve --tls`); nil: the socket speaks plain HTTP.
    public var serveNames: [String]?
    /// Whether a `CONNECT` is intercepted: TLS ends here with a leaf for the host, and the
    /// requests inside are recorded or replayed as `https://host/…` (`--intercept`).
    public var intercept: Bool
    /// Hosts whose tunnels are relayed untouched, for clients that pin certificates
    /// (`--pass-through`); compared without case, with or without the port.
    public var passThrough: [String]

    /// More CA certificates (PEM) to trust for upstreams this server reaches itself (a `wss://`
    /// WebSocket recorded through ``intercept``), beside the system's store (`--upstream-ca`).
    public var upstreamRoots: Data?
    /// Whether those upstreams' certificates are verified (`--insecure-upstream` turns it off).
    public var verifiesUpstream: Bool

    /// Creates the options.
    public init(authority: LocalCA, serveNames: [String]? = nil, intercept: Bool = false, passThrough: [String] = [],
                upstreamRoots: Data? = nil, verifiesUpstream: Bool = true) {
        self.authority = authority
        self.serveNames = serveNames
        self.intercept = intercept
        self.passThrough = passThrough
        self.upstreamRoots = upstreamRoots
        self.verifiesUpstream = verifiesUpstream
    }

    /// Whether the tunnel to `host:port` is relayed untouched.
    func passesThrough(host: String, port: Int) -> Bool {
        passThrough.contains { entry in
            let entry = entry.lowercased()
            return entry == host.lowercased() || entry == "\(host.lowercased()):\(port)"
        }
    }
}
