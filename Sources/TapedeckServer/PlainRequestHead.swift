import Foundation
import NIOHTTP1
import Tapedeck

/// The head of a plain request (``HTTPFastLane``), read from its bytes.
///
/// It reads only what has one reading: the request line `METHOD SP TARGET SP HTTP/1.1 CRLF`
/// with a method of ``methods`` and an origin-form target of URI characters (no fragment);
/// at most ``maxFields`` header lines `NAME: VALUE CRLF` with a token name and a value of
/// visible ASCII, spaces and tabs, none after it; an empty line. Anything else (a body's
/// framing, `Expect`, `Upgrade`, `Proxy-Connection`, a `Connection` other than `close` or
/// `keep-alive`, an absolute-form target, a bare LF, a folded line, a byte past ASCII, another
/// version) is ``Parsed/notPlain``, for the codec to read and, where it is wrong, to refuse.
package struct PlainRequestHead: Equatable {
    /// The method, as sent.
    package var method: String
    /// The request target, as sent.
    package var target: String
    /// The header fields in order, values without the spaces before them.
    package var fields: [HTTPHeader]
    /// Whether the client asked to close after the answer (`Connection: close`).
    package var closes: Bool
    /// The head's length in bytes, its last CRLF included.
    package var length: Int

    /// What reading a head found.
    package enum Parsed: Equatable {
        /// A plain head, whole.
        case plain(PlainRequestHead)
        /// The bytes so far begin a plain head; more are needed.
        case incomplete
        /// Not a plain head: the codec reads it.
        case notPlain
    }

    /// The most fields a plain head has; more are the codec's to count against its limits.
    static let maxFields = 256

    /// Whether bytes past `searched` (those before were searched) may let a head be read to
    /// a verdict: an empty line after a CRLF (the head's end), a LF with no CR before it (a line
    /// end to the codec, so not plain), or as many bytes as a head may have.
    package static func mayEnd(_ bytes: UnsafeRawBufferPointer, searchingFrom searched: Int, maxBytes: Int) -> Bool {
        if bytes.count >= maxBytes { return true }
        var index = max(0, searched - 3)
        while index < bytes.count {
            if bytes[index] == 0x0A {
                if index == 0 || bytes[index - 1] != 0x0D { return true }
                if index >= 3, bytes[index - 3] == 0x0D, bytes[index - 2] == 0x0A { return true }
            }
            index += 1
        }
        return false
    }

    /// The length of the head at the start of `bytes` (through its empty line), when it ends
    /// within `limit` bytes.
    package static func end(of bytes: UnsafeRawBufferPointer, within limit: Int) -> Int? {
        let count = min(bytes.count, limit)
        guard count >= 4, let start = bytes.baseAddress else { return nil }
        // Line to line with memchr: a head has few lines, and each is searched at memchr's speed.
        var from = 3
        while from < count, let found = memchr(start + from, 0x0A, count - from) {
            let index = start.distance(to: UnsafeRawPointer(found))
            if bytes[index - 1] == 0x0D, bytes[index - 2] == 0x0A, bytes[index - 3] == 0x0D { return index + 1 }
            from = index + 1
        }
        return nil
    }

    /// The methods a plain request has: none of them carries a body here.
    package static let methods = ["GET", "HEAD", "DELETE", "OPTIONS"]

    /// Reads the head at the start of `bytes`, at most `maxBytes` long.
    package static func parse(_ bytes: UnsafeRawBufferPointer, maxBytes: Int) -> Parsed {
        var reader = Reader(bytes: bytes, maxBytes: maxBytes)
        guard let methodRange = reader.token(endingWith: UInt8(ascii: " ")) else { return reader.verdict }
        let method = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[methodRange]), as: UTF8.self)
        guard methods.contains(method) else { return .notPlain }
        guard let targetRange = reader.run(while: isTargetByte), reader.expect(UInt8(ascii: " ")) else { return reader.verdict }
        let target = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[targetRange]), as: UTF8.self)
        // Origin-form only: an absolute-form target (a forward proxy's) is read by the codec,
        // whose parser refuses what no URL holds in its authority.
        guard target.utf8.first == UInt8(ascii: "/") else { return .notPlain }
        guard reader.expect("HTTP/1.1\r\n") else { return reader.verdict }
        var fields: [HTTPHeader] = []
        var closes = false
        while true {
            guard let first = reader.peek() else { return reader.verdict }
            if first == UInt8(ascii: "\r") {
                guard reader.expect("\r\n") else { return reader.verdict }
                return .plain(PlainRequestHead(method: method, target: target, fields: fields, closes: closes, length: reader.offset))
            }
            guard let nameRange = reader.token(endingWith: UInt8(ascii: ":")) else { return reader.verdict }
            _ = reader.run(while: { $0 == 0x20 || $0 == 0x09 }, allowEmpty: true)
            guard let valueRange = reader.run(while: { ($0 >= 0x20 && $0 < 0x7F) || $0 == 0x09 }, allowEmpty: true),
                  reader.expect("\r\n") else { return reader.verdict }
            // Spaces after a value: whether they belong to it is the codec's to say.
            if let last = valueRange.last, bytes[last] == 0x20 || bytes[last] == 0x09 { return .notPlain }
            guard fields.count < maxFields else { return .notPlain }
            let name = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[nameRange]), as: UTF8.self)
            let value = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[valueRange]), as: UTF8.self)
            // Most names have none of the lengths below: one comparison, not six.
            switch nameRange.count {
            case 6, 7, 14, 17:
                if name.caseInsensitiveEquals("Content-Length") || name.caseInsensitiveEquals("Transfer-Encoding")
                    || name.caseInsensitiveEquals("Expect") || name.caseInsensitiveEquals("Upgrade") {
                    return .notPlain
                }
            case 16:
                // The parser takes `Proxy-Connection` for `Connection`: the codec reads those.
                if name.caseInsensitiveEquals("Proxy-Connection") { return .notPlain }
            case 10:
                if name.caseInsensitiveEquals("Connection") {
                    if value.caseInsensitiveEquals("close") {
                        closes = true
                    } else if !value.caseInsensitiveEquals("keep-alive") {
                        return .notPlain
                    }
                }
            default:
                break
            }
            fields.append(HTTPHeader(name: name, value: value))
        }
    }

    /// A byte a target may hold: RFC 3986's unreserved and reserved characters but `#` (a
    /// fragment is no part of a request), and `%`.
    private static func isTargetByte(_ byte: UInt8) -> Bool { byteKinds[Int(byte)] & targetKind != 0 }

    /// A token character (``HTTPMethod/isTokenByte(_:)``).
    private static func isTokenByte(_ byte: UInt8) -> Bool { byteKinds[Int(byte)] & tokenKind != 0 }

    private static let targetKind: UInt8 = 1, tokenKind: UInt8 = 2

    /// For each byte, whether a target (``targetKind``) and a token (``tokenKind``) may hold it:
    /// one load a byte.
    private static let byteKinds: [UInt8] = (0..<256).map { value in
        let byte = UInt8(value)
        var kinds: UInt8 = 0
        if PercentEncoding.isUnreserved(byte) || PercentEncoding.isSubDelimiter(byte) || ":/?[]@%".utf8.contains(byte) { kinds |= targetKind }
        if HTTPMethod.isTokenByte(byte) { kinds |= tokenKind }
        return kinds
    }

    /// Reads forward through the bytes, no further than the limit.
    private struct Reader {
        let bytes: UnsafeRawBufferPointer
        let limit: Int
        var offset = 0
        /// Set when a byte was read that no plain head has at its place.
        private var refused = false
        /// Whether the limit is the longest head allowed, not the end of the bytes so far.
        private let capped: Bool

        init(bytes: UnsafeRawBufferPointer, maxBytes: Int) {
            self.bytes = bytes
            self.limit = min(bytes.count, maxBytes)
            self.capped = bytes.count >= maxBytes
        }

        /// Why reading stopped short: a refused byte or a head over the limit are not plain;
        /// otherwise the bytes ran out and more may come.
        var verdict: Parsed { refused || capped ? .notPlain : .incomplete }

        func peek() -> UInt8? { offset < limit ? bytes[offset] : nil }

        /// A run of one or more token bytes, then `end` (read past).
        mutating func token(endingWith end: UInt8) -> Range<Int>? {
            guard let range = run(while: PlainRequestHead.isTokenByte) else { return nil }
            guard expect(end) else { return nil }
            return range
        }

        /// The bytes from here while `accepts` holds; nil when that is none (unless
        /// `allowEmpty`), or when the bytes end before a byte that stops it.
        mutating func run(while accepts: (UInt8) -> Bool, allowEmpty: Bool = false) -> Range<Int>? {
            let start = offset
            while offset < limit, accepts(bytes[offset]) { offset += 1 }
            guard offset < limit else { return nil }
            guard allowEmpty || offset > start else {
                refused = true
                return nil
            }
            return start..<offset
        }

        /// Reads `byte`, or says why not.
        mutating func expect(_ byte: UInt8) -> Bool {
            guard offset < limit else { return false }
            guard bytes[offset] == byte else {
                refused = true
                return false
            }
            offset += 1
            return true
        }

        /// Reads `text`'s bytes, or says why not.
        mutating func expect(_ text: StaticString) -> Bool {
            let expected = UnsafeRawBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount)
            for byte in expected {
                guard expect(byte) else { return false }
            }
            return true
        }
    }
}
