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
    /// `/`, `?` or `#` (RFC 3986). With `rawPasswords`, the reading that hides more, for quoting
    /// a URL in an error: a text with no `://` (`user:pw@host`, as HTTPie takes it) starts with
    /// its authority, and a `/`, `?` or `#` typed raw in a password (`http://user:pa/ss@host`)
    /// does not end it: when the authority so ended has no `@` and what follows its `:` is not
    /// a port, it runs to the first `@` after.
    package init?(_ text: String, rawPasswords: Bool = false) {
        if let scheme = text.firstByteRange(of: "://") {
            start = scheme.upperBound
        } else if rawPasswords {
            start = text.startIndex
        } else {
            return nil
        }
        var end = text[start...].firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) ?? text.endIndex
        let strict = text[start..<end]
        if rawPasswords, end < text.endIndex, !strict.contains("@"), !strict.hasPrefix("["), let colon = strict.firstIndex(of: ":"),
           !strict[strict.index(after: colon)...].allSatisfy(\.isASCIIDigit), let at = text[end...].firstIndex(of: "@") {
            end = text[at...].firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) ?? text.endIndex
        }
        self.end = end
        at = text[start..<end].lastIndex(of: "@")
    }

    /// Whether ``init(_:rawPasswords:)`` with `rawPasswords` reads `text`'s authority past a
    /// `/`, `?` or `#` that a URL parser would end it at: a password typed with one raw.
    package static func hasRawDelimiterInPassword(_ text: String) -> Bool {
        guard let lenient = URLTextAuthority(text, rawPasswords: true), lenient.at != nil else { return false }
        let strictEnd = text[lenient.start...].firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) ?? text.endIndex
        return lenient.end != strictEnd
    }

    /// Why a URL whose password holds a raw delimiter is refused, and the fix.
    package static let rawDelimiterProblem = "its password holds a '/', '?' or '#', which ends the host part of a URL; write them as %2F, %3F and %23"

    /// The host and port (after any userinfo).
    package func hostPort(in text: String) -> Substring {
        text[(at.map { text.index(after: $0) } ?? start)..<end]
    }
}

extension Character {
    /// Whether this is one of `0`…`9`.
    var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
