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
    /// The server-sent events of the body, an array of `{"event", "data", "id"}` objects.
    case events
    /// One field of the server-sent event at an index (negative counts from the end).
    case event(Word, EventField)
    /// The chunks a streamed body arrived in, an array of their texts.
    case chunks

    /// What `event N` looks at.
    public enum EventField: Hashable, Sendable, CustomStringConvertible {
        /// The event's type (`message` when none was sent).
        case event
        /// Its data lines, joined with line feeds.
        case data
        /// Its `id` (the last one sent at or before it).
        case id
        /// Its `retry` field, in milliseconds.
        case retry
        /// A JSONPath into its data, read as JSON.
        case json(Word)

        /// Field keywords, for errors.
        public static let keywords = ["event", "data", "id", "retry", "json"]

        public var description: String {
            switch self {
            case .event: "event"
            case .data: "data"
            case .id: "id"
            case .retry: "retry"
            case .json(let path): "json \(path.text)"
            }
        }
    }

    /// Query keywords, for errors and completion.
    public static let keywords = ["status", "header", "json", "body", "duration", "url", "regex", "events", "event", "chunks"]

    public var description: String {
        switch self {
        case .status: "status"
        case .header(let name): "header \(name.text)"
        case .json(let path): "json \(path.text)"
        case .body: "body"
        case .duration: "duration"
        case .url: "url"
        case .regex(let pattern): "regex \"\(pattern.text)\""
        case .events: "events"
        case .event(let index, let field): "event \(index.text) \(field)"
        case .chunks: "chunks"
        }
    }

    /// Whether the query reads JSON (`json`, an event's `json`): a bracketed value after it must be JSON.
    var readsJSON: Bool {
        switch self {
        case .json, .event(_, .json): true
        default: false
        }
    }

    /// Whether the query's values are always text, so numbers written unquoted compare with
    /// numeric strings.
    var yieldsText: Bool {
        switch self {
        case .header, .body, .regex, .url: true
        case .event(_, let field):
            switch field {
            case .json, .retry: false
            case .event, .data, .id: true
            }
        case .status, .json, .duration, .events, .chunks: false
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
            let type = response.headers["Content-Type"] ?? "no Content-Type"
            return try Self.json(at: argument ?? "", word: word, in: response.body, what: "the body", type: type)
        case .body:
            guard let text = response.text else { return (nil, "the body is not text in UTF-8 or the charset its Content-Type names (\(response.body.count) bytes)") }
            return (.string(text), nil)
        case .duration:
            return (.number(String(Int((response.duration * 1000).rounded()))), nil)
        case .url:
            return (response.storedURL.map { .string($0.text) }, response.storedURL == nil ? "the response has no URL" : nil)
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
        case .events:
            let events = ServerSentEvents.parse(response.body)
            let type = response.headers["Content-Type"] ?? "no Content-Type"
            let note = StreamMedia.isEventStream(response.headers) ? nil : "the body is not server-sent events (\(type))"
            return (.array(events.map(Self.value(of:))), note)
        case .event(let word, let field):
            let events = ServerSentEvents.parse(response.body)
            guard let index = Int(argument ?? "") else {
                throw .parse(ParseError(.missingArgument(command: "expect", expected: "an event index such as 0 or -1 (the last), not '\(argument ?? "")'"),
                                        at: word.location))
            }
            let position = index < 0 ? events.count + index : index
            guard events.indices.contains(position) else {
                let type = response.headers["Content-Type"] ?? "no Content-Type"
                return (nil, "the body holds \(events.count) server-sent event\(events.count == 1 ? "" : "s") (\(type)); there is no event \(index)")
            }
            let event = events[position]
            switch field {
            case .event: return (.string(event.event), nil)
            case .data: return (.string(event.data), nil)
            case .id: return (event.id.map(JSONValue.string), event.id == nil ? "event \(index) has no id" : nil)
            case .retry: return (event.retry.map { .number(String($0)) }, event.retry == nil ? "event \(index) has no retry field" : nil)
            case .json(let path):
                return try Self.json(at: path.text, word: path, in: Data(event.data.utf8), what: "event \(index)'s data", type: "text/event-stream")
            }
        case .chunks:
            let chunks = response.chunks ?? (response.body.isEmpty ? [] : [BodyChunk(offset: 0, data: response.body)])
            return (.array(chunks.map { .string(String(decoding: $0.data, as: UTF8.self)) }), nil)
        }
    }

    /// The value at JSONPath `text` in `data`, or nil with why.
    private static func json(at text: String, word: Word, in data: Data, what: String, type: String) throws(ShellError) -> (value: JSONValue?, note: String?) {
        let path: JSONPath
        do {
            path = try JSONPath(text)
        } catch {
            throw .parse(ParseError(.invalidJSONPath(error.path, reason: "column \(error.column): \(error.reason)"), at: word.location))
        }
        let document: JSONValue
        do {
            document = try JSONParser.parse(data)
        } catch {
            return (nil, "\(what) is not JSON (\(type)): \(error.localizedDescription)")
        }
        let value = path.evaluate(on: document)
        return (value, value == nil ? path.missingReason(in: document) : nil)
    }

    /// An event as `{"event", "data", "id"}` (no `id` when none was sent).
    private static func value(of event: ServerSentEvents.Event) -> JSONValue {
        var members: [(key: String, value: JSONValue)] = [("event", .string(event.event)), ("data", .string(event.data))]
        if let id = event.id { members.append(("id", .string(id))) }
        return .object(members)
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
