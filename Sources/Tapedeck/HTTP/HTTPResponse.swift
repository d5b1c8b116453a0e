import Foundation

/// A received HTTP response: status, reason, headers, body, final URL and timing.
public struct HTTPResponse: Hashable, Sendable, Codable {
    /// The status code, such as 200.
    public var status: Int
    /// The reason phrase, such as "OK".
    public var reason: String
    /// Header fields in received order; repeated names are separate entries.
    public var headers: HTTPHeaders
    /// The body bytes (decoded when the server sent gzip or deflate).
    public var body: Data
    /// The URL that answered, after any redirects followed. Responses compare their URLs as
    /// absolute text, as requests do (``HTTPRequest/url``).
    public var url: URL? {
        get { storedURL?.url }
        set { storedURL = newValue.map(StoredURL.parsed) }
    }
    /// The URL as kept; a response read from a cassette keeps only its text.
    package var storedURL: StoredURL?
    /// Time from sending to the complete response, in seconds.
    public var duration: TimeInterval
    /// The body as it arrived, piece by piece, when it was a stream (``isStream``) recorded or
    /// relayed as one; nil for a body received whole. Their joined bytes are ``body``.
    public var chunks: [BodyChunk]?
    /// The frames of the WebSocket session this `101 Switching Protocols` answer opened, in
    /// order, both directions; nil for any other response.
    public var webSocket: [WebSocketMessage]?

    /// Creates a response; everything but the status has a default.
    public init(
        status: Int,
        reason: String? = nil,
        headers: HTTPHeaders = [:],
        body: Data = Data(),
        url: URL? = nil,
        duration: TimeInterval = 0
    ) {
        self.status = status
        self.reason = reason ?? HTTPResponse.reasonPhrase(for: status)
        self.headers = headers
        self.body = body
        self.storedURL = url.map(StoredURL.parsed)
        self.duration = duration
    }

    private enum CodingKeys: String, CodingKey {
        case status, reason, headers, body
        case storedURL = "url"
        case duration, chunks, webSocket
    }

    /// The body as text: UTF-8, or the charset a textual `Content-Type` names
    /// (`text/html; charset=iso-8859-1`); nil when it is not text in it.
    public var text: String? {
        if let converted = MediaType.utf8Text(body, contentType: headers["Content-Type"]) { return String(decoding: converted, as: UTF8.self) }
        return String(bytes: body, encoding: .utf8)
    }

    /// The `Content-Type` media type without parameters, lower-cased (e.g. `application/json`).
    public var mediaType: String? {
        headers["Content-Type"].map(MediaType.essence)
    }

    /// The standard reason phrase for a status code, or "" when there is none.
    public static func reasonPhrase(for status: Int) -> String {
        reasonPhrases[status] ?? ""
    }

    private static let reasonPhrases: [Int: String] = [
        100: "Continue", 101: "Switching Protocols", 102: "Processing", 103: "Early Hints",
        200: "OK", 201: "Created", 202: "Accepted", 203: "Non-Authoritative Information",
        204: "No Content", 205: "Reset Content", 206: "Partial Content", 207: "Multi-Status",
        208: "Already Reported", 226: "IM Used",
        300: "Multiple Choices", 301: "Moved Permanently", 302: "Found", 303: "See Other",
        304: "Not Modified", 305: "Use Proxy", 307: "Temporary Redirect", 308: "Permanent Redirect",
        400: "Bad Request", 401: "Unauthorized", 402: "Payment Required", 403: "Forbidden",
        404: "Not Found", 405: "Method Not Allowed", 406: "Not Acceptable",
        407: "Proxy Authentication Required", 408: "Request Timeout", 409: "Conflict", 410: "Gone",
        411: "Length Required", 412: "Precondition Failed", 413: "Content Too Large",
        414: "URI Too Long", 415: "Unsupported Media Type", 416: "Range Not Satisfiable",
        417: "Expectation Failed", 418: "I'm a teapot", 421: "Misdirected Request",
        422: "Unprocessable Content", 423: "Locked", 424: "Failed Dependency", 425: "Too Early",
        426: "Upgrade Required", 428: "Precondition Required", 429: "Too Many Requests",
        431: "Request Header Fields Too Large", 451: "Unavailable For Legal Reasons",
        500: "Internal Server Error", 501: "Not Implemented", 502: "Bad Gateway",
        503: "Service Unavailable", 504: "Gateway Timeout", 505: "HTTP Version Not Supported",
        506: "Variant Also Negotiates", 507: "Insufficient Storage", 508: "Loop Detected",
        510: "Not Extended", 511: "Network Authentication Required",
    ]
}

