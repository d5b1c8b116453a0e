import Tapedeck

/// Recursive-descent reader for ``JSONPath`` text.
struct JSONPathParser {
    private let text: String
    private let characters: [Character]
    private var index = 0

    init(_ text: String) {
        self.text = text
        self.characters = Array(text)
    }

    mutating func parse() throws(JSONPathError) -> [JSONPath.Segment] {
        guard peek == "$" else {
            throw fail("a JSONPath starts with '$' (e.g. $.items[0].id)", at: 0)
        }
        index += 1
        let segments = try segmentsUntil { _ in false }
        if index < characters.count { throw fail("unexpected '\(characters[index])'") }
        return segments
    }

    private var peek: Character? { index < characters.count ? characters[index] : nil }

    private func fail(_ reason: String, at position: Int? = nil) -> JSONPathError {
        JSONPathError(path: text, column: (position ?? index) + 1, reason: reason)
    }

    private mutating func segmentsUntil(_ stop: (Character) -> Bool) throws(JSONPathError) -> [JSONPath.Segment] {
        var segments: [JSONPath.Segment] = []
        while let character = peek, !stop(character) {
            switch character {
            case ".":
                index += 1
                if peek == "." {
                    index += 1
                    if peek == "*" {
                        index += 1
                        segments.append(.descendant(nil))
                    } else if peek == "[" {
                        segments.append(.descendant(nil))
                    } else {
                        segments.append(.descendant(try name()))
                    }
                } else if peek == "*" {
                    index += 1
                    segments.append(.wildcard)
                } else {
                    segments.append(.child(try name()))
                }
            case "[":
                segments.append(try bracket())
            default:
                throw fail("expected '.' or '[' but found '\(character)'")
            }
        }
        return segments
    }

    private mutating func name() throws(JSONPathError) -> String {
        let start = index
        while let character = peek, !".[]() =!<>".contains(character), !character.isSpace {
            index += 1
        }
        guard index > start else { throw fail("expected a member name") }
        return String(characters[start..<index])
    }

    private mutating func bracket() throws(JSONPathError) -> JSONPath.Segment {
        let open = index
        index += 1
        skipSpaces()
        let segment: JSONPath.Segment
        switch peek {
        case "*":
            index += 1
            segment = .wildcard
        case "'", "\"":
            segment = .child(try quoted())
        case "?":
            index += 1
            skipSpaces()
            guard peek == "(" else { throw fail("expected '(' after '?' in a filter") }
            index += 1
            segment = try filter()
        case let character? where character == "-" || character.isNumber:
            segment = .index(try integer())
        case nil:
            throw fail("'[' is never closed", at: open)
        case let character?:
            throw fail("expected an index, '*', a quoted name or '?(' but found '\(character)'")
        }
        skipSpaces()
        guard peek == "]" else { throw fail(peek == nil ? "'[' is never closed" : "expected ']'", at: peek == nil ? open : nil) }
        index += 1
        return segment
    }

    private mutating func filter() throws(JSONPathError) -> JSONPath.Segment {
        skipSpaces()
        guard peek == "@" else { throw fail("a filter starts with '@' (e.g. [?(@.id == 1)])") }
        index += 1
        let path = try segmentsUntil { $0 == " " || $0 == ")" || "=!<>".contains($0) }
        skipSpaces()
        var comparison: JSONPath.FilterComparison?
        if let character = peek, "=!<>".contains(character) {
            let op = try comparisonOperator()
            skipSpaces()
            comparison = JSONPath.FilterComparison(op: op, value: try literal(after: op))
            skipSpaces()
        }
        guard peek == ")" else { throw fail(peek == nil ? "the filter '(' is never closed" : "expected ')'") }
        index += 1
        return .filter(path: path, comparison: comparison)
    }

    private mutating func comparisonOperator() throws(JSONPathError) -> ComparisonOperator {
        let start = index
        while let character = peek, "=!<>".contains(character) { index += 1 }
        let symbol = String(characters[start..<index])
        guard let op = ComparisonOperator(rawValue: symbol) else {
            throw fail("unknown operator '\(symbol)'; use ==, !=, <, <=, > or >=", at: start)
        }
        return op
    }

    private mutating func literal(after op: ComparisonOperator) throws(JSONPathError) -> JSONValue {
        let expected = "a number, true, false, null or a quoted string"
        switch peek {
        case "'", "\"":
            return .string(try quoted())
        case nil:
            throw fail("expected a value after '\(op.rawValue)' (\(expected)), found the end of the path")
        case ")", "]":
            throw fail("expected a value after '\(op.rawValue)' (\(expected)), found '\(peek.map(String.init) ?? "")'")
        default:
            let start = index
            while let character = peek, character != ")", character != "]", !character.isSpace { index += 1 }
            let word = String(characters[start..<index])
            switch word {
            case "true": return .bool(true)
            case "false": return .bool(false)
            case "null": return .null
            default:
                guard ValueLiteral.isNumber(word) else {
                    throw fail("expected a value after '\(op.rawValue)' (\(expected)), found '\(Excerpt.of(word))'", at: start)
                }
                return .number(word)
            }
        }
    }

    private mutating func quoted() throws(JSONPathError) -> String {
        let open = index
        guard let quote = peek else { throw fail("expected a quoted name") }
        index += 1
        var value = ""
        while let character = peek {
            index += 1
            if character == "\\", let next = peek {
                value.append(next)
                index += 1
            } else if character == quote {
                return value
            } else {
                value.append(character)
            }
        }
        throw fail("the quote \(quote) is never closed", at: open)
    }

    private mutating func integer() throws(JSONPathError) -> Int {
        let start = index
        if peek == "-" { index += 1 }
        while let character = peek, character.isASCII, character.isNumber { index += 1 }
        guard let value = Int(String(characters[start..<index])) else {
            throw fail("expected an integer index", at: start)
        }
        return value
    }

    private mutating func skipSpaces() {
        while let character = peek, character == " " { index += 1 }
    }
}
