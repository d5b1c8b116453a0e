import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Byte-level search in UTF-8 text: the lint's and the redactor's scans, without Foundation's
/// string search (which converts to UTF-16 and dominated a lint of 10,000 bodies).
enum ByteSearch {
    /// The offset of the first `needle` in `bytes` at or after `from` (ASCII letters matched
    /// in either case when `ignoringCase`).
    static func first(_ needle: [UInt8], in bytes: UnsafeBufferPointer<UInt8>, from: Int = 0, ignoringCase: Bool = false) -> Int? {
        guard !needle.isEmpty, bytes.count >= needle.count else { return nil }
        var start = from
        let last = bytes.count - needle.count
        while start <= last {
            var matched = true
            for offset in 0..<needle.count where !same(bytes[start + offset], needle[offset], ignoringCase: ignoringCase) {
                matched = false
                break
            }
            if matched { return start }
            start += 1
        }
        return nil
    }

    /// The offset of the last `needle` that starts at or after `from` and ends at or before `before`.
    static func last(_ needle: [UInt8], in bytes: UnsafeBufferPointer<UInt8>, from: Int, before: Int) -> Int? {
        var start = before - needle.count
        while start >= from {
            if UnsafeBufferPointer(rebasing: bytes[start..<(start + needle.count)]).elementsEqual(needle) { return start }
            start -= 1
        }
        return nil
    }

    private static func same(_ a: UInt8, _ b: UInt8, ignoringCase: Bool) -> Bool {
        if a == b { return true }
        guard ignoringCase else { return false }
        let lower = a | 0x20
        return lower == b | 0x20 && lower >= UInt8(ascii: "a") && lower <= UInt8(ascii: "z")
    }

    /// Whether `bytes[range]` holds `needle`.
    static func contains(_ needle: [UInt8], in bytes: [UInt8], _ range: Range<Int>) -> Bool {
        bytes.withUnsafeBufferPointer { buffer in
            firstMatch(needle, in: UnsafeBufferPointer(rebasing: buffer[range]), from: 0) != nil
        }
    }

    /// `body` run over the UTF-8 bytes of `text`, without copying them when the string is
    /// native (every string the lint reads is; a copy per header and JSON leaf was a fifth of it).
    /// A native string's bytes are read where they are: `withUTF8` on a copy checked and counted
    /// references each time, a third of a header's writing.
    static func withBytes<Result>(of text: String, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        if let result = text.utf8.withContiguousStorageIfAvailable(body) { return result }
        var text = text
        return text.withUTF8(body)
    }

    /// Whether `text` holds `needle`, compared byte for byte.
    static func contains(_ text: String, _ needle: [UInt8]) -> Bool {
        guard !needle.isEmpty else { return true }
        var text = text
        return text.withUTF8 { firstMatch(needle, in: $0, from: 0) != nil }
    }

    /// The offset of the first `needle` (not empty) in `bytes` at or after `from`.
    static func firstMatch(_ needle: [UInt8], in bytes: UnsafeBufferPointer<UInt8>, from: Int) -> Int? {
        guard let head = needle.first, let base = bytes.baseAddress, bytes.count - from >= needle.count else { return nil }
        let last = bytes.count - needle.count
        var start = from
        // `memchr` finds each candidate first byte (vectorised), then the rest is compared.
        while start <= last, let found = memchr(base + start, Int32(head), last - start + 1) {
            let at = UnsafeRawPointer(found) - UnsafeRawPointer(base)
            var offset = 1
            while offset < needle.count, base[at + offset] == needle[offset] { offset += 1 }
            if offset == needle.count { return at }
            start = at + 1
        }
        return nil
    }

    /// `bytes` with every `needle` that stands whole (``isWholeAuthority(_:in:)``) replaced by
    /// `replacement`, left to right; nil when `bytes` holds none (nothing is copied then).
    static func replacingAll(_ needle: [UInt8], with replacement: [UInt8], in bytes: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        var result: [UInt8] = []
        var copied = 0
        var from = 0
        // A single-label host with no port (`app`, `api`) is also a word: it is replaced only
        // where a URL or a Host field puts it (after `//` or `@`, or as the whole text).
        let bare = !needle.contains(UInt8(ascii: ".")) && !needle.contains(UInt8(ascii: ":"))
        while let found = firstMatch(needle, in: bytes, from: from) {
            from = found + 1
            guard isWholeAuthority(found..<found + needle.count, in: bytes, bare: bare) else { continue }
            if result.isEmpty { result.reserveCapacity(bytes.count + max(0, replacement.count - needle.count) * 4) }
            result.append(contentsOf: bytes[copied..<found])
            result.append(contentsOf: replacement)
            copied = found + needle.count
            from = copied
        }
        guard copied > 0 else { return nil }
        result.append(contentsOf: bytes[copied...])
        return result
    }

