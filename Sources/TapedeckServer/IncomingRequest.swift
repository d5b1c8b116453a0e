import Foundation
import Tapedeck

/// A request as it arrived on the socket, before the front-end decides where it goes.
package struct IncomingRequest: Sendable, Hashable {
    /// The method token as sent (`GET`).
    package var method: String
    /// The request target as sent: origin-form (`/get?a=1`) or absolute-form (`http://host/get`).
    package var target: String {
        didSet { (pathAndQuery, path) = Self.parts(of: target) }
    }
    /// The header fields in received order, repeated names apart.
    package var headers: HTTPHeaders
    /// The body bytes (empty when none was sent).
    package var body: Data
    /// The client's address (`127.0.0.1`), when known.
    var remoteAddress: String?

    /// Creates a request.
    package init(method: String, target: String, headers: HTTPHeaders = [:], body: Data = Data(), remoteAddress: String? = nil) {
        self.method = method
        self.target = target
        (pathAndQuery, path) = Self.parts(of: target)
        self.headers = headers
        self.body = body
        self.remoteAddress = remoteAddress
    }

    /// Creates a request that arrived inside an intercepted tunnel to `origin`
    /// (`https://api.example.com`) with the origin-form `target` (`/get?a=1`): the handlers see
    /// `https://api.example.com/get?a=1`, as a forward proxy's request for it, and its path and
    /// query are `target`'s as sent, not read back out of the whole.
    package init(method: String, tunnel origin: String, originForm target: String, headers: HTTPHeaders, remoteAddress: String?) {
        self.method = method
        self.target = origin + target
        if Self.readsBackAsSent(target) {
            pathAndQuery = target
            path = target.utf8.firstIndex(of: UInt8(ascii: "?")).map { String(target[..<$0]) } ?? target
        } else {
            (pathAndQuery, path) = Self.parts(of: origin + target)
        }
        self.headers = headers
        body = Data()
        self.remoteAddress = remoteAddress
    }

    /// Whether the path and query read back out of a URL made of `target` (origin-form) are
    /// `target` as sent: no bracket, which a URL escapes, and no `%` but before two hex digits.
    private static func readsBackAsSent(_ target: String) -> Bool {
        var target = target
        return target.withUTF8 { bytes in
            var index = 0
            while index < bytes.count {
                switch bytes[index] {
                case UInt8(ascii: "["), UInt8(ascii: "]"):
                    return false
                case UInt8(ascii: "%"):
                    guard index + 2 < bytes.count, PercentEncoding.hexValue(bytes[index + 1]) != nil, PercentEncoding.hexValue(bytes[index + 2]) != nil else { return false }
                    index += 2
                default:
                    break
                }
                index += 1
            }
            return true
        }
    }

    /// Whether the target is absolute-form (`http://host/path`), as clients send to a forward proxy.
    var isAbsoluteForm: Bool { Self.isAbsoluteForm(target) }

    /// Whether `target` is absolute-form (`http://host/path`): the one rule for every reader of a target.
    static func isAbsoluteForm(_ target: String) -> Bool {
        // Most targets are origin-form: one byte tells.
        guard let first = target.utf8.first, first != UInt8(ascii: "/") else { return false }
        let scheme = target.utf8.prefix(8).map { $0 | 0x20 }  // ASCII lower case; ':' and '/' are unchanged
        return scheme.starts(with: "http://".utf8) || scheme.starts(with: "https://".utf8)
    }

    /// The path and query of the target (`/get?a=1`), also for absolute-form targets.
    ///
    /// Worked out once, when the target is set: every handler of a chain reads it.
    package private(set) var pathAndQuery = "/"

    /// The path without the query (`/get`).
    package private(set) var path = "/"

    /// The path and query of `target`, and its path alone.
    private static func parts(of target: String) -> (pathAndQuery: String, path: String) {
        let whole: String
        if isAbsoluteForm(target), let url = PercentEncoding.url(target) {
            let path = url.path(percentEncoded: true)
            whole = (path.isEmpty ? "/" : path) + (url.query(percentEncoded: true).map { "?" + $0 } ?? "")
        } else {
            whole = target.isEmpty ? "/" : target
        }
        guard let mark = whole.utf8.firstIndex(of: UInt8(ascii: "?")) else { return (whole, whole) }
        return (whole, String(whole[..<mark]))
    }
}
