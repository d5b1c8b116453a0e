import Tapedeck

/// `==`, `!=`, `<`, `<=`, `>`, `>=`.
public enum ComparisonOperator: String, CaseIterable, Hashable, Sendable {
    case equal = "==", notEqual = "!=", less = "<", lessOrEqual = "<=", greater = ">", greaterOrEqual = ">="
}

/// Typed comparison of JSON values: numbers by exact value (no `Double` rounding, so
/// `9007199254740993 != 9007199254740992`), strings by text, booleans and null by identity. With `lenient` (queries whose values are always text: headers, body, regex), a
/// string that holds a number compares as that number, so `header Content-Length == 42` works;
/// JSON values compare strictly (`"1"` is not `1`).
enum ValueComparison {
    static func compare(_ actual: JSONValue, _ op: ComparisonOperator, _ expected: JSONValue, lenient: Bool = false) -> Bool {
        switch op {
        case .equal: return equal(actual, expected, lenient: lenient)
        case .notEqual: return !equal(actual, expected, lenient: lenient)
        case .less, .lessOrEqual, .greater, .greaterOrEqual:
            guard let order = order(actual, expected, lenient: lenient) else { return false }
            switch op {
            case .less: return order < 0
            case .lessOrEqual: return order <= 0
            case .greater: return order > 0
            default: return order >= 0
            }
        }
    }

    static func equal(_ a: JSONValue, _ b: JSONValue, lenient: Bool = false) -> Bool {
        // A text (a body, a header) compared with a JSON array or object is read as JSON.
        if lenient, case .string(let text) = a, isStructured(b) {
            return (try? JSONParser.parse(text)).map { $0.semanticallyEquals(b) } ?? false
        }
        if lenient, let x = number(a), let y = number(b), isNumeric(a) || isNumeric(b) { return JSONValue.compareNumbers(x, y) == 0 }
        if isNumeric(a), isNumeric(b), let x = number(a), let y = number(b) { return JSONValue.compareNumbers(x, y) == 0 }
        return a.semanticallyEquals(b)
    }

    private static func order(_ a: JSONValue, _ b: JSONValue, lenient: Bool) -> Int? {
        if lenient || (isNumeric(a) && isNumeric(b)), let x = number(a), let y = number(b) { return JSONValue.compareNumbers(x, y).signum() }
        if case .string(let x) = a, case .string(let y) = b { return x < y ? -1 : (x > y ? 1 : 0) }
        return nil
    }

    private static func isStructured(_ value: JSONValue) -> Bool {
        switch value {
        case .array, .object: true
        default: false
        }
    }

    private static func isNumeric(_ value: JSONValue) -> Bool {
        if case .number = value { return true }
        return false
    }

    /// The number literal a value holds: a JSON number, or a string that is a JSON number literal.
    static func number(_ value: JSONValue) -> String? {
        switch value {
        case .number(let literal): return literal
        case .string(let text) where ValueLiteral.isNumber(text): return text
        default: return nil
        }
    }
}

/// Turns a predicate's written value into a typed JSON value.
enum ValueLiteral {
    /// Quoted text is a string; unquoted `true`/`false`/`null`/numbers are typed, and so is an
    /// unquoted JSON array or object (`[1, 2]`, `{"id": 7}`); anything else is a string.
    static func parse(_ text: String, quoted: Bool) -> JSONValue {
        if quoted { return .string(text) }
        switch text {
        case "true": return .bool(true)
        case "false": return .bool(false)
        case "null": return .null
        default:
            if isNumber(text) { return .number(text) }
            if let structured = structured(text) { return structured }
            return .string(text)
        }
    }

    /// `text` as a JSON array or object, when it is one.
    private static func structured(_ text: String) -> JSONValue? {
        guard text.hasPrefix("[") || text.hasPrefix("{"), let value = try? JSONParser.parse(text) else { return nil }
        switch value {
        case .array, .object: return value
        default: return nil
        }
    }

    /// Refuses a bracketed value (`[1, 2]`) that is not JSON, unless a template fills it in
    /// when the command runs: written unquoted, it would otherwise be compared as text.
    static func checkJSON(_ word: Word) throws(ParseError) {
        guard !word.text.contains("{{") else { return }
        do {
            _ = try JSONParser.parse(word.text)
        } catch {
            // The parser counts Unicode scalars; a script's columns count characters, as an
            // editor shows them (an emoji with a skin tone is one).
            let before = String(decoding: word.text.utf8.prefix(error.offset), as: UTF8.self)
            throw ParseError(.invalidValue(word.text, expected: "a JSON array or object (\(error.reason)); quote it to compare it as text"),
                             at: word.location.advanced(by: before.count))
        }
    }

    /// Whether `text` is a JSON number literal.
    static func isNumber(_ text: String) -> Bool {
        var bytes = Substring(text).utf8[...]
        if bytes.first == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
        let digits = bytes.prefix { $0 >= 48 && $0 <= 57 }
        guard !digits.isEmpty, !(digits.count > 1 && digits.first == 48) else { return false }
        bytes = bytes.dropFirst(digits.count)
        if bytes.first == UInt8(ascii: ".") {
            bytes = bytes.dropFirst()
            let fraction = bytes.prefix { $0 >= 48 && $0 <= 57 }
            guard !fraction.isEmpty else { return false }
            bytes = bytes.dropFirst(fraction.count)
        }
        if bytes.first == UInt8(ascii: "e") || bytes.first == UInt8(ascii: "E") {
            bytes = bytes.dropFirst()
            if bytes.first == UInt8(ascii: "+") || bytes.first == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
            let exponent = bytes.prefix { $0 >= 48 && $0 <= 57 }
            guard !exponent.isEmpty else { return false }
            bytes = bytes.dropFirst(exponent.count)
        }
        return bytes.isEmpty
    }

    /// A value as a failure message shows it: strings quoted, others as JSON, missing marked;
    /// `redacting` applied first when it is cut to `limit`, so a token the cut would shorten
    /// past recognition is replaced whole.
    static func describe(_ value: JSONValue?, limit: Int = 300, redacting: (String) -> String = { $0 }) -> String {
        guard let value else { return "(missing)" }
        return Excerpt.cut(JSONWriter.write(value, options: []), limit: limit, redacting: redacting)
    }

    /// A value as interpolation and `print` use it: strings raw, others as JSON.
    static func text(_ value: JSONValue) -> String {
        if case .string(let string) = value { return string }
        return JSONWriter.write(value, options: [])
    }
}