    /// Whether the origin or authority at `range` stands whole: not part of a longer host name
    /// (`app` in `application` or `apple.com`, `1.2.3.4` in `11.2.3.4`) and not followed by a
    /// port of its own (`app` in `app:8000`). A `bare` one (a single label, no port) stands whole
    /// only after `//` or `@`, or as the whole text.
    static func isWholeAuthority(_ range: Range<Int>, in bytes: UnsafeBufferPointer<UInt8>, bare: Bool = false) -> Bool {
        func isHostByte(_ byte: UInt8) -> Bool {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"): true
            default: false
            }
        }
        func isDigit(_ index: Int) -> Bool { index < bytes.count && (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) }
        func isLetterOrDigit(_ index: Int) -> Bool { index < bytes.count && isHostByte(bytes[index]) && bytes[index] != UInt8(ascii: ".") }
        let start = range.lowerBound, end = range.upperBound
        if bare {
            let afterSlashes = start >= 2 && bytes[start - 1] == UInt8(ascii: "/") && bytes[start - 2] == UInt8(ascii: "/")
            let afterAt = start >= 1 && bytes[start - 1] == UInt8(ascii: "@")
            guard afterSlashes || afterAt || (start == 0 && end == bytes.count) else { return false }
        }
        // What comes before: a percent escape (`%2F` in an encoded URL) ends a name as a byte would.
        if start > 0, isHostByte(bytes[start - 1]), !(start >= 3 && bytes[start - 3] == UInt8(ascii: "%")) { return false }
        guard end < bytes.count else { return true }
        let next = bytes[end]
        // A dot ends the name when no name goes on after it (`see http://app.`).
        if next == UInt8(ascii: ".") { return !isLetterOrDigit(end + 1) }
        if isHostByte(next) { return false }
        if next == UInt8(ascii: ":"), isDigit(end + 1) { return false }
        return true
    }

    /// `text` with each pair's first (an origin or an authority) replaced by its second, pair
    /// after pair, wherever it stands whole (``isWholeAuthority(_:in:)``); `text` itself when it
    /// holds none of them.
    static func replacing(_ replacements: [(String, String)], in text: String) -> String {
        replacing(ByteReplacements(replacements), in: text)
    }

    /// ``replacing(_:in:)-(_,String)`` with the pairs already as bytes.
    static func replacing(_ replacements: ByteReplacements, in text: String) -> String {
        var text = text
        for (old, new) in replacements.pairs {
            let replaced = text.withUTF8 { replacingAll(old, with: new, in: $0) }
            if let replaced { text = String(decoding: replaced, as: UTF8.self) }
        }
        return text
    }

    /// `data` with each pair's first replaced by its second, pair after pair, when it is UTF-8
    /// text; `data` itself when it is not, or holds none of them.
    static func replacing(_ replacements: ByteReplacements, in data: Data) -> Data {
        var data = data
        var checked = false
        for (old, new) in replacements.pairs {
            let replaced = data.withUnsafeBytes { raw in
                replacingAll(old, with: new, in: raw.bindMemory(to: UInt8.self))
            }
            guard let replaced else { continue }
            if !checked {
                guard String(validating: data, as: UTF8.self) != nil else { return data }
                checked = true
            }
            data = Data(replaced)
        }
        return data
    }
}

/// Pairs of texts to replace, as UTF-8 bytes made once: rewriting a cassette's origin applies
/// the same pairs to every URL, header and body of every interaction.
struct ByteReplacements: Sendable {
    /// Each text to find, with the text that replaces it.
    let pairs: [(old: [UInt8], new: [UInt8])]

    init(_ replacements: [(String, String)]) {
        pairs = replacements.map { (Array($0.0.utf8), Array($0.1.utf8)) }
    }
}

extension String {
    /// The range of the first `needle`, compared as UTF-8 bytes. Foundation's `range(of:)` and
    /// `contains(_:)` with a string go through `NSString` on Linux, and the standard library's
    /// generic `firstRange(of:)` looks up type metadata on each call: several thousand
    /// instructions either way, a tenth of a replayed request's time in `tapedeck run`.
    package func firstByteRange(of needle: String) -> Range<Index>? {
        let pattern = Array(needle.utf8)
        let offset = utf8.withContiguousStorageIfAvailable { bytes in ByteSearch.first(pattern, in: bytes) }
            ?? Array(utf8).withUnsafeBufferPointer { bytes in ByteSearch.first(pattern, in: bytes) }
        guard let offset else { return nil }
        let start = utf8.index(startIndex, offsetBy: offset)
        return start..<utf8.index(start, offsetBy: pattern.count)
    }

    /// Whether `needle` occurs, compared as UTF-8 bytes (``firstByteRange(of:)``).
    package func containsBytes(_ needle: String) -> Bool {
        firstByteRange(of: needle) != nil
    }

    /// Whether every UTF-8 byte satisfies `predicate`, read in place where the string has its
    /// bytes contiguous (stepping through the UTF-8 view costs ten times more, and every
    /// header of every recorded and served exchange is checked).
    package func allBytes(satisfy predicate: (UInt8) -> Bool) -> Bool {
        utf8.withContiguousStorageIfAvailable { $0.allSatisfy(predicate) } ?? utf8.allSatisfy(predicate)
    }

    /// Whether the UTF-8 bytes hold `byte`.
    package func containsByte(_ byte: UInt8) -> Bool {
        !allBytes { $0 != byte }
    }

    /// The host as a URL's authority writes it: an IPv6 address (`::1`) in brackets (`[::1]`),
    /// any other host as it is.
    package var bracketedIfIPv6: String {
        containsByte(UInt8(ascii: ":")) ? "[\(self)]" : self
    }
}
