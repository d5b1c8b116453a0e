import Dispatch
import Foundation
import Synchronization

/// Reads and writes the native cassette format: deterministic, diff-friendly JSON.
///
/// ```json
/// {
///   "interactions": [
///     {
///       "duration": 0.0042,
///       "recordedAt": "2026-01-02T10:00:00.123Z",
///       "request": {
///         "headers": [["Accept", "application/json"]],
///         "method": "GET",
///         "url": "http://httpbin.local/get?a=1"
///       },
///       "response": {
///         "body": {"json": {"args": {"a": "1"}}, "layout": "pretty-newline"},
///         "headers": [["Content-Type", "application/json"], ["Set-Cookie", "a=1"], ["Set-Cookie", "b=2"]],
///         "reason": "OK",
///         "status": 200
///       }
///     }
///   ],
///   "metadata": {"baseURL": "http://httpbin.local"},
///   "version": 1
/// }
/// ```
///
/// Keys are sorted, headers are ordered `[name, value]` pairs (repeats kept), bodies are
/// `{"json": …}` (only when `Content-Type` is JSON and the `layout` — `compact`, `compact-newline`,
/// `pretty`, `pretty-newline` — regenerates the bytes exactly), `{"text": …}` (other UTF-8) or
/// `{"base64": …}`; a missing request body means none, a missing response body means empty,
/// a missing response `url` means the request URL. Decoding rewrites `Content-Length` to
/// the regenerated body's length.
enum CassetteCodec {
    /// The cassette as native-format bytes; the same cassette always gives the same bytes.
    ///
    /// Written piece by piece (``JSONWriter/Stream``), in the bytes the tree of the document
    /// gives (``CassetteJSONLayout``): building and freeing that tree cost more than writing it,
    /// once for every interaction a recording journals.
    static func encode(_ cassette: Cassette) -> Data {
        var stream = JSONWriter.Stream(layout: CassetteJSONLayout.layout)
        stream.beginObject()
        stream.key("interactions")
        stream.beginArray()
        for interaction in cassette.interactions { encode(interaction, into: &stream) }
        stream.end()
        if !cassette.metadata.isEmpty {
            stream.key("metadata")
            stream.beginObject()
            for key in cassette.metadata.keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
                stream.key(key)
                stream.string(cassette.metadata[key] ?? "")
            }
            stream.end()
        }
        stream.key("version")
        stream.number(String(cassette.version))
        stream.end()
        return CassetteJSONLayout.finish(stream)
    }

    /// The version (the current one, or an error) and the metadata of a document's top level.
    private static func envelope(_ top: FieldReader) throws(CassetteError) -> (version: Int, metadata: [String: String]) {
        let version = try top.int("version")
        guard version == Cassette.currentVersion else { throw .unsupportedVersion(path: top.source, version: version) }
        var metadata: [String: String] = [:]
        if let reader = try top.optionalObject("metadata"), case .object(let members) = reader.value {
            for member in members { metadata[member.key] = try reader.string(member.key) }
        }
        return (version, metadata)
    }

    /// ``decode(_:source:)`` from the document's whole tree: the reading every faster one
    /// must agree with, and the one for a document that gives `interactions` twice.
    static func decodeWhole(_ data: Data, source: String) throws(CassetteError) -> Cassette {
        let root: JSONValue
        do throws(JSONParseError) {
            root = try JSONParser.parse(data)
        } catch {
            throw .malformedJSON(path: source, line: error.line, column: error.column, pointer: error.path, reason: error.reason)
        }
        let top = FieldReader(value: root, pointer: "", source: source)
        let (version, metadata) = try envelope(top)
        let list = try top.array("interactions")
        let interactions = try ChunkedWork.map(list.count) { (index) throws(CassetteError) in try decodeInteraction(list[index]) }
        return Cassette(version: version, interactions: interactions, metadata: metadata)
    }

    /// How many parsed interactions are decoded together, across cores, before parsing goes on.
    /// With four batches in flight, their trees are what loading holds beyond the interactions:
    /// 256 keeps that near 2 MB (1,024 held 7 MB more at the peak of loading 100,000, at the
    /// same speed).
    static let streamingBatch = 256

    /// Decodes native-format bytes; `source` (usually the file path) names the origin in errors.
    static func decode(_ data: Data, source: String = "<cassette>") throws(CassetteError) -> Cassette {
        if data.allSatisfy({ [0x20, 0x09, 0x0A, 0x0D].contains($0) }) {
            throw .invalidField(path: source, pointer: "", problem: "the file is empty; delete it to record afresh, "
                + "or restore it from version control")
        }
        if let cassette = decodeUnparsed(source: source, expected: { _ in nil }, parse: { element throws(JSONParseError) in
            try JSONParser.parse(data, streamingElementsOf: "interactions", unparsed: true, element)
        }) {
            return cassette
        }
        let parsed = try decodeStreaming(source: source, expected: { _ in nil }) { element throws(JSONParseError) in
            try JSONParser.parse(data, streamingElementsOf: "interactions", element)
        }
        if let parsed { return parsed }
        return try decodeWhole(data, source: source)
    }

    /// Files larger than this are read a window at a time (``decode(_:file:maximumFileSize:)``).
    static let windowedFileSize = 8 << 20

    /// The window a large file is read through; it grows for an interaction larger than half of it.
    static let windowCapacity = 4 << 20

    /// ``decode(_:source:)`` of the file `window` reads, so that a large cassette's bytes are
    /// never held whole beside the interactions they decode to (a third of the peak memory of
    /// loading 100,000 interactions). A file that is not read that way (one that is
    /// malformed, or any error) is read whole and decoded again, for the line and column of
    /// what is wrong.
    static func decode(_ window: JSONFileWindow, file url: URL, maximumFileSize: Int) throws(CassetteError) -> Cassette {
        let parsed = decodeUnparsed(source: url.path, expected: window.expectedElements) { element throws(JSONParseError) in
            try JSONParser.parse(window, streamingElementsOf: "interactions", unparsed: true, element)
        }
        if let failure = window.failure { throw .unreadable(path: url.path, reason: failure) }
        if let parsed { return parsed }
        window.discard()
        let data: Data
        do {
            data = try FileAccess.read(url, maximumSize: maximumFileSize)
        } catch {
            throw .unreadable(path: url.path, reason: error.reason)
        }
        return try decode(data, source: url.path)
    }

    /// ``decodeStreaming(source:expected:parse:)`` of elements handed on as bytes and read
    /// without a tree where they have recording's shape
    /// (``decodeInteraction(bytes:sharing:)``): the parsing thread only finds where each
    /// interaction ends, and the other threads read them. Nil on any error, for the reading
    /// of parsed trees to give it with its place.
    private static func decodeUnparsed(
        source: String, expected: @escaping (_ parsed: Int) -> Int?,
        parse: ((Int, StreamedElement) -> Void) throws(JSONParseError) -> JSONValue
    ) -> Cassette? {
        do throws(CassetteError) {
            return try decodeStreaming(source: source, expected: expected, parse: parse)
        } catch {
            return nil
        }
    }

    /// Decodes what `parse` hands on, in batches on other threads while it reads on, so the
    /// whole document's tree is never held at once (a 100,000-interaction file would need
    /// several times its size for it) and both cores work. Nil when the document gives
    /// `interactions` twice: the last one counts, as everywhere a JSON object is read, so it
    /// must be read whole (streaming handed on the elements of both).
    ///
    /// Once `expected` can tell how many interactions the document holds (from the bytes read
    /// so far), the array is made that large and each batch is moved into it as soon as it
    /// and those before it are decoded: the batches and the whole array are never held at
    /// once. (A guess too large costs address space only: memory is used as it is written.)
    private static func decodeStreaming(
        source: String, expected: @escaping (_ parsed: Int) -> Int?,
        parse: ((Int, StreamedElement) -> Void) throws(JSONParseError) -> JSONValue
    ) throws(CassetteError) -> Cassette? {
        let pipeline = DecodePipeline(source: source)
        var batch = DecodeBatch()
        var decoded = 0
        var interactions: [Interaction] = []
        let root: JSONValue
        do throws(JSONParseError) {
            root = try parse { _, element in
                batch.append(element)
                if batch.count == streamingBatch {
                    pipeline.submit(batch, startingAt: decoded)
                    decoded += batch.count
                    batch = DecodeBatch()
                    if interactions.capacity == 0, let count = expected(decoded) { interactions.reserveCapacity(count) }
                    if interactions.capacity > 0 { pipeline.moveDone(into: &interactions) }
                }
            }
        } catch {
            pipeline.wait()
            throw .malformedJSON(path: source, line: error.line, column: error.column, pointer: error.path, reason: error.reason)
        }
        if batch.count > 0 { pipeline.submit(batch, startingAt: decoded) }
        let all = Result { () throws(CassetteError) -> [Interaction] in
            try pipeline.finish(appendingTo: &interactions)
            return interactions
        }
        if case .object(let members) = root, members.count(where: { $0.key == "interactions" }) > 1 { return nil }
        let top = FieldReader(value: root, pointer: "", source: source)
        let (version, metadata) = try envelope(top)
        _ = try top.array("interactions")
        return Cassette(version: version, interactions: try all.get(), metadata: metadata)
    }

    // MARK: - Encoding

    /// Writes `interaction` as the next element of `stream`: its members in key order.
    static func encode(_ interaction: Interaction, into stream: inout JSONWriter.Stream) {
        // Written as loading reads it back (a `Content-Length` true to the body), so a cassette
        // encoded, decoded and encoded again is the same bytes: merges splice what was written.
        var request = interaction.request
        var response = interaction.response
        if let body = request.body { fixContentLength(&request.headers, count: body.count) }
        fixContentLength(&response.headers, count: response.body.count,
                         describesAnotherBody: HTTPResponse.lengthDescribesAnotherBody(method: request.method, status: response.status))
        stream.beginObject()
        stream.key("duration")
        stream.number(durationLiteral(response.duration))
        if let failure = interaction.failure {
            stream.key("failure")
            stream.beginObject()
            stream.key("detail")
            stream.string(failure.detail)
            stream.key("kind")
            stream.string(failure.kind.rawValue)
            stream.end()
        }
        stream.key("recordedAt")
        stream.string(RFC3339Date.format(interaction.recordedAt, fractionDigits: 3))
        if let owner = interaction.recordedBy {
            stream.key("recordedBy")
            stream.string(owner)
        }
        stream.key("request")
        stream.beginObject()
        if let body = request.body {
            stream.key("body")
            stream.value(CassetteBody.encode(body, contentType: request.headers["Content-Type"]))
        }
        encode(request.headers, into: &stream)
        stream.key("method")
        stream.string(request.method.rawValue)
        stream.key("url")
        stream.string(request.urlText)
        stream.end()
        if interaction.failure == nil {
            stream.key("response")
            stream.beginObject()
            if let chunks = response.chunks {
                stream.key("chunks")
                stream.value(CassetteChunks.encode(chunks, headers: response.headers))
            } else if !response.body.isEmpty {
                stream.key("body")
                stream.value(CassetteBody.encode(response.body, contentType: response.headers["Content-Type"]))
            }
            encode(response.headers, into: &stream)
            stream.key("reason")
            stream.string(response.reason)
            stream.key("status")
            stream.number(String(response.status))
            if let url = response.storedURL, url != request.storedURL {
                stream.key("url")
                stream.string(url.text)
            }
            if let frames = response.webSocket {
                stream.key("webSocket")
                stream.value(CassetteWebSocket.encode(frames))
            }
            stream.end()
        }
        stream.end()
    }

    /// Writes the `headers` member: `[name, value]` pairs in order.
    private static func encode(_ headers: HTTPHeaders, into stream: inout JSONWriter.Stream) {
        stream.key("headers")
        stream.beginArray()
        for field in headers { stream.pair(field.name, field.value) }
        stream.end()
    }

    /// A value from the file as an error quotes it: in quotes, control characters escaped, cut
    /// short when long, so a hostile cassette writes nothing raw to a terminal.
    static func shown(_ value: String) -> String {
        "'" + Excerpt.visible(value) + "'"
    }

    /// Seconds rounded to microseconds, written as Swift's shortest literal (valid JSON).
    static func durationLiteral(_ seconds: TimeInterval) -> String {
        guard seconds.isFinite, seconds > 0 else { return "0" }
        // Rounding a huge duration (a HAR's `"time": 1e308`) would overflow to infinity, which
        // JSON cannot hold: such a value is written as it is.
        let micro = (seconds * 1_000_000).rounded() / 1_000_000
        let rounded = micro.isFinite ? micro : seconds
        let literal = "\(rounded)"
        return literal.hasSuffix(".0") ? String(literal.dropLast(2)) : literal
    }

    // MARK: - Decoding

    /// The interaction `reader`'s tree holds, or the error that names the field at fault.
    static func decodeInteraction(_ reader: FieldReader, sharing strings: StringTable? = nil) throws(CassetteError) -> Interaction {
        if let failureReader = try reader.optionalObject("failure") { return try decodeFailure(reader, failureReader) }
        let requestReader = try reader.object("request")
        let responseReader = try reader.object("response")
        let url = try requestReader.storedURL("url")
        let methodName = try requestReader.string("method")
        guard let method = try? HTTPMethod(validating: methodName) else {
            throw .invalidField(path: reader.source, pointer: requestReader.pointer + "/method",
                                problem: "\(shown(methodName)) is not a valid HTTP method")
        }
        let request = try decodeRequest(requestReader, method: method, url: url, sharing: strings)
        let status = try responseReader.int("status")
        guard HTTPResponse.isFinalStatus(status) else {
            throw .invalidField(path: reader.source, pointer: responseReader.pointer + "/status", problem: HTTPResponse.finalStatusProblem(status))
        }
        var response = HTTPResponse(
            status: status,
            reason: try responseReader.optionalString("reason"),
            headers: try responseReader.headers("headers", sharing: strings),
            duration: try reader.optionalDouble("duration") ?? 0
        )
        if try responseReader.optionalField("url") == nil {
            response.storedURL = url
        } else {
            // One that repeats the request's URL shares its text.
            let own = try responseReader.storedURL("url")
            response.storedURL = own == url ? url : own
        }
        let body = try responseReader.optionalField("body")
        if let body {
            response.body = try CassetteBody.decode(body.value, at: body.pointer, in: reader.source)
        }
        if let chunks = try responseReader.optionalField("chunks") {
            guard body == nil else {
                throw .invalidField(path: reader.source, pointer: chunks.pointer,
                                    problem: "a response has a body or chunks, not both; the body of a streamed response is its chunks joined, so remove \"body\"")
            }
            response.chunks = try CassetteChunks.decode(chunks)
            response.body = BodyChunk.joined(response.chunks ?? [])
        }
        if let frames = try responseReader.optionalField("webSocket") {
            guard status == 101 else {
                throw .invalidField(path: reader.source, pointer: frames.pointer,
                                    problem: "WebSocket frames belong to a 101 Switching Protocols answer, not to status \(status); remove \"webSocket\" or set the status to 101")
            }
            response.webSocket = try CassetteWebSocket.decode(frames)
        }
        fixContentLength(&response.headers, count: response.body.count, describesAnotherBody: HTTPResponse.lengthDescribesAnotherBody(method: method, status: status))
        let recordedAt = try reader.string("recordedAt")
        guard let date = RFC3339Date.parse(recordedAt).map(RFC3339Date.roundedToMilliseconds) else {
            throw .invalidField(path: reader.source, pointer: reader.pointer + "/recordedAt",
                                problem: "\(shown(recordedAt)) is not an ISO-8601 date such as 2026-01-02T10:00:00.123Z")
        }
        return Interaction(request: request, response: response, recordedAt: date, recordedBy: try reader.optionalString("recordedBy"))
    }

    private static func decodeRequest(_ reader: FieldReader, method: HTTPMethod, url: StoredURL,
                                      sharing strings: StringTable? = nil) throws(CassetteError) -> HTTPRequest {
        var request = HTTPRequest(method: method, storedURL: url, headers: try reader.headers("headers", sharing: strings))
        if let body = try reader.optionalField("body") {
            request.body = try CassetteBody.decode(body.value, at: body.pointer, in: reader.source)
            fixContentLength(&request.headers, count: request.body?.count ?? 0)
        }
        return request
    }

    /// An interaction whose `failure` member stands in for the response (``TransportFailure``).
    private static func decodeFailure(_ reader: FieldReader, _ failureReader: FieldReader) throws(CassetteError) -> Interaction {
        let requestReader = try reader.object("request")
        let url = try requestReader.storedURL("url")
        let methodName = try requestReader.string("method")
        guard let method = try? HTTPMethod(validating: methodName) else {
            throw .invalidField(path: reader.source, pointer: requestReader.pointer + "/method",
                                problem: "\(shown(methodName)) is not a valid HTTP method")
        }
        let kindName = try failureReader.string("kind")
        guard let kind = TransportFailure.Kind(rawValue: kindName) else {
            throw .invalidField(path: reader.source, pointer: failureReader.pointer + "/kind",
                                problem: "\(shown(kindName)) is not a transport failure; use one of "
                                    + TransportFailure.Kind.allCases.map(\.rawValue).joined(separator: ", "))
        }
        let recordedAt = try reader.string("recordedAt")
        guard let date = RFC3339Date.parse(recordedAt).map(RFC3339Date.roundedToMilliseconds) else {
            throw .invalidField(path: reader.source, pointer: reader.pointer + "/recordedAt",
                                problem: "\(shown(recordedAt)) is not an ISO-8601 date such as 2026-01-02T10:00:00.123Z")
        }
        var response = HTTPResponse(status: 0, reason: "", duration: try reader.optionalDouble("duration") ?? 0)
        response.storedURL = url
        return Interaction(request: try decodeRequest(requestReader, method: method, url: url),
                           response: response,
                           recordedAt: date, failure: TransportFailure(kind: kind, detail: try failureReader.optionalString("detail") ?? ""),
                           recordedBy: try reader.optionalString("recordedBy"))
    }

    /// Rewrites a present `Content-Length` so it matches the body actually served, except on
    /// an empty response to HEAD or a 304, whose `Content-Length` describes the body a GET
    /// would get (and which clients read as the download size).
    static func fixContentLength(_ headers: inout HTTPHeaders, count: Int, describesAnotherBody: Bool = false) {
        if describesAnotherBody, count == 0 { return }
        if let length = headers["Content-Length"], length != String(count) {
            headers["Content-Length"] = String(count)
        }
    }
}

