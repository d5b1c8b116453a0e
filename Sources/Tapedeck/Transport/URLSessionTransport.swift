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

        /// Creates options; the defaults suit an API client.
        public init(timeout: TimeInterval = 30, followRedirects: Bool = true, cookies: Bool = false) {
            self.timeout = timeout
            self.followRedirects = followRedirects
            self.cookies = cookies
        }

        /// `timeout`, or a year when it is not a positive finite number (Foundation has no "never").
        var effectiveTimeout: TimeInterval { timeout.isFinite && timeout > 0 ? timeout : 365 * 86_400 }
    }

    /// The options this transport was made with.
    public let options: Options
    private let session: URLSession
    /// Whether `session` was made here (and so is invalidated with the transport).
    private let ownsSession: Bool

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
        let delegate = RedirectDelegate(follow: options.followRedirects)
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
    }

    deinit { if ownsSession { session.finishTasksAndInvalidate() } }

    /// Sends `request` and returns its response (see the type's summary for how).
    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        var urlRequest = URLRequest(url: request.url, timeoutInterval: options.effectiveTimeout)
        urlRequest.httpMethod = request.method.rawValue
        for field in request.headers { urlRequest.addValue(field.value, forHTTPHeaderField: field.name) }
        urlRequest.httpBody = request.body
        let clock = ContinuousClock()
        let start = clock.now
        let data: Data
        let urlResponse: URLResponse
        do {
            try Task.checkCancellation()
            (data, urlResponse) = try await session.data(for: urlRequest)
        } catch {
            throw URLSessionTransport.map(error, request: request, timeout: options.timeout)
        }
        let elapsed = clock.now - start
        guard let http = urlResponse as? HTTPURLResponse else {
            throw HTTPError.noResponse(url: request.url.absoluteString, detail: "the reply was not HTTP")
        }
        return HTTPResponse(
            status: http.statusCode,
            headers: URLSessionTransport.headers(of: http),
            body: data,
            url: http.url ?? request.url,
            duration: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        )
    }

    /// Headers as corelibs reports them; values it joined with ", " for `Set-Cookie` are split
    /// back into separate fields.
    static func headers(of response: HTTPURLResponse) -> HTTPHeaders {
        var headers = HTTPHeaders()
        let pairs = response.allHeaderFields.compactMap { key, value -> (String, String)? in
            guard let name = key as? String, let value = value as? String else { return nil }
            return (name, value)
        }.sorted { $0.0.lowercased() < $1.0.lowercased() }
        for (name, value) in pairs {
            if name.caseInsensitiveEquals("Set-Cookie") {
                for cookie in SetCookieSplitter.split(value) { headers.add(name: name, value: cookie) }
            } else {
                headers.add(name: name, value: value)
            }
        }
        return headers
    }

    /// Turns a `URLError` into an ``HTTPError`` that names the host, port or timeout.
    static func map(_ error: any Error, request: HTTPRequest, timeout: TimeInterval) -> any Error {
        // Errors a URLProtocol raised (a replay session's mismatch report) arrive unchanged.
        if error is HTTPError || error is CassetteError { return error }
        let url = request.url.absoluteString
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
        case .networkConnectionLost, .badServerResponse, .zeroByteResource:
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

/// Stops or allows redirects; corelibs calls only the completion-handler variant.
private final class RedirectDelegate: NSObject, URLSessionTaskDelegate, @unchecked Sendable {
    let follow: Bool
    init(follow: Bool) { self.follow = follow }

    func urlSession(
        _ session: URLSession, task: URLSessionTask,
        willPerformHTTPRedirection response: HTTPURLResponse, newRequest request: URLRequest,
        completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        completionHandler(follow ? request : nil)
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
