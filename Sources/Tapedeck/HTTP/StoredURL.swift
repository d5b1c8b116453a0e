import Foundation

/// A request's or response's URL as it is kept: the `URL` itself, or only its text.
///
/// A cassette's interactions are read once and mostly never asked for a `URL` again: matching,
/// the index, listings and writing all work on the text. Foundation keeps about 270 bytes of
/// parse information with each `URL`, so a loaded interaction keeps only the text, and the
/// `URL` is made again when something asks for it. A URL a caller hands in stays as it is.
package enum StoredURL: Hashable, Sendable, Codable {
    /// A URL as a caller gave it.
    case parsed(URL)
    /// Text that `URL(string:)` accepts and whose `absoluteString` is the same text. Made only
    /// through ``init(parsing:as:)``, which checks both.
    case text(String)

    /// `text` once `URL(string:)` has accepted it as `url`: kept as text when parsing gives the
    /// same text back (nearly always), else as the parsed URL, so ``url`` gives `url` again.
    package init(parsing text: String, as url: URL) {
        self = url.absoluteString == text ? .text(text) : .parsed(url)
    }

    /// The URL, parsed from the text when only the text is kept.
    package var url: URL {
        switch self {
        case .parsed(let url): return url
        case .text(let text):
            // `init(parsing:as:)` keeps text only after `URL(string:)` accepted it, and parsing
            // the same text gives the same answer, so the fallback is never taken.
            return URL(string: text) ?? URL(fileURLWithPath: text)
        }
    }

    /// The absolute URL as text, without parsing.
    package var text: String {
        switch self {
        case .parsed(let url): return url.absoluteString
        case .text(let text): return text
        }
    }

    /// The query as it is written (percent-encoded), without parsing: the text between the
    /// first `?` and the `#` after it, nil when there is no `?` before any `#`.
    package var percentEncodedQuery: String? {
        if case .parsed(let url) = self { return url.query(percentEncoded: true) }
        return withPercentEncodedQuery { $0.map { String(decoding: $0, as: UTF8.self) } }
    }

    /// Calls `body` with the bytes of ``percentEncodedQuery``, read in place from the text
    /// (stepping through the UTF-8 view cost more than parsing the URL).
    package func withPercentEncodedQuery<Result>(_ body: (UnsafeBufferPointer<UInt8>?) -> Result) -> Result {
        if case .parsed(let url) = self {
            guard let query = url.query(percentEncoded: true) else { return body(nil) }
            return ByteSearch.withBytes(of: query) { body($0) }
        }
        return ByteSearch.withBytes(of: text) { bytes in
            // An absolute URL's scheme and authority hold neither `?` nor `#`.
            guard let mark = bytes.firstIndex(where: { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") }),
                  bytes[mark] == UInt8(ascii: "?") else { return body(nil) }
            let query = UnsafeBufferPointer(rebasing: bytes[(mark + 1)...])
            let end = query.firstIndex(of: UInt8(ascii: "#")) ?? query.count
            return body(UnsafeBufferPointer(rebasing: query[..<end]))
        }
    }

    /// Whether `byte` ends a URL's authority: `/`, `?` or `#`.
    package static func endsAuthority(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "/") || byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#")
    }

    /// Equal when the absolute URLs are the same text, however each is kept: a URL relative to
    /// a base equals the absolute URL it resolves to.
    package static func == (a: StoredURL, b: StoredURL) -> Bool { a.text == b.text }

    /// Hashes the absolute text, as ``==`` compares it.
    package func hash(into hasher: inout Hasher) { hasher.combine(text) }

    /// Coded as the `URL` itself, so a request or response codes as it always has.
    package init(from decoder: any Decoder) throws {
        self = .parsed(try decoder.singleValueContainer().decode(URL.self))
    }

    /// Encodes the `URL`, which `JSONEncoder` writes as one string.
    package func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(url)
    }
}