/// Decodes batches of parsed interactions on other threads while the parser reads on, at most
/// a few batches ahead of it (so parsed trees never pile up), and hands them back in order.
private final class DecodePipeline: Sendable {
    /// `/interactions`, whose elements the batches are.
    private let list: FieldReader
    private let results = Mutex<[Int: Result<[Interaction], CassetteError>]>([:])
    private let running = DispatchGroup()
    private let slots = DispatchSemaphore(value: 4)
    private let submitted = Mutex(0)
    /// How many batches ``moveDone(into:)`` has moved.
    private let taken = Mutex(0)
    /// Batches decoded, kept for the parsing thread to free: memory is freed fastest by the
    /// thread that allocated it.
    private let spent = Mutex<[DecodeBatch]>([])

    init(source: String) {
        list = FieldReader(value: .null, trail: .key(.root(""), "interactions"), source: source)
    }

    /// Decodes `batch`, whose first element is interaction `start`, on another thread; or on
    /// this one when every slot is taken, so that the parsing thread, which only finds where
    /// interactions end, decodes too rather than wait.
    func submit(_ batch: DecodeBatch, startingAt start: Int) {
        // Frees the decoded batches' trees here, on the thread that built them.
        spent.withLock { $0.removeAll() }
        running.enter()
        let number = submitted.withLock { count in
            defer { count += 1 }
            return count
        }
        guard slots.wait(timeout: .now()) == .success else {
            decode(batch, number: number, startingAt: start)
            running.leave()
            return
        }
        DispatchQueue.global().async { [self] in
            decode(batch, number: number, startingAt: start)
            slots.signal()
            running.leave()
        }
    }

