import Foundation

/// Applies the cassette model's body rule to bodies read from other tools: bodies are
/// stored decoded, `Content-Encoding` is removed and `Content-Length` rewritten.
///
/// Other tools store compressed bodies either still compressed (older vcrpy, raw captures)
/// or already decoded with the header left in place (vcrpy with urllib3 2, HAR exports).
/// gzip and deflate bodies are decoded when they are compressed; anything that does not
/// decode is taken to be decoded already.
enum ContentCoding {
    /// Decodes `body` per `headers`' `Content-Encoding` and fixes the headers to match.
    static func normalize(headers: inout HTTPHeaders, body: inout Data) {
        let codings = headers.values(for: "Content-Encoding")
            .flatMap { $0.split(separator: ",") }
            .map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            .filter { !$0.isEmpty && $0 != "identity" }
        guard !codings.isEmpty else { return }
        for coding in codings.reversed() {
            switch coding {
            case "gzip", "x-gzip":
                if Inflate.looksGzipped(body), let decoded = try? Inflate.gunzip(body) { body = decoded }
            case "deflate":
                // Compressed bytes are practically never valid UTF-8; decoded text is.
                if String(validating: body, as: UTF8.self) == nil, let decoded = try? Inflate.inflateZlibOrRaw(body), !decoded.isEmpty || body.isEmpty {
                    body = decoded
                }
            default:
                break
            }
        }
        headers.remove(name: "Content-Encoding")
        if headers.contains("Content-Length") { headers["Content-Length"] = String(body.count) }
    }
}
