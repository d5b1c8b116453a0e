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
    /// The codings Tapedeck decodes.
    package static let decoded: Set<String> = ["gzip", "x-gzip", "deflate"]

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
    /// A body that is not decoded (a coding Tapedeck does not decode, `br` or `zstd`; a gzip
    /// stream cut short) keeps its `Content-Encoding`, so it is never served as plain text; a
    /// body a tool stored decoded under the header (vcrpy's `decode_compressed_response`)
    /// loses the header. Returns the coding left undecoded, if any.
    @discardableResult
    package static func normalize(headers: inout HTTPHeaders, body: inout Data, limits: BodyLimits = BodyLimits()) throws(Inflate.Failure) -> String? {
        let codings = codings(of: headers)
        guard !codings.isEmpty else { return nil }
        // The codings still applied to the body when one cannot be undone: the header keeps them.
        func kept(_ index: Int) -> String {
            headers["Content-Encoding"] = codings[...index].joined(separator: ", ")
            if headers.contains("Content-Length") { headers["Content-Length"] = String(body.count) }
            return codings[index]
        }
        for (index, coding) in codings.enumerated().reversed() {
            switch coding {
            case "gzip", "x-gzip":
                guard Inflate.looksGzipped(body) else { continue }
                guard let decoded = try decodeOrKeep({ () throws(Inflate.Failure) in
                    try Inflate.gunzip(body, limit: limits.decodedLimit(compressedSize: body.count))
                }) else { return kept(index) }
                body = decoded
            case "deflate":
                // Compressed bytes are practically never valid UTF-8; decoded text is.
                guard String(validating: body, as: UTF8.self) == nil else { continue }
                guard let decoded = try decodeOrKeep({ () throws(Inflate.Failure) in
                    try Inflate.inflateZlibOrRaw(body, limit: limits.decodedLimit(compressedSize: body.count))
                }), !decoded.isEmpty || body.isEmpty else { return kept(index) }
                body = decoded
            default:
                // `br`, `zstd`, …: kept only when the bytes are plainly still encoded. A HAR's
                // text (and a tool that decoded the body) is the decoded body under the header.
                guard String(validating: body, as: UTF8.self) == nil else { continue }
                return kept(index)
            }
        }
        headers.remove(name: "Content-Encoding")
        if headers.contains("Content-Length") { headers["Content-Length"] = String(body.count) }
        return nil
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