    /// Decodes `batch`, the batch numbered `number`, into ``results``.
    private func decode(_ batch: DecodeBatch, number: Int, startingAt start: Int) {
        let result = Result { () throws(CassetteError) -> [Interaction] in
            var decoded: [Interaction] = []
            decoded.reserveCapacity(batch.count)
            let strings = StringTable()
            try batch.forEach { (offset, element) throws(CassetteError) in
                let value: JSONValue
                switch element {
                case .value(let tree):
                    value = tree
                case .bytes(let bytes):
                    if let interaction = CassetteCodec.decodeInteraction(bytes: bytes, sharing: strings) {
                        decoded.append(interaction)
                        return
                    }
                    do throws(JSONParseError) {
                        value = try JSONParser.parse(bytes)
                    } catch {
                        throw .malformedJSON(path: list.source, line: 0, column: 0, pointer: list.pointer + "/\(start + offset)", reason: error.reason)
                    }
                }
                decoded.append(try CassetteCodec.decodeInteraction(list.element(value, at: start + offset), sharing: strings))
            }
            return decoded
        }
        results.withLock { $0[number] = result }
        spent.withLock { $0.append(batch) }
    }

    /// Returns once every batch submitted is done.
    func wait() { running.wait() }

    /// Moves the batches decoded so far that come next in order to the end of `interactions`,
    /// up to the first one still running or failed; each is freed as it is moved.
    func moveDone(into interactions: inout [Interaction]) {
        while let next = results.withLock({ results -> [Interaction]? in
            taken.withLock { taken in
                guard let result = results[taken], case .success(let batch) = result else { return nil }
                results[taken] = nil
                taken += 1
                return batch
            }
        }) {
            interactions += next
        }
    }

