import Foundation

/// Follows 3xx responses with a `Location` the way browsers and URLSession do: 303 (and 301/302
/// after a POST) become a GET without a body, 307/308 keep method and body; at most 20 hops.
///
/// Recording and replay both go one hop at a time through it, which is how redirect chains are
/// recorded hop by hop and followed on replay (corelibs cannot report redirects from a
/// URLProtocol).
enum RedirectFollower {
    static let maximumHops = 20

    static func follow<E: Error>(_ request: HTTPRequest, hop send: (HTTPRequest) throws(E) -> HTTPResponse) throws(E) -> HTTPResponse {
        var current = request
        var response = try send(current)
        var hops = 0
        while hops < maximumHops, let next = nextRequest(after: response, for: current) {
            current = next
            response = try send(current)
            hops += 1
        }
        return response
    }

    static func follow(_ request: HTTPRequest, hop send: (HTTPRequest) async throws -> HTTPResponse) async throws -> HTTPResponse {
        var current = request
        var response = try await send(current)
        var hops = 0
        while hops < maximumHops, let next = nextRequest(after: response, for: current) {
            current = next
            response = try await send(current)
            hops += 1
        }
        return response
    }

    /// The request the redirect asks for, or nil when `response` is not a redirect.
    static func nextRequest(after response: HTTPResponse, for request: HTTPRequest) -> HTTPRequest? {
        guard [301, 302, 303, 307, 308].contains(response.status), let location = response.headers["Location"],
              let target = URL(string: location, relativeTo: request.url)?.absoluteURL,
              target.scheme == "http" || target.scheme == "https" else { return nil }
        var next = request
        next.url = target
        let keepsMethod = response.status == 307 || response.status == 308
            || (request.method != .post && response.status != 303)
        if !keepsMethod || response.status == 303 {
            next.method = request.method == .head ? .head : .get
            next.body = nil
            next.headers.remove(name: "Content-Type")
            next.headers.remove(name: "Content-Length")
        }
        if target.host != request.url.host {
            next.headers.remove(name: "Authorization")
            next.headers.remove(name: "Cookie")
        }
        return next
    }
}
