import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The live transport: sends requests with `URLSession` (libcurl underneath on Linux).
///
/// Cookies are off unless asked for, redirects are followed unless turned off, and TLS
/// certificates are verified.
public final class URLSessionTransport: HTTPTransport, @unchecked Sendable {
    /// How requests are sent.
    public struct Options: Sendable, Hashable {
        /// Seconds to wait for the complete response; zero, a negative number, NaN or infinity
        /// mean no limit.
        public var timeout: TimeInterval
        /// Whether 3xx responses with a `Location` are followed.
        public var followRedirects: Bool
        /// Whether cookies are stored and sent across requests (in memory only).
        public var cookies: Bool
        /// The largest body accepted (``BodyLimits/maximumBodySize``); a larger one fails with
        /// ``HTTPError/bodyTooLarge(url:limit:)``. Applies to the transport's own session only.
        public var limits: BodyLimits

        /// Creates options; the defaults suit an API client.
        public init(timeout: TimeInterval = 30, followRedirects: Bool = true, cookies: Bool = false,
                    limits: BodyLimits = BodyLimits()) {
            self.timeout = timeout
            self.followRedirects = followRedirects
            self.cookies = cookies
            self.limits = limits
        }

        /// `timeout`, or a year when it is not a positive finite number (Foundation has no "never").
        var effectiveTimeout: TimeInterval { timeout.isFinite && timeout > 0 ? timeout : 365 * 86_400 }
    }

    /// The options this transport was made with.
    public let options: Options
    private let session: URLSession
    /// Whether `session` was made here (and so is invalidated with the transport).
    private let ownsSession: Bool
    /// The own session's delegate, which bounds bodies; nil for a session passed in.
    private let transfers: URLSessionTransfers?

    /// Creates a transport with its own `URLSession`.
    public init(options: Options = Options()) {
        self.options = options
        ownsSession = true
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = options.effectiveTimeout
        configuration.timeoutIntervalForResource = options.effectiveTimeout
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        if !options.cookies {
            configuration.httpCookieStorage = nil
            configuration.httpShouldSetCookies = false
            configuration.httpCookieAcceptPolicy = .never
        }
        // URLSession never follows on its own: `followRedirects` goes through the core's one
        // rule (RedirectFollower), which refuses other schemes and keeps credentials to one origin.
        let delegate = URLSessionTransfers()
        transfers = delegate
        session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
    }

    /// Sends through a `URLSession` you already have: the one your app code uses, or one from
    /// `URLSession.replaying(…)`, `.recording(…)` or `.stubbing { }` in tests, so an
    /// ``APIClient`` runs over the session under test.
    ///
    /// The session's own configuration and delegate decide cookies and redirects, so only
    /// `options.timeout` applies (to each request). The session is never invalidated here: it
    /// stays yours.
    ///
    /// ```swift
    /// let session = try URLSession.replaying(Cassettes.url("httpbin"))
    /// let client = try APIClient(baseURL: "http://httpbin.local", transport: URLSessionTransport(session: session))
    /// ```
    public init(session: URLSession, options: Options = Options()) {
        self.options = options
        self.session = session
        ownsSession = false
        transfers = nil
    }

    deinit { if ownsSession { session.finishTasksAndInvalidate() } }