    /// Appends every batch not yet moved, in order, once all are done; throws the first
    /// failure in order.
    func finish(appendingTo interactions: inout [Interaction]) throws(CassetteError) {
        running.wait()
        // Taken out, so each batch is freed as soon as it is copied.
        var rest = results.withLock { results in
            defer { results = [:] }
            return results
        }
        interactions.reserveCapacity(interactions.count + rest.values.reduce(0) { $0 + ((try? $1.get())?.count ?? 0) })
        let first = taken.withLock { $0 }
        for number in first..<(first + rest.count) {
            guard let result = rest.removeValue(forKey: number) else { continue }
            interactions += try result.get()
        }
    }
}

/// Interactions handed on together to ``DecodePipeline``, in the order they came: each a
/// parsed tree, or its bytes (kept back to back in one array).
private struct DecodeBatch: Sendable {
    private enum Element {
        case tree(JSONValue)
        case bytes(Range<Int>)
    }

    private var elements: [Element] = []
    private var bytes: [UInt8] = []

    var count: Int { elements.count }

    mutating func append(_ element: StreamedElement) {
        switch element {
        case .value(let value):
            elements.append(.tree(value))
        case .bytes(let buffer):
            let start = bytes.count
            bytes.append(contentsOf: buffer)
            elements.append(.bytes(start..<bytes.count))
        }
    }

    /// Calls `body` with each element, in order, and its place in the batch.
    func forEach(_ body: (Int, StreamedElement) throws(CassetteError) -> Void) throws(CassetteError) {
        let result = bytes.withUnsafeBufferPointer { all in
            Result { () throws(CassetteError) in
                for (offset, element) in elements.enumerated() {
                    switch element {
                    case .tree(let value): try body(offset, .value(value))
                    case .bytes(let range): try body(offset, .bytes(UnsafeBufferPointer(rebasing: all[range])))
                    }
                }
            }
        }
        try result.get()
    }
}
