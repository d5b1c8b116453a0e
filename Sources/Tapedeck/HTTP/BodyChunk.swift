import Foundation

/// One piece of a streamed response body as it arrived: its bytes, and when, counted from the
/// response head. A response that carries chunks (``HTTPResponse/chunks``) has them joined as its
/// ``HTTPResponse/body``, so code that reads whole bodies never sees a difference; replay can give
/// them back one by one, instantly or with the recorded gaps.
///
/// ```swift
/// let response = HTTPResponse(status: 200, headers: ["Content-Type": "text/event-stream"],
///                             chunks: [BodyChunk(offset: 0, data: Data("data: 1\n\n".utf8)),
///                                      BodyChunk(offset: 0.3, data: Data("data: 2\n\n".utf8))])
/// response.body   // "data: 1\n\ndata: 2\n\n"
/// ```
public struct BodyChunk: Hashable, Sendable, Codable {
    /// Seconds from the response head to this chunk's arrival.
    public var offset: TimeInterval
    /// The bytes, as delivered (decoded when the server sent gzip or deflate).
    public var data: Data

    /// Creates a chunk that arrived `offset` seconds after the head.
    public init(offset: TimeInterval, data: Data) {
        self.offset = offset
        self.data = data
    }

    /// The bytes of `chunks`, in order.
    public static func joined(_ chunks: [BodyChunk]) -> Data {
        var data = Data(capacity: chunks.reduce(0) { $0 + $1.data.count })
        for chunk in chunks { data.append(chunk.data) }
        return data
    }
}

extension HTTPResponse {
    /// Creates a response whose body arrived as `chunks` (the body is their bytes joined).
    public init(status: Int, reason: String? = nil, headers: HTTPHeaders = [:], chunks: [BodyChunk], url: URL? = nil,
                duration: TimeInterval = 0) {
        self.init(status: status, reason: reason, headers: headers, body: BodyChunk.joined(chunks), url: url, duration: duration)
        self.chunks = chunks
    }

    /// Seconds from sending to the head: the ``duration`` less the time the chunks (or a
    /// WebSocket session's frames) took to arrive.
    public var timeToHead: TimeInterval {
        // A stream's chunks, or a WebSocket session's frames, arrived after the head: their
        // time is not the head's.
        guard let last = chunks?.last?.offset ?? webSocket?.last?.offset else { return duration }
        return max(0, duration - last)
    }

    /// Whether the head says the body is a stream that arrives over time: server-sent events,
    /// NDJSON/JSON Lines/JSON text sequences, or a chunked body without a length.
    public var isStream: Bool { StreamMedia.isStream(headers) }
}

/// Which bodies are streams, and so are recorded as ``BodyChunk``s and relayed as they arrive.
package enum StreamMedia {
    /// Media types whose bodies are sequences of messages sent over time.
    package static let streamTypes: Set<String> = ["text/event-stream", "application/x-ndjson", "application/ndjson",
                                           "application/jsonl", "application/x-jsonlines", "application/json-seq"]

    /// Whether `headers` announce a streamed body (see ``HTTPResponse/isStream``).
    package static func isStream(_ headers: HTTPHeaders) -> Bool {
        if let type = headers["Content-Type"].map(MediaType.essence), streamTypes.contains(type) { return true }
        let chunked = headers.values(for: "Transfer-Encoding").contains { $0.lowercased().containsBytes("chunked") }
        return chunked && headers["Content-Length"] == nil
    }

    /// Whether a stream received as `chunks` is kept as them: always for a message stream
    /// (events, NDJSON), and for any other chunked body only when it arrived over time (its last
    /// chunk over 50 ms after its first); a body that came in one burst is kept whole, so a
    /// chunked JSON answer still reads as JSON in the cassette.
    package static func keepsChunks(_ chunks: [BodyChunk], headers: HTTPHeaders) -> Bool {
        if let type = headers["Content-Type"].map(MediaType.essence), streamTypes.contains(type) { return true }
        guard let first = chunks.first, let last = chunks.last else { return false }
        return last.offset - first.offset > 0.05
    }

    /// The chunks a recording stores: for server-sent events each ends with a whole event, for
    /// NDJSON and JSON Lines with a whole line (pieces that cut a message are joined, at the time
    /// the message was complete), so redaction and the lint always read whole messages; any other
    /// body keeps its pieces. A last, unfinished message is kept as it is. A stream kept
    /// compressed (``keepsEncoding(_:)``) keeps its pieces too, and with them its timing: no
    /// message ends within compressed bytes.
    package static func wholeMessages(_ chunks: [BodyChunk], headers: HTTPHeaders) -> [BodyChunk] {
        if !ContentCoding.codings(of: headers).isEmpty,
           keepsEncoding(HTTPResponse(status: 200, headers: headers, body: BodyChunk.joined(chunks))) {
            return chunks
        }
        var joiner = MessageJoiner(headers: headers)
        var result: [BodyChunk] = []
        for chunk in chunks { if let whole = joiner.add(chunk) { result.append(whole) } }
        if let rest = joiner.rest { result.append(rest) }
        return result
    }

    /// Whether `response` is a stream kept compressed as it came, so its `Content-Encoding`
    /// stays: its head before any chunk came, or a body whose bytes are still encoded (gzip's
    /// magic bytes; bytes that are not UTF-8 for any other coding). A stream a transport
    /// decoded (curl, URLSession) but whose header it left is not. The one rule for recording,
    /// relaying and the lint.
    package static func keepsEncoding(_ response: HTTPResponse) -> Bool {
        guard isStream(response.headers), !ContentCoding.codings(of: response.headers).isEmpty else { return false }
        let body = response.body
        if body.isEmpty { return response.chunks?.isEmpty ?? true }
        if body.count >= 2, body[body.startIndex] == 0x1F, body[body.startIndex + 1] == 0x8B { return true }
        return String(validating: body, as: UTF8.self) == nil
    }

    /// Whether `headers` name server-sent events.
    package static func isEventStream(_ headers: HTTPHeaders) -> Bool {
        headers["Content-Type"].map(MediaType.essence) == "text/event-stream"
    }
}

