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
        // Only a name as long as one of the tokens listed is looked for among them: one bit for
        // each length (the last for every length from 63 on), so most names are ruled out at once.
        var listedLengths: UInt64 = 0
        for field in connection {
            _ = forEachListItem(field.value) { item in
                listedLengths |= 1 << UInt64(min(item.count, 63))
                return false
            }
        }
        func removed(_ name: String) -> Bool {
            let length = name.utf8.count
            if length < hopByHopByLength.count, hopByHopByLength[length].contains(where: { name.caseInsensitiveEquals($0) }) { return true }
            return listedLengths & (1 << UInt64(min(length, 63))) != 0 && connection.contains { field in listsToken(field.value, name) }
        }
        let fields = headers.fields
        guard let first = fields.firstIndex(where: { removed($0.name) }) else { return headers }
        var kept = Array(fields[..<first])
        for field in fields[(first + 1)...] where !removed(field.name) { kept.append(field) }
        return HTTPHeaders(kept)
    }

    /// Whether the comma-separated `list` (a `Connection` value) holds `token`, ignoring case
    /// and the HTTP space around each item, read in place: no list of the items is made.
    static func listsToken(_ list: String, _ token: String) -> Bool {
        forEachListItem(list) { item in String(decoding: item, as: UTF8.self).caseInsensitiveEquals(token) }
    }

    /// Calls `body` with each item of the comma-separated `list`, without the HTTP space around
    /// it, until `body` returns true; returns whether it did. An empty item (two commas
    /// together) names nothing, as splitting drops it; an item of spaces is the empty name, as
    /// trimming leaves it.
    static func forEachListItem(_ list: String, _ body: (UnsafeBufferPointer<UInt8>) -> Bool) -> Bool {
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
                if end > start, body(UnsafeBufferPointer(rebasing: bytes[low..<high])) { return true }
                start = end + 1
            }
            return false
        }
    }

    /// The headers to send upstream to `url` for a request that arrived with `headers` from `client`.
    ///
    /// A reverse proxy rewrites `Host` to the upstream's; a forward proxy (absolute-form target)
    /// keeps the one the client sent, which already names the target. `authority`, when given,
    /// is `url`'s (``Foundation/URL/authority``), worked out once for every request to the upstream.
    static func forUpstream(_ headers: HTTPHeaders, url: URL, client: String?, forward: Bool, via: String,
                            upstream: URL? = nil, authority: String? = nil) -> HTTPHeaders {
        var result = removingHopByHop(headers)
        // An upstream given as http://user:password@host gets Basic auth, as curl sends it.
        // Only to the upstream's own origin: a forwarded request for another host never gets them.
        if let upstream, let user = upstream.user(percentEncoded: false), !result.contains("Authorization"),
           upstream.host?.lowercased() == url.host?.lowercased(), upstream.port == url.port, upstream.scheme == url.scheme {
            let password = upstream.password(percentEncoded: false) ?? ""
            result["Authorization"] = "Basic " + Data("\(user):\(password)".utf8).base64EncodedString()
        }
        // The fields read and set below, found in one pass over the client's and one over those
        // kept: most requests carry only Host of them, and looking each name up in turn cost
        // more than the rest of the rule. A field that is not there is appended, as setting it would.
        let sent = Present(headers), kept = Present(result)
        let priorVia = sent.vias.joined(separator: ", ")
        let viaValue = (priorVia.isEmpty ? "" : priorVia + ", ") + "1.1 " + via
        if kept.hasVia { result["Via"] = viaValue } else { result.append(name: "Via", value: viaValue) }
        if !forward || sent.host == nil {
            let host = authority ?? url.authority
            if kept.hasHost { result["Host"] = host } else { result.append(name: "Host", value: host) }
        }
        if let client {
            let prior = sent.forwardedFor.joined(separator: ", ")
            let value = prior.isEmpty ? client : prior + ", " + client
            if kept.hasForwardedFor { result["X-Forwarded-For"] = value } else { result.append(name: "X-Forwarded-For", value: value) }
        }
        if let originalHost = sent.host, !kept.hasForwardedHost { result.append(name: "X-Forwarded-Host", value: originalHost) }
        // What the client spoke to this server: https inside an intercepted tunnel.
        if !kept.hasForwardedProto { result.append(name: "X-Forwarded-Proto", value: forward && url.scheme == "https" ? "https" : "http") }
        return result
    }

    /// What ``forUpstream(_:url:client:forward:via:upstream:authority:)`` reads of a field
    /// list: the values it extends, the first `Host`, and which of the fields it sets are there.
    private struct Present {
        var vias: [String] = [], forwardedFor: [String] = []
        var host: String?
        var hasVia = false, hasHost = false, hasForwardedFor = false, hasForwardedHost = false, hasForwardedProto = false

        init(_ headers: HTTPHeaders) {
            for field in headers {
                let name = field.name
                // A name's length rules out all but one of them.
                switch name.utf8.count {
                case 3 where name.caseInsensitiveEquals("Via"):
                    hasVia = true
                    vias.append(field.value)
                case 4 where name.caseInsensitiveEquals("Host"):
                    hasHost = true
                    if host == nil { host = field.value }
                case 15 where name.caseInsensitiveEquals("X-Forwarded-For"):
                    hasForwardedFor = true
                    forwardedFor.append(field.value)
                case 16 where name.caseInsensitiveEquals("X-Forwarded-Host"):
                    hasForwardedHost = true
                case 17 where name.caseInsensitiveEquals("X-Forwarded-Proto"):
                    hasForwardedProto = true
                default:
                    break
                }
            }
        }
    }

    /// The upstream's answer as the client gets it: hop-by-hop fields removed, decoded bodies
    /// without `Content-Encoding` (the stored form, ``RecordingTransport/normalized(_:for:)``).
    static func forClient(_ response: HTTPResponse, for request: HTTPRequest) -> HTTPResponse {
        var result = RecordingTransport.normalized(response, for: request)
        result.headers = removingHopByHop(result.headers)
        return result
    }
}
