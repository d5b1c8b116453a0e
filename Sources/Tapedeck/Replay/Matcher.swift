import Foundation

/// Decides which recorded request an incoming request replays.
///
/// By default a request matches a recorded one with the same method and URL, query item
/// order ignored. Options add a header allow-list, body comparison, ignored query items and a
/// custom predicate. Lookup goes through an index keyed by ``key(for:)``, so it costs the same
/// for 100 or 100,000 interactions; the other options refine the candidates with that key.
///
/// ```swift
/// let matcher = Matcher(headers: ["Accept"], body: .json, ignoredQueryItems: ["timestamp"])
/// ```
public struct Matcher: Sendable {
    /// How bodies are compared.
    public enum BodyMatching: String, Sendable, Hashable, CaseIterable {
        /// Bodies are not compared (the default).
        case ignore
        /// Byte for byte.
        case raw
        /// As JSON values (key order, whitespace and `1.0` vs `1` ignored); non-JSON bodies byte for byte.
        case json
        /// As `application/x-www-form-urlencoded` fields, order ignored.
        case form
    }

    /// Header names (case-insensitive) whose values must be equal.
    public var headers: [String]
    /// How bodies are compared.
    public var body: BodyMatching
    /// Query item names left out of matching (e.g. a cache-buster or timestamp).
    public var ignoredQueryItems: Set<String>
    /// An extra predicate, called with (recorded, incoming) for candidates with the same method
    /// and URL; both requests are redacted first. A recorded ``Redactor/placeholder`` in a
    /// query value, path segment, compared header, form or multipart field or JSON member
    /// matches any value there.
    public var custom: (@Sendable (_ recorded: HTTPRequest, _ incoming: HTTPRequest) -> Bool)?

    /// Creates a matcher; the defaults match on method and URL only.
    public init(headers: [String] = [], body: BodyMatching = .ignore, ignoredQueryItems: Set<String> = [],
                custom: (@Sendable (_ recorded: HTTPRequest, _ incoming: HTTPRequest) -> Bool)? = nil) {
        self.headers = headers
        self.body = body
        self.ignoredQueryItems = ignoredQueryItems
        self.custom = custom
    }

    /// Parses a command-line matching spec, vcrpy `match_on` style: comma-separated `body`
    /// (JSON-semantic, other bodies byte for byte), `body:raw`, `body:form`, `header:NAME` and
    /// `ignore-query:NAME`, on top of method and URL, which are always compared. `method` and
    /// `url` are accepted and change nothing.
    ///
    /// ```swift
    /// let matcher = try Matcher(spec: "body,header:Accept,ignore-query:ts")   // tapedeck run --match …
    /// ```
    public init(spec: String) throws(CassetteError) {
        self.init()
        for rawPart in spec.split(separator: ",") {
            let part = rawPart.trimmingCharacters(in: .whitespaces)
            let pieces = part.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            let value = pieces.count > 1 ? pieces[1] : ""
            switch (pieces.first?.lowercased() ?? "", value.isEmpty) {
            case ("method", true), ("url", true), ("", true): continue
            case ("body", true): body = .json
            case ("body", false):
                guard let mode = BodyMatching(rawValue: value.lowercased()) else { throw .invalidMatchSpec(spec: spec, part: part) }
                body = mode
            case ("header", false), ("headers", false): headers.append(value)
            case ("ignore-query", false): ignoredQueryItems.insert(value)
            default: throw .invalidMatchSpec(spec: spec, part: part)
            }
        }
    }

    /// The command-line spec for this matcher (``init(spec:)`` reads it back); `method,url` when
    /// only those are compared. A custom predicate has no spec and is left out.
    public var spec: String {
        var parts: [String] = []
        switch body {
        case .ignore: break
        case .json: parts.append("body")
        case .raw, .form: parts.append("body:\(body.rawValue)")
        }
        parts += headers.map { "header:\($0)" }
        parts += ignoredQueryItems.sorted().map { "ignore-query:\($0)" }
        return parts.isEmpty ? "method,url" : parts.joined(separator: ",")
    }

    /// One line describing what is compared, for reports.
    public var summary: String {
        var parts = ["method", "URL (query order ignored)"]
        if !ignoredQueryItems.isEmpty { parts.append("ignoring query items " + ignoredQueryItems.sorted().joined(separator: ", ")) }
        if !headers.isEmpty { parts.append("headers " + headers.joined(separator: ", ")) }
        if body != .ignore { parts.append("body (\(body.rawValue))") }
        if custom != nil { parts.append("a custom predicate") }
        return parts.joined(separator: ", ")
    }

    /// The index key: method, lower-cased scheme and host, explicit non-default port, path and
    /// the sorted query items that are not ignored.
    package func key(for request: HTTPRequest) -> String {
        if let key = onePassKey(for: request) { return key }
        return generalKey(for: request)
    }

