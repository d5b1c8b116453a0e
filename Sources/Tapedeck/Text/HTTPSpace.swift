import Foundation

extension StringProtocol {
    /// Without leading and trailing spaces, tabs, CRs and LFs (HTTP's optional whitespace and
    /// line ends). Byte by byte: Foundation's `trimmingCharacters` goes through UTF-16 on Linux,
    /// and this runs for every header of every recorded exchange.
    package func trimmingHTTPSpace() -> String {
        let bytes = Substring(self).utf8
        var start = bytes.startIndex
        var end = bytes.endIndex
        while start < end, Self.isHTTPSpace(bytes[start]) { start = bytes.index(after: start) }
        while end > start, Self.isHTTPSpace(bytes[bytes.index(before: end)]) { end = bytes.index(before: end) }
        return String(decoding: bytes[start..<end], as: UTF8.self)
    }

    private static func isHTTPSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0D || byte == 0x0A
    }
}
