import Foundation

/// Server-sent events (`text/event-stream`, WHATWG HTML §9.2): parsing a body into events for
/// assertions, and the exact field lists a cassette writes a chunk as, so a diff shows which
/// event changed.
///
/// ```swift
/// let events = ServerSentEvents.parse(Data("event: tick\nid: 1\ndata: {\"i\":0}\n\n".utf8))
/// events[0].event   // "tick"
/// events[0].data    // "{\"i\":0}"
/// ```
public enum ServerSentEvents {
    /// One dispatched event.
    public struct Event: Hashable, Sendable {
        /// The `event` field; "message" when none was sent.
        public var event: String
        /// The `data` lines joined with line feeds.
        public var data: String
        /// The last `id` field seen, at or before this event; nil when none was.
        public var id: String?
        /// The `retry` field of this event, in milliseconds.
        public var retry: Int?

        /// Creates an event.
        public init(event: String = "message", data: String, id: String? = nil, retry: Int? = nil) {
            self.event = event
            self.data = data
            self.id = id
            self.retry = retry
        }
    }

    /// The events in `body` as a browser's `EventSource` dispatches them: CR, LF and CRLF end
    /// lines, comments are skipped, and an event without data is not dispatched; an unfinished
    /// last event (no blank line after it) is dispatched too, since a recording may end mid-stream.
    public static func parse(_ body: Data) -> [Event] {
        var text = String(decoding: body, as: UTF8.self)
        // A byte order mark opening the stream is not part of its first field (as EventSource reads it).
        if text.unicodeScalars.first == "\u{FEFF}" { text.unicodeScalars.removeFirst() }
        var events: [Event] = []
        var lastID: String?
        var event = "", data: [String] = [], retry: Int?, sawData = false
        func dispatch() {
            if sawData { events.append(Event(event: event.isEmpty ? "message" : event, data: data.joined(separator: "\n"), id: lastID, retry: retry)) }
            event = ""; data = []; retry = nil; sawData = false
        }
        var lines = text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
            .split(separator: "\n", omittingEmptySubsequences: false)
        if lines.last == "" { lines.removeLast() }
        for line in lines {
            if line.isEmpty { dispatch(); continue }
            if line.hasPrefix(":") { continue }
            let (name, value) = field(line)
            switch name {
            case "event": event = value
            case "data": data.append(value); sawData = true
            case "id" where !value.contains("\0"): lastID = value
            case "retry": retry = Int(value)
            default: break
            }
        }
        dispatch()
        return events
    }

    /// `name: value` → (name, value): one space after the colon is dropped, as the standard says.
    static func field(_ line: Substring) -> (String, String) {
        guard let colon = line.firstIndex(of: ":") else { return (String(line), "") }
        var value = line[line.index(after: colon)...]
        if value.first == " " { value = value.dropFirst() }
        return (String(line[..<colon]), String(value))
    }

    // MARK: - Cassette form

    /// The chunk as a list of events, each its fields in order (`[["event", "tick"], ["data", "…"]]`,
    /// a comment as `[":", " text"]`), when writing them back gives exactly `chunk`'s bytes; nil
    /// otherwise (a chunk that cuts an event, CR line ends, a field without a space after its colon).
    static func fields(of chunk: Data) -> [[(String, String)]]? {
        guard let text = String(validating: chunk, as: UTF8.self), text.hasSuffix("\n\n"), !text.contains("\r") else { return nil }
        var events: [[(String, String)]] = []
        for block in text.dropLast(2).components(separatedBy: "\n\n") {
            var fields: [(String, String)] = []
            for line in block.split(separator: "\n", omittingEmptySubsequences: false) {
                if line.hasPrefix(":") {
                    fields.append((":", String(line.dropFirst())))
                } else {
                    fields.append(field(line))
                }
            }
            events.append(fields)
        }
        return render(events) == chunk ? events : nil
    }

    /// The bytes of events given as field lists (the inverse of ``fields(of:)``).
    static func render(_ events: [[(String, String)]]) -> Data {
        var text = ""
        for fields in events {
            for (name, value) in fields {
                text += name == ":" ? ":" + value + "\n" : name + ": " + value + "\n"
            }
            text += "\n"
        }
        return Data(text.utf8)
    }

    /// `text` split at each `\n` (splitting by Character would not split `\r\n`, a single one).
    private static func lines(of text: String) -> [String] {
        text.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false).map { String(String.UnicodeScalarView($0)) }
    }

    /// `text` as the event stream format reads its lines: each with the end that ended it
    /// (`\r\n`, `\n` or a bare `\r`), a last line not ended with none.
    private static func endedLines(of text: String) -> [(line: String, end: String)] {
        var result: [(line: String, end: String)] = []
        var line = String.UnicodeScalarView()
        var scalars = text.unicodeScalars[...]
        while let scalar = scalars.popFirst() {
            switch scalar {
            case "\r" where scalars.first == "\n":
                scalars.removeFirst()
                result.append((String(line), "\r\n"))
                line = String.UnicodeScalarView()
            case "\r", "\n":
                result.append((String(line), String(scalar)))
                line = String.UnicodeScalarView()
            default:
                line.append(scalar)
            }
        }
        if !line.isEmpty { result.append((String(line), "")) }
        return result
    }

    /// `chunk` with each event's data (its consecutive `data:` lines joined, as a client reads
    /// them) replaced by `transform` of it, every other byte as it was. Lines may end in `\n`,
    /// `\r\n` or a bare `\r`. Data that does not change keeps its lines exactly.
    package static func mapData(_ chunk: Data, _ transform: (Data) -> Data) -> Data {
        guard let text = String(validating: chunk, as: UTF8.self) else { return transform(chunk) }
        var changed = false
        var output = ""
        var run: [(prefix: String, value: String, end: String)] = []
        func flush() {
            guard !run.isEmpty else { return }
            defer { run = [] }
            let joined = Data(run.map(\.value).joined(separator: "\n").utf8)
            let mapped = transform(joined)
            guard mapped != joined, let replaced = String(validating: mapped, as: UTF8.self) else {
                for line in run { output += line.prefix + line.value + line.end }
                return
            }
            changed = true
            let replacedLines = lines(of: replaced)
            // A byte order mark before the first line stays before it alone.
            var later = run[0].prefix.unicodeScalars
            if later.first == "\u{FEFF}" { later.removeFirst() }
            for (number, line) in replacedLines.enumerated() {
                output += (number == 0 ? run[0].prefix : String(later)) + line + (number == replacedLines.count - 1 ? run[run.count - 1].end : run[0].end)
            }
        }
        for (number, (ended, end)) in endedLines(of: text).enumerated() {
            // A stream may open with a byte order mark, which EventSource skips.
            var line = ended, mark = ""
            if number == 0, line.unicodeScalars.first == "\u{FEFF}" {
                line.unicodeScalars.removeFirst()
                mark = "\u{FEFF}"
            }
            guard line.hasPrefix("data:") else {
                flush()
                output += mark + line + end
                continue
            }
            var prefix = mark + "data:"
            var value = line.dropFirst(5)
            if value.first == " " { prefix += " "; value = value.dropFirst() }
            run.append((prefix, String(value), end))
        }
        flush()
        return changed ? Data(output.utf8) : chunk
    }
}
