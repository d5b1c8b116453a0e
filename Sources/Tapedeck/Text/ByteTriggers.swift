import Foundation

/// Words, one of which is in any text a redaction or lint rule could act on: a JSON member name
/// the redactor replaces holds one of its names, a key-like name holds `_token`, `password`…,
/// a bearer token holds `bearer `. Text that holds none of them (compared in either case) is
/// left alone without being parsed, which is most bodies and queries; text with an escape that
/// could spell one, or with bytes past ASCII (which lower-case in other ways), is always parsed.
package struct ByteTriggers: Sendable, Hashable {
    /// The tables below, held in one object: a redactor holds several triggers and is copied
    /// into every closure that redacts, and each array held directly was one more reference
    /// counted on every copy.
    private let tables: Tables

    /// The words, lower-case, one after another.
    private var letters: [UInt8] { tables.letters }
    /// Each word's place in `letters`, the words grouped by first byte.
    private var words: [Range<Int>] { tables.words }
    /// For each ASCII byte (lower-case), the range of `words` that start with it.
    private var byFirstByte: [Range<Int>] { tables.byFirstByte }
    /// For each first byte (lower-case), the second bytes (lower-case) of the words it starts.
    private var seconds: [ASCIISet] { tables.seconds }
    /// For each byte value, what it means to ``mayMatch(_:)``: ``plain``, ``ends`` (past ASCII,
    /// or a byte after which a word may be spelled otherwise: `\u0070assword`, `pass%77ord`) or ``startsWord``,
    /// so that the bytes that are neither (most of a body) cost one load and one test each.
    private var kinds: [UInt8] { tables.kinds }
    /// One bit for each pair of bytes: set when the first ``ends`` or the two may start a word
    /// (in either case), so that a byte that starts words but not with the byte after it (the
    /// `x` in `xx`) costs no more than one that starts none.
    private var pairs: [UInt64] { tables.pairs }

    private final class Tables: Sendable, Hashable {
        let letters: [UInt8]
        let words: [Range<Int>]
        let byFirstByte: [Range<Int>]
        let seconds: [ASCIISet]
        let kinds: [UInt8]
        let pairs: [UInt64]

        init(letters: [UInt8], words: [Range<Int>], byFirstByte: [Range<Int>], seconds: [ASCIISet], kinds: [UInt8], pairs: [UInt64]) {
            self.letters = letters
            self.words = words
            self.byFirstByte = byFirstByte
            self.seconds = seconds
            self.kinds = kinds
            self.pairs = pairs
        }

        static func == (lhs: Tables, rhs: Tables) -> Bool {
            lhs === rhs || (lhs.letters == rhs.letters && lhs.words == rhs.words && lhs.kinds == rhs.kinds)
        }

        func hash(into hasher: inout Hasher) {
            hasher.combine(letters)
            hasher.combine(kinds)
        }
    }

    private static let plain: UInt8 = 0
    private static let ends: UInt8 = 1
    private static let startsWord: UInt8 = 2

    /// Triggers for `words` (ASCII; others are matched by the bytes-past-ASCII rule), in text
    /// where `escapes` start escape sequences.
    package init(_ words: some Sequence<String>, escapes: String) {
        let sorted = Set(words.map { $0.lowercased() }).map { Array($0.utf8) }.filter { ($0.first ?? 0x80) < 0x80 }.sorted {
            $0.lexicographicallyPrecedes($1)
        }
        var letters: [UInt8] = [], places: [Range<Int>] = []
        var byFirstByte = [Range<Int>](repeating: 0..<0, count: 128)
        var starts = ASCIISet()
        var seconds = [ASCIISet](repeating: ASCIISet(), count: 128)
        for word in sorted {
            // A one-letter word matches whatever follows it.
            if word.count == 1 { (0..<128).forEach { seconds[Int(word[0])].insert(UInt8($0)) } } else { seconds[Int(word[0])].insert(word[1]) }
            let first = Int(word[0])
            if byFirstByte[first].isEmpty { byFirstByte[first] = places.count..<places.count }
            places.append(letters.count..<(letters.count + word.count))
            letters += word
            byFirstByte[first] = byFirstByte[first].lowerBound..<places.count
            starts.insert(word[0])
            starts.insert(Self.upper(word[0]))
        }
        var escapeBits = ASCIISet()
        for byte in escapes.utf8 { escapeBits.insert(byte) }
        let kinds: [UInt8] = (0..<256).map { value in
            let byte = UInt8(value)
            if byte >= 0x80 || escapeBits.contains(byte) { return Self.ends }
            return starts.contains(byte) ? Self.startsWord : Self.plain
        }
        // Each first byte has four words of bits, one for each 64 second bytes.
        var pairs = [UInt64](repeating: 0, count: 1 << 10)
        for first in 0..<256 {
            if kinds[first] == Self.ends {
                for word in 0..<4 { pairs[first << 2 | word] = ~0 }
            } else if kinds[first] == Self.startsWord {
                let followers = seconds[Int(Self.lower(UInt8(first)))]
                for second in 0..<128 where followers.contains(Self.lower(UInt8(second))) {
                    pairs[first << 2 | second >> 6] |= 1 << UInt64(second & 63)
                }
            }
        }
        tables = Tables(letters: letters, words: places, byFirstByte: byFirstByte, seconds: seconds, kinds: kinds, pairs: pairs)
    }

    /// Whether `text` may hold a word: it does, or it holds an escape or a byte past ASCII.
    package func mayMatch(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        // The tables are read through pointers: an array read in the loop is retained and
        // released for each byte.
        kinds.withUnsafeBufferPointer { kinds in
            pairs.withUnsafeBufferPointer { pairs in
                seconds.withUnsafeBufferPointer { seconds in
                    byFirstByte.withUnsafeBufferPointer { byFirstByte in
                        letters.withUnsafeBufferPointer { letters in
                            words.withUnsafeBufferPointer { words in
                                Self.scan(text, kinds: kinds, pairs: pairs, seconds: seconds, byFirstByte: byFirstByte, letters: letters, words: words)
                            }
                        }
                    }
                }
            }
        }
    }

    /// ``mayMatch(_:)`` over the tables.
    private static func scan(_ text: UnsafeBufferPointer<UInt8>, kinds: UnsafeBufferPointer<UInt8>, pairs: UnsafeBufferPointer<UInt64>,
                             seconds: UnsafeBufferPointer<ASCIISet>, byFirstByte: UnsafeBufferPointer<Range<Int>>,
                             letters: UnsafeBufferPointer<UInt8>, words: UnsafeBufferPointer<Range<Int>>) -> Bool {
        let count = text.count
        // One bit test per byte and the next; only a pair that may start a word is looked at further.
        for index in 0..<count {
            let byte = text[index]
            if index + 1 < count {
                let pair = Int(byte) << 8 | Int(text[index + 1])
                if pairs[pair >> 6] & (1 << UInt64(pair & 63)) == 0 { continue }
            }
            let kind = kinds[Int(byte)]
            if kind == plain { continue }
            if kind == ends { return true }
            // Two bit tests rule out most letters: `xx` starts no word though `x` starts several.
            let first = Int(lower(byte))
            guard index + 1 == count || seconds[first].contains(lower(text[index + 1])) else { continue }
            for word in words[byFirstByte[first]] where index + word.count <= count {
                var offset = 1
                while offset < word.count, lower(text[index + offset]) == letters[word.lowerBound + offset] { offset += 1 }
                if offset == word.count { return true }
            }
        }
        return false
    }

    private static func upper(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z") ? byte & ~0x20 : byte
    }

    /// ``mayMatch(_:)`` of a body.
    package func mayMatch(_ data: Data) -> Bool {
        data.withUnsafeBytes { mayMatch($0.bindMemory(to: UInt8.self)) }
    }

    /// ``mayMatch(_:)`` of text.
    package func mayMatch(_ text: String) -> Bool {
        ByteSearch.withBytes(of: text) { mayMatch($0) }
    }

    private static func lower(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
    }
}
