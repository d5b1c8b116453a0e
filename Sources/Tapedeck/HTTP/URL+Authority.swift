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
