import Foundation

extension SecretLint {
    /// A token format a vendor documents, found by its prefix and shape wherever text is.
    struct VendorFormat: Sendable {
        /// What the finding calls it (`GitHub token`).
        var name: String
        /// The prefixes it starts with.
        var prefixes: [String]
        /// How many token characters must follow the prefix, at least.
        var minimum: Int
        /// How many exactly, when the format fixes it.
        var exactly: Int?
        /// The characters that may follow the prefix.
        var allowed: @Sendable (UInt8) -> Bool
    }

    static func isAlphanumeric(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }

    /// GitHub, Slack, Stripe live, AWS access key IDs and GitLab tokens.
    static let vendorFormats: [VendorFormat] = [
        VendorFormat(name: "GitHub token", prefixes: ["ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"], minimum: 20,
                     allowed: { isAlphanumeric($0) || $0 == UInt8(ascii: "_") }),
        VendorFormat(name: "Slack token", prefixes: ["xoxb-", "xoxp-", "xoxa-", "xoxr-", "xoxs-", "xapp-"], minimum: 10,
                     allowed: { isAlphanumeric($0) || $0 == UInt8(ascii: "-") }),
        VendorFormat(name: "Stripe live key", prefixes: ["sk_live_", "rk_live_"], minimum: 10, allowed: isAlphanumeric),
        VendorFormat(name: "AWS access key ID", prefixes: ["AKIA", "ASIA"], minimum: 16, exactly: 16,
                     allowed: { (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
        VendorFormat(name: "GitLab token", prefixes: ["glpat-"], minimum: 20,
                     allowed: { isAlphanumeric($0) || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "-") }),
    ]

    /// The first vendor token or PEM private key in `text`: its format's name and the token.
    static func vendorSecret(in text: String) -> (kind: String, value: String)? {
        // Every `PRIVATE KEY-----` with its `-----BEGIN ` close before it (RSA, EC, ENCRYPTED…),
        // wherever it stands among other PEM blocks.
        var searchFrom = text.startIndex
        while let end = text.range(of: "PRIVATE KEY-----", range: searchFrom..<text.endIndex) {
            let windowStart = text.index(end.lowerBound, offsetBy: -40, limitedBy: text.startIndex) ?? text.startIndex
            let window = String(text[windowStart..<end.lowerBound])
            if let found = window.range(of: "-----BEGIN ", options: .backwards) {
                let begin = text.index(windowStart, offsetBy: window.distance(from: window.startIndex, to: found.lowerBound))
                return ("PEM private key", String(text[begin..<end.upperBound]))
            }
            searchFrom = end.upperBound
        }
        let bytes = Array(text.utf8)
        for format in vendorFormats {
            for prefix in format.prefixes {
                let needle = Array(prefix.utf8)
                guard bytes.count >= needle.count + format.minimum else { continue }
                var start = 0
                while start + needle.count <= bytes.count {
                    defer { start += 1 }
                    guard bytes[start] == needle[0], bytes[start..<(start + needle.count)].elementsEqual(needle) else { continue }
                    // A token starts a word: `xghp_…` is not one.
                    if start > 0, isAlphanumeric(bytes[start - 1]) { continue }
                    var end = start + needle.count
                    while end < bytes.count, format.allowed(bytes[end]) { end += 1 }
                    let length = end - start - needle.count
                    guard length >= format.minimum, format.exactly.map({ $0 == length }) ?? true else { continue }
                    return (format.name, String(decoding: bytes[start..<end], as: UTF8.self))
                }
            }
        }
        return nil
    }
}
