import Foundation

/// The append-only file beside a cassette (`api.cassette.json.journal`) where recording
/// sessions write each interaction as it happens, so that recording costs the same for the
/// 10,000th interaction as for the first. ``CassetteStore`` merges it into the cassette.
///
/// The file is a sequence of self-delimiting records, each written by one `write`:
///
/// ```
/// <RS>2087<LF>{ …a native cassette holding one interaction and the session's metadata… }<LF>
/// <RS>61<LF>{"journal":"replaces","file":"1234:1767225600:0:5120"}<LF>
/// ```
///
/// RS is the record separator byte 0x1E (RFC 7464), which JSON text never contains raw, then
/// the payload's length in bytes. A record cut short by `kill -9` is shorter than its length
/// says; reading skips it and carries on at the next RS, so at most the interaction being
/// written is lost. The second kind says that the session which wrote it replaces (mode
/// `all`) the cassette file it opened, identified by its ``CassetteFileStamp``.
enum CassetteJournal {
    /// What a journal holds, in the order written.
    enum Record: Sendable {
        /// A recorded interaction and the metadata of the session that recorded it.
        case interaction(Interaction, metadata: [String: String])
        /// The writer replaces the cassette file that had this stamp when it opened it.
        case replaces(CassetteFileStamp)
        /// One more chunk of the stream whose interaction record carries `stream` (``streamKey``).
        case chunk(stream: String, BodyChunk)
    }

    /// The metadata key that marks an interaction record as a stream's: the first such record is
    /// the head (recorded as the stream began), chunk records add to it, and a later record with
    /// the same key (the stream's end) replaces it and them. It never reaches the cassette's metadata.
    static let streamKey = "tapedeck.stream"

    /// What ``read(_:path:)`` found.
    struct Contents: Sendable {
        /// The complete records.
        var records: [Record] = []
        /// Records cut short (a writer was killed mid-write); they are skipped.
        var torn = 0
    }

    static let separator: UInt8 = 0x1E
    /// How a replace record starts (an interaction record is a pretty-printed cassette: `{` and a newline).
    private static let replacesPrefix = #"{"journal":"replaces""#
    /// How a chunk record starts.
    private static let chunkPrefix = #"{"journal":"chunk""#
    private static let newline = UInt8(ascii: "\n")

    /// `api.cassette.json.journal` beside `api.cassette.json`.
    static func url(for cassette: URL) -> URL {
        cassette.deletingLastPathComponent().appendingPathComponent(cassette.lastPathComponent + ".journal")
    }

    /// The record for one interaction.
    static func record(_ interaction: Interaction, metadata: [String: String]) -> Data {
        frame(CassetteCodec.encode(Cassette(interactions: [interaction], metadata: metadata)))
    }

