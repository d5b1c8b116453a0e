import Foundation
import Tapedeck

/// Header rules for a request that goes on to an upstream, and for the answer that comes back
/// (RFC 9110 §7.6.1): hop-by-hop fields stay on their hop; `Host` names the upstream, and the
/// original host, client and scheme travel in `X-Forwarded-Host/-For/-Proto`.
enum ProxyHeaders {
    /// Fields that describe one connection, never forwarded.
    static let hopByHop: [String] = [
        // The control token is for this server, never for the upstream or the cassette.
        "x-tapedeck-token",
        "connection", "keep-alive", "proxy-connection", "transfer-encoding", "te", "trailer", "upgrade",
        "proxy-authorization", "proxy-authenticate", "expect",
    ]

    /// ``hopByHop`` by length: a name is compared with the few of its own length.
    private static let hopByHopByLength: [[String]] = {
        var table = [[String]](repeating: [], count: (hopByHop.map(\.utf8.count).max() ?? 0) + 1)
        for name in hopByHop { table[name.utf8.count].append(name) }
        return table
    }()

    /// `headers` without hop-by-hop fields, nor those the `Connection` field names.
    ///
    /// Names are compared in place, without lower-casing: this runs twice for every request a
    /// proxy passes on, and most have nothing to remove.
    static func removingHopByHop(_ headers: HTTPHeaders) -> HTTPHeaders {
        // The Connection field's names, split on their bytes (`keep-alive` in most answers).
        let named = headers.values(for: "Connection").flatMap(tokens(of:))
        func removed(_ name: String) -> Bool {
            let length = name.utf8.count
            return length < hopByHopByLength.count && hopByHopByLength[length].contains { name.caseInsensitiveEquals($0) }
                || named.contains { name.caseInsensitiveEquals($0) }
        }
        guard headers.contains(where: { removed($0.name) }) else { return headers }
        return HTTPHeaders(headers.filter { !removed($0.name) })
    }

    /// The comma-separated tokens of a `Connection` value, without the spaces around them, as
    /// sent (compare them ignoring case).
    static func tokens(of value: String) -> [String] {
        value.utf8.split(separator: UInt8(ascii: ",")).map { String(Substring($0).trimmingHTTPSpace()) }
    }

    /// The headers to send upstream to `url` for a request that arrived with `headers` from `client`.
    ///
    /// A reverse proxy rewrites `Host` to the upstream's; a forward proxy (absolute-form target)
    /// keeps the one the client sent, which already names the target.
    static func forUpstream(_ headers: HTTPHeaders, url: URL, client: String?, forward: Bool, via: String,
                            upstream: URL? = nil) -> HTTPHeaders {
        var result = removingHopByHop(headers)
        // An upstream given as http://user:password@host gets Basic auth, as curl sends it.
        // Only to the upstream's own origin: a forwarded request for another host never gets them.
        if let upstream, let user = upstream.user(percentEncoded: false), !result.contains("Authorization"),
           upstream.host?.lowercased() == url.host?.lowercased(), upstream.port == url.port, upstream.scheme == url.scheme {
            let password = upstream.password(percentEncoded: false) ?? ""
            result["Authorization"] = "Basic " + Data("\(user):\(password)".utf8).base64EncodedString()
        }
        let prior = headers.values(for: "Via").joined(separator: ", ")
        result["Via"] = (prior.isEmpty ? "" : prior + ", ") + "1.1 " + via
        let originalHost = headers["Host"]
        if !forward || originalHost == nil { result["Host"] = url.authority }
        if let client {
            let prior = headers.values(for: "X-Forwarded-For").joined(separator: ", ")
            result["X-Forwarded-For"] = prior.isEmpty ? client : prior + ", " + client
        }
        if let originalHost, !result.contains("X-Forwarded-Host") { result["X-Forwarded-Host"] = originalHost }
        // What the client spoke to this server: https inside an intercepted tunnel.
        if !result.contains("X-Forwarded-Proto") { result["X-Forwarded-Proto"] = forward && url.scheme == "https" ? "https" : "http" }
        return result
    }

    /// The upstream's answer as the client gets it: hop-by-hop fields removed, decoded bodies
    /// without `Content-Encoding` (the stored form, ``RecordingTransport/normalized(_:for:)``).
    static func forClient(_ response: HTTPResponse, for request: HTTPRequest) -> HTTPResponse {
        var result = RecordingTransport.normalized(response, for: request)
        result.headers = removingHopByHop(result.headers)
        return result
    }
}
