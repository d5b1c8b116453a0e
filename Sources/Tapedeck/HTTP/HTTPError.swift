import Foundation

/// Everything that can go wrong building, sending or decoding an HTTP exchange.
///
/// Each message names the bad value, where it came from and what to do next in library
/// terms (the option to change); a front-end with its own fix for a failure (a command-line
/// flag) shows ``failure`` followed by that fix instead.
public enum HTTPError: Error, LocalizedError, CustomStringConvertible, Sendable, Equatable {
    /// A URL could not be built from user input.
    case invalidURL(input: String, reason: String)
    /// A method name is not a valid token.
    case invalidMethod(String)
    /// A header name is not a valid token.
    case invalidHeaderName(String)
    /// A header value contains CR, LF or NUL.
    case invalidHeaderValue(name: String, value: String)
    /// A body could not be encoded.
    case invalidBody(String)
    /// A file named with `@file` or `< file` could not be read.
    case fileUnreadable(path: String, reason: String)
    /// The device has no network connection (URLSession's `notConnectedToInternet`, or cellular
    /// data that is off or not allowed).
    case notConnected(url: String)
    /// The connection dropped while the request or response was in flight (URLSession's
    /// `networkConnectionLost`).
    case connectionLost(url: String)
    /// Nothing listens at the host and port.
    case cannotConnect(host: String, port: Int)
    /// DNS could not resolve the host.
    case hostNotFound(String)
    /// No complete response arrived in time.
    case timedOut(url: String, seconds: Double)
    /// The request was cancelled (Ctrl-C, task cancellation).
    case cancelled(url: String)
    /// TLS negotiation or certificate verification failed.
    case tlsFailure(host: String, detail: String)
    /// A response arrived with a status outside the accepted range.
    case unacceptableStatus(status: Int, reason: String, url: String, body: Data)
    /// A response body could not be decoded into the expected type.
    case decodingFailed(type: String, codingPath: String, detail: String)
    /// The connection closed before a response.
    case noResponse(url: String, detail: String)
    /// Any other transport failure, with the underlying message.
    case transport(url: String, detail: String)
    /// A redirect's `Location` leads to a scheme other than http or https (never followed).
    case redirectScheme(from: String, location: String, scheme: String)
    /// More redirects than a follower allows; `chain` is every URL visited.
    case tooManyRedirects(chain: [String])
    /// The response body is larger than the limit the transport was given.
    case bodyTooLarge(url: String, limit: Int)
    /// A compressed response body decodes to more than ``BodyLimits`` allow for its size on
    /// the wire (a decompression bomb).
    case decompressionLimit(url: String, compressed: Int, limit: Int)
    /// A response header (or all of them together) is larger than the transport accepts.
    case headerTooLarge(url: String, detail: String)

