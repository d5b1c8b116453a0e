import Foundation

/// Words, one of which is in any text a redaction or lint rule could act on: a JSON member name
/// the redactor replaces holds one of its names, a key-like name holds `_token`, `password`…,
/// a bearer token holds `bearer `. Text that holds none of them (compared in either case) is
/// left alone without being parsed, which is most bodies and queries; text with an escape that
/// could spell one, or with bytes past ASCII (which lower-case in other ways), is always parsed.
package struct ByteTriggers: Sendable, Hashable {
    /// The words, lower-case, by their first byte.
    private let byFirstByte: [[[UInt8]]]
    /// The bytes after which a word may be spelled otherwise (`\u0070assword`, `pass%77ord`).
    private let escapes: [UInt8]

    /// Triggers for `words` (ASCII; others are matched by the bytes-past-ASCII rule), in text
    /// where `escapes` start escape sequences.
    package init(_ words: some Sequence<String>, escapes: String) {
        var table = [[[UInt8]]](repeating: [], count: 128)
        for word in Set(words.map { $0.lowercased() }) {
            let bytes = Array(word.utf8)
            guard let first = bytes.first, first < 0x80 else { continue }
            table[Int(first)].append(bytes)
        }
        byFirstByte = table
        self.escapes = Array(escapes.utf8)
    }

    /// Whether `text` may hold a word: it does, or it holds an escape or a byte past ASCII.
    package func mayMatch(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        let count = text.count
        for index in 0..<count {
            let byte = text[index]
            if byte >= 0x80 || escapes.contains(byte) { return true }
            let lower = Self.lower(byte)
            for word in byFirstByte[Int(lower)] where index + word.count <= count {
                var offset = 1
                while offset < word.count, Self.lower(text[index + offset]) == word[offset] { offset += 1 }
                if offset == word.count { return true }
            }
        }
        return false
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
