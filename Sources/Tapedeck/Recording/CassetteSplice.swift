import Foundation

/// What a recording session rewrites in the whole cassette at each merge: the secrets it has
/// learned, scrubbed wherever they appear, so an interaction recorded before a later one showed
/// a value is a secret (a token in a URL, then the same token in an `Authorization` header)
/// does not keep it. Only scrubbing: each interaction was redacted by its own session's rules.
struct CassetteFinishing: Sendable {
    /// The secrets learned so far.
    let secrets: @Sendable () -> [String]

    /// `cassette` with every secret learned scrubbed; unchanged when none was.
    func apply(_ cassette: Cassette, secrets known: [String]) -> Cassette {
        known.isEmpty ? cassette : Redactor.scrub(cassette, secrets: known)
    }
}

/// Merges a journal into a native cassette without decoding either: the file's interactions
/// and each journaled one are copied as the bytes they already are, because a native cassette
/// lays out every interaction the same way wherever it stands (``CassetteJSONLayout``, at the
/// same depth in a one-interaction journal record as in the file). Only the metadata is parsed,
/// and only an interaction a learned secret may still be in is decoded, scrubbed and written
/// again. The result is byte for byte what decoding, ``CassetteJournal/apply(_:to:stamp:)``
/// and encoding give (the tests compare the two).
///
/// Whatever it cannot copy safely gives nil, and ``CassetteMerge`` decodes instead: another
/// format, a file laid out by hand, streams journaled chunk by chunk, a record it does not
/// recognise (so the decoder names the problem), or a file a learned secret may be in.
enum CassetteSplice {
    /// A native cassette's bytes, split at its interactions.
    struct Parts {
        /// From the first interaction's `{` to the last one's `}`; empty when there are none.
        var block: Range<Int>
        /// How many interactions the block holds.
        var count: Int
        var metadata: [String: String]
    }

    /// What a merge writes: the cassette's bytes and how many interactions it holds.
    struct Merged {
        var data: Data
        var count: Int
    }

    private static let opening = Array("{\n  \"interactions\": [\n".utf8)
    private static let openingEmpty = Array("{\n  \"interactions\": [],".utf8)
    /// Closes the interactions array: the only line indented two spaces that starts with `]`
    /// (string values never hold a raw line feed, and everything inside is indented deeper).
    private static let closing = Array("\n  ]".utf8)
    /// Starts every interaction after the first: the only lines indented four spaces are
    /// an interaction's `{` and `}`.
    private static let nextInteraction = Array("\n    {\n".utf8)
    /// Fields whose values are not stored as the text a secret appears in (a secret may hide in
    /// base64 or straddle two chunks or frames), so the interaction is decoded when secrets are known.
    private static let opaqueFields = ["\"base64\"", "\"chunks\"", "\"webSocket\""].map { Array($0.utf8) }

    /// The journal's records applied to the file's bytes (nil when there is no file), as the
    /// type's summary says; nil when decoding must do it.
    static func merge(file: [UInt8]?, journal: [UInt8], stamp: CassetteFileStamp?, finishing: CassetteFinishing?) -> Merged? {
        var metadata: [String: String] = [:]
        var fileBlock: Range<Int>?
        var fileCount = 0
        if let file {
            guard let parts = parts(of: file, range: 0..<file.count) else { return nil }
            metadata = parts.metadata
            fileBlock = parts.block.isEmpty ? nil : parts.block
            fileCount = parts.count
        }
        let secrets = finishing?.secrets() ?? []
        let needles = needles(for: secrets)
        if let fileBlock, !needles.isEmpty, needles.contains(where: { ByteSearch.contains($0, in: file ?? [], fileBlock) }) { return nil }

        var keepsFile = true
        // Each journaled interaction: where it lies in the journal, or its bytes written again.
        var appended: [Either] = []
        var appendedBytes = 0
        var metadataCache = MetadataCache()
        for frame in CassetteJournal.frames(journal).complete {
            let payload = journal[frame.payload]
            if CassetteJournal.isChunk(payload) || CassetteJournal.isDrop(payload) { return nil }
            if CassetteJournal.isReplaces(payload) {
                guard let replaced = try? CassetteJournal.replaced(payload, place: "") else { return nil }
                if replaced.stamp == stamp {
                    keepsFile = false
                } else if replaced.count != nil {
                    // The file changed since: which of its interactions are replaced is the decoder's to tell.
                    return nil
                }
                continue
            }
            guard let parts = parts(of: journal, range: frame.payload, cache: &metadataCache), parts.count == 1,
                  parts.metadata[CassetteJournal.streamKey] == nil else { return nil }
            var piece = Either.journal(parts.block)
            if !needles.isEmpty, needles.contains(where: { ByteSearch.contains($0, in: journal, parts.block) }) {
                // A secret learned after this interaction was recorded may be in it: decode, scrub, write again.
                guard let finishing, let (interaction, _) = try? CassetteJournal.interaction(Data(payload), place: ""),
                      let scrubbed = finishing.apply(Cassette(interactions: [interaction]), secrets: secrets).interactions.first else { return nil }
                let encoded = [UInt8](CassetteCodec.encode(Cassette(interactions: [scrubbed])))
                guard let again = self.parts(of: encoded, range: 0..<encoded.count), again.count == 1 else { return nil }
                piece = .written(Array(encoded[again.block]))
            }
            metadata.merge(parts.metadata) { _, journal in journal }
            appendedBytes += piece.count + 2
            appended.append(piece)
        }

        let kept = keepsFile ? fileBlock : nil
        let count = (kept == nil ? 0 : fileCount) + appended.count
        // The metadata and version as the codec writes them after an empty interactions array.
        let tail = [UInt8](CassetteCodec.encode(Cassette(interactions: [], metadata: metadata)))
        guard count > 0 else { return Merged(data: Data(tail), count: 0) }
        guard tail.starts(with: openingEmpty) else { return nil }
        var output: [UInt8] = []
        output.reserveCapacity(opening.count + (kept?.count ?? 0) + appendedBytes + tail.count)
        output += opening
        var first = true
        if let kept, let file {
            output += file[kept]
            first = false
        }
        for piece in appended {
            if !first { output += [UInt8(ascii: ","), UInt8(ascii: "\n")] }
            switch piece {
            case .journal(let range): output += journal[range]
            case .written(let bytes): output += bytes
            }
            first = false
        }
        output += closing
        output += tail[openingEmpty.count - 1..<tail.count]
        return Merged(data: Data(output), count: count)
    }

