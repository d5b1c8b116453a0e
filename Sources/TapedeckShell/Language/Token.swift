/// Reads the words of one script line the way a shell would: whitespace separates words,
/// `'…'` is literal, `"…"` allows `\"` and `\\`, a backslash outside quotes escapes the next
/// character, and an unquoted word starting with `#` begins a comment.
///
/// The parser drives it word by word because a few arguments follow their own rules:
/// JSONPath expressions keep spaces inside brackets, and `print` takes the rest of the line.
struct LineScanner {
    private let characters: [Character]
    /// The line's bytes when it is all ASCII (most lines): one byte per character, so a run of
    /// plain characters is copied at once instead of appended a `Character` at a time.
    private let ascii: [UInt8]?
    private(set) var index = 0
    private let start: SourceLocation

    /// Scans `text`, whose first character is at `start`.
    init(_ text: String, start: SourceLocation) {
        characters = Array(text)
        ascii = text.utf8.count == characters.count ? Array(text.utf8) : nil
        self.start = start
    }

    /// The location of the next unread character.
    var location: SourceLocation { start.advanced(by: index) }

    /// Whether only spaces or a comment remain.
    var isAtEnd: Bool {
        var copy = self
        copy.skipSpaces()
        return copy.index >= characters.count || characters[copy.index] == "#"
    }

    /// The next word without consuming it.
    func peek() throws(ParseError) -> Word? {
        var copy = self
        return try copy.word()
    }

    /// The next word, or nil at the end of the line.
    mutating func word() throws(ParseError) -> Word? {
        skipSpaces()
        guard index < characters.count, characters[index] != "#" else { return nil }
        let begin = location
        var text = ""
        var quoted = false
        while index < characters.count, !characters[index].isSpace {
            let character = characters[index]
            switch character {
            case "'":
                quoted = true
                let open = location
                index += 1
                guard let close = characters[index...].firstIndex(of: "'") else {
                    throw ParseError(.unclosedQuote("'"), at: open)
                }
                text += String(characters[index..<close])
                index = close + 1
            case "\"":
                quoted = true
                text += try doubleQuoted()
            case "\\" where index + 1 < characters.count:
                text.append(characters[index + 1])
                index += 2
            default:
                guard let ascii else {
                    text.append(character)
                    index += 1
                    break
                }
                let run = index
                index += 1
                while index < ascii.count, Self.isPlain(ascii[index]) { index += 1 }
                text += String(decoding: ascii[run..<index], as: UTF8.self)
            }
        }
        try Template.validate(text, at: begin)
        return Word(text, quoted: quoted, location: begin)
    }

    /// A JSONPath argument: up to the next space that is outside brackets and quotes.
    mutating func jsonPath() throws(ParseError) -> Word? {
        try bracketed(opening: "[(", closing: "])")
    }

    /// A JSON array or object written as a value (`[1, 2]`, `{"id": 7}`), kept as written, up
    /// to the space after its closing bracket; nil, reading nothing, when the next word does not
    /// start with `[` or `{` (or starts a `{{template}}`).
    mutating func jsonLiteral() throws(ParseError) -> Word? {
        skipSpaces()
        guard index < characters.count, characters[index] == "[" || characters[index] == "{" else { return nil }
        // `{{name}}` is a template, not an object.
        if characters[index] == "{", index + 1 < characters.count, characters[index + 1] == "{" { return nil }
        return try bracketed(opening: "[{", closing: "]}")
    }

    /// Up to the next space that is outside the brackets `opening` and `closing` and outside
    /// quotes; the text as written, quotes and escapes kept.
    private mutating func bracketed(opening: String, closing: String) throws(ParseError) -> Word? {
        skipSpaces()
        guard index < characters.count else { return nil }
        let begin = location
        var depth = 0
        var quote: Character?
        var text = ""
        while index < characters.count {
            let character = characters[index]
            if let open = quote {
                if character == "\\", index + 1 < characters.count {
                    text.append(character)
                    index += 1
                    text.append(characters[index])
                    index += 1
                    continue
                }
                if character == open { quote = nil }
            } else if character == "'" || character == "\"" {
                quote = character
            } else if opening.contains(character) {
                depth += 1
            } else if closing.contains(character) {
                depth -= 1
            } else if character.isSpace, depth <= 0 {
                break
            }
            text.append(character)
            index += 1
        }
        if let quote { throw ParseError(.unclosedQuote(quote), at: begin) }
        try Template.validate(text, at: begin)
        return Word(text, location: begin)
    }

    /// The rest of the line, trimmed; a rest that is one quoted string is unquoted.
    mutating func rest() throws(ParseError) -> Word? {
        skipSpaces()
        guard index < characters.count else { return nil }
        let begin = location
        var copy = self
        if characters[index] == "\"" || characters[index] == "'", let word = try copy.word(), copy.isAtEnd {
            self = copy
            return word
        }
        var text = String(characters[index...])
        while text.last?.isSpace == true { text.removeLast() }
        index = characters.count
        try Template.validate(text, at: begin)
        return Word(text, location: begin)
    }

    /// An ASCII byte that goes into a word as it is: not a space, a quote or a backslash.
    private static func isPlain(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x20, 0x09, 0x0A, 0x0B, 0x0C, 0x0D, UInt8(ascii: "'"), UInt8(ascii: "\""), UInt8(ascii: "\\"): false
        default: true
        }
    }

    private mutating func skipSpaces() {
        while index < characters.count, characters[index].isSpace { index += 1 }
    }

    private mutating func doubleQuoted() throws(ParseError) -> String {
        let open = location
        index += 1
        var text = ""
        while index < characters.count {
            let character = characters[index]
            if character == "\"" {
                index += 1
                return text
            }
            if character == "\\", index + 1 < characters.count,
               characters[index + 1] == "\"" || characters[index + 1] == "\\" {
                text.append(characters[index + 1])
                index += 2
                continue
            }
            text.append(character)
            index += 1
        }
        throw ParseError(.unclosedQuote("\""), at: open)
    }
}

extension Character {
    /// Whitespace, with an ASCII fast path (Unicode property lookups dominate otherwise).
    var isSpace: Bool {
        if let ascii = asciiValue { return ascii == 0x20 || ascii == 0x09 || ascii == 0x0A || ascii == 0x0D || ascii == 0x0B || ascii == 0x0C }
        return isWhitespace
    }
}

extension StringProtocol {
    /// The text without leading and trailing spaces and tabs.
    var trimmedSpaces: String {
        guard let first = firstIndex(where: { !$0.isSpace }), let last = lastIndex(where: { !$0.isSpace }) else { return "" }
        return String(self[first...last])
    }
}
