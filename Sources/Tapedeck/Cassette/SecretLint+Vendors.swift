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

    /// Whether `byte` may stand in a URL-safe Base64 token: letters, digits, `-` and `_`.
    static func isTokenByte(_ byte: UInt8) -> Bool {
        isAlphanumeric(byte) || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
    }

    /// GitHub, Slack, Stripe live, AWS access key IDs, GitLab, Google API, OpenAI, Anthropic,
    /// npm, Hugging Face, PyPI, SendGrid, Shopify and DigitalOcean tokens.
    static let vendorFormats: [VendorFormat] = [
        VendorFormat(name: "GitHub token", prefixes: ["ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"], minimum: 20,
                     allowed: { isAlphanumeric($0) || $0 == UInt8(ascii: "_") }),
        VendorFormat(name: "Slack token", prefixes: ["xoxb-", "xoxp-", "xoxa-", "xoxr-", "xoxs-", "xapp-"], minimum: 10,
                     allowed: { isAlphanumeric($0) || $0 == UInt8(ascii: "-") }),
        VendorFormat(name: "Stripe live key", prefixes: ["sk_live_", "rk_live_"], minimum: 10, allowed: isAlphanumeric),
        VendorFormat(name: "AWS access key ID", prefixes: ["AKIA", "ASIA"], minimum: 16, exactly: 16,
                     allowed: { (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
        VendorFormat(name: "GitLab token", prefixes: ["glpat-"], minimum: 20, allowed: isTokenByte),
        VendorFormat(name: "Google API key", prefixes: ["AIza"], minimum: 35, exactly: 35, allowed: isTokenByte),
        VendorFormat(name: "OpenAI key", prefixes: ["sk-proj-", "sk-svcacct-", "sk-admin-"], minimum: 20, allowed: isTokenByte),
        VendorFormat(name: "Anthropic key", prefixes: ["sk-ant-"], minimum: 20, allowed: isTokenByte),
        VendorFormat(name: "npm token", prefixes: ["npm_"], minimum: 36, exactly: 36, allowed: isAlphanumeric),
        VendorFormat(name: "Hugging Face token", prefixes: ["hf_"], minimum: 30, allowed: isAlphanumeric),
        VendorFormat(name: "PyPI token", prefixes: ["pypi-AgE"], minimum: 40, allowed: isTokenByte),
        VendorFormat(name: "SendGrid key", prefixes: ["SG."], minimum: 60,
                     allowed: { isTokenByte($0) || $0 == UInt8(ascii: ".") }),
        VendorFormat(name: "Shopify token", prefixes: ["shpat_", "shpss_", "shpca_", "shppa_"], minimum: 32, exactly: 32, allowed: isAlphanumeric),
        VendorFormat(name: "DigitalOcean token", prefixes: ["dop_v1_", "doo_v1_", "dor_v1_"], minimum: 64, exactly: 64, allowed: isAlphanumeric),
    ]

    /// The first vendor token or PEM private key in `text`: its format's name and the token.
    /// One pass over the UTF-8 bytes per kind (no Foundation string search: a lint of 10,000
    /// bodies spent most of its time there).
    static func vendorSecret(in text: String) -> (kind: String, value: String)? {
        ByteSearch.withBytes(of: text, vendorSecret)
    }

    /// ``vendorSecret(in:)`` of UTF-8 bytes.
    static func vendorSecret(in bytes: UnsafeBufferPointer<UInt8>) -> (kind: String, value: String)? {
        var first: (kind: String, value: String)?
        forEachVendorSecret(in: bytes) { kind, value in
            first = (kind, value)
            return false
        }
        return first
    }

    /// Every vendor token and PEM private key in `text`, each once, in one pass.
    static func vendorSecrets(in text: String) -> [(kind: String, value: String)] {
        ByteSearch.withBytes(of: text) { bytes in
            var found: [(kind: String, value: String)] = []
            var seen: Set<String> = []
            forEachVendorSecret(in: bytes) { kind, value in
                if seen.insert(value).inserted { found.append((kind, value)) }
                return true
            }
            return found
        }
    }

    /// Calls `body` with each PEM private key, then each vendor token, in `bytes`, until it
    /// returns false.
    private static func forEachVendorSecret(in bytes: UnsafeBufferPointer<UInt8>, _ body: (String, String) -> Bool) {
        // Every `PRIVATE KEY-----` with its `-----BEGIN ` close before it (RSA, EC, ENCRYPTED…),
        // wherever it stands among other PEM blocks.
        var searchFrom = 0
        while let end = ByteSearch.first(privateKey, in: bytes, from: searchFrom) {
            let windowStart = max(0, end - 40)
            if let begin = ByteSearch.last(beginMarker, in: bytes, from: windowStart, before: end) {
                // The whole block, through its END line (or the end of the text, when it has
                // none): the key is the lines between, not the BEGIN line.
                var close = bytes.count
                if let endMarker = ByteSearch.first(endMarker, in: bytes, from: end + privateKey.count),
                   let after = ByteSearch.first(dashes, in: bytes, from: endMarker + self.endMarker.count) {
                    close = after + dashes.count
                }
                guard body("PEM private key", String(decoding: UnsafeBufferPointer(rebasing: bytes[begin..<close]), as: UTF8.self)) else { return }
                searchFrom = close
            } else {
                searchFrom = end + privateKey.count
            }
        }
        var start = 0
        // For a format of no fixed length, where a refused candidate's run of allowed bytes
        // ended: a later candidate inside that run ends there too, and is refused as well (a long
        // `sk-ant-sk-ant-…` is then read once, not once from each candidate).
        var refusedUntil: [String: Int] = [:]
        scan: while start < bytes.count {
            let candidates = vendorPrefixesByFirstByte[Int(bytes[start])]
            // A token starts a word (`xghp_…` is not one), or follows an escape: `%3D` in an
            // encoded URL, `\n` in JSON written as text.
            guard !candidates.isEmpty, start == 0 || !isAlphanumeric(bytes[start - 1]) || followsEscape(bytes, at: start) else {
                start += 1
                continue
            }
            for (format, needle) in candidates where start + needle.count <= bytes.count
                && UnsafeBufferPointer(rebasing: bytes[start..<(start + needle.count)]).elementsEqual(needle) {
                if let until = refusedUntil[format.name], start < until { continue }
                var end = start + needle.count
                // A format of fixed length is read one byte past it at most: a long run of allowed
                // bytes (`AIza-AIza-…`) is then not read again from each candidate to its end.
                let limit = format.exactly.map { min(bytes.count, start + needle.count + $0 + 1) } ?? bytes.count
                while end < limit, format.allowed(bytes[end]) { end += 1 }
                let length = end - start - needle.count
                // A token is random: it has a digit or a capital. Words joined by hyphens after a
                // prefix (`sk-proj-your-key-here`, `sk-ant-colony-simulation`) are not one.
                guard length >= format.minimum, format.exactly.map({ $0 == length }) ?? true,
                      bytes[(start + needle.count)..<end].contains(where: { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0)
                          || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) }) else {
                    if format.exactly == nil { refusedUntil[format.name] = end }
                    continue
                }
                guard body(format.name, String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)) else { return }
                start = end
                continue scan
            }
            start += 1
        }
    }

    /// Whether the letter or digit before `start` ends an escape: `%3D` (two hex digits after a
    /// `%`) or `\n` (a backslash before it).
    private static func followsEscape(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int) -> Bool {
        func isHex(_ byte: UInt8) -> Bool { PercentEncoding.hexValue(byte) != nil }
        if start >= 3, bytes[start - 3] == UInt8(ascii: "%"), isHex(bytes[start - 2]), isHex(bytes[start - 1]) { return true }
        return start >= 2 && bytes[start - 2] == UInt8(ascii: "\\")
    }

    private static let privateKey = Array("PRIVATE KEY-----".utf8)
    private static let beginMarker = Array("-----BEGIN ".utf8)
    private static let endMarker = Array("-----END ".utf8)
    private static let dashes = Array("-----".utf8)

    /// Each vendor prefix, with its format, at the byte it starts with (a table of 256: a
    /// lookup per byte of every body must not hash).
    private static let vendorPrefixesByFirstByte: [[(VendorFormat, [UInt8])]] = {
        var table = [[(VendorFormat, [UInt8])]](repeating: [], count: 256)
        for format in vendorFormats {
            for prefix in format.prefixes {
                let needle = Array(prefix.utf8)
                table[Int(needle[0])].append((format, needle))
            }
        }
        return table
    }()
}
