import Foundation

/// Reads HAR 1.2 archives as browsers, mitmproxy, Charles and Proxyman export them.
///
/// Accepts a UTF-8 byte order mark, fractional `time`s, RFC 3339 `startedDateTime`s with
/// any fraction and offset, base64 `content.encoding`, `postData.params` without `text`,
/// cookie arrays without cookie headers, `redirectURL` without `Location`, and HTTP/2
/// pseudo-headers (dropped), and repeated headers joined with line breaks (Firefox's Set-Cookie). Compressed bodies follow the model's rule: stored decoded.
/// A WebSocket session's frames are read from Chrome's `_webSocketMessages`.
///
/// ```swift
/// let cassette = try HARReader.read(data, file: "session.har")
/// ```
package enum HARReader {
    /// Decodes a HAR document into a cassette, one interaction per entry, in file order.
    package static func read(_ data: Data, file: String, limits: BodyLimits = BodyLimits()) throws(InteropError) -> Cassette {
        let root = try JSONCursor.root(data, file: file)
        let log = try root.required("log")
        let entries = try log.required("entries").array()
        var interactions: [Interaction] = []
        interactions.reserveCapacity(entries.count)
        for entry in entries { interactions.append(try interaction(entry, limits: limits)) }
        var metadata: [String: String] = [:]
        if let custom = try log.optional("_tapedeck"), case let .object(members) = custom.value {
            for (key, value) in members { if case let .string(text) = value { metadata[key] = text } }
        }
        return Cassette(interactions: interactions, metadata: metadata)
    }

    private static func interaction(_ entry: JSONCursor, limits: BodyLimits) throws(InteropError) -> Interaction {
        let started = try entry.required("startedDateTime")
        guard let recordedAt = RFC3339Date.parse(try started.string()) else {
            throw started.failure("not an ISO 8601 date-time (\(started.kind)); expected e.g. 2024-05-01T12:00:00.123Z")
        }
        let request = try self.request(entry.required("request"))
        let responseCursor = try entry.required("response")
        // Status 0: the browser sent the request and got no answer (aborted, blocked, offline).
        // It loads as a recorded failure, which replay gives back as no response.
        if try responseCursor.required("status").int() == 0 {
            let reasons = ["statusText", "_error"].compactMap { key -> String? in
                guard case .string(let text)? = responseCursor.value[key], !text.isEmpty else { return nil }
                return text
            }
            let detail = "the browser got no response (HAR status 0" + (reasons.isEmpty ? "" : ": " + reasons.joined(separator: ", ")) + ")"
            var placeholder = HTTPResponse(status: 0)
            placeholder.duration = max(0, try entry.optional("time")?.double() ?? 0) / 1000
            return Interaction(request: request, response: placeholder, recordedAt: recordedAt,
                               failure: TransportFailure(kind: .aborted, detail: detail))
        }
        var response = try self.response(responseCursor, requestURL: request.url, limits: limits)
        response.duration = max(0, try entry.optional("time")?.double() ?? 0) / 1000
        if let messages = try entry.optional("_webSocketMessages") {
            let frames = try webSocketMessages(messages, startedAt: recordedAt, status: response.status)
            if !frames.isEmpty {
                // A WebSocket over HTTP/2 is answered 200 (RFC 8441); replay speaks HTTP/1.1, which answers 101.
                if response.status != 101 { (response.status, response.reason) = (101, "Switching Protocols") }
                response.webSocket = frames
            }
        }
        return Interaction(request: request, response: response, recordedAt: recordedAt)
    }

    /// A WebSocket session's frames as Chrome's DevTools export them: `type` `send` (the
    /// client's) or `receive`, `time` in seconds since 1970, `opcode` 1 (text, `data` as it is)
    /// or 2 (binary, `data` in base64); 8, 9 and 10 (close, ping, pong, base64) as Tapedeck writes
    /// them. Each frame's offset is counted from the entry's `startedDateTime`.
    private static func webSocketMessages(_ cursor: JSONCursor, startedAt: Date, status: Int) throws(InteropError) -> [WebSocketMessage] {
        let messages = try cursor.array()
        guard !messages.isEmpty else { return [] }
        guard status == 101 || (200..<300).contains(status) else {
            throw cursor.failure("WebSocket messages on a response with status \(status); a WebSocket session is answered 101 Switching Protocols "
                + "(200 over HTTP/2)")
        }
        var frames: [WebSocketMessage] = []
        frames.reserveCapacity(messages.count)
        for message in messages {
            let typeCursor = try message.required("type")
            let sender: WebSocketMessage.Sender
            switch try typeCursor.string() {
            case "send": sender = .client
            case "receive": sender = .server
            default: throw typeCursor.failure("not a WebSocket message's type (\(typeCursor.kind)); expected \"send\" or \"receive\"")
            }
            let opcodeCursor = try message.required("opcode")
            guard let kind = webSocketKinds[try opcodeCursor.int()] else {
                throw opcodeCursor.failure("not a WebSocket opcode Tapedeck reads (\(opcodeCursor.kind)); expected 1 (text), 2 (binary), 8 (close), 9 (ping) or 10 (pong)")
            }
            let dataCursor = try message.required("data")
            let data = kind == .text ? Data(try dataCursor.string().utf8) : try decodeBase64(dataCursor)
            if kind == .close, !data.isEmpty {
                let code = data.count >= 2 ? Int(data[data.startIndex]) << 8 | Int(data[data.startIndex + 1]) : 0
                guard WebSocketMessage.isSentCloseCode(code) else {
                    throw dataCursor.failure("not a close frame's payload: its first two bytes must be a close code from 1000 to 4999 that is sent "
                        + "(not 1004, 1005, 1006 or 1015), then the reason")
                }
            }
            // Seconds since 1970, as Chrome writes them; a value past the year 5000 is taken as
            // milliseconds, as some tools write them.
            var time = try message.required("time").double()
            if time > 1e11 { time /= 1000 }
            let offset = max(0, time - startedAt.timeIntervalSince1970)
            frames.append(WebSocketMessage(offset: offset, sender: sender, kind: kind, data: data))
        }
        // Each end's messages are timed by its own thread in a browser: kept in time order, as a
        // session plays them (a sort that keeps the order of equal times).
        return frames.enumerated().sorted { ($0.element.offset, $0.offset) < ($1.element.offset, $1.offset) }.map(\.element)
    }

    /// Each frame kind by its opcode (RFC 6455 §5.2), as ``HARWriter`` writes them.
    static let webSocketKinds: [Int: WebSocketMessage.Kind] = [1: .text, 2: .binary, 8: .close, 9: .ping, 10: .pong]

    // MARK: - Request

    private static func request(_ cursor: JSONCursor) throws(InteropError) -> HTTPRequest {
        let methodCursor = try cursor.required("method")
        guard let method = FieldValue.method(try methodCursor.string()) else {
            throw methodCursor.failure("not an HTTP method (\(methodCursor.kind))")
        }
        let urlCursor = try cursor.required("url")
        let urlText = try urlCursor.string()
        guard var url = FieldValue.absoluteURL(urlText) else {
            throw urlCursor.failure("\(Redactor.quotedURL(urlText)) is not an absolute URL (scheme://host/path)")
        }
        // A fragment is never sent: a browser's HAR may keep the one its page's address had.
        if url.fragment != nil, var components = URLComponents(url: url, resolvingAgainstBaseURL: false) {
            components.percentEncodedFragment = nil
            url = components.url ?? url
        }
        var headers = try self.headers(cursor.required("headers"))
        if !headers.contains("Cookie") {
            let cookies = try cursor.list("cookies").map { cookie throws(InteropError) in
                "\(try cookie.required("name").string())=\(try cookie.optional("value")?.string() ?? "")"
            }
            if !cookies.isEmpty { headers.append(name: "Cookie", value: cookies.joined(separator: "; ")) }
        }
        var body: Data?
        if let postData = try cursor.optional("postData") {
            // A body's type given only as the postData's (some exporters leave the header out)
            // becomes the header, so the body is read, and redacted, as what it is.
            if !headers.contains("Content-Type"), let mime = try postData.optional("mimeType")?.string(), !mime.isEmpty,
               !mime.contains(where: { $0.isNewline }) {
                headers.append(name: "Content-Type", value: mime)
            }
            body = try self.body(postData, contentType: headers["Content-Type"])
        }
        return HTTPRequest(method: method, url: url, headers: headers, body: body)
    }

    /// `_base64Body` (Tapedeck), `text` with a non-standard `encoding: base64`, `text`, or
    /// `params`: a multipart body under a multipart `contentType`, else a form body.
    private static func body(_ postData: JSONCursor, contentType: String?) throws(InteropError) -> Data {
        if let base64 = try postData.optional("_base64Body") {
            return try decodeBase64(base64)
        }
        if let text = try postData.optional("text") {
            if try postData.optional("encoding")?.string() == "base64" { return try decodeBase64(text) }
            return textBytes(try text.string(), contentType: contentType, size: nil)
        }
        var fields: [(name: String, value: String, fileName: String?, contentType: String?)] = []
        for param in try postData.list("params") {
            fields.append((try param.required("name").string(), try param.optional("value")?.string() ?? "",
                           try param.optional("fileName")?.string(), try param.optional("contentType")?.string()))
        }
        if let contentType, MediaType.essence(contentType) == "multipart/form-data",
           let multipart = MultipartFields.encode(fields, contentType: contentType) {
            return multipart
        }
        return Data(FormEncoding.encode(fields.map { ($0.name, $0.value) }).utf8)
    }

    // MARK: - Response

    private static func response(_ cursor: JSONCursor, requestURL: URL, limits: BodyLimits) throws(InteropError) -> HTTPResponse {
        let statusCursor = try cursor.required("status")
        let status = try statusCursor.int()
        guard HTTPResponse.isFinalStatus(status) else {
            throw statusCursor.failure(HTTPResponse.finalStatusProblem(status) + "; a HAR entry must hold a received response")
        }
        let reason = try cursor.optional("statusText")?.string()
        var headers = try self.headers(cursor.required("headers"))
        if !headers.contains("Set-Cookie") {
            for cookie in try cursor.list("cookies") { headers.append(name: "Set-Cookie", value: try setCookie(cookie)) }
        }
        if let redirect = try cursor.optional("redirectURL")?.string(), !redirect.isEmpty, !headers.contains("Location") {
            headers.append(name: "Location", value: redirect)
        }
        let content = try cursor.required("content")
        var body = Data()
        if let text = try content.optional("text") {
            if let encoding = try content.optional("encoding") {
                guard try encoding.string().lowercased() == "base64" else {
                    throw encoding.failure("content.encoding is \(encoding.kind), which HAR 1.2 does not define: only \"base64\" is "
                        + "(a body given as decoded text has no encoding; a compressed one is named by its Content-Encoding header)")
                }
                body = try decodeBase64(text)
            } else {
                // A size that is not a count (-1, absent) only leaves the text as UTF-8.
                let sizeCursor = try content.optional("size")
                let size = sizeCursor.flatMap { try? $0.int() }
                let mimeType = try content.optional("mimeType")?.string()
                body = textBytes(try text.string(), contentType: headers["Content-Type"] ?? mimeType, size: size)
            }
        }
        if !body.isEmpty, !headers.contains("Content-Type"), let mime = try content.optional("mimeType")?.string(),
           !mime.isEmpty {
            headers.append(name: "Content-Type", value: mime)
        }
        // HAR 1.2 keeps `content.text` decoded: a coding whose bytes cannot be told apart from a
        // decoded body (br, zstd) is taken as undone, unless Tapedeck's own writer marked the
        // body still encoded (`_encoded`). gzip and deflate are undone only when the bytes are theirs.
        if case .bool(true)? = try content.optional("_encoded")?.value {} else {
            let codings = ContentCoding.codings(of: headers)
            if codings.contains(where: { !["gzip", "x-gzip", "deflate"].contains($0) }) {
                headers.remove(name: "Content-Encoding")
                if headers.contains("Content-Length") { headers["Content-Length"] = String(body.count) }
            }
        }
        do {
            try ContentCoding.normalize(headers: &headers, body: &body, limits: limits)
        } catch {
            throw content.failure("the compressed body cannot be decoded: \(error.reason)")
        }
        var url: URL? = requestURL
        if let custom = try cursor.optional("_url") {
            let text = try custom.string()
            url = text.isEmpty ? nil : PercentEncoding.url(text)
        }
        return HTTPResponse(status: status, reason: reason, headers: headers, body: body, url: url)
    }

    /// A `Set-Cookie` value rebuilt from a HAR cookie object.
    private static func setCookie(_ cookie: JSONCursor) throws(InteropError) -> String {
        var parts = ["\(try cookie.required("name").string())=\(try cookie.optional("value")?.string() ?? "")"]
        if let path = try cookie.optional("path")?.string() { parts.append("Path=\(path)") }
        if let domain = try cookie.optional("domain")?.string() { parts.append("Domain=\(domain)") }
        if let expires = try cookie.optional("expires")?.string() { parts.append("Expires=\(expires)") }
        if case .bool(true) = try cookie.optional("httpOnly")?.value { parts.append("HttpOnly") }
        if case .bool(true) = try cookie.optional("secure")?.value { parts.append("Secure") }
        return parts.joined(separator: "; ")
    }

    // MARK: - Shared

    /// The bytes a HAR's `text` stands for. Browsers and mitmproxy write it decoded by the
    /// charset its type names, so it is encoded back in that charset; with no charset, text
    /// whose every character is below U+0100 and whose `size` counts one byte a character
    /// (mitmproxy's Latin-1 reading of bytes it had no charset for) is Latin-1; else UTF-8.
    static func textBytes(_ text: String, contentType: String?, size: Int?) -> Data {
        if let contentType, let encoding = MediaType.charsetEncoding(contentType), let bytes = text.data(using: encoding) { return bytes }
        let scalars = text.unicodeScalars
        if let size, size != text.utf8.count, size == scalars.count, scalars.allSatisfy({ $0.value < 0x100 }) {
            return Data(scalars.map { UInt8($0.value) })
        }
        return Data(text.utf8)
    }

    /// HAR headers; HTTP/2 pseudo-headers (`:authority`, …) are not header fields and are dropped.
    private static func headers(_ cursor: JSONCursor) throws(InteropError) -> HTTPHeaders {
        var headers = HTTPHeaders()
        for (name, value) in try cursor.nameValuePairs() where !name.hasPrefix(":") {
            // Firefox joins repeated headers (Set-Cookie above all) with line breaks: one field each.
            let lines = value.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            for line in lines.isEmpty ? [""] : lines { headers.append(name: name, value: line) }
        }
        return headers
    }

    private static func decodeBase64(_ cursor: JSONCursor) throws(InteropError) -> Data {
        let text = try cursor.string()
        guard let data = Base64.decode(text) else {
            throw cursor.failure("not valid base64 (\"\(text.prefix(24))\(text.count > 24 ? "…" : "")\")")
        }
        return data
    }
}