    /// Each secret's spellings as they appear inside a JSON string (``JSONWriter``'s escaping
    /// works character by character, so an escaped secret is a run of the escaped text), and the
    /// fields that store text another way; none when no secret is known.
    private static func needles(for secrets: [String]) -> [[UInt8]] {
        let spellings = SecretScrubber(secrets).spellings
        guard !spellings.isEmpty else { return [] }
        return spellings.map { spelling in
            let quoted: String = JSONWriter.write(.string(spelling))
            return Array(quoted.utf8.dropFirst().dropLast())
        } + opaqueFields
    }

    /// A journaled interaction's bytes: a range of the journal, or written again.
    private enum Either {
        case journal(Range<Int>)
        case written([UInt8])

        var count: Int {
            switch self {
            case .journal(let range): range.count
            case .written(let bytes): bytes.count
            }
        }
    }

    /// The last metadata read, by the bytes it was read from: a session's records all carry the same.
    struct MetadataCache {
        var bytes: [UInt8] = []
        var metadata: [String: String] = [:]
    }

    /// The interactions and metadata of the native cassette in `bytes[range]`, laid out as
    /// ``CassetteJSONLayout`` writes it; nil for any other layout or version.
    static func parts(of bytes: [UInt8], range: Range<Int>) -> Parts? {
        var cache = MetadataCache()
        return parts(of: bytes, range: range, cache: &cache)
    }

    /// ``parts(of:range:)``, reading metadata laid out as the cached one was from `cache`.
    static func parts(of bytes: [UInt8], range: Range<Int>, cache: inout MetadataCache) -> Parts? {
        let slice = bytes[range]
        var block = range.lowerBound..<range.lowerBound
        var tailStart: Int
        if slice.starts(with: openingEmpty) {
            tailStart = range.lowerBound + openingEmpty.count - 1
        } else if slice.starts(with: opening) {
            let start = range.lowerBound + opening.count
            guard let end = first(closing, in: bytes, start..<range.upperBound) else { return nil }
            block = start..<end
            tailStart = end + closing.count
        } else {
            return nil
        }
        // The rest is `,\n  "metadata": {…},\n  "version": 1\n}\n`: an object once it opens with `{`.
        guard tailStart < range.upperBound, bytes[tailStart] == UInt8(ascii: ",") else { return nil }
        let count = block.isEmpty ? 0 : 1 + occurrences(nextInteraction, in: bytes, block)
        if !cache.bytes.isEmpty, bytes[tailStart..<range.upperBound].elementsEqual(cache.bytes) {
            return Parts(block: block, count: count, metadata: cache.metadata)
        }
        var tail: [UInt8] = [UInt8(ascii: "{")]
        tail += bytes[(tailStart + 1)..<range.upperBound]
        guard let value = try? JSONParser.parse(Data(tail)), case .object(let members) = value,
              members.allSatisfy({ $0.key == "metadata" || $0.key == "version" }),
              value["version"].flatMap({ if case .number(let literal) = $0 { Int(literal) } else { nil } }) == Cassette.currentVersion
        else { return nil }
        var metadata: [String: String] = [:]
        if let object = value["metadata"] {
            guard case .object(let pairs) = object else { return nil }
            for pair in pairs {
                guard let text = pair.value.stringValue else { return nil }
                metadata[pair.key] = text
            }
        }
        cache = MetadataCache(bytes: Array(bytes[tailStart..<range.upperBound]), metadata: metadata)
        return Parts(block: block, count: count, metadata: metadata)
    }

    private static func first(_ needle: [UInt8], in bytes: [UInt8], _ range: Range<Int>) -> Int? {
        bytes.withUnsafeBufferPointer { buffer in
            ByteSearch.firstMatch(needle, in: UnsafeBufferPointer(rebasing: buffer[range]), from: 0).map { $0 + range.lowerBound }
        }
    }

    private static func occurrences(_ needle: [UInt8], in bytes: [UInt8], _ range: Range<Int>) -> Int {
        bytes.withUnsafeBufferPointer { buffer in
            let window = UnsafeBufferPointer(rebasing: buffer[range])
            var count = 0, from = 0
            while let found = ByteSearch.firstMatch(needle, in: window, from: from) {
                count += 1
                from = found + needle.count
            }
            return count
        }
    }
}