    /// The record saying its writer replaces the file that had `stamp`.
    static func replacesRecord(_ stamp: CassetteFileStamp) -> Data {
        frame(Data((replacesPrefix + #","file":"# + "\"\(stamp.text)\"}\n").utf8))
    }

    /// The record adding `chunk` to the stream `stream`.
    static func chunkRecord(_ chunk: BodyChunk, stream: String) -> Data {
        let value: JSONValue = .object([("journal", "chunk"), ("stream", .string(stream)),
                                        ("ms", .number(CassetteChunks.millisecondsLiteral(chunk.offset))),
                                        ("base64", .string(chunk.data.base64EncodedString()))])
        var payload: Data = JSONWriter.write(value, options: [])
        payload.append(newline)
        return frame(payload)
    }

    private static func frame(_ payload: Data) -> Data {
        var record = Data([separator])
        record.append(contentsOf: String(payload.count).utf8)
        record.append(newline)
        record.append(payload)
        return record
    }

    /// Reads every complete record of a journal's bytes; `path` names the journal in errors.
    ///
    /// Throws when a record is complete (its length checks out) but is not one Tapedeck
    /// writes: the file was edited or damaged, and guessing would lose or invent interactions.
    static func read(_ data: Data, path: String) throws(CassetteError) -> Contents {
        var contents = Contents()
        let bytes = [UInt8](data)
        var start = bytes.firstIndex(of: separator) ?? bytes.endIndex
        if start > 0, bytes[..<start].contains(where: { $0 != newline }) { contents.torn += 1 }
        while start < bytes.endIndex {
            let next = bytes[(start + 1)...].firstIndex(of: separator) ?? bytes.endIndex
            let chunk = bytes[(start + 1)..<next]
            if let record = try decode(chunk, offset: start, path: path) {
                contents.records.append(record)
            } else {
                contents.torn += 1
            }
            start = next
        }
        return contents
    }

    /// One record, or nil when it was cut short.
    private static func decode(_ chunk: ArraySlice<UInt8>, offset: Int, path: String) throws(CassetteError) -> Record? {
        guard let lineEnd = chunk.firstIndex(of: newline), let length = Int(String(decoding: chunk[..<lineEnd], as: UTF8.self)),
              chunk.endIndex - (lineEnd + 1) == length else { return nil }
        let payload = Data(chunk[(lineEnd + 1)...])
        let place = "\(path) (record at byte \(offset))"
        let unreadable = { (problem: String) -> CassetteError in
            .unreadable(path: place, reason: problem + "; the journal holds interactions recorded since the cassette was last "
                + "saved: move it aside to open the cassette without them, or repair the record")
        }
        if payload.starts(with: Array(replacesPrefix.utf8)) {
            guard let value = try? JSONParser.parse(payload), value["journal"]?.stringValue == "replaces",
                  let stamp = value["file"]?.stringValue.flatMap(CassetteFileStamp.init(text:)) else {
                throw unreadable("not a journal record")
            }
            return .replaces(stamp)
        }
        if payload.starts(with: Array(chunkPrefix.utf8)) {
            guard let value = try? JSONParser.parse(payload), let stream = value["stream"]?.stringValue,
                  let milliseconds = value["ms"]?.doubleValue, let data = value["base64"]?.stringValue.flatMap({ Data(base64Encoded: $0) }) else {
                throw unreadable("not a journal record")
            }
            return .chunk(stream: stream, BodyChunk(offset: milliseconds / 1000, data: data))
        }
        let cassette: Cassette
        do {
            cassette = try CassetteCodec.decode(payload, source: place)
        } catch {
            throw unreadable(error.errorDescription ?? "\(error)")
        }
        guard cassette.interactions.count == 1, let interaction = cassette.interactions.first else {
            throw unreadable("a record holds \(cassette.interactions.count) interactions, not one")
        }
        return .interaction(interaction, metadata: cassette.metadata)
    }

    /// `cassette` (the file's contents; `stamp` identifies the file, nil when there was none)
    /// with the journal's interactions appended and their metadata merged in. The file's own
    /// interactions are dropped when a record says its writer replaces that very file.
    static func apply(_ records: [Record], to cassette: Cassette, stamp: CassetteFileStamp?) -> Cassette {
        var result = cassette
        var appended: [Interaction] = []
        var streams: [String: Int] = [:]
        for record in records {
            switch record {
            case .interaction(let interaction, var metadata):
                if let stream = metadata.removeValue(forKey: streamKey) {
                    if let index = streams[stream] {
                        appended[index] = interaction
                    } else {
                        streams[stream] = appended.count
                        appended.append(interaction)
                    }
                } else {
                    appended.append(interaction)
                }
                result.metadata.merge(metadata) { _, journal in journal }
            case .chunk(let stream, let chunk):
                guard let index = streams[stream] else { continue }
                var response = appended[index].response
                let head = response.timeToHead
                response.chunks = (response.chunks ?? []) + [chunk]
                response.body.append(chunk.data)
                response.duration = head + chunk.offset
                appended[index].response = response
            case .replaces(let replaced):
                if replaced == stamp { result.interactions = [] }
            }
        }
        result.interactions += appended
        return result
    }
}
