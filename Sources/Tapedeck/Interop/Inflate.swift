import Foundation

// Why this decoder is written here instead of calling system zlib:
//
// - The core (`Tapedeck`) is what an app's tests import on iOS, macOS and Linux, and it must
//   build with Foundation (and Yams) alone. On Linux, zlib is reachable from Swift only through
//   a `.systemLibrary` target (module map + pkg-config), and a core that depends on a system
//   library target is exactly what `PackageLayoutTests` forbids (issue: the core is portable).
//   Apple's `Compression` framework does raw deflate only and does not exist on Linux.
// - Live traffic never comes here: the libcurl transport (outside the core) decodes responses
//   with libcurl's own system zlib, and URLSession decodes them itself. This decoder only
//   reads bodies that other tools stored still compressed in vcrpy and HAR cassettes.
// - It is bounded: every call takes a maximum output size (``BodyLimits``: size and expansion
//   ratio), checked before each byte is written, so a decompression bomb in a cassette stops
//   with an error naming the limit instead of exhausting memory.

/// A small DEFLATE (RFC 1951) decoder with gzip (RFC 1952) and zlib (RFC 1950) framing, so
/// compressed bodies stored by other tools can be decoded in the core, with a bound on the
/// decoded size.
///
/// ```swift
/// let text = try Inflate.gunzip(compressed, limit: 10 * 1024 * 1024)
/// ```
package enum Inflate {
    /// Why a compressed stream could not be decoded.
    package struct Failure: Error, Sendable, Equatable {
        /// What was wrong with the stream.
        package var reason: String
        /// Whether decoding stopped at the output limit (the stream itself may be fine).
        package var exceededLimit: Bool = false
    }

    /// Whether `data` starts with the gzip magic bytes.
    package static func looksGzipped(_ data: Data) -> Bool {
        data.count >= 18 && data[data.startIndex] == 0x1F && data[data.startIndex + 1] == 0x8B
    }

    /// Decodes a gzip member (header, deflate stream, trailer); concatenated members are joined.
    /// Throws a ``Failure`` with `exceededLimit` once the output would pass `limit` bytes.
    package static func gunzip(_ data: Data, limit: Int) throws(Failure) -> Data {
        var output: [UInt8] = []
        try gunzip([UInt8](data), into: &output, limit: limit)
        return Data(output)
    }

    /// Decodes a zlib-framed stream, or a raw deflate stream when there is no zlib header
    /// (servers send both for `Content-Encoding: deflate`).
    /// Throws a ``Failure`` with `exceededLimit` once the output would pass `limit` bytes.
    package static func inflateZlibOrRaw(_ data: Data, limit: Int) throws(Failure) -> Data {
        var output: [UInt8] = []
        try inflateZlibOrRaw([UInt8](data), into: &output, limit: limit)
        return Data(output)
    }

    /// What a gzip stream (`gzip`), or a zlib or raw deflate one, cut short decodes to, as far
    /// as it goes: a stream recorded before it ended (its client left) is read for secrets all
    /// the same. Nothing past `limit` bytes; nothing for bytes that are not such a stream.
    package static func decodedPrefix(_ data: Data, gzip: Bool, limit: Int) -> Data {
        var output: [UInt8] = []
        do {
            if gzip {
                try self.gunzip([UInt8](data), into: &output, limit: limit)
            } else {
                try inflateZlibOrRaw([UInt8](data), into: &output, limit: limit)
            }
        } catch {
            // The stream ends here: what came before it is the answer.
        }
        return Data(output.prefix(limit))
    }

    /// ``gunzip(_:limit:)`` into `output`, which keeps what was decoded when it throws.
    private static func gunzip(_ bytes: [UInt8], into output: inout [UInt8], limit: Int) throws(Failure) {
        var offset = 0
        repeat {
            offset = try gzipHeaderEnd(bytes, from: offset)
            var reader = BitReader(bytes: bytes, position: offset)
            try inflate(&reader, into: &output, limit: limit)
            offset = reader.alignedPosition + 8
        } while offset + 18 <= bytes.count && bytes[offset] == 0x1F && bytes[offset + 1] == 0x8B
    }

    /// ``inflateZlibOrRaw(_:limit:)`` into `output`, which keeps what was decoded when it throws.
    private static func inflateZlibOrRaw(_ bytes: [UInt8], into output: inout [UInt8], limit: Int) throws(Failure) {
        let hasZlibHeader = bytes.count >= 2 && bytes[0] & 0x0F == 8
            && (UInt16(bytes[0]) << 8 | UInt16(bytes[1])) % 31 == 0
        var reader = BitReader(bytes: bytes, position: hasZlibHeader ? 2 : 0)
        try inflate(&reader, into: &output, limit: limit)
    }

    private static func gzipHeaderEnd(_ bytes: [UInt8], from start: Int) throws(Failure) -> Int {
        guard bytes.count >= start + 10, bytes[start] == 0x1F, bytes[start + 1] == 0x8B, bytes[start + 2] == 8 else {
            throw Failure(reason: "not a gzip stream (bad magic bytes or method)")
        }
        let flags = bytes[start + 3]
        var position = start + 10
        if flags & 0x04 != 0 {
            guard position + 2 <= bytes.count else { throw Failure(reason: "truncated gzip header") }
            position += 2 + (Int(bytes[position]) | Int(bytes[position + 1]) << 8)
        }
        for flag: UInt8 in [0x08, 0x10] where flags & flag != 0 {
            while position < bytes.count, bytes[position] != 0 { position += 1 }
            position += 1
        }
        if flags & 0x02 != 0 { position += 2 }
        guard position < bytes.count else { throw Failure(reason: "truncated gzip header") }
        return position
    }

    // MARK: - DEFLATE

    private static let lengthBase: [Int] = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31,
                                            35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258]
    private static let lengthExtra: [Int] = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2,
                                             3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0]
    private static let distanceBase: [Int] = [1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193,
                                              257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145,
                                              8193, 12289, 16385, 24577]
    private static let distanceExtra: [Int] = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6,
                                               7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13]
    private static let codeLengthOrder: [Int] = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]

    private static func inflate(_ reader: inout BitReader, into output: inout [UInt8], limit: Int) throws(Failure) {
        var isFinal = false
        while !isFinal {
            isFinal = try reader.bits(1) == 1
            switch try reader.bits(2) {
            case 0:
                try reader.copyStored(into: &output, limit: limit)
            case 1:
                try inflateBlock(&reader, literals: .fixedLiterals, distances: .fixedDistances, into: &output, limit: limit)
            case 2:
                let (literals, distances) = try readDynamicTables(&reader)
                try inflateBlock(&reader, literals: literals, distances: distances, into: &output, limit: limit)
            default:
                throw Failure(reason: "invalid deflate block type")
            }
        }
    }

    private static func readDynamicTables(_ reader: inout BitReader) throws(Failure) -> (Huffman, Huffman) {
        let literalCount = try reader.bits(5) + 257
        let distanceCount = try reader.bits(5) + 1
        let codeLengthCount = try reader.bits(4) + 4
        var codeLengths = [Int](repeating: 0, count: 19)
        for index in 0..<codeLengthCount { codeLengths[codeLengthOrder[index]] = try reader.bits(3) }
        let codeLengthTable = Huffman(lengths: codeLengths)
        var lengths: [Int] = []
        while lengths.count < literalCount + distanceCount {
            let symbol = try codeLengthTable.decode(&reader)
            switch symbol {
            case 0...15: lengths.append(symbol)
            case 16:
                guard let previous = lengths.last else { throw Failure(reason: "repeat with no previous length") }
                lengths += Array(repeating: previous, count: try reader.bits(2) + 3)
            case 17: lengths += Array(repeating: 0, count: try reader.bits(3) + 3)
            default: lengths += Array(repeating: 0, count: try reader.bits(7) + 11)
            }
        }
        guard lengths.count == literalCount + distanceCount else { throw Failure(reason: "code lengths overflow") }
        return (Huffman(lengths: Array(lengths[..<literalCount])),
                Huffman(lengths: Array(lengths[literalCount...])))
    }

    private static func inflateBlock(
        _ reader: inout BitReader, literals: Huffman, distances: Huffman, into output: inout [UInt8], limit: Int
    ) throws(Failure) {
        while true {
            let symbol = try literals.decode(&reader)
            if symbol < 256 {
                guard output.count < limit else { throw .limit(limit) }
                output.append(UInt8(symbol))
            } else if symbol == 256 {
                return
            } else {
                let index = symbol - 257
                guard index < lengthBase.count else { throw Failure(reason: "invalid length symbol") }
                let length = lengthBase[index] + (try reader.bits(lengthExtra[index]))
                let distanceSymbol = try distances.decode(&reader)
                guard distanceSymbol < distanceBase.count else { throw Failure(reason: "invalid distance symbol") }
                let distance = distanceBase[distanceSymbol] + (try reader.bits(distanceExtra[distanceSymbol]))
                guard distance <= output.count else { throw Failure(reason: "distance too far back") }
                guard output.count + length <= limit else { throw .limit(limit) }
                let start = output.count - distance
                for offset in 0..<length { output.append(output[start + offset]) }
            }
        }
    }

    /// A canonical Huffman decoding table (counts per length + symbols sorted by code).
    private struct Huffman {
        var counts: [Int]
        var symbols: [Int]

        init(lengths: [Int]) {
            counts = Array(repeating: 0, count: 16)
            for length in lengths { counts[length] += 1 }
            counts[0] = 0
            var offsets = Array(repeating: 0, count: 16)
            for length in 1..<15 { offsets[length + 1] = offsets[length] + counts[length] }
            symbols = Array(repeating: 0, count: lengths.count)
            for (symbol, length) in lengths.enumerated() where length != 0 {
                symbols[offsets[length]] = symbol
                offsets[length] += 1
            }
        }

        static let fixedLiterals: Huffman = {
            let lengths = Array(repeating: 8, count: 144) + Array(repeating: 9, count: 112)
                + Array(repeating: 7, count: 24) + Array(repeating: 8, count: 8)
            return Huffman(lengths: lengths)
        }()

        static let fixedDistances = Huffman(lengths: Array(repeating: 5, count: 30))

        func decode(_ reader: inout BitReader) throws(Failure) -> Int {
            var code = 0, first = 0, index = 0
            for length in 1..<16 {
                code |= try reader.bits(1)
                let count = counts[length]
                if code - count < first { return symbols[index + (code - first)] }
                index += count
                first = (first + count) << 1
                code <<= 1
            }
            throw Failure(reason: "invalid Huffman code")
        }
    }

    /// Reads bits least-significant first, as DEFLATE packs them.
    private struct BitReader {
        let bytes: [UInt8]
        var position: Int
        var bitBuffer = 0
        var bitCount = 0

        init(bytes: [UInt8], position: Int) {
            self.bytes = bytes
            self.position = position
        }

        /// The byte position after the current byte, once the remaining bits are dropped.
        var alignedPosition: Int { position - bitCount / 8 }

        mutating func bits(_ count: Int) throws(Failure) -> Int {
            while bitCount < count {
                guard position < bytes.count else { throw Failure(reason: "unexpected end of compressed data") }
                bitBuffer |= Int(bytes[position]) << bitCount
                position += 1
                bitCount += 8
            }
            let value = bitBuffer & ((1 << count) - 1)
            bitBuffer >>= count
            bitCount -= count
            return value
        }

        mutating func copyStored(into output: inout [UInt8], limit: Int) throws(Failure) {
            bitBuffer = 0
            position -= bitCount / 8
            bitCount = 0
            guard position + 4 <= bytes.count else { throw Failure(reason: "truncated stored block") }
            let length = Int(bytes[position]) | Int(bytes[position + 1]) << 8
            let complement = Int(bytes[position + 2]) | Int(bytes[position + 3]) << 8
            guard length == ~complement & 0xFFFF else { throw Failure(reason: "stored block length mismatch") }
            position += 4
            guard position + length <= bytes.count else { throw Failure(reason: "truncated stored block") }
            guard output.count + length <= limit else { throw .limit(limit) }
            output += bytes[position..<position + length]
            position += length
        }
    }
}

extension Inflate.Failure {
    /// The decoded output would pass `limit` bytes.
    static func limit(_ limit: Int) -> Inflate.Failure {
        Inflate.Failure(reason: "it decodes to more than \(ByteCount.describe(limit)), the limit for this body "
                        + "(BodyLimits: maximum size, or expansion ratio for its compressed size)", exceededLimit: true)
    }
}
