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
        // The names the Connection fields list (`keep-alive` in most answers), read from their
        // values where they are: splitting them into strings, and each field list into a new
        // one, cost more than the rest of an answer's rules.
        let connection = headers.filter { $0.name.caseInsensitiveEquals("Connection") }
        func removed(_ name: String) -> Bool {
            let length = name.utf8.count
            if length < hopByHopByLength.count, hopByHopByLength[length].contains(where: { name.caseInsensitiveEquals($0) }) { return true }
            return connection.contains { field in listsToken(field.value, name) }
        }
        let fields = headers.fields
        guard let first = fields.firstIndex(where: { removed($0.name) }) else { return headers }
        var kept = Array(fields[..<first])
        for field in fields[(first + 1)...] where !removed(field.name) { kept.append(field) }
        return HTTPHeaders(kept)
    }

    /// Whether the comma-separated `list` (a `Connection` value) holds `token`, ignoring case
    /// and the HTTP space around each item: ``tokens(of:)``'s answer, without making it.
    static func listsToken(_ list: String, _ token: String) -> Bool {
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0D || byte == 0x0A }
        var list = list
        return list.withUTF8 { bytes in
            var start = 0
            while start <= bytes.count {
                var end = start
                while end < bytes.count, bytes[end] != UInt8(ascii: ",") { end += 1 }
                var low = start, high = end
                while low < high, isSpace(bytes[low]) { low += 1 }
                while high > low, isSpace(bytes[high - 1]) { high -= 1 }
                // An empty item (two commas together) names nothing, as splitting drops it; an
                // item of spaces names the empty name, as trimming leaves it.
                if end > start, String(decoding: UnsafeBufferPointer(rebasing: bytes[low..<high]), as: UTF8.self).caseInsensitiveEquals(token) {
                    return true
                }
                start = end + 1
            }
            return false
        }
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
