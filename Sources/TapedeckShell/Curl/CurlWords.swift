import Foundation

/// Splits a pasted `curl …` command into words as a POSIX shell would: `'…'` literal, `"…"`
/// with `\"`, `\\`, `\$` and `` \` `` escapes, `$'…'` with C escapes (what Chrome writes for
/// bodies with quotes or newlines), a backslash outside quotes escaping the next character,
/// and backslash-newline (or `^`-newline from Windows' "Copy as cURL (cmd)") continuing the line.
enum CurlWords {
    /// One word: its text once unquoted, and the characters of the line it was spelled with.
    struct Word: Equatable {
        var text: String
        /// Offsets into the line's `Array(text)`, quotes included.
        var span: Range<Int>
    }

    /// The words; throws for an unclosed quote.
    static func split(_ text: String) throws(CurlImportError) -> [String] {
        try words(text).map(\.text)
    }

    /// The words with where each was spelled; throws for an unclosed quote.
    static func words(_ text: String) throws(CurlImportError) -> [Word] {
        var words: [Word] = []
        var current = ""
        var begin: Int?
        let characters = Array(text)
        var index = 0
        var inWord: Bool {
            get { begin != nil }
            set { begin = newValue ? (begin ?? index) : nil }
        }
        func finish() {
            if let start = begin { words.append(Word(text: current, span: start..<index)) }
            current = ""
            begin = nil
        }
        func next() -> Character? {
            index += 1
            return index < characters.count ? characters[index] : nil
        }
        while index < characters.count {
            let character = characters[index]
            switch character {
            case " ", "\t", "\n", "\r":
                finish()
            case "\\":
                let start = index
                guard let escaped = next() else { break }
                if escaped == "\n" || escaped == "\r" {
                    if escaped == "\r", index + 1 < characters.count, characters[index + 1] == "\n" { index += 1 }
                } else {
                    current.append(escaped)
                    begin = begin ?? start
                }
            case "'":
                inWord = true
                while true {
                    guard let inner = next() else { throw .unclosedQuote("'") }
                    if inner == "'" { break }
                    current.append(inner)
                }
            case "\"":
                inWord = true
                while true {
                    guard let inner = next() else { throw .unclosedQuote("\"") }
                    if inner == "\"" { break }
                    if inner == "\\", index + 1 < characters.count, "\"\\$`\n".contains(characters[index + 1]) {
                        let escaped = characters[index + 1]
                        index += 1
                        if escaped != "\n" { current.append(escaped) }
                        continue
                    }
                    current.append(inner)
                }
            case "$" where index + 1 < characters.count && characters[index + 1] == "'":
                inWord = true
                index += 1
                while true {
                    guard let inner = next() else { throw .unclosedQuote("$'") }
                    if inner == "'" { break }
                    guard inner == "\\", let escaped = next() else { current.append(inner); continue }
                    switch escaped {
                    case "n": current.append("\n")
                    case "t": current.append("\t")
                    case "r": current.append("\r")
                    case "0": current.append("\0")
                    case "x", "u":
                        var digits = ""
                        let limit = escaped == "x" ? 2 : 4
                        while digits.count < limit, index + 1 < characters.count, characters[index + 1].isHexDigit {
                            index += 1
                            digits.append(characters[index])
                        }
                        if let value = UInt32(digits, radix: 16), let scalar = Unicode.Scalar(value) { current.unicodeScalars.append(scalar) }
                    default: current.append(escaped)
                    }
                }
            case "^" where index + 1 < characters.count && (characters[index + 1] == "\n" || characters[index + 1] == "\r\n"):
                index += 1
            default:
                current.append(character)
                inWord = true
            }
            index += 1
        }
        finish()
        return words
    }
}
