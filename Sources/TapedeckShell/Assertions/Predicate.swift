import Foundation
import Tapedeck

/// The test `expect` applies to a query's value.
public enum Predicate: Hashable, Sendable, CustomStringConvertible {
    /// `== != < <= > >= VALUE`
    case compare(ComparisonOperator, Word)
    /// `contains VALUE`: substring, array element or object key.
    case contains(Word)
    /// `startsWith VALUE`
    case startsWith(Word)
    /// `endsWith VALUE`
    case endsWith(Word)
    /// `matches /re/` or `matches "re"`
    case matches(Word)
    /// `exists` (and `not exists`)
    case exists
    /// `isString isNumber isBool isArray isObject isNull`
    case isType(String)
    /// `count OP N`: the number of elements, members or characters.
    case count(ComparisonOperator, Word)

    /// Predicate keywords, for errors and completion.
    public static let keywords = ComparisonOperator.allCases.map(\.rawValue)
        + ["contains", "startsWith", "endsWith", "matches", "exists", "not", "count"] + typeKeywords
    /// The `isX` keywords and the JSON type names they test.
    static let typeKeywords = ["isString", "isNumber", "isBool", "isArray", "isObject", "isNull"]

    public var description: String {
        switch self {
        case .compare(let op, let value): "\(op.rawValue) \(Predicate.show(value))"
        case .contains(let value): "contains \(Predicate.show(value))"
        case .startsWith(let value): "startsWith \(Predicate.show(value))"
        case .endsWith(let value): "endsWith \(Predicate.show(value))"
        case .matches(let value): "matches /\(value.text)/"
        case .exists: "exists"
        case .isType(let keyword): keyword
        case .count(let op, let value): "count \(op.rawValue) \(value.text)"
        }
    }

    private static func show(_ word: Word) -> String {
        word.quoted ? "\"\(word.text)\"" : word.text
    }

    /// The word holding the expected value, if any.
    var valueWord: Word? {
        switch self {
        case .compare(_, let word), .contains(let word), .startsWith(let word), .endsWith(let word),
             .matches(let word), .count(_, let word):
            return word
        case .exists, .isType:
            return nil
        }
    }

    /// Whether `actual` passes; `expected` is the value word with templates expanded.
    func test(_ actual: JSONValue?, expected: String?, lenient: Bool = false) throws(ShellError) -> Bool {
        let word = valueWord
        // A JSON array or object after a JSON query, filled in by a template, must still be JSON
        // (one written whole was checked as the line was read).
        if !lenient, let word, !word.quoted, word.text.contains("{{"), word.text.hasPrefix("[") || (word.text.hasPrefix("{") && !word.text.hasPrefix("{{")),
           let expected {
            do {
                _ = try JSONParser.parse(expected)
            } catch {
                throw .parse(ParseError(.invalidValue(Excerpt.of(expected), expected: "a JSON array or object once its templates are filled in (\(error.reason)); "
                    + "quote it to compare it as text"), at: word.location))
            }
        }
        let typed = ValueLiteral.parse(expected ?? "", quoted: word?.quoted ?? false)
        switch self {
        case .exists:
            return actual != nil
        case .isType(let keyword):
            guard let actual else { return false }
            return "is" + Predicate.capitalizedType(actual) == keyword
        case .compare(let op, _):
            guard let actual else { return op == .notEqual }
            return ValueComparison.compare(actual, op, typed, lenient: lenient)
        case .contains:
            switch actual {
            case .string(let text)?: return text.contains(expected ?? "")
            case .array(let elements)?: return elements.contains { ValueComparison.equal($0, typed) }
            case .object(let members)?: return members.contains { $0.key == expected }
            default: return false
            }
        case .startsWith:
            return actual.map(ValueLiteral.text)?.hasPrefix(expected ?? "") ?? false
        case .endsWith:
            return actual.map(ValueLiteral.text)?.hasSuffix(expected ?? "") ?? false
        case .matches(let pattern):
            guard let actual else { return false }
            let expression = try RegexCache.compile(expected ?? "", at: pattern.location)
            let text = ValueLiteral.text(actual)
            return expression.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
        case .count(let op, _):
            guard let size = actual.flatMap(Predicate.size) else { return false }
            return ValueComparison.compare(.number(String(size)), op, typed)
        }
    }

    static func size(_ value: JSONValue) -> Int? {
        switch value {
        case .array(let elements): return elements.count
        case .object(let members): return members.count
        case .string(let text): return text.count
        default: return nil
        }
    }

    private static func capitalizedType(_ value: JSONValue) -> String {
        switch value {
        case .null: "Null"
        case .bool: "Bool"
        case .number: "Number"
        case .string: "String"
        case .array: "Array"
        case .object: "Object"
        }
    }
}

/// `expect QUERY [not] PREDICATE`.
public struct Assertion: Hashable, Sendable, CustomStringConvertible {
    /// What is looked at.
    public var query: ResponseQuery
    /// The test.
    public var predicate: Predicate
    /// Whether the test is negated with `not`.
    public var negated: Bool

    /// Creates an assertion.
    public init(query: ResponseQuery, predicate: Predicate, negated: Bool = false) {
        self.query = query
        self.predicate = predicate
        self.negated = negated
    }

    public var description: String {
        "\(query) \(negated ? "not " : "")\(predicate)"
    }
}

/// A failed `expect`: the query, what was expected, what was found and where.
public struct AssertionFailure: Hashable, Sendable {
    /// The assertion as written (`json $.id == 7`).
    public var assertion: String
    /// The query (`json $.id`).
    public var query: String
    /// The expected side (`== 7`).
    public var expected: String
    /// The actual value (`8`, `"text"`, `(missing)`).
    public var actual: String
    /// Why the value is missing, when it is.
    public var note: String?
    /// Where the `expect` was written.
    public var location: SourceLocation
    /// The exchange the response came from (`GET http://…/json → 200 OK`), so a CI log says
    /// which request it was.
    public var exchange: String?

    /// The multi-line message printed for the failure.
    public var message: String {
        var lines = [
            "\(location): \(assertion.hasPrefix("capture ") ? "capture" : "expect") failed: \(assertion)",
            "  query:    \(query)",
            "  expected: \(expected)",
            "  actual:   \(actual)",
        ]
        if let note { lines.append("  note:     \(note)") }
        if let exchange { lines.append("  response: \(exchange)") }
        return lines.joined(separator: "\n")
    }
}
