import Foundation

extension URL {
    /// `host` or `host:port` as a `Host` field and a URL write it: an IPv6 literal in
    /// brackets (`[::1]:8080`), which Foundation's `host` gives without them. Empty when the
    /// URL has no host.
    package var authority: String {
        guard let host, !host.isEmpty else { return "" }
        return host.bracketedIfIPv6 + (port.map { ":\($0)" } ?? "")
    }
}

/// Where the authority of an absolute URL's text lies (`scheme://[userinfo@]host[:port]`), read
/// from the text itself, so a URL that does not parse is still split. The one rule the readers,
/// redaction and error messages use.
package struct URLTextAuthority {
    /// Just after `://`.
    package let start: String.Index
    /// The `@` that ends the userinfo, when there is one.
    package let at: String.Index?
    /// The first `/`, `?` or `#` after the authority (the end of the text when none).
    package let end: String.Index

    /// The authority of `text`, or nil when it has no `://`. The authority ends at the first
    /// `/`, `?` or `#` (RFC 3986). With `rawPasswords`, a `/` typed raw in a password
    /// (`http://user:pa/ss@host`) ends it only where what follows the `:` is a port: the
    /// reading that hides more, for quoting a URL in an error.
    package init?(_ text: String, rawPasswords: Bool = false) {
        guard let scheme = text.firstByteRange(of: "://") else { return nil }
        start = scheme.upperBound
        let rest = text[start...]
        var end = rest.firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) ?? text.endIndex
        if rawPasswords, end < text.endIndex, text[end] == "/" {
            let tail = text[start..<(rest.firstIndex(where: { $0 == "?" || $0 == "#" }) ?? text.endIndex)]
            if let at = tail.lastIndex(of: "@"), let colon = text[start..<end].firstIndex(of: ":"),
               !text[text.index(after: colon)..<end].allSatisfy(\.isASCIIDigit) {
                end = text[at...].firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) ?? text.endIndex
            }
        }
        self.end = end
        at = text[start..<end].lastIndex(of: "@")
    }

    /// The host and port (after any userinfo).
    package func hostPort(in text: String) -> Substring {
        text[(at.map { text.index(after: $0) } ?? start)..<end]
    }
}

extension Character {
    /// Whether this is one of `0`…`9`.
    var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
