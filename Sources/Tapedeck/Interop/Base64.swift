import Foundation

/// Lenient base64 decoding for files written by other tools: line breaks and spaces are
/// ignored, missing padding is added, and URL-safe `-_` are accepted.
enum Base64 {
    /// The decoded bytes, or nil when the text is not base64.
    static func decode(_ text: String) -> Data? {
        var cleaned = String(text.unicodeScalars.filter { !CharacterSet.whitespacesAndNewlines.contains($0) })
        if cleaned.contains("-") || cleaned.contains("_") {
            cleaned = cleaned.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        }
        let remainder = cleaned.utf8.count % 4
        if remainder == 1 { return nil }
        if remainder > 0 { cleaned += String(repeating: "=", count: 4 - remainder) }
        return Data(base64Encoded: cleaned)
    }
}