extension HTTPResponse {
    /// Applies `transform` to the body, chunk by chunk when it has ``chunks`` (so the joined body
    /// stays their bytes), and rewrites a present `Content-Length`. For server-sent events each
    /// chunk's `data:` lines are transformed one by one as `dataType` (JSON inside events is
    /// redacted like a JSON body); any other chunk is transformed whole, as the body's own type.
    /// Returns whether anything changed.
    @discardableResult
    package mutating func mapBody(describesAnotherBody: Bool = false, _ transform: (_ data: Data, _ contentType: String?) -> Data) -> Bool {
        let contentType = headers["Content-Type"]
        if let chunks {
            let events = StreamMedia.isEventStream(headers)
            let mapped = chunks.map { chunk in
                BodyChunk(offset: chunk.offset, data: events ? ServerSentEvents.mapData(chunk.data) { transform($0, "application/json") }
                                                             : transform(chunk.data, contentType))
            }
            guard mapped != chunks else { return false }
            self.chunks = mapped
            body = BodyChunk.joined(mapped)
        } else if let frames = webSocket {
            // Each frame's words, as ``WebSocketMessage/readable`` says: text and JSON frames as
            // JSON, other binary frames as bytes, a close frame's reason as text.
            let mapped = frames.map { $0.mappingReadable(transform) }
            guard mapped != frames else { return false }
            webSocket = mapped
            return true
        } else {
            let mapped = transform(body, contentType)
            guard mapped != body else { return false }
            body = mapped
        }
        CassetteCodec.fixContentLength(&headers, count: body.count, describesAnotherBody: describesAnotherBody)
        return true
    }
}

/// Joins the pieces of a stream until they end at a message boundary (``StreamMedia/wholeMessages(_:headers:)``).
package struct MessageJoiner: Sendable {
    private let boundaries: [Data]
    private var pending: BodyChunk?

    /// A joiner for a response with `headers`.
    package init(headers: HTTPHeaders) {
        let type = headers["Content-Type"].map(MediaType.essence) ?? ""
        if type == "text/event-stream" {
            boundaries = [Data("\n\n".utf8), Data("\r\n\r\n".utf8), Data("\r\r".utf8)]
        } else if StreamMedia.streamTypes.contains(type) {
            boundaries = [Data("\n".utf8)]
        } else {
            boundaries = []
        }
    }

    /// `chunk` added: the message (or messages) it completes, or nil while one is still open.
    package mutating func add(_ chunk: BodyChunk) -> BodyChunk? {
        var joined = pending.map { BodyChunk(offset: chunk.offset, data: $0.data + chunk.data) } ?? chunk
        joined.offset = chunk.offset
        guard !boundaries.isEmpty, !boundaries.contains(where: { joined.data.count >= $0.count && joined.data.suffix($0.count) == $0 }) else {
            pending = nil
            return joined
        }
        pending = joined
        return nil
    }

    /// What is left when the stream ends: an unfinished message, if any.
    package var rest: BodyChunk? { pending }
}
