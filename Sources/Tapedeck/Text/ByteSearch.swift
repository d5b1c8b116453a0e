import Foundation

/// Byte-level search in UTF-8 text: the lint's and the redactor's scans, without Foundation's
/// string search (which converts to UTF-16 and dominated a lint of 10,000 bodies).
enum ByteSearch {
    /// The offset of the first `needle` in `bytes` at or after `from` (ASCII letters matched
    /// in either case when `ignoringCase`).
    static func first(_ needle: [UInt8], in bytes: [UInt8], from: Int = 0, ignoringCase: Bool = false) -> Int? {
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
    static func last(_ needle: [UInt8], in bytes: [UInt8], from: Int, before: Int) -> Int? {
        var start = before - needle.count
        while start >= from {
            if bytes[start..<(start + needle.count)].elementsEqual(needle) { return start }
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

    /// Whether `text` holds `needle`, compared byte for byte.
    static func contains(_ text: String, _ needle: [UInt8]) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            guard !needle.isEmpty, bytes.count >= needle.count else { return needle.isEmpty }
            let first = needle[0]
            var start = 0
            let last = bytes.count - needle.count
            while start <= last {
                if bytes[start] == first {
                    var offset = 1
                    while offset < needle.count, bytes[start + offset] == needle[offset] { offset += 1 }
                    if offset == needle.count { return true }
                }
                start += 1
            }
            return false
        }
    }
}
