import Foundation

/// Reads vcrpy cassettes (YAML, format version 1, and the unversioned format before it).
///
/// Handles headers as lists or plain strings, `!!binary`, null and string bodies, the
/// `body: {string: …}` form, `status: {code, message}`, pre-1.0 cassettes in YAML or JSON (a
/// top-level list, `protocol`/`host`/`port`/`path` instead of `uri`, raw response header
/// lines), PyYAML's Python tags (`!!python/tuple` and `!!python/unicode` read as the plain
/// sequences and strings they tag, never as objects), httpx's old response form (`content`
/// and `status_code`) and compressed bodies (decoded per the model's body rule). A `.yaml` file
/// in cassetter's dialect is handed to ``CassetterReader``.
///
/// ```swift
/// let cassette = try VCRCassetteReader.read(data, file: "github.yaml", defaultDate: .now)
/// ```
package enum VCRCassetteReader {
    /// Decodes a vcrpy cassette; interactions without Tapedeck metadata get `defaultDate`.
    package static func read(_ data: Data, file: String, defaultDate: Date, limits: BodyLimits = BodyLimits()) throws(InteropError) -> Cassette {
        let root = try YAMLCursor.root(data, file: file)
        if CassetterReader.recognizes(root) { return try CassetterReader.read(root: root, defaultDate: defaultDate, limits: limits) }
        let items: [YAMLCursor]
        var extras: [YAMLCursor] = []
        var metadata: [String: String] = [:]
        if case .sequence = root.node {
            items = try root.sequence()
        } else {
            if let version = try root.optional("version"), try version.int() != 1 {
                throw version.failure("vcrpy cassette version \(try version.int()) is not supported; Tapedeck reads version 1")
            }
            items = try root.required("interactions").sequence()
            if let tapedeck = try root.optional("metadata")?.optional("tapedeck") {
                extras = try tapedeck.optional("interactions")?.sequence() ?? []
                for (key, value) in try tapedeck.optional("cassette")?.mapping() ?? [] {
                    metadata[key] = try value.string()
                }
            }
        }
        var interactions: [Interaction] = []
        interactions.reserveCapacity(items.count)
        for (index, item) in items.enumerated() {
            interactions.append(try interaction(item, extra: index < extras.count ? extras[index] : nil, defaultDate: defaultDate, limits: limits))
        }
        return Cassette(interactions: interactions, metadata: metadata)
    }

    /// Whether `data` is a cassette vcrpy wrote with its JSON serializer (`{"interactions": [{"request":
    /// {"uri": …` in the first few kilobytes), which ``read(_:file:defaultDate:)`` reads too: JSON is YAML.
    package static func looksLikeVCRJSON(_ data: Data) -> Bool {
        let head = [UInt8](data.prefix(4096))
        func contains(_ token: String) -> Bool {
            let needle = Array(token.utf8)
            guard head.count >= needle.count else { return false }
            return (0...(head.count - needle.count)).contains { start in
                head[start..<start + needle.count].elementsEqual(needle) && (start == 0 || head[start - 1] != 0x5C)
            }
        }
        switch head.first(where: { ![0x20, 0x0A, 0x0D, 0x09].contains($0) }) {
        case UInt8(ascii: "{"): return contains("\"interactions\"") && contains("\"uri\"")
        // vcrpy's format before 1.0: a top-level list of {"request": {"protocol", "host", …}}.
        // vcrpy itself now asks for its migration script; Tapedeck reads it as it is.
        case UInt8(ascii: "["): return contains("\"request\"") && contains("\"response\"") && (contains("\"protocol\"") || contains("\"uri\""))
        default: return false
        }
    }

    private static func interaction(_ item: YAMLCursor, extra: YAMLCursor?, defaultDate: Date, limits: BodyLimits) throws(InteropError) -> Interaction {
        let request = try self.request(item.required("request"))
        var response = try self.response(item.required("response"), limits: limits)
        var recordedAt = defaultDate
        response.url = request.url
        if let extra {
            if let date = try extra.optional("recordedAt") {
                guard let parsed = RFC3339Date.parse(try date.string()) else {
                    throw date.failure("not an RFC 3339 timestamp (\(date.kind))")
                }
                recordedAt = parsed
            }
            response.duration = try extra.optional("duration")?.double() ?? 0
            response.url = try extra.optional("url").map { cursor throws(InteropError) in try url(cursor) }
        }
        return Interaction(request: request, response: response, recordedAt: recordedAt)
    }

    // MARK: - Request

    private static func request(_ cursor: YAMLCursor) throws(InteropError) -> HTTPRequest {
        let methodCursor = try cursor.required("method")
        guard let method = FieldValue.method(try methodCursor.string()) else {
            throw methodCursor.failure("not an HTTP method (\(methodCursor.kind))")
        }
        let requestURL: URL
        if let uri = try cursor.optional("uri") {
            requestURL = try url(uri)
        } else {
            requestURL = try legacyURL(cursor)
        }
        var headers = try self.headers(cursor.optional("headers"))
        let body = try cursor.optional("body").flatMap { body throws(InteropError) in try requestBody(body) }
        headers.remove(name: "Transfer-Encoding")
        return HTTPRequest(method: method, url: requestURL, headers: headers, body: body)
    }

    private static func url(_ cursor: YAMLCursor) throws(InteropError) -> URL {
        let urlText = try cursor.string()
        guard let url = FieldValue.absoluteURL(urlText) else {
            throw cursor.failure("\(Redactor.quotedURL(urlText)) is not an absolute URL (scheme://host/path)")
        }
        return url
    }

    /// Pre-1.0 cassettes: `protocol`, `host`, `port`, `path` (as vcrpy's migration joins them).
    private static func legacyURL(_ cursor: YAMLCursor) throws(InteropError) -> URL {
        let scheme = try cursor.required("protocol").string()
        let host = try cursor.required("host").string()
        let port = try cursor.optional("port")?.int()
        let path = try cursor.optional("path")?.string() ?? "/"
        let defaultPort = scheme == "https" ? 443 : 80
        let portText = port.map { $0 == defaultPort ? "" : ":\($0)" } ?? ""
        // vcrpy joins an IPv6 host as it is (`::1`); a URL needs it in brackets.
        let hostText = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        guard let url = PercentEncoding.url("\(scheme)://\(hostText)\(portText)\(path)") else {
            throw cursor.failure("protocol, host, port and path do not form a URL")
        }
        return url
    }

    /// Request bodies: null, a string, `!!binary`, `{string: …}`, or an old pickled BytesIO/iterator.
    private static func requestBody(_ cursor: YAMLCursor) throws(InteropError) -> Data? {
        switch cursor.node {
        case .scalar:
            return try cursor.bytes()
        case .mapping:
            if let string = try cursor.optional("string") { return try string.bytes() }
            if let state = try cursor.optional("state") {
                return try state.sequence().first?.bytes() ?? Data()
            }
            if let args = try cursor.optional("args"), let parts = try args.sequence().first {
                var joined = Data()
                for part in try parts.sequence() { joined += try part.bytes() ?? Data() }
                return joined
            }
            throw cursor.failure("expected a body string, !!binary or {string: …}, found a mapping")
        case .sequence:
            throw cursor.failure("expected a body string, !!binary or {string: …}, found a sequence")
        case .alias:
            throw cursor.failure("expected a body string, !!binary or {string: …}, found \(cursor.kind)")
        }
    }

    // MARK: - Response

    private static func response(_ cursor: YAMLCursor, limits: BodyLimits) throws(InteropError) -> HTTPResponse {
        // httpx's old form: `status_code` and `content` (already decoded text) for `status` and `body`.
        let hasStatus = try cursor.optional("status") != nil
        let hasStatusCode = try cursor.optional("status_code") != nil
        let oldHTTPX = !hasStatus && hasStatusCode
        let statusCursor = try cursor.required(oldHTTPX ? "status_code" : "status")
        let status: Int
        var reason: String?
        if case .mapping = statusCursor.node {
            status = try statusCursor.required("code").int()
            if let message = try statusCursor.optional("message"), !message.isNull { reason = try message.string() }
        } else {
            status = try statusCursor.int()
        }
        guard HTTPResponse.isFinalStatus(status) else {
            let place = try statusCursor.optional("code") ?? statusCursor
            throw place.failure(HTTPResponse.finalStatusProblem(status))
        }
        var headers = try self.headers(cursor.optional("headers"))
        var body = Data()
        if oldHTTPX {
            body = try cursor.optional("content")?.bytes() ?? Data()
            // httpx stored the decoded content beside the original Content-Encoding and length.
            headers.remove(name: "Content-Encoding")
            CassetteCodec.fixContentLength(&headers, count: body.count)
        } else if let bodyCursor = try cursor.optional("body") {
            if case .mapping = bodyCursor.node {
                body = try bodyCursor.optional("string")?.bytes() ?? Data()
            } else {
                body = try bodyCursor.bytes() ?? Data()
            }
        }
        headers.remove(name: "Transfer-Encoding")
        do {
            try ContentCoding.normalize(headers: &headers, body: &body, limits: limits)
        } catch {
            throw (try cursor.optional("body") ?? cursor).failure("the compressed body cannot be decoded: \(error.reason)")
        }
        return HTTPResponse(status: status, reason: reason, headers: headers, body: body)
    }

    // MARK: - Headers

    /// `{Name: [v1, v2]}`, `{Name: v}`, a list of `[name, value]` pairs, or raw `"Name: v\r\n"` lines.
    private static func headers(_ cursor: YAMLCursor?) throws(InteropError) -> HTTPHeaders {
        guard let cursor, !cursor.isNull else { return [:] }
        var headers = HTTPHeaders()
        switch cursor.node {
        case .mapping:
            for (name, value) in try cursor.mapping() {
                if case .sequence = value.node {
                    for item in try value.sequence() { headers.append(name: name, value: try item.string()) }
                } else {
                    headers.append(name: name, value: try value.string())
                }
            }
        case .sequence:
            for item in try cursor.sequence() {
                if case .sequence = item.node {
                    // A frozenset of (name, value) tuples pickles as a list holding the list of pairs.
                    let elements = try item.sequence()
                    let pairs = elements.allSatisfy { if case .sequence = $0.node { true } else { false } }
                        ? elements : [item]
                    for pairCursor in pairs {
                        let pair = try pairCursor.sequence()
                        guard pair.count == 2 else { throw pairCursor.failure("expected a [name, value] pair") }
                        let name = try pair[0].string()
                        // `!!python/tuple [Name, [v1, v2]]`: one name, its values as a list.
                        if case .sequence = pair[1].node {
                            for value in try pair[1].sequence() { headers.append(name: name, value: try value.string()) }
                        } else {
                            headers.append(name: name, value: try pair[1].string())
                        }
                    }
                } else {
                    let line = try item.string().trimmingCharacters(in: .newlines)
                    guard let colon = line.firstIndex(of: ":") else {
                        throw item.failure("expected a \"Name: value\" header line")
                    }
                    headers.append(name: String(line[..<colon]),
                                value: line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
                }
            }
        case .scalar, .alias:
            throw cursor.failure("expected a mapping of header names to lists of values, found \(cursor.kind)")
        }
        return headers
    }
}
