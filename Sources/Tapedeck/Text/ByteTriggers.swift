import Foundation

/// Words, one of which is in any text a redaction or lint rule could act on: a JSON member name
/// the redactor replaces holds one of its names, a key-like name holds `_token`, `password`…,
/// a bearer token holds `bearer `. Text that holds none of them (compared in either case) is
/// left alone without being parsed, which is most bodies and queries; text with an escape that
/// could spell one, or with bytes past ASCII (which lower-case in other ways), is always parsed.
package struct ByteTriggers: Sendable, Hashable {
    /// The words, lower-case, one after another.
    private let letters: [UInt8]
    /// Each word's place in `letters`, the words grouped by first byte.
    private let words: [Range<Int>]
    /// For each ASCII byte (lower-case), the range of `words` that start with it.
    private let byFirstByte: [Range<Int>]
    /// For each first byte (lower-case), the second bytes (lower-case) of the words it starts.
    private let seconds: [ASCIISet]
    /// For each byte value, what it means to ``mayMatch(_:)``: ``plain``, ``ends`` (past ASCII,
    /// or a byte after which a word may be spelled otherwise: `\u0070assword`, `pass%77ord`) or ``startsWord``,
    /// so that the bytes that are neither (most of a body) cost one load and one test each.
    private let kinds: [UInt8]
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
        self.letters = letters
        self.words = places
        self.byFirstByte = byFirstByte
        self.seconds = seconds
        var escapeBits = ASCIISet()
        for byte in escapes.utf8 { escapeBits.insert(byte) }
        kinds = (0..<256).map { value in
            let byte = UInt8(value)
            if byte >= 0x80 || escapeBits.contains(byte) { return Self.ends }
            return starts.contains(byte) ? Self.startsWord : Self.plain
        }
    }

    /// Whether `text` may hold a word: it does, or it holds an escape or a byte past ASCII.
    package func mayMatch(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        // The tables are read through pointers: an array read in the loop is retained and
        // released for each byte.
        kinds.withUnsafeBufferPointer { kinds in
            seconds.withUnsafeBufferPointer { seconds in
                byFirstByte.withUnsafeBufferPointer { byFirstByte in
                    letters.withUnsafeBufferPointer { letters in
                        words.withUnsafeBufferPointer { words in
                            Self.scan(text, kinds: kinds, seconds: seconds, byFirstByte: byFirstByte, letters: letters, words: words)
                        }
                    }
                }
            }
        }
    }

    /// ``mayMatch(_:)`` over the tables.
    private static func scan(_ text: UnsafeBufferPointer<UInt8>, kinds: UnsafeBufferPointer<UInt8>, seconds: UnsafeBufferPointer<ASCIISet>,
                             byFirstByte: UnsafeBufferPointer<Range<Int>>, letters: UnsafeBufferPointer<UInt8>,
                             words: UnsafeBufferPointer<Range<Int>>) -> Bool {
        let count = text.count
        // One table load per byte; only a byte that starts a word is looked at further.
        for index in 0..<count {
            let byte = text[index]
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
