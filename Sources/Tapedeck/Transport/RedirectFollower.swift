import Foundation

/// The one redirect rule of every Tapedeck path that follows redirects: the one-shot CLI's
/// `--follow`, the REPL and `tapedeck run`, recording, replay, and the live transports
/// (``URLSessionTransport`` and the libcurl transport never follow on their own).
///
/// - 303 (and 301/302 after a POST) become a GET without a body; 307/308 keep method and body.
/// - `Authorization`, `Cookie` and `Proxy-Authorization` are dropped whenever the scheme, the
///   host (compared case-insensitively) or the port (default ports filled in) changes; on the
///   same origin, the cookies a redirect sets go with the next request.
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
        } else {
            carryCookies(from: response, into: &next)
        }
        return next
    }

    /// The cookies a redirect sets, sent with the request it leads to on the same origin, as a
    /// browser and HTTPie's session send them (a login answered with a redirect to its page):
    /// each `Set-Cookie` name=value replaces one of that name, and `Max-Age=0` removes it.
    private static func carryCookies(from response: HTTPResponse, into next: inout HTTPRequest) {
        let set = response.headers.values(for: "Set-Cookie")
        guard !set.isEmpty else { return }
        var pairs: [(name: String, value: String)] = (next.headers["Cookie"] ?? "").split(separator: ";").compactMap { part in
            let pair = part.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard let name = pair.first, !name.isEmpty else { return nil }
            return (name, pair.count > 1 ? pair[1] : "")
        }
        for line in set {
            let parts = line.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            let pair = parts.first?.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map(String.init) ?? []
            guard pair.count == 2, !pair[0].isEmpty else { continue }
            pairs.removeAll { $0.name == pair[0] }
            let expired = parts.dropFirst().contains { $0.lowercased().replacingOccurrences(of: " ", with: "") == "max-age=0" }
            if !expired { pairs.append((pair[0], pair[1])) }
        }
        if pairs.isEmpty {
            next.headers.remove(name: "Cookie")
        } else {
            next.headers["Cookie"] = pairs.map { "\($0.name)=\($0.value)" }.joined(separator: "; ")
        }
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
