import Foundation

extension CassetteCodec {
    /// The interaction an element of `interactions` holds, read straight from its bytes with
    /// no tree between them, when it has the shape recording writes: `duration`, `recordedAt`,
    /// `recordedBy`, and a request and response of `body`, `headers`, `method`, `reason`,
    /// `status` and `url`, each once. Nil for anything else (a failure, chunks, WebSocket
    /// frames, a member it does not know or that comes twice, a URL only Foundation reads,
    /// anything malformed or out of range): ``decodeInteraction(_:sharing:)`` reads those
    /// from the tree, with its errors. Where both read an element, they give the same
    /// interaction.
    ///
    /// Building and freeing that tree was a third of loading a cassette.
    static func decodeInteraction(bytes: UnsafeBufferPointer<UInt8>, sharing strings: StringTable) -> Interaction? {
        var reader = JSONPullReader(bytes)
        do throws(JSONParseError) {
            let interaction = try InteractionBytes(strings: strings).read(&reader)
            try reader.end()
            return interaction
        } catch {
            return nil
        }
    }
}

/// The reading behind ``CassetteCodec/decodeInteraction(bytes:sharing:)``: members into
/// optionals, then the same checks and the same interaction as the tree's decoder.
private struct InteractionBytes {
    let strings: StringTable

    /// What a request or response object holds.
    private struct Message {
        var body: Data?
        var headers: HTTPHeaders?
        var method: String?
        var reason: String?
        var status: String?
        var url: String?
    }

    func read(_ reader: inout JSONPullReader) throws(JSONParseError) -> Interaction? {
        var duration: String?
        var recordedAt: String?
        var recordedBy: String?
        var request: Message?
        var response: Message?
        guard try reader.beginObject() else { return nil }
        repeat {
            switch try reader.key() {
            case "duration" where duration == nil: duration = try reader.number()
            case "recordedAt" where recordedAt == nil: recordedAt = try reader.string()
            case "recordedBy" where recordedBy == nil: recordedBy = try reader.string()
            case "request" where request == nil: request = try message(&reader, isRequest: true)
            case "response" where response == nil: response = try message(&reader, isRequest: false)
            default: return nil
            }
        } while try reader.more(closing: UInt8(ascii: "}"))
        guard let request, let response else { return nil }
        return assemble(request: request, response: response, duration: duration, recordedAt: recordedAt, recordedBy: recordedBy)
    }

    /// The interaction, or nil where the tree's decoder would throw.
    private func assemble(request: Message, response: Message, duration: String?, recordedAt: String?, recordedBy: String?) -> Interaction? {
        guard let urlText = request.url, let url = StoredURL.plain(urlText),
              let methodName = request.method, let method = try? HTTPMethod(validating: methodName),
              let requestHeaders = request.headers, let responseHeaders = response.headers,
              let statusText = response.status, let status = Int(statusText), HTTPResponse.isFinalStatus(status),
              let recordedAt, let date = RFC3339Date.parse(recordedAt).map(RFC3339Date.roundedToMilliseconds) else { return nil }
        var seconds = 0.0
        if let duration {
            guard let value = JSONValue.number(duration).doubleValue else { return nil }
            seconds = value
        }
        var outgoing = HTTPRequest(method: method, storedURL: url, headers: requestHeaders)
        if let body = request.body {
            outgoing.body = body
            CassetteCodec.fixContentLength(&outgoing.headers, count: body.count)
        }
        var incoming = HTTPResponse(status: status, reason: response.reason, headers: responseHeaders, duration: seconds)
        if let own = response.url {
            guard let ownURL = StoredURL.plain(own) else { return nil }
            incoming.storedURL = ownURL == url ? url : ownURL
        } else {
            incoming.storedURL = url
        }
        if let body = response.body { incoming.body = body }
        CassetteCodec.fixContentLength(&incoming.headers, count: incoming.body.count,
                                       describesAnotherBody: HTTPResponse.lengthDescribesAnotherBody(method: method, status: status))
        return Interaction(request: outgoing, response: incoming, recordedAt: date, recordedBy: recordedBy)
    }

    /// A request's or response's members; nil for one it does not take.
    private func message(_ reader: inout JSONPullReader, isRequest: Bool) throws(JSONParseError) -> Message? {
        var message = Message()
        guard try reader.beginObject() else { return message }
        repeat {
            switch try reader.key() {
            case "body" where message.body == nil:
                guard let body = try body(&reader) else { return nil }
                message.body = body
            case "headers" where message.headers == nil:
                guard let headers = try headers(&reader) else { return nil }
                message.headers = headers
            case "url" where message.url == nil: message.url = try reader.string()
            case "method" where isRequest && message.method == nil: message.method = try reader.string()
            case "reason" where !isRequest && message.reason == nil: message.reason = try reader.string()
            case "status" where !isRequest && message.status == nil: message.status = try reader.number()
            default: return nil
            }
        } while try reader.more(closing: UInt8(ascii: "}"))
        return message
    }

    /// `{"text": …}`, `{"base64": …}` or `{"json": …, "layout": …}` (``CassetteBody``); nil for
    /// anything else.
    private func body(_ reader: inout JSONPullReader) throws(JSONParseError) -> Data? {
        guard try reader.beginObject() else { return nil }
        let data: Data
        switch try reader.key() {
        case "text":
            data = Data(try reader.string().utf8)
        case "base64":
            guard let decoded = Data(base64Encoded: try reader.string()) else { return nil }
            data = decoded
        case "json":
            let value = try reader.value()
            var layout = CassetteBody.Layout.compact
            if try reader.more(closing: UInt8(ascii: "}")) {
                guard try reader.key() == "layout", let named = CassetteBody.Layout(rawValue: try reader.string()) else { return nil }
                layout = named
                guard try !reader.more(closing: UInt8(ascii: "}")) else { return nil }
            }
            return layout.render(value)
        default:
            return nil
        }
        return try reader.more(closing: UInt8(ascii: "}")) ? nil : data
    }

    /// `[["Name", "value"], …]`, the strings shared through ``strings``; nil for a pair that is
    /// not two strings.
    private func headers(_ reader: inout JSONPullReader) throws(JSONParseError) -> HTTPHeaders? {
        var fields: [HTTPHeader] = []
        if try reader.beginArray() {
            repeat {
                guard try reader.beginArray() else { return nil }
                let name = try reader.string()
                guard try reader.more(closing: UInt8(ascii: "]")) else { return nil }
                let value = try reader.string()
                guard try !reader.more(closing: UInt8(ascii: "]")) else { return nil }
                fields.append(HTTPHeader(name: strings.shared(name), value: strings.shared(value)))
            } while try reader.more(closing: UInt8(ascii: "]"))
        }
        return HTTPHeaders(fields)
    }
}
