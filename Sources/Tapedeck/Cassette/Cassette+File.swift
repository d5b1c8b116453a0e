import Foundation

extension Cassette {
    /// Reads a cassette file; errors name the file, the JSON Pointer and the problem. `.yaml`/`.yml`
    /// (vcrpy) and `.har` files are read by the interop codecs, and so is a `.json` file vcrpy's
    /// JSON serializer wrote; anything else as native JSON.
    ///
    /// ```swift
    /// let cassette = try Cassette.load(from: URL(fileURLWithPath: "Sessions/tour.cassette.json"))
    /// ```
    ///
    /// A file larger than `maximumFileSize` (``defaultMaximumFileSize``, 1 GiB) is refused before
    /// it is read, and compressed bodies in vcrpy, HAR and cassetter files decode within `limits`
    /// (``BodyLimits``: 100 MiB and a ratio of 200 by default), so no cassette can exhaust memory.
    ///
    /// Interactions a recording session journaled beside the file and has not merged yet
    /// (`NAME.journal`, see ``CassetteStore``) are merged into it first, so a cassette reads
    /// whole even while it is recorded into, or after the recorder was killed.
    public static func load(from url: URL, maximumFileSize: Int = Cassette.defaultMaximumFileSize,
                            limits: BodyLimits = BodyLimits()) throws(CassetteError) -> Cassette {
        try CassetteMerge.read(url, maximumFileSize: maximumFileSize, limits: limits)
    }

    /// Reads the cassette file alone (``load(from:maximumFileSize:limits:)`` without the journal).
    static func loadFile(from url: URL, maximumFileSize: Int = Cassette.defaultMaximumFileSize,
                         limits: BodyLimits = BodyLimits()) throws(CassetteError) -> Cassette {
        if let format = CassetteFormat(for: url), format != .native {
            return try loadInterop(from: url, format: format, maximumFileSize: maximumFileSize, limits: limits)
        }
        let data: Data
        do {
            data = try FileAccess.read(url, maximumSize: maximumFileSize)
        } catch {
            throw .unreadable(path: url.path, reason: error.reason)
        }
        if VCRCassetteReader.looksLikeVCRJSON(data) { return try decodeInterop(data, from: url, format: .vcrYAML, limits: limits) }
        return try CassetteCodec.decode(data, source: url.path)
    }

    /// The largest cassette file ``load(from:maximumFileSize:limits:)`` reads unless told otherwise: 1 GiB.
    public static let defaultMaximumFileSize = 1 << 30

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