/// Media type helpers shared by bodies, rendering and cassettes.
package enum MediaType {
    /// `text/html; charset=utf-8` → `text/html`.
    package static func essence(_ contentType: String) -> String {
        // Most are one already: lower-case ASCII with no parameters and no spaces.
        if contentType.allBytes(satisfy: { $0 > 0x20 && $0 < 0x80 && $0 != UInt8(ascii: ";") && !(0x41...0x5A).contains($0) }) {
            return contentType
        }
        let end = contentType.utf8.firstIndex(of: UInt8(ascii: ";")) ?? contentType.utf8.endIndex
        let type = contentType[..<end].trimmingHTTPSpace()
        // Lower-cased only when it has upper-case or non-ASCII letters (most are lower-case already).
        return type.utf8.contains(where: { (0x41...0x5A).contains($0) || $0 >= 0x80 }) ? type.lowercased() : type
    }

    /// `name="value"` or `name=value` among a header value's parameters (`charset`, `boundary`),
    /// the name in any case.
    package static func parameter(_ name: String, in header: String) -> String? {
        for piece in header.split(separator: ";").dropFirst() {
            let pair = piece.split(separator: "=", maxSplits: 1).map { $0.trimmingHTTPSpace() }
            guard pair.count == 2, pair[0].lowercased() == name else { continue }
            return pair[1].trimmingCharacters(in: CharacterSet(charactersIn: "\""))
        }
        return nil
    }

    /// `data` as UTF-8 when `contentType` is textual (``isText(_:)``) and names a charset other
    /// than UTF-8 that it is written in (`text/html; charset=iso-8859-1`), as HTTPie shows such
    /// a body; nil when it names none, UTF-8, one not known here, or the bytes are not in it.
    package static func utf8Text(_ data: Data, contentType: String?) -> Data? {
        // Only a textual type's charset says how to read it: servers add one to binary types too.
        guard let contentType, isText(contentType), var encoding = charsetEncoding(contentType) else { return nil }
        // UTF-16 with no byte order mark is read little-endian, as HTTPie (Python) reads it.
        if encoding == .utf16, data.count >= 2, !(data.starts(with: [0xFE, 0xFF]) || data.starts(with: [0xFF, 0xFE])) { encoding = .utf16LittleEndian }
        guard let text = String(data: data, encoding: encoding) else { return nil }
        return Data(text.utf8)
    }

    /// The encoding of the charset other than UTF-8 that `contentType` names, when it is one
    /// known here (`iso-8859-1`, `windows-1252`, `shift_jis`…); nil for none, UTF-8 or another.
    package static func charsetEncoding(_ contentType: String) -> String.Encoding? {
        parameter("charset", in: contentType).flatMap { charsets[$0.lowercased()] }
    }

    /// The charsets other than UTF-8 that bodies are read in, by their IANA names and aliases.
    private static let charsets: [String: String.Encoding] = [
        "iso-8859-1": .isoLatin1, "iso_8859-1": .isoLatin1, "latin1": .isoLatin1, "l1": .isoLatin1,
        "windows-1252": .windowsCP1252, "cp1252": .windowsCP1252, "iso-8859-2": .isoLatin2, "latin2": .isoLatin2,
        "windows-1250": .windowsCP1250, "windows-1251": .windowsCP1251,
        "utf-16": .utf16, "utf-16le": .utf16LittleEndian, "utf-16be": .utf16BigEndian,
        "shift_jis": .shiftJIS, "euc-jp": .japaneseEUC, "iso-2022-jp": .iso2022JP,
    ]

    /// Whether a media type carries one JSON value a line (NDJSON, JSON Lines, JSON text
    /// sequences): read line by line wherever a JSON body is read whole.
    package static func isJSONLines(_ contentType: String) -> Bool {
        ["application/x-ndjson", "application/ndjson", "application/jsonl", "application/x-jsonlines", "application/json-seq"]
            .contains(essence(contentType))
    }

    /// `body` with `transform` applied to each line's JSON (what follows a JSON text
    /// sequence's record separator, before a line's `\r`), every other byte kept; `body` itself
    /// when nothing changed.
    package static func mapJSONLines(_ body: Data, _ transform: (Data) -> Data) -> Data {
        let bytes = [UInt8](body)
        var output: [UInt8] = []
        var changed = false
        var start = 0
        while start < bytes.count {
            let end = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
            var valueStart = start, valueEnd = end
            while valueStart < valueEnd, bytes[valueStart] == 0x1E || bytes[valueStart] == UInt8(ascii: " ") { valueStart += 1 }
            if valueEnd > valueStart, bytes[valueEnd - 1] == UInt8(ascii: "\r") { valueEnd -= 1 }
            output += bytes[start..<valueStart]
            if valueEnd > valueStart {
                let value = Data(bytes[valueStart..<valueEnd])
                let mapped = transform(value)
                if mapped != value { changed = true }
                output += mapped
            }
            output += bytes[valueEnd..<min(end + 1, bytes.count)]
            start = end + 1
        }
        return changed ? Data(output) : body
    }

    /// Whether a media type carries JSON (`application/json`, `application/problem+json`, …).
    package static func isJSON(_ contentType: String) -> Bool {
        let type = essence(contentType)
        return type == "application/json" || type.hasSuffix("+json") || type == "text/json"
    }

    /// Whether a media type is textual enough to print on a terminal.
    package static func isText(_ contentType: String) -> Bool {
        let type = essence(contentType)
        return type.hasPrefix("text/") || isJSON(type) || type.hasSuffix("+xml")
            || ["application/xml", "application/javascript", "application/x-www-form-urlencoded",
                "application/yaml", "application/x-yaml", "application/graphql"].contains(type)
    }

    /// A content type for a file name's extension, `application/octet-stream` when unknown.
    package static func forFileExtension(_ ext: String) -> String {
        byExtension[ext.lowercased()] ?? "application/octet-stream"
    }

    private static let byExtension: [String: String] = [
        "json": "application/json", "txt": "text/plain", "text": "text/plain", "html": "text/html",
        "htm": "text/html", "css": "text/css", "csv": "text/csv", "xml": "application/xml",
        "js": "application/javascript", "md": "text/markdown", "yaml": "application/yaml",
        "yml": "application/yaml", "png": "image/png", "jpg": "image/jpeg", "jpeg": "image/jpeg",
        "gif": "image/gif", "webp": "image/webp", "svg": "image/svg+xml", "ico": "image/x-icon",
        "pdf": "application/pdf", "zip": "application/zip", "gz": "application/gzip",
        "tar": "application/x-tar", "mp3": "audio/mpeg", "wav": "audio/wav", "mp4": "video/mp4",
        "webm": "video/webm", "wasm": "application/wasm", "bin": "application/octet-stream",
        "har": "application/json", "tape": "text/plain",
    ]
}

extension HTTPResponse {
    /// Whether a response's `Content-Length` may describe the body a GET would get rather than
    /// its own (RFC 9110 §8.6): the answer to a HEAD, and a 304. The one rule for recording,
    /// loading, every cassette format and the lint.
    package static func lengthDescribesAnotherBody(method: HTTPMethod, status: Int) -> Bool {
        method == .head || status == 304
    }

    /// Whether `status` can be a recorded answer: 101 (a WebSocket upgrade) or 200…999. Any
    /// other 1xx is an interim answer a final one follows; replayed alone, a client would wait
    /// for ever. One rule for every cassette format.
    package static func isFinalStatus(_ status: Int) -> Bool {
        status == 101 || (200...999).contains(status)
    }

    /// Why `status` cannot be a recorded answer (``isFinalStatus(_:)``), for a reader's error.
    package static func finalStatusProblem(_ status: Int) -> String {
        (100...199).contains(status)
            ? "status \(status) is an interim answer, never a final one; a recorded answer is 101 (a WebSocket upgrade) or 200…999"
            : "status \(status) is not an HTTP status code; a recorded answer is 101 (a WebSocket upgrade) or 200…999"
    }
}
