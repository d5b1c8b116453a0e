import Foundation
import Synchronization
import Tapedeck
import TapedeckTooling

/// A replay server or recording proxy on a loopback port, started and stopped from Swift: for
/// clients that cannot take a `URLSession` (AsyncHTTPClient, a spawned process, a UI-test host app).
///
/// ```swift
/// @Test func appReadsUsers() async throws {
///     let server = try await CassetteServer.serve([Cassettes.url("users")])
///     defer { Task { await server.stop() } }
///     let (data, _) = try await URLSession.shared.data(from: server.url.appending(path: "users"))
///     #expect(!data.isEmpty)
/// }
/// ```
public final class CassetteServer: Sendable {
    /// The listening socket.
    package let listener: HTTPListener
    /// The cassettes and the path requests take through them.
    public let deck: Deck

    private init(listener: HTTPListener, deck: Deck) {
        self.listener = listener
        self.deck = deck
    }

    /// `http://HOST:PORT` it listens on (`https://` with ``HTTPSOptions/serveNames``).
    public var url: URL { listener.url }
    /// The same address for WebSocket clients (`ws://127.0.0.1:PORT`, `wss://` over TLS): a
    /// recorded WebSocket session replays to `URLSessionWebSocketTask` or any client opened on
    /// `webSocketURL.appending(path: "/chat")`.
    public var webSocketURL: URL {
        var components = URLComponents(url: listener.url, resolvingAgainstBaseURL: false)
        components?.scheme = listener.isTLS ? "wss" : "ws"
        return components?.url ?? listener.url
    }

    /// Serves `cassettes` (native JSON, vcrpy YAML or HAR) and `mounts` (path prefix → cassette)
    /// on `host:port`; port 0 picks a free one. A mount prefix is a URL path (`/v1`) with no
    /// `.` or `..` segment; another throws ``ServerError/refused(message:)``, as does an
    /// ``DeckOptions/upstream`` that `proxy(to:…)` would refuse.
    public static func serve(_ cassettes: [URL], mounts: [(prefix: String, cassette: URL)] = [], host: String = "127.0.0.1",
                             port: Int = 0, options: DeckOptions = DeckOptions()) async throws -> CassetteServer {
        // The rule `--mount` and the control endpoints' `mount=` follow.
        for mount in mounts {
            if let problem = Deck.mountProblem(mount.prefix) { throw ServerError.refused(message: "mount \(Excerpt.visible(mount.prefix)): \(problem)") }
        }
        return try await start(host: host, port: port, options: options) { deck in
            for cassette in cassettes { try deck.load(path: cassette.relativePath) }
            for mount in mounts { try deck.load(path: mount.cassette.relativePath, mount: mount.prefix) }
        }
    }

    /// A reverse proxy to `upstream` (and a forward proxy for absolute-form `http://` targets)
    /// that records into `cassette` in `mode`, on `host:port`.
    ///
    /// With no `upstream`, it is a forward proxy only: it records what clients send through
    /// it as their proxy (`HTTP_PROXY`, and `HTTPS_PROXY` with ``HTTPSOptions/intercept``).
    /// An upstream that is not http or https with a host, or that has a query or fragment,
    /// throws ``ServerError/refused(message:)``: each request keeps its own query, so the
    /// upstream's would be dropped.
    public static func proxy(to upstream: URL?, recordingTo cassette: URL, mode: RecordMode = .once, host: String = "127.0.0.1",
                             port: Int = 0, options: DeckOptions = DeckOptions()) async throws -> CassetteServer {
        var options = options
        options.upstream = upstream
        return try await start(host: host, port: port, options: options) { deck in
            try deck.record(path: cassette.relativePath, mode: mode, upstream: upstream)
        }
    }

    /// Binds, then loads the cassettes into a deck at the listening origin, and only then
    /// answers from it (until then every request gets 503).
    private static func start(host: String, port: Int, options: DeckOptions,
                              loading load: (Deck) throws -> Void) async throws -> CassetteServer {
        // An upstream given in code is refused as `tapedeck proxy` and `--upstream` refuse it.
        if let upstream = options.upstream {
            do { try UpstreamURL.check(upstream) { "URL(string: \"\($0)\")" } } catch { throw ServerError.refused(message: error.message) }
        }
        let slot = DeckSlot()
        var tls: ListenerTLS?
        if let https = options.https {
            tls = ListenerTLS(mint: try LeafMint(authority: https.authority), serveNames: https.serveNames, log: options.log)
        }
        let loading = ServerReply.text(503, "the server is still loading its cassettes; try again\n", headers: [ServerMarker.errorHeader: "503"])
        let responder = ServerResponder(atOnce: { request in
            guard let deck = slot.deck else { return .reply(loading) }
            return deck.respondAtOnce(request)
        }, later: { request in
            guard let deck = slot.deck else { return loading }
            return await deck.respond(request)
        })
        let listener = try await HTTPListener.bind(host: host, port: port, limits: options.limits, tls: tls, answering: responder)
        let deck = Deck(options: options, origin: listener.url)
        // Answers kept to give again that a change of the tapes ended are let go of at once.
        deck.tapesVersion.whenAdvanced { [books = responder.books] in books.dropStale() }
        do {
            try load(deck)
        } catch {
            await listener.close()
            throw error
        }
        slot.deck = deck
        return CassetteServer(listener: listener, deck: deck)
    }

    /// Stops listening, closes open connections, writes recordings and returns the tape summary.
    @discardableResult
    public func stop() async -> String {
        await listener.close()
        // A stream recorded when the stop came is written whole, once, not after the cassette.
        await deck.settleStreams(within: 5)
        return deck.finish()
    }
}

/// Holds the deck once the port is known (the deck serves at the listening origin).
private final class DeckSlot: Sendable {
    private let storage = Mutex<Deck?>(nil)
    var deck: Deck? {
        get { storage.withLock { $0 } }
        set { storage.withLock { $0 = newValue } }
    }

}

extension CassetteServer {
    /// Whether `host` (`127.0.0.1`, `localhost`, `::1` or `[::1]`) is reachable from this machine only.
    package static func isLoopback(_ host: String) -> Bool {
        ControlGate.isLoopback(host.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "[]")))
    }
}
