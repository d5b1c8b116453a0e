import Foundation
import Tapedeck

/// What `expect` and `capture` look at in the last response.
public enum ResponseQuery: Hashable, Sendable, CustomStringConvertible {
    /// The status code, a number.
    case status
    /// A header's value (an array when repeated).
    case header(Word)
    /// A JSONPath into the body.
    case json(Word)
    /// The body as text.
    case body
    /// The time taken in milliseconds.
    case duration
    /// The final URL.
    case url
    /// The first capture group (or the whole match) of a regular expression on the body.
    case regex(Word)

    /// Query keywords, for errors and completion.
    public static let keywords = ["status", "header", "json", "body", "duration", "url", "regex"]

    public var description: String {
        switch self {
        case .status: "status"
        case .header(let name): "header \(name.text)"
        case .json(let path): "json \(path.text)"
        case .body: "body"
        case .duration: "duration"
        case .url: "url"
        case .regex(let pattern): "regex \"\(pattern.text)\""
        }
    }

    /// Whether the query's values are always text, so numbers written unquoted compare with
    /// numeric strings.
    var yieldsText: Bool {
        switch self {
        case .header, .body, .regex, .url: true
        case .status, .json, .duration: false
        }
    }

    /// The value this query selects in `response`, or nil with a note when it selects nothing.
    /// `argument` is the query's word with templates already expanded.
    func evaluate(on response: HTTPResponse, argument: String?) throws(ShellError) -> (value: JSONValue?, note: String?) {
        switch self {
        case .status:
            return (.number(String(response.status)), nil)
        case .header:
            let values = response.headers.values(for: argument ?? "")
            if values.isEmpty { return (nil, "the response has no '\(argument ?? "")' header") }
            return (values.count == 1 ? .string(values[0]) : .array(values.map(JSONValue.string)), nil)
        case .json(let word):
            let path: JSONPath
            do {
                path = try JSONPath(argument ?? "")
            } catch {
                throw .parse(ParseError(.invalidJSONPath(error.path, reason: "column \(error.column): \(error.reason)"), at: word.location))
            }
            let document: JSONValue
            do {
                document = try JSONParser.parse(response.body)
            } catch {
                let type = response.headers["Content-Type"] ?? "no Content-Type"
                return (nil, "the body is not JSON (\(type)): \(error.localizedDescription)")
            }
            let value = path.evaluate(on: document)
            return (value, value == nil ? path.missingReason(in: document) : nil)
        case .body:
            guard let text = response.text else { return (nil, "the body is not UTF-8 text (\(response.body.count) bytes)") }
            return (.string(text), nil)
        case .duration:
            return (.number(String(Int((response.duration * 1000).rounded()))), nil)
        case .url:
            return (response.url.map { .string($0.absoluteString) }, response.url == nil ? "the response has no URL" : nil)
        case .regex(let word):
            let expression = try RegexCache.compile(argument ?? "", at: word.location)
            let text = response.text ?? ""
            let range = NSRange(text.startIndex..., in: text)
            guard let match = expression.firstMatch(in: text, range: range) else {
                return (nil, "the pattern does not match the body")
            }
            let group = match.numberOfRanges > 1 ? match.range(at: 1) : match.range
            guard let found = Range(group, in: text) else { return (nil, "the capture group did not participate") }
            return (.string(String(text[found])), nil)
        }
    }
}

/// Compiles regular expressions with errors that point at the pattern.
enum RegexCache {
    static func compile(_ pattern: String, at location: SourceLocation) throws(ShellError) -> NSRegularExpression {
        do {
            return try NSRegularExpression(pattern: pattern)
        } catch {
            throw .parse(ParseError(.invalidRegex(pattern, reason: "it does not compile as an ICU regular expression"), at: location))
        }
    }
}
