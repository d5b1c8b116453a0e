import Foundation

/// One query item; a nil value is sent as a bare name (`?flag`).
public struct QueryItem: Hashable, Sendable, Codable {
    /// The item name, unencoded.
    public var name: String
    /// The item value, unencoded.
    public var value: String?

    /// Creates a query item.
    public init(name: String, value: String?) {
        self.name = name
        self.value = value
    }

    /// The encoded `name=value` form.
    public var encoded: String {
        let name = PercentEncoding.encodeQueryComponent(name)
        guard let value else { return name }
        return name + "=" + PercentEncoding.encodeQueryComponent(value)
    }
}

/// Builds request URLs from a base URL, a path typed by the user and query items.
///
/// ```swift
/// let base = try URLComposer.parseBase("http://localhost:8080/api")
/// let url = try URLComposer.compose(base: base, path: "users/../items/a b",
///                                   query: [QueryItem(name: "q", value: "x+y")])
/// // http://localhost:8080/api/items/a%20b?q=x%2By
/// ```
package enum URLComposer {
    /// Parses an absolute `http` or `https` URL typed by a user; characters that cannot appear
    /// in a URL (spaces, non-ASCII) are percent-encoded, existing escapes are kept.
    package static func parseBase(_ input: String) throws(HTTPError) -> URL {
        // Most input has nothing to trim: its first and last bytes are visible ASCII.
        let visible = { (byte: UInt8?) in byte.map { $0 > 0x20 && $0 < 0x7F } ?? false }
        let trimmed = visible(input.utf8.first) && visible(input.utf8.last) ? input : input.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else { throw .invalidURL(input: input, reason: "it is empty") }
        guard let schemeEnd = trimmed.firstByteRange(of: "://") else {
            // The suggestion quotes the input too, its password redacted as the input's is.
            let shown = Redactor.shownURLText(trimmed)
            throw .invalidURL(input: input, reason: "it has no scheme; write 'http://\(shown)' or 'https://\(shown)'")
        }
        let scheme = trimmed[..<schemeEnd.lowerBound].lowercased()
        guard scheme == "http" || scheme == "https" else {
            throw .invalidURL(input: input, reason: "scheme '\(scheme)' is not supported; use http:// or https://")
        }
        // A `/`, `?` or `#` typed raw in a password would end the authority there, and the host
        // quoted below would be the password's start.
        if URLTextAuthority.hasRawDelimiterInPassword(trimmed) {
            throw .invalidURL(input: input, reason: URLTextAuthority.rawDelimiterProblem)
        }
        // The parts are found by their ASCII delimiters in the UTF-8 bytes; searching by
        // Character (grapheme clusters) cost several times the rest of the parse.
        let bytes = trimmed.utf8
        let authorityEnd = bytes[schemeEnd.upperBound...].firstIndex {
            $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#")
        } ?? bytes.endIndex
        let authority = String(trimmed[schemeEnd.upperBound..<authorityEnd])
        guard !authority.isEmpty, !authority.hasPrefix(":") else {
            throw .invalidURL(input: input, reason: "it has no host")
        }
        // Host and port: what follows any userinfo (`user:password@`), which is never quoted.
        let hostPort = authority.utf8.lastIndex(of: UInt8(ascii: "@")).map { String(authority[authority.utf8.index(after: $0)...]) } ?? authority
        if hostPort.isEmpty || hostPort.hasPrefix(":") {
            throw .invalidURL(input: input, reason: "it has no host")
        }
        if hostPort.utf8.contains(UInt8(ascii: " ")) {
            throw .invalidURL(input: input, reason: "the host '\(hostPort)' contains a space")
        }
        let tailEnd = bytes[authorityEnd...].firstIndex(of: UInt8(ascii: "#")) ?? bytes.endIndex
        let mark = bytes[authorityEnd..<tailEnd].firstIndex(of: UInt8(ascii: "?"))
        let path = trimmed.utf8[authorityEnd..<(mark ?? tailEnd)]
        let encodedPath = path.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
            .map { PercentEncoding.encodePathSegment(String(decoding: $0, as: UTF8.self)) }.joined(separator: "/")
        var text = scheme + "://" + authority + encodedPath
        if let mark {
            text += "?" + PercentEncoding.encodeQueryString(String(decoding: bytes[bytes.index(after: mark)..<tailEnd], as: UTF8.self))
        }
        guard let url = URL(string: text), let host = url.host, !host.isEmpty else {
            throw .invalidURL(input: input, reason: "the host or port '\(hostPort)' is malformed")
        }
        if hostPort.utf8.contains(UInt8(ascii: ":")), !hostPort.hasSuffix("]"),
           let components = URLComponents(url: url, resolvingAgainstBaseURL: false), !(1...65535).contains(components.port ?? 0) {
            throw .invalidURL(input: input, reason: "the port in '\(hostPort)' is not a number from 1 to 65535")
        }
        return url
    }

    /// Why a relative path alone is not a URL, the start of that ``HTTPError/invalidURL(input:reason:)``'s reason.
    package static let relativeWithoutBase = "it is relative and no base URL is set"

    /// Resolves `path` against `base` and appends `query`.
    ///
    /// - `path` may be a full `http(s)://` URL, which replaces the base.
    /// - Otherwise it is joined to the base path, whether or not it starts with `/`;
    ///   `.` and `..` segments are resolved (never above the host root); a trailing `/` is kept.
    /// - A `?query` in `path` is kept as typed (only illegal characters are encoded);
    ///   `query` items are encoded strictly and appended after it.
    /// - A `#fragment` is dropped: it is never sent to a server.
    package static func compose(base: URL?, path: String, query: [QueryItem] = []) throws(HTTPError) -> URL {
        let url: URL
        if path.containsBytes("://") {
            url = try parseBase(path)
        } else {
            guard let base else {
                throw .invalidURL(input: path, reason: URLComposer.relativeWithoutBase + "; set a base URL or give a full URL")
            }
            url = try join(base: base, path: path)
        }
        return try appending(query, to: url)
    }

    /// Appends encoded query items to a URL that already has a valid query.
    package static func appending(_ query: [QueryItem], to url: URL) throws(HTTPError) -> URL {
        guard !query.isEmpty else { return url }
        let absolute = url.absoluteString
        let separator = url.query == nil ? "?" : (absolute.hasSuffix("?") || absolute.hasSuffix("&") ? "" : "&")
        let text = absolute + separator + query.map(\.encoded).joined(separator: "&")
        guard let result = URL(string: text) else {
            throw .invalidURL(input: text, reason: "the query items could not be encoded")
        }
        return result
    }

    /// Resolves `.` and `..` in a slash-separated path; the result starts with `/`.
    package static func normalize(path: String) -> String {
        var segments: [Substring] = []
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        for (index, part) in parts.enumerated() {
            let isLast = index == parts.count - 1
            switch part {
            case "", ".":
                if isLast, !segments.isEmpty || part == "." { segments.append("") }
            case "..":
                if segments.last == "" { segments.removeLast() }
                if !segments.isEmpty { segments.removeLast() }
                if isLast { segments.append("") }
            default:
                if segments.last == "" { segments.removeLast() }
                segments.append(part)
            }
        }
        return "/" + segments.joined(separator: "/")
    }

    private static func join(base: URL, path: String) throws(HTTPError) -> URL {
        var relative = path
        var inlineQuery: String?
        if let hash = relative.firstIndex(of: "#") { relative = String(relative[..<hash]) }
        if let mark = relative.firstIndex(of: "?") {
            inlineQuery = String(relative[relative.index(after: mark)...])
            relative = String(relative[..<mark])
        }
        guard var components = URLComponents(url: base, resolvingAgainstBaseURL: false) else {
            throw .invalidURL(input: base.absoluteString, reason: "the base URL is malformed")
        }
        let basePath = components.percentEncodedPath
        let encoded = relative.split(separator: "/", omittingEmptySubsequences: false)
            .map { PercentEncoding.encodePathSegment(String($0)) }.joined(separator: "/")
        let joined: String
        if encoded.isEmpty {
            joined = basePath.isEmpty ? "/" : basePath
        } else {
            let trimmedBase = basePath.hasSuffix("/") ? String(basePath.dropLast()) : basePath
            joined = trimmedBase + (encoded.hasPrefix("/") ? encoded : "/" + encoded)
        }
        components.percentEncodedPath = normalize(path: joined)
        let baseQuery = components.percentEncodedQuery
        let extra = inlineQuery.map(PercentEncoding.encodeQueryString)
        switch (baseQuery, extra) {
        case (nil, nil): break
        case (let b?, nil): components.percentEncodedQuery = b
        case (nil, let e?): components.percentEncodedQuery = e
        case (let b?, let e?): components.percentEncodedQuery = b + "&" + e
        }
        components.fragment = nil
        guard let url = components.url else {
            throw .invalidURL(input: path, reason: "it does not form a valid URL with base \(base.absoluteString)")
        }
        return url
    }
}
