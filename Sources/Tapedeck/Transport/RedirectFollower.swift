import Foundation

/// The one redirect rule of every Tapedeck path that follows redirects: the one-shot CLI's
/// `--follow`, the REPL and `tapedeck run`, recording, replay, and the live transports
/// (``URLSessionTransport`` and the libcurl transport never follow on their own).
///
/// - 303 (and 301/302 after a POST) become a GET without a body; 307/308 keep method and body.
/// - `Authorization`, `Cookie` and `Proxy-Authorization` are dropped whenever the scheme, the
///   host (compared case-insensitively) or the port (default ports filled in) changes.
/// - Only `http` and `https` are followed: a `Location` with any other scheme (`gopher:`,
///   `dict:`, `ftp:`, `file:` …) is ``HTTPError/redirectScheme(from:location:scheme:)``, so a
///   hostile server cannot make Tapedeck send bytes to other protocols.
/// - More than ``maximumHops`` redirects is ``HTTPError/tooManyRedirects(chain:)`` with the chain.
///
/// Each hop goes through `send` separately, which is how recording stores a chain hop by hop
/// and replay follows it.
///
/// ```swift
/// let response = try await RedirectFollower.follow(request) { hop in try await transport.send(hop) }
/// ```
package enum RedirectFollower {
    /// How many redirects are followed before ``HTTPError/tooManyRedirects(chain:)`` (HTTPie's 30).
    package static let maximumHops = 30

    /// The headers that never follow a redirect to another origin.
    package static let credentialHeaders = ["Authorization", "Cookie", "Proxy-Authorization"]

    /// The schemes a redirect may lead to.
    static let followedSchemes: Set<String> = ["http", "https"]

    /// Sends `request` through `send`, then each redirect it leads to, and returns the final response.
    package static func follow(_ request: HTTPRequest, hop send: (HTTPRequest) async throws -> HTTPResponse) async throws -> HTTPResponse {
        var current = request
        var response = try await send(current)
        var chain = [request.urlText]
        while let next = try nextRequest(after: response, for: current) {
            chain.append(next.url.absoluteString)
            guard chain.count <= maximumHops + 1 else { throw HTTPError.tooManyRedirects(chain: chain) }
            current = next
            response = try await send(current)
        }
        return response
    }

    /// The synchronous form of ``follow(_:hop:)`` (replay inside a `URLProtocol`).
    package static func follow(_ request: HTTPRequest, hop send: (HTTPRequest) throws -> HTTPResponse) throws -> HTTPResponse {
        var current = request
        var response = try send(current)
        var chain = [request.urlText]
        while let next = try nextRequest(after: response, for: current) {
            chain.append(next.url.absoluteString)
            guard chain.count <= maximumHops + 1 else { throw HTTPError.tooManyRedirects(chain: chain) }
            current = next
            response = try send(current)
        }
        return response
    }

    /// The request a redirect asks for, or nil when `response` is not a redirect (not a 301, 302,
    /// 303, 307 or 308, or no usable `Location`); throws when the `Location` is not http(s).
    package static func nextRequest(after response: HTTPResponse, for request: HTTPRequest) throws(HTTPError) -> HTTPRequest? {
        guard [301, 302, 303, 307, 308].contains(response.status), let location = response.headers["Location"],
              let target = URL(string: location, relativeTo: request.url)?.absoluteURL else { return nil }
        let scheme = target.scheme?.lowercased() ?? ""
        guard followedSchemes.contains(scheme) else {
            throw .redirectScheme(from: request.urlText, location: location, scheme: scheme)
        }
        guard let host = target.host, !host.isEmpty else { return nil }
        var next = request
        next.url = target
        let becomesGet = response.status == 303 ? request.method != .head
            : (response.status == 301 || response.status == 302) && request.method == .post
        if becomesGet {
            next.method = .get
            next.body = nil
            for name in ["Content-Type", "Content-Length"] { next.headers.remove(name: name) }
        }
        if !sameOrigin(request.url, target) {
            for name in credentialHeaders { next.headers.remove(name: name) }
        }
        return next
    }

    /// Whether two URLs share scheme, host (case-insensitive) and port (default ports filled in).
    static func sameOrigin(_ a: URL, _ b: URL) -> Bool {
        let schemeA = a.scheme?.lowercased(), schemeB = b.scheme?.lowercased()
        return schemeA == schemeB && a.host?.lowercased() == b.host?.lowercased()
            && effectivePort(a) == effectivePort(b)
    }

    private static func effectivePort(_ url: URL) -> Int? {
        url.port ?? (url.scheme?.lowercased() == "https" ? 443 : url.scheme?.lowercased() == "http" ? 80 : nil)
    }
}
