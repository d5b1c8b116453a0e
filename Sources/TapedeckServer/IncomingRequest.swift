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
        if isAbsoluteForm(target), let url = URL(string: target) {
            let path = url.path(percentEncoded: true)
            whole = (path.isEmpty ? "/" : path) + (url.query(percentEncoded: true).map { "?" + $0 } ?? "")
        } else {
            whole = target.isEmpty ? "/" : target
        }
        guard let mark = whole.utf8.firstIndex(of: UInt8(ascii: "?")) else { return (whole, whole) }
        return (whole, String(whole[..<mark]))
    }
}
