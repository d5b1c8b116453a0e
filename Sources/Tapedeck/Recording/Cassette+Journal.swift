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

    /// Whether a cassette is at `url`: its file, or the journal a recording killed before its
    /// first merge left beside it (``load(from:maximumFileSize:limits:)`` merges it).
    package static func exists(at url: URL) -> Bool {
        FileManager.default.fileExists(atPath: url.path) || FileManager.default.fileExists(atPath: CassetteJournal.url(for: url).path)
    }
}
