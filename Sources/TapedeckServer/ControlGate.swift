import Foundation
import Tapedeck

/// Who may use the control endpoints: a request addressed to this server by name (its `Host`
/// is the listening address, so DNS rebinding cannot reach them), from no other web origin
/// (a page elsewhere cannot post to them), carrying the run's token. Every refusal says what
/// to send, and never the token itself.
package struct ControlGate {
    /// The server the requests must be addressed to.
    let deck: Deck
    /// The token requests must carry.
    let token: String

    /// `host:port` as the server prints it.
    private var shownAddress: String { ControlHandler.hostAndPort(deck.origin) }

    /// The refusal for `request`, or nil when it may go on.
    func refusal(for request: IncomingRequest) -> ServerReply? {
        guard let host = Self.onlyHost(request.headers), deck.isAddressed(host) else {
            return .text(421, "the control endpoints answer requests addressed to this server only (Host: \(shownAddress)); "
                + "this one names \(Excerpt.of(request.headers["Host"] ?? "no host"))\n", headers: [ServerMarker.errorHeader: "421"])
        }
        if let origin = request.headers["Origin"] {
            let url = URL(string: origin)
            let scheme = url?.scheme?.lowercased() ?? ""
            guard let url, ["http", "https"].contains(scheme), deck.isSelf(url) else {
                return .text(403, "the control endpoints do not answer requests from web pages of another origin (\(Excerpt.of(origin)))\n",
                             headers: [ServerMarker.errorHeader: "403"])
            }
        }
        guard let sent = Self.sentToken(request.headers), Self.equal(sent, token) else {
            return .text(401, "the control endpoints need the token this server printed when it started: "
                + "send it as X-Tapedeck-Token: TOKEN (it is also in the --port-file's .token file)\n",
                         headers: [ServerMarker.errorHeader: "401", "WWW-Authenticate": "Bearer"])
        }
        return nil
    }

    /// Whether a `Host` value (`name:port`) addresses this server. The port must be its port.
    /// The name must be its own; for a loopback server also `localhost` or a loopback
    /// address; for one listening on every address (`0.0.0.0`, `::`) any IP address or
    /// `localhost`. A DNS name other than its own never is: that is how rebinding gets in.
    /// The one `Host` a request names, nil when it names none or more than one: a second,
    /// unchecked, could name another server to whatever reads the request next.
    package static func onlyHost(_ headers: HTTPHeaders) -> String? {
        headers.values(for: "Host").count == 1 ? headers["Host"] : nil
    }

    package static func accepts(_ hostHeader: String, origin: URL) -> Bool {
        let (name, port) = Self.split(hostHeader.lowercased())
        var host = Substring((origin.host ?? "127.0.0.1").lowercased())
        if host.hasPrefix("["), host.hasSuffix("]") { host = host.dropFirst().dropLast() }
        let ownName = String(host)
        let defaultPort = Self.defaultPort(origin)
        guard (port ?? defaultPort) == (origin.port ?? defaultPort) else { return false }
        if name == ownName { return true }
        let loopback = name == "localhost" || name == "::1" || Self.isIPv4(name) && name.hasPrefix("127.")
        if Self.isLoopback(ownName) { return loopback }
        if ownName == "0.0.0.0" || ownName == "::" { return loopback || Self.isIPv4(name) || name.contains(":") }
        return false
    }

    /// The port `url` reaches when it names none: 443 for https, else 80.
    static func defaultPort(_ url: URL) -> Int {
        url.scheme == "https" ? 443 : 80
    }

    package static func isLoopback(_ name: String) -> Bool {
        // An IPv4 loopback address written IPv6's way (`::ffff:127.0.0.1`) is one too.
        let v4 = name.hasPrefix("::ffff:") ? String(name.dropFirst(7)) : name
        return name == "localhost" || name == "::1" || (isIPv4(v4) && v4.hasPrefix("127."))
    }

    static func isIPv4(_ name: String) -> Bool {
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts.allSatisfy { !$0.isEmpty && $0.count <= 3 && $0.allSatisfy(\.isNumber) && Int($0).map { $0 <= 255 } == true }
    }

    /// `name` and port of `host[:port]` or `[v6][:port]` (port nil when absent).
    static func split(_ value: String) -> (name: String, port: Int?) {
        if value.hasPrefix("["), let close = value.firstIndex(of: "]") {
            let name = String(value[value.index(after: value.startIndex)..<close])
            let rest = value[value.index(after: close)...]
            return (name, rest.hasPrefix(":") ? Int(rest.dropFirst()) : nil)
        }
        guard let colon = value.lastIndex(of: ":"), value.firstIndex(of: ":") == colon else { return (value, nil) }
        return (String(value[..<colon]), Int(value[value.index(after: colon)...]))
    }

    /// The token from `X-Tapedeck-Token`, or from `Authorization: Bearer`.
    static func sentToken(_ headers: HTTPHeaders) -> String? {
        if let token = headers["X-Tapedeck-Token"] { return token.trimmingCharacters(in: .whitespaces) }
        guard let authorization = headers["Authorization"], authorization.lowercased().hasPrefix("bearer ") else { return nil }
        return String(authorization.dropFirst("bearer ".count)).trimmingCharacters(in: .whitespaces)
    }

    /// Compares in time that depends on the lengths only.
    package static func equal(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        guard x.count == y.count else { return false }
        var difference: UInt8 = 0
        for index in x.indices { difference |= x[index] ^ y[index] }
        return difference == 0
    }
}