    /// Sends `request` and returns its response (see the type's summary for how).
    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        guard ownsSession, options.followRedirects else { return try await sendOne(request) }
        return try await RedirectFollower.follow(request) { hop in try await sendOne(hop) }
    }

    private func sendOne(_ request: HTTPRequest) async throws -> HTTPResponse {
        try request.validateForSending()
        let urlRequest = request.urlRequest(timeout: options.effectiveTimeout)
        let clock = ContinuousClock()
        let start = clock.now
        let data: Data
        let urlResponse: URLResponse
        var chunks: [BodyChunk] = []
        do {
            try Task.checkCancellation()
            if let transfers {
                let task = session.dataTask(with: urlRequest)
                (data, urlResponse, chunks) = try await transfers.run(task, url: request.urlText, limit: options.limits.maximumBodySize)
            } else {
                (data, urlResponse) = try await session.data(for: urlRequest)
            }
        } catch {
            throw URLSessionTransport.map(error, request: request, timeout: options.timeout)
        }
        let elapsed = clock.now - start
        guard let http = urlResponse as? HTTPURLResponse else {
            throw HTTPError.noResponse(url: request.urlText, detail: "the reply was not HTTP")
        }
        var response = HTTPResponse(
            status: http.statusCode,
            headers: HTTPHeaders(foundationFields: http.allHeaderFields),
            body: data,
            url: http.url ?? request.url,
            duration: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        )
        // A stream keeps the pieces the delegate received, as curl's transport does.
        if response.isStream, StreamMedia.keepsChunks(chunks, headers: response.headers) { response.chunks = chunks }
        return response
    }

    /// Turns a `URLError` into the ``HTTPError`` case app code switches on (``HTTPError/notConnected(url:)``,
    /// ``HTTPError/connectionLost(url:)``, ``HTTPError/cannotConnect(host:port:)``,
    /// ``HTTPError/hostNotFound(_:)``, ``HTTPError/timedOut(url:seconds:)``, ``HTTPError/cancelled(url:)``,
    /// ``HTTPError/tlsFailure(host:detail:)``), naming the host, port or timeout.
    static func map(_ error: any Error, request: HTTPRequest, timeout: TimeInterval) -> any Error {
        // Errors a URLProtocol raised (a replay session's mismatch report) arrive unchanged.
        if error is HTTPError || error is any TransportPassthroughError { return error }
        let url = request.urlText
        if error is CancellationError { return HTTPError.cancelled(url: url) }
        guard let urlError = error as? URLError else {
            return HTTPError.transport(url: url, detail: error.localizedDescription)
        }
        let host = request.url.host ?? "?"
        let port = request.url.port ?? (request.url.scheme == "https" ? 443 : 80)
        switch urlError.code {
        case .cancelled: return HTTPError.cancelled(url: url)
        case .timedOut: return HTTPError.timedOut(url: url, seconds: timeout)
        case .cannotConnectToHost: return HTTPError.cannotConnect(host: host, port: port)
        case .cannotFindHost, .dnsLookupFailed: return HTTPError.hostNotFound(host)
        case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate,
             .serverCertificateNotYetValid, .serverCertificateHasUnknownRoot, .clientCertificateRejected:
            return HTTPError.tlsFailure(host: host, detail: urlError.localizedDescription)
        case .notConnectedToInternet, .internationalRoamingOff, .callIsActive, .dataNotAllowed:
            return HTTPError.notConnected(url: url)
        case .networkConnectionLost:
            return HTTPError.connectionLost(url: url)
        case .badURL, .unsupportedURL:
            return HTTPError.invalidURL(input: url, reason: urlError.localizedDescription)
        case .badServerResponse, .zeroByteResource:
            return HTTPError.noResponse(url: url, detail: urlError.localizedDescription)
        default:
            let detail = urlError.localizedDescription
            if detail.localizedCaseInsensitiveContains("SSL") || detail.localizedCaseInsensitiveContains("certificate") {
                return HTTPError.tlsFailure(host: host, detail: detail)
            }
            if detail.localizedCaseInsensitiveContains("refused") || detail.localizedCaseInsensitiveContains("Couldn't connect") {
                return HTTPError.cannotConnect(host: host, port: port)
            }
            return HTTPError.transport(url: url, detail: detail)
        }
    }
}

/// Splits a `Set-Cookie` value that corelibs joined with ", " back into cookies, minding the
/// comma inside `Expires=Wed, 21 Oct 2026 07:28:00 GMT`.
enum SetCookieSplitter {
    static func split(_ joined: String) -> [String] {
        var cookies: [String] = []
        var current = ""
        let parts = joined.components(separatedBy: ", ")
        for part in parts {
            if current.isEmpty {
                current = part
            } else if startsNewCookie(part) {
                cookies.append(current)
                current = part
            } else {
                current += ", " + part
            }
        }
        if !current.isEmpty { cookies.append(current) }
        return cookies
    }

    private static func startsNewCookie(_ part: String) -> Bool {
        guard let equals = part.firstIndex(of: "=") else { return false }
        let name = part[..<equals]
        return !name.isEmpty && !name.contains(";") && !name.contains(" ")
    }
}
