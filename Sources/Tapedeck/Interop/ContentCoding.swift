import Foundation

/// Applies the cassette model's body rule to bodies read from other tools: bodies are
/// stored decoded, `Content-Encoding` is removed and `Content-Length` rewritten.
///
/// Other tools store compressed bodies either still compressed (older vcrpy, raw captures)
/// or already decoded with the header left in place (vcrpy with urllib3 2, HAR exports).
/// gzip and deflate bodies are decoded when they are compressed; anything that does not
/// decode is taken to be decoded already. Decoding is bounded by ``BodyLimits``: a body that
/// would decode past the limit (a decompression bomb) throws instead.
package enum ContentCoding {
    /// The codings `headers`' `Content-Encoding` names, in the order applied, lower-case,
    /// `identity` left out: empty for a body as it is.
    package static func codings(of headers: HTTPHeaders) -> [String] {
        headers.values(for: "Content-Encoding")
            .flatMap { $0.split(separator: ",") }
            .map { $0.trimmingHTTPSpace().lowercased() }
            .filter { !$0.isEmpty && $0 != "identity" }
    }

    /// Decodes `body` per `headers`' `Content-Encoding` and fixes the headers to match; throws
    /// an ``Inflate/Failure`` (with `exceededLimit`) when the decoded body would pass `limits`.
    static func normalize(headers: inout HTTPHeaders, body: inout Data, limits: BodyLimits = BodyLimits()) throws(Inflate.Failure) {
        let codings = codings(of: headers)
        guard !codings.isEmpty else { return }
        for coding in codings.reversed() {
            switch coding {
            case "gzip", "x-gzip":
                if Inflate.looksGzipped(body), let decoded = try decodeOrKeep({ () throws(Inflate.Failure) in
                    try Inflate.gunzip(body, limit: limits.decodedLimit(compressedSize: body.count))
                }) {
                    body = decoded
                }
            case "deflate":
                // Compressed bytes are practically never valid UTF-8; decoded text is.
                if String(validating: body, as: UTF8.self) == nil, let decoded = try decodeOrKeep({ () throws(Inflate.Failure) in
                    try Inflate.inflateZlibOrRaw(body, limit: limits.decodedLimit(compressedSize: body.count))
                }), !decoded.isEmpty || body.isEmpty {
                    body = decoded
                }
            default:
                break
            }
        }
        headers.remove(name: "Content-Encoding")
        if headers.contains("Content-Length") { headers["Content-Length"] = String(body.count) }
    }

    /// The decoded body, nil when the bytes are not a valid stream (taken as decoded already);
    /// a stream that passes the limit throws.
    private static func decodeOrKeep(_ decode: () throws(Inflate.Failure) -> Data) throws(Inflate.Failure) -> Data? {
        do {
            return try decode()
        } catch where error.exceededLimit {
            throw error
        } catch {
            return nil
        }
    }
}
