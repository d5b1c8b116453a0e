import Foundation

/// Percent-encoding for the parts of a URL, done so that a server reads back exactly what the
/// user typed (`+`, `&`, `=`, `/`, `#`, `%`, spaces, non-ASCII and emoji included).
package enum PercentEncoding {
    /// Encodes a query item name or value: everything but RFC 3986 unreserved characters.
    package static func encodeQueryComponent(_ text: String) -> String {
        encode(text) { isUnreserved($0) }
    }

    /// Encodes a path segment typed by a user: keeps `pchar` characters and valid `%XX`
    /// escapes, encodes the rest (a lone `%` becomes `%25`).
    package static func encodePathSegment(_ text: String) -> String {
        encodeKeepingEscapes(text) { isUnreserved($0) || isSubDelimiter($0) || $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: "@") }
    }

    /// Encodes an already-formed query string: keeps its delimiters and valid escapes, encodes
    /// only characters that cannot appear in a URL at all.
    static func encodeQueryString(_ text: String) -> String {
        encodeKeepingEscapes(text) {
            isUnreserved($0) || isSubDelimiter($0) || ":@/?".utf8.contains($0)
        }
    }

    /// A whole URL's text with only what no URL may hold percent-encoded (a space, a raw `[`
    /// or `|` in a query, non-ASCII), keeping its delimiters, its authority and its valid `%XX`
    /// escapes. Browsers' HARs and proxies' logs hold such URLs; `URL(string:)` alone would
    /// encode the `%` of every escape beside them too (`a%20b` → `a%2520b`).
    package static func encodeURLText(_ text: String) -> String {
        let keep = { (byte: UInt8) in isUnreserved(byte) || isSubDelimiter(byte) || ":@/?#".utf8.contains(byte) }
        guard !text.utf8.allSatisfy(keep), let authority = URLTextAuthority(text) else { return text }
        return String(text[..<authority.end]) + encodeKeepingEscapes(String(text[authority.end...]), keeping: keep)
    }

    /// `text` as a URL, read as a browser reads what it is given: ``encodeURLText(_:)``, then
    /// `URL(string:)`.
    package static func url(_ text: String) -> URL? {
        URL(string: encodeURLText(text))
    }

    /// A percent-encoded path as RFC 3986 §6.2.2 compares it: hex digits of an escape in upper
    /// case (`%2f` is `%2F`), and an escaped unreserved character decoded (`%7E` is `~`, `%41`
    /// is `A`). An escaped reserved character (`%2F`) stays escaped: it is not the delimiter.
    package static func normalizedPath(_ path: String) -> String {
        guard path.utf8.contains(UInt8(ascii: "%")) else { return path }
        var out: [UInt8] = []
        forEachDecodedByte(Array(path.utf8)) { byte, escaped in
            if escaped, !isUnreserved(byte) { out.append(contentsOf: hex(byte).utf8) } else { out.append(byte) }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Calls `body` with each byte of `bytes`, a `%XX` escape (exactly two hex digits after `%`)
    /// as the byte it stands for, `escaped` then true; `%+f` and `%2` are kept as typed.
    private static func forEachDecodedByte(_ bytes: [UInt8], _ body: (_ byte: UInt8, _ escaped: Bool) -> Void) {
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "%"), index + 2 < bytes.count,
               let high = hexValue(bytes[index + 1]), let low = hexValue(bytes[index + 2]) {
                body(high << 4 | low, true)
                index += 3
            } else {
                body(bytes[index], false)
                index += 1
            }
        }
    }

    /// Decodes `%XX` escapes; invalid escapes are kept as typed.
    package static func decode(_ text: String) -> String {
        String(decoding: decodedBytes(text.utf8), as: UTF8.self)
    }

    /// The bytes `%XX` escapes stand for: exactly two hex digits after `%` (`%+f` and `%2` are
    /// kept as typed); everything else byte for byte.
    package static func decodedBytes(_ text: some Collection<UInt8>) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(text.count)
        forEachDecodedByte(Array(text)) { byte, _ in out.append(byte) }
        return out
    }

    static func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return "%" + String(digits[Int(byte >> 4)]) + String(digits[Int(byte & 0x0F)])
    }

    /// RFC 3986 `unreserved`: letters, digits and `-._~`.
    package static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
             UInt8(ascii: "_"), UInt8(ascii: "~"):
            return true
        default:
            return false
        }
    }

    /// RFC 3986 `sub-delims`: `!$&'()*+,;=`.
    package static func isSubDelimiter(_ byte: UInt8) -> Bool {
        "!$&'()*+,;=".utf8.contains(byte)
    }

    /// The value of the hex digit `byte` (either case); nil for any other byte.
    package static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }

    private static func encode(_ text: String, keeping keep: (UInt8) -> Bool) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            if keep(byte) { out.unicodeScalars.append(Unicode.Scalar(byte)) } else { out += hex(byte) }
        }
        return out
    }

    private static func encodeKeepingEscapes(_ text: String, keeping keep: (UInt8) -> Bool) -> String {
        // Most text has nothing to encode, and is handed back as it is.
        if text.utf8.allSatisfy(keep) { return text }
        let bytes = Array(text.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + 16)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%"), index + 2 < bytes.count,
               hexValue(bytes[index + 1]) != nil, hexValue(bytes[index + 2]) != nil {
                out += bytes[index...index + 2]
                index += 3
                continue
            }
            if keep(byte) { out.append(byte) } else { out += hex(byte).utf8 }
            index += 1
        }
        return String(decoding: out, as: UTF8.self)
    }
}
