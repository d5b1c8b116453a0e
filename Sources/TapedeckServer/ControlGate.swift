import Foundation
import Tapedeck

/// Who may use the control endpoints: a request addressed to this server by name (its `Host`
/// is the listening address, so DNS rebinding cannot reach them), from no other web origin
/// (a page elsewhere cannot post to them), carrying the run's token. Every refusal says what
/// to send, and never the token itself.
struct ControlGate {
    /// The origin the server answers at (`http://127.0.0.1:8080`).
    let origin: URL
    /// The token requests must carry.
    let token: String

    /// The refusal for `request`, or nil when it may go on.
    func refusal(for request: IncomingRequest) -> ServerReply? {
        let allowed = allowedHosts
        guard let host = request.headers["Host"]?.lowercased(), allowed.contains(host) else {
            return .text(421, "the control endpoints answer requests addressed to this server only (Host: \(allowed.first ?? "")); "
                + "this one names \(Excerpt.of(request.headers["Host"] ?? "no host"))\n", headers: [ServerMarker.errorHeader: "421"])
        }
        if let origin = request.headers["Origin"]?.lowercased(), !allowed.contains(where: { "http://\($0)" == origin || "https://\($0)" == origin }) {
            return .text(403, "the control endpoints do not answer requests from web pages of another origin (\(Excerpt.of(origin)))\n",
                         headers: [ServerMarker.errorHeader: "403"])
        }
        guard let sent = Self.sentToken(request.headers), Self.equal(sent, token) else {
            return .text(401, "the control endpoints need the token this server printed when it started: "
                + "send it as X-Tapedeck-Token: TOKEN (it is also in the --port-file's .token file)\n",
                         headers: [ServerMarker.errorHeader: "401", "WWW-Authenticate": "Bearer"])
        }
        return nil
    }

    /// `host:port` names this server answers to: its origin's, and for a loopback origin the
    /// other loopback spellings.
    var allowedHosts: [String] {
        let host = (origin.host ?? "127.0.0.1").lowercased()
        let port = origin.port.map { ":\($0)" } ?? ""
        let shown = host.contains(":") ? "[\(host)]" : host
        var hosts = ["\(shown)\(port)"]
        if ["127.0.0.1", "localhost", "::1"].contains(host) {
            hosts += ["127.0.0.1\(port)", "localhost\(port)", "[::1]\(port)"].filter { $0 != hosts[0] }
        }
        return hosts
    }

    /// The token from `X-Tapedeck-Token`, or from `Authorization: Bearer`.
    static func sentToken(_ headers: HTTPHeaders) -> String? {
        if let token = headers["X-Tapedeck-Token"] { return token.trimmingCharacters(in: .whitespaces) }
        guard let authorization = headers["Authorization"], authorization.lowercased().hasPrefix("bearer ") else { return nil }
        return String(authorization.dropFirst("bearer ".count)).trimmingCharacters(in: .whitespaces)
    }

    /// Compares in time that depends on the lengths only.
    static func equal(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        guard x.count == y.count else { return false }
        var difference: UInt8 = 0
        for index in x.indices { difference |= x[index] ^ y[index] }
        return difference == 0
    }
}
