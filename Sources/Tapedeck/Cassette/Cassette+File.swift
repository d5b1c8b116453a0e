import Foundation

extension Cassette {
    /// Reads a cassette file; errors name the file, the JSON Pointer and the problem. `.yaml`/`.yml`
    /// (vcrpy) and `.har` files are read by the interop codecs, and so is a `.json` file vcrpy's
    /// JSON serializer wrote; anything else as native JSON.
    ///
    /// ```swift
    /// let cassette = try Cassette.load(from: URL(fileURLWithPath: "Sessions/tour.cassette.json"))
    /// ```
    public static func load(from url: URL) throws(CassetteError) -> Cassette {
        if let format = CassetteFormat(for: url), format != .native { return try loadInterop(from: url, format: format) }
        let data: Data
        do {
            data = try FileAccess.read(url)
        } catch {
            throw .unreadable(path: url.path, reason: error.reason)
        }
        if VCRCassetteReader.looksLikeVCRJSON(data) { return try decodeInterop(data, from: url, format: .vcrYAML) }
        return try CassetteCodec.decode(data, source: url.path)
    }

    /// The native-format bytes (deterministic: the same cassette always gives the same bytes).
    public func encoded() -> Data {
        CassetteCodec.encode(self)
    }

    /// Writes the format of the file's extension (native JSON unless `.yaml`, `.yml` or `.har`)
    /// atomically (a temporary file, then a rename), creating the
    /// directory if needed: a crash or `kill -9` leaves either the old file or the new one.
    public func write(to url: URL) throws(CassetteError) {
        if let format = CassetteFormat(for: url), format != .native { return try writeInterop(to: url, format: format) }
        do {
            try FileAccess.writeAtomically(encoded(), to: url)
        } catch {
            throw .writeFailed(path: url.path, reason: error.reason)
        }
    }
}
