import Foundation

extension Cassette {
    /// Reads the cassette file alone (``load(from:maximumFileSize:limits:)`` without the journal).
    static func loadFile(from url: URL, maximumFileSize: Int = Cassette.defaultMaximumFileSize,
                         limits: BodyLimits = BodyLimits()) throws(CassetteError) -> Cassette {
        let cassette = try decodeFile(from: url, maximumFileSize: maximumFileSize, limits: limits)
        // No cassette, in any format, may hold a header the server could not send as is.
        for (index, interaction) in cassette.interactions.enumerated() {
            if let (pointer, problem) = interaction.unsendableHeader(index: index) {
                throw .invalidField(path: url.path, pointer: pointer, problem: problem)
            }
        }
        return cassette
    }

    /// The file's interactions in whichever format it is written.
    private static func decodeFile(from url: URL, maximumFileSize: Int, limits: BodyLimits) throws(CassetteError) -> Cassette {
        if let format = CassetteFormat(for: url), format != .native {
            return try loadInterop(from: url, format: format, maximumFileSize: maximumFileSize, limits: limits)
        }
        if let size = FileAccess.size(of: url), size > CassetteCodec.windowedFileSize {
            let descriptor: Int32
            do {
                descriptor = try FileAccess.openForReading(url, maximumSize: maximumFileSize)
            } catch {
                throw .unreadable(path: url.path, reason: error.reason)
            }
            defer { close(descriptor) }
            let window = JSONFileWindow(descriptor: descriptor, capacity: CassetteCodec.windowCapacity)
            if !VCRCassetteReader.looksLikeVCRJSON(Data(window.bytes.prefix(4_096))) {
                return try CassetteCodec.decode(window, file: url, maximumFileSize: maximumFileSize)
            }
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
