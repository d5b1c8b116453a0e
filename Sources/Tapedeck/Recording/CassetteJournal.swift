import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

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
        /// The writer replaces the cassette file that had this stamp when it opened it, which
        /// then held `count` interactions whose encoding has `digest` (nil in records written
        /// before they were kept): when another session has merged into the file since, those
        /// first `count` are still the ones replaced.
        case replaces(CassetteFileStamp, count: Int?, digest: String?)
        /// One more chunk of the stream whose interaction record carries `stream` (``streamKey``).
        case chunk(stream: String, BodyChunk)
        /// The stream `stream` broke off before its end: its head and chunks are not kept (a
        /// cassette never replays a cut stream as a whole answer).
        case dropStream(String)
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
    /// How a drop record starts.
    private static let dropPrefix = #"{"journal":"drop""#
    private static let newline = UInt8(ascii: "\n")

    /// `api.cassette.json.journal` beside `api.cassette.json`.
    static func url(for cassette: URL) -> URL {
        // `isDirectory: false`: without it Foundation asks the file system, once per journal record.
        cassette.deletingLastPathComponent().appendingPathComponent(cassette.lastPathComponent + ".journal", isDirectory: false)
    }

    /// The record for one interaction.
    static func record(_ interaction: Interaction, metadata: [String: String]) -> Data {
        frame(CassetteCodec.encode(Cassette(interactions: [interaction], metadata: metadata)))
    }

    /// The record saying its writer replaces the file that had `stamp` and held `interactions`.
    static func replacesRecord(_ stamp: CassetteFileStamp, holding interactions: [Interaction]? = nil) -> Data {
        let held = interactions.map { #","count":\#($0.count),"digest":"\#(digest(of: $0))""# } ?? ""
        return frame(Data((replacesPrefix + #","file":"# + "\"\(stamp.text)\"" + held + "}\n").utf8))
    }

    /// A digest of `interactions` as a cassette encodes them (FNV-1a, 64 bits, in hex): the
    /// same interactions, decoded from a file and encoded again, give the same digest.
    static func digest(of interactions: [Interaction]) -> String {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in CassetteCodec.encode(Cassette(interactions: interactions)) {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
        }
        return String(hash, radix: 16)
    }

    /// The record saying the stream `stream` broke off and is not kept.
    static func dropRecord(stream: String) -> Data {
        var payload: Data = JSONWriter.write(.object([("journal", "drop"), ("stream", .string(stream))]), options: [])
        payload.append(newline)
        return frame(payload)
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
        let framing = frames(bytes)
        contents.torn = framing.torn
        for frame in framing.complete {
            contents.records.append(try decode(frame.payload, in: bytes, offset: frame.offset, path: path))
        }
        return contents
    }

    /// Where each complete record's payload lies in a journal's bytes (and the record's offset,
    /// for errors), and how many records were cut short.
    static func frames(_ bytes: [UInt8]) -> (complete: [(payload: Range<Int>, offset: Int)], torn: Int) {
        var complete: [(payload: Range<Int>, offset: Int)] = []
        var torn = 0
        let next = { (from: Int) -> Int in
            bytes.withUnsafeBufferPointer { buffer in
                guard from < buffer.count, let base = buffer.baseAddress,
                      let found = memchr(base + from, Int32(separator), buffer.count - from) else { return buffer.count }
                return UnsafeRawPointer(found) - UnsafeRawPointer(base)
            }
        }
        var start = next(0)
        if start > 0, bytes[..<start].contains(where: { $0 != newline }) { torn += 1 }
        while start < bytes.endIndex {
            let next = next(start + 1)
            let chunk = bytes[(start + 1)..<next]
            if let lineEnd = chunk.firstIndex(of: newline), let length = Int(String(decoding: chunk[..<lineEnd], as: UTF8.self)),
               length >= 0, next - (lineEnd + 1) >= length {
                complete.append(((lineEnd + 1)..<(lineEnd + 1 + length), start))
                // Bytes after a whole record (written there by hand, or by something else) are
                // torn on their own: the record before them stands.
                if next - (lineEnd + 1) > length, bytes[(lineEnd + 1 + length)..<next].contains(where: { $0 != newline }) { torn += 1 }
            } else {
                torn += 1
            }
            start = next
        }
        return (complete, torn)
    }

    /// Whether a record's payload is a replace record.
    static func isReplaces(_ payload: ArraySlice<UInt8>) -> Bool { payload.starts(with: replacesPrefix.utf8) }

    /// Whether a record's payload is a chunk record.
    static func isChunk(_ payload: ArraySlice<UInt8>) -> Bool { payload.starts(with: chunkPrefix.utf8) }

    /// Whether a record's payload is a drop record.
    static func isDrop(_ payload: ArraySlice<UInt8>) -> Bool { payload.starts(with: dropPrefix.utf8) }

    /// The stamp of a replace record's payload; throws when it is not one Tapedeck writes.
    static func replacedStamp(_ payload: ArraySlice<UInt8>, place: String) throws(CassetteError) -> CassetteFileStamp {
        try replaced(payload, place: place).stamp
    }

    /// What a replace record's payload says: the stamp, and the count and digest of what the
    /// file held when they are given.
    static func replaced(_ payload: ArraySlice<UInt8>, place: String) throws(CassetteError) -> (stamp: CassetteFileStamp, count: Int?, digest: String?) {
        guard let value = try? JSONParser.parse(Data(payload)), value["journal"]?.stringValue == "replaces",
              let stamp = value["file"]?.stringValue.flatMap(CassetteFileStamp.init(text:)) else {
            throw unreadable(place, "not a journal record")
        }
        return (stamp, value["count"]?.doubleValue.map { Int($0) }, value["digest"]?.stringValue)
    }

    /// `path (record at byte N)`: where a record is, for errors.
    static func place(_ path: String, offset: Int) -> String { "\(path) (record at byte \(offset))" }

    /// A complete record that is not one Tapedeck writes, at `place`.
    private static func unreadable(_ place: String, _ problem: String) -> CassetteError {
        .unreadable(path: place, reason: problem + "; the journal holds interactions recorded since the cassette was last "
            + "saved: move it aside to open the cassette without them, or repair the record")
    }

    /// The complete record whose payload is `bytes[payload]`.
    private static func decode(_ payload: Range<Int>, in bytes: [UInt8], offset: Int, path: String) throws(CassetteError) -> Record {
        let place = place(path, offset: offset)
        let slice = bytes[payload]
        if isReplaces(slice) {
            let replaced = try replaced(slice, place: place)
            return .replaces(replaced.stamp, count: replaced.count, digest: replaced.digest)
        }
        if isChunk(slice) {
            guard let value = try? JSONParser.parse(Data(slice)), let stream = value["stream"]?.stringValue,
                  let milliseconds = value["ms"]?.doubleValue, let data = value["base64"]?.stringValue.flatMap({ Data(base64Encoded: $0) }) else {
                throw unreadable(place, "not a journal record")
            }
            return .chunk(stream: stream, BodyChunk(offset: milliseconds / 1000, data: data))
        }
        if isDrop(slice) {
            guard let value = try? JSONParser.parse(Data(slice)), let stream = value["stream"]?.stringValue else {
                throw unreadable(place, "not a journal record")
            }
            return .dropStream(stream)
        }
        let (interaction, metadata) = try interaction(Data(slice), place: place)
        return .interaction(interaction, metadata: metadata)
    }

    /// The interaction and metadata of an interaction record's payload.
    static func interaction(_ payload: Data, place: String) throws(CassetteError) -> (Interaction, [String: String]) {
        let cassette: Cassette
        do {
            cassette = try CassetteCodec.decode(payload, source: place)
        } catch {
            throw unreadable(place, error.errorDescription ?? "\(error)")
        }
        guard cassette.interactions.count == 1, let interaction = cassette.interactions.first else {
            throw unreadable(place, "a record holds \(cassette.interactions.count) interactions, not one")
        }
        return (interaction, cassette.metadata)
    }

    /// `cassette` (the file's contents; `stamp` identifies the file, nil when there was none)
    /// with the journal's interactions appended and their metadata merged in. The file's own
    /// interactions are dropped when a record says its writer replaces that very file.
    static func apply(_ records: [Record], to cassette: Cassette, stamp: CassetteFileStamp?) -> Cassette {
        var result = cassette
        var appended: [Interaction] = []
        var streams: [String: Int] = [:]
        var dropped = IndexSet()
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
                // Changed in place: a copy of the response per chunk copied every chunk before it.
                let head = appended[index].response.timeToHead
                if appended[index].response.chunks == nil { appended[index].response.chunks = [] }
                appended[index].response.chunks?.append(chunk)
                appended[index].response.body.append(chunk.data)
                appended[index].response.duration = head + chunk.offset
            case .dropStream(let stream):
                if let index = streams.removeValue(forKey: stream) { dropped.insert(index) }
            case .replaces(let replaced, let count, let digest):
                if replaced == stamp {
                    result.interactions = []
                } else if let count, let digest, count <= result.interactions.count,
                          CassetteJournal.digest(of: Array(result.interactions.prefix(count))) == digest {
                    // Another session merged into the file since: what it added stays.
                    result.interactions.removeFirst(count)
                }
            }
        }
        result.interactions += dropped.isEmpty ? appended : appended.indices.filter { !dropped.contains($0) }.map { appended[$0] }
        return result
    }
}
