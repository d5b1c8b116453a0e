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
    /// through ``init(parsing:as:)``, which checks both, and ``plain(_:)``, which takes only
    /// text of a shape that passes both.
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

    /// `text` kept as it is, without asking Foundation, when it is a plain `http` or `https`
    /// URL (``isPlainHTTP(_:)``); nil for any other, which goes through `URL(string:)`.
    ///
    /// Parsing each loaded URL with Foundation only to keep its text cost about 4,200
    /// instructions an interaction, a twentieth of loading a cassette.
    package static func plain(_ text: String) -> StoredURL? {
        isPlainHTTP(text) ? .text(text) : nil
    }

    /// Whether `text` is `http://` or `https://` (lower-case), a host of letters, digits, `-`
    /// and `.`, an optional port of at most five digits up to 65535, and then only RFC 3986's
    /// unreserved characters, sub-delimiters, `:`, `@`, `/`, `?` and `%` with two hex digits:
    /// text `URL(string:)` accepts and gives back as it is. Anything else (userinfo, an IPv6
    /// host, a fragment, a space, a byte past ASCII) is left to Foundation.
    package static func isPlainHTTP(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            var index = 0
            for letter in "http".utf8 {
                guard index < bytes.count, bytes[index] == letter else { return false }
                index += 1
            }
            if index < bytes.count, bytes[index] == UInt8(ascii: "s") { index += 1 }
            for mark in "://".utf8 {
                guard index < bytes.count, bytes[index] == mark else { return false }
                index += 1
            }
            let hostStart = index
            while index < bytes.count, plainHostBytes.contains(bytes[index]) { index += 1 }
            guard index > hostStart else { return false }
            if index < bytes.count, bytes[index] == UInt8(ascii: ":") {
                index += 1
                var port = 0, digits = 0
                while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") {
                    port = port * 10 + Int(bytes[index] - UInt8(ascii: "0"))
                    digits += 1
                    guard digits <= 5, port <= 65535 else { return false }
                    index += 1
                }
                guard digits > 0 else { return false }
            }
            guard index == bytes.count || bytes[index] == UInt8(ascii: "/") || bytes[index] == UInt8(ascii: "?") else { return false }
            while index < bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: "%") {
                    guard index + 2 < bytes.count, PercentEncoding.hexValue(bytes[index + 1]) != nil,
                          PercentEncoding.hexValue(bytes[index + 2]) != nil else { return false }
                    index += 3
                    continue
                }
                guard plainPathBytes.contains(byte) else { return false }
                index += 1
            }
            return true
        }
    }

    /// A plain host's bytes: letters, digits, `-` and `.`.
    static let plainHostBytes = ASCIISet(low: 0x03FF_6000_0000_0000, high: 0x07FF_FFFE_07FF_FFFE)
    /// The bytes after a plain authority, `%` aside: RFC 3986's unreserved characters,
    /// sub-delimiters, and `:@/?`.
    static let plainPathBytes = ASCIISet(low: 0xAFFF_FFD2_0000_0000, high: 0x47FF_FFFE_87FF_FFFF)

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