    /// ``key(for:)`` through ``NormalizedURL``: any URL, any query.
    func generalKey(for request: HTTPRequest) -> String {
        var url = NormalizedURL(request.storedURL)
        var query = url.query
        url.query = []   // leaves `query` the only owner, so it is filtered and sorted in place
        if !ignoredQueryItems.isEmpty { query.removeAll { ignoredQueryItems.contains($0.name) } }
        if query.count > 1 { query.sort { ($0.name, $0.value ?? "") < ($1.name, $1.value ?? "") } }
        // Built as bytes in one buffer: this runs on every replayed request (ReplayTransport.lookup).
        var bytes: [UInt8] = []
        bytes.reserveCapacity(128)
        bytes.append(contentsOf: request.method.rawValue.utf8)
        bytes.append(UInt8(ascii: " "))
        bytes.append(contentsOf: url.origin.utf8)
        bytes.append(contentsOf: url.path.utf8)
        for (position, item) in query.enumerated() {
            bytes.append(UInt8(ascii: position == 0 ? "?" : "&"))
            bytes.append(contentsOf: item.name.utf8)
            if let value = item.value {
                bytes.append(UInt8(ascii: "="))
                bytes.append(contentsOf: value.utf8)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Whether ``key(for:)`` alone decides a match (no headers, body or custom predicate to refine it).
    var matchesOnKeyAlone: Bool { headers.isEmpty && body == .ignore && custom == nil }

    /// Whether two requests with the same ``key(for:)`` also agree on headers, body and the custom predicate.
    func refines(recorded: HTTPRequest, incoming: HTTPRequest) -> Bool {
        for name in headers where !Matcher.valuesMatch(recorded: recorded.headers.values(for: name), incoming: incoming.headers.values(for: name)) {
            return false
        }
        if !bodiesMatch(recorded, incoming) { return false }
        return custom?(recorded, incoming) ?? true
    }

    func bodiesMatch(_ recorded: HTTPRequest, _ incoming: HTTPRequest) -> Bool {
        if body == .ignore { return true }
        let a = recorded.body ?? Data()
        let b = incoming.body ?? Data()
        if a == b { return true }
        if let multipart = BodyComparison.multipartMatches(recorded, incoming) { return multipart }
        switch body {
        case .ignore: return true
        case .raw: return false
        case .json:
            guard let x = try? JSONParser.parse(a), let y = try? JSONParser.parse(b) else { return false }
            return x.matches(incoming: y)
        case .form:
            let decode = { (data: Data) in FormEncoding.decode(String(decoding: data, as: UTF8.self)).map { ($0.0, Optional($0.1)) } }
            return Matcher.pairsMatch(recorded: decode(a), incoming: decode(b))
        }
    }
}

/// A URL split into the parts matching compares: `http://host:8080`, `/path` with its escapes
/// normalized (``PercentEncoding/normalizedPath(_:)``), decoded query items.
struct NormalizedURL: Equatable {
    var origin: String
    var path: String
    var query: [QueryItem]

    /// The parts of `url`: read from its text in one pass when it is plain ASCII with no
    /// userinfo or IPv6 host (nearly every request), else through Foundation's accessors.
    /// Both give the same parts (`NormalizedURLTests`); the one pass is what keeps a replay
    /// lookup near half a microsecond, since each accessor costs 50–100 ns.
    init(_ url: URL) {
        self.init(StoredURL.parsed(url))
    }

    /// The parts of a request's or response's URL, from its text when it is kept as text.
    init(_ url: StoredURL) {
        if let parsed = NormalizedURL(parsing: url.text) {
            self = parsed
        } else {
            self.init(accessorsOf: url.url)
        }
    }

    /// The parts from `text` (an absolute URL) in one pass, or nil when the text is not plain:
    /// non-ASCII, userinfo, an IPv6 or percent-encoded host, a port that is not a number.
    init?(parsing text: String) {
        var text = text
        guard let parts = text.withUTF8({ bytes -> (String, String, String?)? in
            var index = 0
            // scheme ":" "//"
            while index < bytes.count, bytes[index] != UInt8(ascii: ":") {
                let byte = bytes[index]
                guard byte < 0x80, byte != UInt8(ascii: "/"), byte != UInt8(ascii: "?"), byte != UInt8(ascii: "#") else { return nil }
                index += 1
            }
            guard index > 0, index + 2 < bytes.count, bytes[index + 1] == UInt8(ascii: "/"), bytes[index + 2] == UInt8(ascii: "/") else {
                return nil
            }
            let scheme = NormalizedURL.lowercased(UnsafeBufferPointer(rebasing: bytes[0..<index]))
            index += 3
            let hostStart = index
            var colon: Int?
            while index < bytes.count, bytes[index] != UInt8(ascii: "/"), bytes[index] != UInt8(ascii: "?"), bytes[index] != UInt8(ascii: "#") {
                switch bytes[index] {
                case UInt8(ascii: "@"), UInt8(ascii: "["), UInt8(ascii: "%"): return nil
                case UInt8(ascii: ":"): if colon == nil { colon = index } else { return nil }
                case 0x80...: return nil
                default: break
                }
                index += 1
            }
            var host = NormalizedURL.lowercased(UnsafeBufferPointer(rebasing: bytes[hostStart..<(colon ?? index)]))
            if let colon {
                let digits = bytes[(colon + 1)..<index]
                guard !digits.isEmpty, digits.count <= 5, digits.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else { return nil }
                let port = digits.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
                guard port <= 65_535 else { return nil }
                if !(scheme == "http" && port == 80), !(scheme == "https" && port == 443) { host += ":\(port)" }
            }
            let pathStart = index
            while index < bytes.count, bytes[index] != UInt8(ascii: "?"), bytes[index] != UInt8(ascii: "#") {
                guard bytes[index] < 0x80 else { return nil }
                index += 1
            }
            let path = pathStart == index ? "/" : PercentEncoding.normalizedPath(String(decoding: UnsafeBufferPointer(rebasing: bytes[pathStart..<index]), as: UTF8.self))
            var query: String?
            if index < bytes.count, bytes[index] == UInt8(ascii: "?") {
                let queryStart = index + 1
                index = queryStart
                while index < bytes.count, bytes[index] != UInt8(ascii: "#") {
                    guard bytes[index] < 0x80 else { return nil }
                    index += 1
                }
                query = String(decoding: UnsafeBufferPointer(rebasing: bytes[queryStart..<index]), as: UTF8.self)
            }
            return (scheme + "://" + host, path, query)
        }) else { return nil }
        origin = parts.0
        path = parts.1
        query = NormalizedURL.items(parts.2 ?? "")
    }

    private static func lowercased(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        String(unsafeUninitializedCapacity: bytes.count) { buffer in
            for (offset, byte) in bytes.enumerated() {
                buffer[offset] = byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 32 : byte
            }
            return bytes.count
        }
    }

    /// The parts through Foundation's accessors (any URL).
    init(accessorsOf url: URL) {
        let scheme = (url.scheme ?? "http").lowercased()
        var host = (url.host ?? "").lowercased()
        if let port = url.port, !(scheme == "http" && port == 80), !(scheme == "https" && port == 443) { host += ":\(port)" }
        origin = scheme + "://" + host
        let rawPath = url.path(percentEncoded: true)
        path = rawPath.isEmpty ? "/" : PercentEncoding.normalizedPath(rawPath)
        query = NormalizedURL.items(url.query(percentEncoded: true) ?? "")
    }

    /// The decoded items of a percent-encoded query (`a=1&b&c=`), split on its bytes: `&` and
    /// `=` are ASCII, so no split lands inside a character.
    static func items(_ query: String) -> [QueryItem] {
        var query = query
        return query.withUTF8 { bytes in
            var items: [QueryItem] = []
            var start = 0
            while start < bytes.count {
                var end = start
                var equals: Int?
                while end < bytes.count, bytes[end] != UInt8(ascii: "&") {
                    if equals == nil, bytes[end] == UInt8(ascii: "=") { equals = end }
                    end += 1
                }
                if end > start {
                    let name = decode(UnsafeBufferPointer(rebasing: bytes[start..<(equals ?? end)]))
                    let value = equals.map { decode(UnsafeBufferPointer(rebasing: bytes[($0 + 1)..<end])) }
                    // Cassettes from before one placeholder was used everywhere wrote `REDACTED`
                    // for the credential items the redactor replaces; any other `REDACTED` is a value.
                    let legacy = value == Redactor.legacyQueryPlaceholder && Redactor.standard.redactsQueryItem(name)
                    items.append(QueryItem(name: name, value: legacy ? Redactor.placeholder : value))
                }
                start = end + 1
            }
            return items
        }
    }

    private static func decode(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        let text = String(decoding: bytes, as: UTF8.self)
        // Most parts have nothing to decode.
        guard bytes.contains(where: { $0 == UInt8(ascii: "%") || $0 == UInt8(ascii: "+") }) else { return text }
        return decode(Substring(text))
    }

    /// The query component decoded as `application/x-www-form-urlencoded`, as servers,
    /// Python's requests and urllib and HTML forms read it: `+` is a space, `%2B` a plus. So
    /// `q=a+b` (requests) and `q=a%20b` (Tapedeck) match. The percent-decoded text when the
    /// bytes are UTF-8; otherwise the canonical percent-encoded form (`%FF`, upper-case hex),
    /// so two different invalid values never decode to the same `�`.
    static func decode(_ part: Substring) -> String {
        let bytes = PercentEncoding.decodedBytes(part.utf8.map { $0 == UInt8(ascii: "+") ? UInt8(ascii: " ") : $0 })
        if let text = String(validating: bytes, as: UTF8.self) { return text }
        return bytes.map { PercentEncoding.isUnreserved($0) ? String(UnicodeScalar($0)) : PercentEncoding.hex($0) }.joined()
    }
}
