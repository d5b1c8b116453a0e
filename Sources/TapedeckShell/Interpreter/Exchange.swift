import Foundation
import Tapedeck

/// One request as the shell sends it, through any transport (live, recording or replaying):
/// a deadline over the whole exchange (`--timeout`), and redirects followed hop by hop when
/// asked (`--follow`), so each hop is its own interaction in a cassette.
///
/// ```swift
/// let response = try await Exchange.perform(request, through: transport, timeout: 5, followRedirects: true)
/// ```
public enum Exchange {
    /// How many redirects `--follow` takes before giving up (curl's default is 50, HTTPie's 30).
    public static let maxRedirects = 30

    /// Sends `request`; fails with ``HTTPError/timedOut(url:seconds:)`` when no final response
    /// arrives within `timeout` seconds (zero or less: no limit).
    public static func perform(_ request: HTTPRequest, through transport: any HTTPTransport,
                               timeout: TimeInterval, followRedirects: Bool) async throws -> HTTPResponse {
        guard timeout > 0, timeout.isFinite else {
            return try await send(request, through: transport, followRedirects: followRedirects)
        }
        return try await withThrowingTaskGroup(of: HTTPResponse.self) { group in
            group.addTask { try await send(request, through: transport, followRedirects: followRedirects) }
            group.addTask {
                try await Task.sleep(for: .milliseconds(Int64((timeout * 1000).rounded(.up))))
                throw HTTPError.timedOut(url: request.url.absoluteString, seconds: timeout)
            }
            defer { group.cancelAll() }
            guard let first = try await group.next() else {
                throw HTTPError.noResponse(url: request.url.absoluteString, detail: "the exchange ended without a response")
            }
            return first
        }
    }

    /// `200 OK (12 ms)`: a response in a few words, for `-v` lines.
    public static func summary(of response: HTTPResponse) -> String {
        let reason = response.reason.isEmpty ? HTTPResponse.reasonPhrase(for: response.status) : response.reason
        let milliseconds = Int((response.duration * 1000).rounded())
        return "\(response.status) \(reason) (\(milliseconds) ms)"
    }

    private static func send(_ request: HTTPRequest, through transport: any HTTPTransport,
                             followRedirects: Bool) async throws -> HTTPResponse {
        var current = request
        var response = try await transport.send(current)
        guard followRedirects else { return response }
        var hops = 0
        while let next = redirect(from: current, to: response) {
            hops += 1
            guard hops <= maxRedirects else {
                throw HTTPError.transport(url: request.url.absoluteString,
                                          detail: "more than \(maxRedirects) redirects; the server redirects in a loop")
            }
            current = next
            response = try await transport.send(current)
        }
        return response
    }

    /// The request a 3xx response with a `Location` leads to, as curl `-L` and browsers make
    /// it: 303 (and 301/302 after a POST) become a GET without a body; 307 and 308 keep the
    /// method and body; `Authorization` and `Cookie` are not sent to another host.
    static func redirect(from request: HTTPRequest, to response: HTTPResponse) -> HTTPRequest? {
        guard [301, 302, 303, 307, 308].contains(response.status), let location = response.headers["Location"],
              let url = URL(string: location, relativeTo: request.url)?.absoluteURL, url.host != nil else { return nil }
        var next = request
        next.url = url
        let becomesGet = response.status == 303 ? request.method != .head
            : (response.status == 301 || response.status == 302) && request.method == .post
        if becomesGet {
            next.method = .get
            next.body = nil
            for name in ["Content-Type", "Content-Length"] { next.headers.remove(name: name) }
        }
        if url.host?.lowercased() != request.url.host?.lowercased() || url.port != request.url.port {
            for name in ["Authorization", "Cookie", "Proxy-Authorization"] { next.headers.remove(name: name) }
        }
        return next
    }
}