    /// The whole message: the bad value, where it came from, and what to do next.
    public var errorDescription: String? {
        switch self {
        case .invalidURL(let input, let reason):
            return "cannot build a URL from '\(Redactor.shownURLText(input))': \(reason)"
        case .invalidMethod(let method):
            return "'\(Excerpt.visible(method))' is not a valid HTTP method; use GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS or a token of letters, digits and !#$%&'*+-.^_`|~"
        case .invalidHeaderName(let name):
            return "'\(Excerpt.of(name))' is not a valid header name; names are letters, digits and !#$%&'*+-.^_`|~ with no spaces or colons"
        case .invalidHeaderValue(let name, let value):
            return "the value of header '\(Excerpt.of(name))' contains a line break or NUL (\(Excerpt.of(value.debugDescription))); remove it"
        case .invalidBody(let detail):
            return "cannot encode the body: \(detail)"
        case .fileUnreadable(let path, let reason):
            return "cannot read file '\(Excerpt.of(path))': \(reason); check the path (relative paths start from \(FileManager.default.currentDirectoryPath))"
        case .notConnected(let url):
            return "request to \(Excerpt.of(url)) failed: the device is not connected to a network; connect and retry"
        case .connectionLost(let url):
            return "the connection to \(Excerpt.of(url)) was lost before the response arrived; retry the request"
        case .cannotConnect(let host, let port):
            return "cannot connect to \(host):\(port): connection refused; is the server running and listening on that port?"
        case .hostNotFound(let host):
            return "host '\(Excerpt.of(host))' not found; check the spelling or your DNS"
        case .timedOut:
            return failure + "; if the server is just slow, raise the transport's timeout (Options.timeout)"
        case .cancelled(let url):
            return "request to \(Excerpt.of(url)) was cancelled"
        case .tlsFailure:
            return failure + "; check the server's certificate, or, if you trust this server, send with a transport "
                + "that does not verify it (URLSession cannot turn verification off on Linux)"
        case .unacceptableStatus(let status, let reason, let url, let body):
            let snippet = String(decoding: body.prefix(512), as: UTF8.self)
            let shown = snippet.isEmpty ? "" : "\n\(snippet)\(body.count > 512 ? "…" : "")"
            return "\(Excerpt.of(url)) answered \(status) \(reason)\(shown)"
        case .decodingFailed(let type, let codingPath, let detail):
            let at = codingPath.isEmpty ? "the top level" : "'\(codingPath)'"
            return "cannot decode \(type) at \(at): \(detail)"
        case .noResponse(let url, let detail):
            return "no response from \(Excerpt.of(url)): \(detail)"
        case .transport(let url, let detail):
            return "request to \(Excerpt.of(url)) failed: \(detail)"
        case .redirectScheme(let from, let location, let scheme):
            let named = scheme.isEmpty ? "no scheme" : "the scheme '\(scheme)'"
            return "\(from) redirects to '\(Excerpt.of(location))', which has \(named); only http and https redirects are followed"
        case .tooManyRedirects(let chain):
            let shown = chain.count > 8 ? chain.prefix(4) + ["…"] + chain.suffix(3) : chain[...]
            return "more than \(max(0, chain.count - 2)) redirects from \(chain.first ?? "?"); the server redirects in a loop: "
                + shown.joined(separator: " → ")
        case .bodyTooLarge(let url, let limit):
            return "the response body from \(Excerpt.of(url)) is larger than the limit of \(ByteCount.describe(limit)); "
                + "raise BodyLimits.maximumBodySize if you expect bodies this large"
        case .decompressionLimit(let url, let compressed, let limit):
            return "the compressed response body from \(Excerpt.of(url)) (\(ByteCount.describe(compressed)) received) decodes to more than "
                + "\(ByteCount.describe(limit)), past the expansion limit; it looks like a decompression bomb"
        case .headerTooLarge(let url, let detail):
            return "the response headers from \(Excerpt.of(url)) are too large (\(detail))"
        }
    }

    /// Whether the server could not be reached or stopped answering (no network, connection
    /// lost or refused, unknown host, timeout, no response): the failures an app answers with
    /// "you're offline" or a retry, as opposed to a bad request, status or body.
    ///
    /// ```swift
    /// do { dogs = try await client.send(.dogs) }
    /// catch let error as HTTPError where error.isConnectivityFailure { showOfflineBanner() }
    /// ```
    public var isConnectivityFailure: Bool {
        switch self {
        case .notConnected, .connectionLost, .cannotConnect, .hostNotFound, .timedOut, .noResponse: true
        default: false
        }
    }

    /// What went wrong, without the fix: `request to http://h/delay/3 timed out after 1 s`.
    public var failure: String {
        switch self {
        case .timedOut(let url, let seconds): "request to \(Excerpt.of(url)) timed out after \(HTTPError.format(seconds)) s"
        case .tlsFailure(let host, let detail): "TLS failure with \(host): \(detail)"
        case .bodyTooLarge(let url, let limit): "the response body from \(url) is larger than the limit of \(ByteCount.describe(limit))"
        default: errorDescription ?? "\(self)"
        }
    }

    /// The message, so `"\(error)"` and `print(error)` read as ``errorDescription`` does.
    public var description: String { errorDescription ?? "HTTP error" }

    static func format(_ seconds: Double) -> String {
        seconds == seconds.rounded() ? String(Int(seconds)) : String(format: "%.1f", seconds)
    }
}
