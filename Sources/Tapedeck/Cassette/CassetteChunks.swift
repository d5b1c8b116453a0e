import Foundation

/// How a streamed body (``BodyChunk``s) looks inside a native cassette: the response's
/// `"chunks"` member, in place of `"body"`, one object per chunk in arrival order.
///
/// ```json
/// "chunks": [
///   {"events": [[["event", "tick"], ["id", "1"], ["data", "{\"i\":0}"]]], "ms": 0},
///   {"ms": 300.2, "text": "partial line without an end"},
///   {"base64": "AAEC", "ms": 612}
/// ]
/// ```
///
/// `ms` is the arrival time in milliseconds after the response head. A server-sent-events chunk
/// of whole events is written as `events` (each event its `[field, value]` pairs in order, a
/// comment as `[":", text]`) whenever writing them back gives the same bytes; any other chunk is
/// `text` (UTF-8 without NUL) or `base64`. The body is always the chunks joined.
enum CassetteChunks {
    /// The cassette form of `chunks` of a response with `headers`.
    static func encode(_ chunks: [BodyChunk], headers: HTTPHeaders) -> JSONValue {
        let events = StreamMedia.isEventStream(headers)
        return .array(chunks.map { chunk in
            let time = ("ms", JSONValue.number(millisecondsLiteral(chunk.offset)))
            if events, let fields = ServerSentEvents.fields(of: chunk.data) {
                let list = JSONValue.array(fields.map { event in .array(event.map { .array([.string($0.0), .string($0.1)]) }) })
                return .object([("events", list), time])
            }
            if !CassetteBody.containsByte(0, in: chunk.data), let text = String(validating: chunk.data, as: UTF8.self) {
                return .object([time, ("text", .string(text))])
            }
            return .object([("base64", .string(chunk.data.base64EncodedString())), time])
        })
    }

    /// Milliseconds, to a tenth, written without a trailing `.0`.
    static func millisecondsLiteral(_ seconds: TimeInterval) -> String {
        guard seconds.isFinite, seconds > 0 else { return "0" }
        let tenths = (seconds * 10_000).rounded()
        return tenths.truncatingRemainder(dividingBy: 10) == 0 ? String(Int(tenths / 10)) : String(tenths / 10)
    }

    /// The chunks a `"chunks"` member stands for.
    static func decode(_ reader: FieldReader) throws(CassetteError) -> [BodyChunk] {
        try timedItems(reader, noun: "chunk", example: #"{"ms": 0, "text": "data: 1\n\n"}"#, after: "the head") { item, seconds throws(CassetteError) in
            BodyChunk(offset: seconds, data: try data(of: item))
        }
    }

    /// The objects of an array of timed items (chunks, WebSocket frames), each with an `ms` of 0
    /// or more, in order, made by `make` from the item and its time in seconds.
    static func timedItems<Item>(_ reader: FieldReader, noun: String, example: String, after start: String,
                                 _ make: (FieldReader, TimeInterval) throws(CassetteError) -> Item) throws(CassetteError) -> [Item] {
        guard case .array(let elements) = reader.value else {
            throw .invalidField(path: reader.source, pointer: reader.pointer,
                                problem: "expected an array of \(noun)s such as [\(example)], found \(CassetteBody.describe(reader.value))")
        }
        var items: [Item] = []
        var previous = 0.0
        for (index, element) in elements.enumerated() {
            let item = reader.element(element, at: index)
            guard case .object = element else {
                throw .invalidField(path: item.source, pointer: item.pointer,
                                    problem: "expected a \(noun) object such as \(example), found \(CassetteBody.describe(element))")
            }
            let milliseconds = try item.optionalDouble("ms") ?? 0
            guard milliseconds >= 0, milliseconds.isFinite else {
                throw .invalidField(path: item.source, pointer: item.pointer + "/ms", problem: "a \(noun)'s time must be 0 or more milliseconds after \(start)")
            }
            if milliseconds < previous {
                throw .invalidField(path: item.source, pointer: item.pointer + "/ms",
                                    problem: "\(noun) \(index) is at \(milliseconds) ms, before \(noun) \(index - 1) (\(previous) ms); \(noun)s are in the order they came")
            }
            previous = milliseconds
            items.append(try make(item, milliseconds / 1000))
        }
        return items
    }

    private static func data(of item: FieldReader) throws(CassetteError) -> Data {
        let kinds = ["events", "text", "base64"].filter { item.value[$0] != nil }
        if kinds.count > 1 {
            throw .invalidField(path: item.source, pointer: item.pointer,
                                problem: "a chunk has one payload, but this one has \(kinds.joined(separator: " and ")); keep one of them")
        }
        if let events = try item.optionalField("events") {
            guard case .array(let list) = events.value else {
                throw .invalidField(path: item.source, pointer: events.pointer, problem: "expected an array of events, found \(CassetteBody.describe(events.value))")
            }
            var parsed: [[(String, String)]] = []
            for (index, event) in list.enumerated() {
                let pointer = events.pointer + "/\(index)"
                guard case .array(let pairs) = event else {
                    throw .invalidField(path: item.source, pointer: pointer,
                                        problem: "expected an event as [[\"event\", \"tick\"], [\"data\", \"…\"]], found \(CassetteBody.describe(event))")
                }
                var fields: [(String, String)] = []
                for (position, pair) in pairs.enumerated() {
                    guard case .array(let parts) = pair, parts.count == 2, let name = parts[0].stringValue, let value = parts[1].stringValue,
                          !name.isEmpty, name == ":" || !name.contains(":"), !name.contains("\n"), !name.contains("\r"), !value.contains("\r"),
                          !value.contains("\n") || name == "data" else {
                        throw .invalidField(path: item.source, pointer: pointer + "/\(position)",
                                            problem: "expected a [field, value] pair of one-line strings (no CR; a name without ':'), such as [\"data\", \"{\\\"i\\\":0}\"]")
                    }
                    // A data value holding line feeds is several data lines.
                    fields += name == "data" ? value.split(separator: "\n", omittingEmptySubsequences: false).map { ("data", String($0)) } : [(name, value)]
                }
                parsed.append(fields)
            }
            return ServerSentEvents.render(parsed)
        }
        if let text = try item.optionalString("text") { return Data(text.utf8) }
        if let base64 = try item.optionalString("base64") {
            guard let data = Data(base64Encoded: base64) else {
                throw .invalidField(path: item.source, pointer: item.pointer + "/base64",
                                    problem: "invalid base64 (\(CassetteBody.preview(base64))); it must be padded standard base64 (A–Z a–z 0–9 + / =)")
            }
            return data
        }
        throw .invalidField(path: item.source, pointer: item.pointer, problem: "a chunk needs one of \"events\", \"text\" or \"base64\" beside \"ms\"")
    }
}
