import TapedeckTestSupport

/// A seeded mutation engine: the same seed gives the same inputs, so a failure reproduces.
///
/// Each input is a corpus entry with one to eight edits: flip, insert, delete, duplicate or
/// repeat a range (which is how nesting and long runs grow), splice another entry, or insert
/// a dictionary token.
public struct Mutator {
    private var random: SeededRandom
    /// The largest input produced.
    public var maximumSize: Int
    /// The largest corpus entry mutations start from.
    public static let largestSeed = 4 * 1024

    /// Creates a mutator with a seed.
    public init(seed: UInt64, maximumSize: Int = 16 * 1024) {
        random = SeededRandom(seed: seed)
        self.maximumSize = maximumSize
    }

    /// The next number of the seeded sequence (SplitMix64).
    public mutating func next() -> UInt64 {
        random.next()
    }

    /// A number in `0..<bound` (0 when bound is 0).
    public mutating func below(_ bound: Int) -> Int {
        bound <= 0 ? 0 : Int(next() % UInt64(bound))
    }

    /// A new input from the corpus and the dictionary.
    public mutating func input(corpus: [[UInt8]], dictionary: [[UInt8]]) -> [UInt8] {
        var bytes = corpus.isEmpty ? [] : corpus[below(corpus.count)]
        for _ in 0...below(8) {
            mutate(&bytes, corpus: corpus, dictionary: dictionary)
        }
        if bytes.count > maximumSize { bytes.removeLast(bytes.count - maximumSize) }
        return bytes
    }

    private mutating func mutate(_ bytes: inout [UInt8], corpus: [[UInt8]], dictionary: [[UInt8]]) {
        let position = below(bytes.count + 1)
        switch below(9) {
        case 0 where !bytes.isEmpty:
            bytes[below(bytes.count)] ^= UInt8(truncatingIfNeeded: 1 << below(8))
        case 1:
            bytes.insert(UInt8(truncatingIfNeeded: next()), at: position)
        case 2 where !bytes.isEmpty:
            let start = below(bytes.count)
            bytes.removeSubrange(start..<min(bytes.count, start + 1 + below(16)))
        case 3 where !bytes.isEmpty:
            let start = below(bytes.count)
            let chunk = Array(bytes[start..<min(bytes.count, start + 1 + below(32))])
            bytes.insert(contentsOf: chunk, at: below(bytes.count + 1))
        case 4 where !bytes.isEmpty:
            // A short range repeated many times: deep nesting, long runs, many placeholders.
            let start = below(bytes.count)
            let chunk = bytes[start..<min(bytes.count, start + 1 + below(4))]
            let times = 1 + below(below(2) == 0 ? 16 : 2_000)
            var repeated: [UInt8] = []
            repeated.reserveCapacity(chunk.count * times)
            for _ in 0..<times { repeated.append(contentsOf: chunk) }
            bytes.insert(contentsOf: repeated, at: position)
        case 5 where !corpus.isEmpty:
            let other = corpus[below(corpus.count)]
            let start = below(other.count + 1)
            bytes.insert(contentsOf: other[start..<min(other.count, start + below(64))], at: position)
        case 6 where !bytes.isEmpty:
            bytes[below(bytes.count)] = [0x00, 0x0A, 0x0D, 0x09, 0x20, 0x22, 0x27, 0x5C, 0x7B, 0x7D, 0x5B, 0x5D, 0xFF, 0xC3][below(14)]
        default:
            if !dictionary.isEmpty { bytes.insert(contentsOf: dictionary[below(dictionary.count)], at: position) }
        }
    }
}
