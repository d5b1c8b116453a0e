import Foundation
import Tapedeck

/// Everything a session remembers between commands.
public struct SessionState: Sendable {
    /// The base URL set with `base`.
    public var base: URL?
    /// The current path relative to the base, always starting with `/`.
    public var path = "/"
    /// Headers sent with every request.
    public var headers = HTTPHeaders()
    /// Query items sent with every request.
    public var query: [QueryItem] = []
    /// Variables by name.
    public var variables: [String: String] = [:]
    /// The last request sent.
    public var lastRequest: HTTPRequest?
    /// The last response received; nil again when a later request failed.
    public var lastResponse: HTTPResponse?
    /// Why the last request got no response (`GET http://… : cannot connect …`), until one succeeds.
    public var lastFailure: String?
    /// How the last request was sent, for `show curl`.
    public var lastSend = SendOptions()
    /// Source text of the successful replayable commands, for `history` and `save`.
    public var history: [String] = []
    /// Header names used this session, for completion.
    public var headerNames: Set<String> = []
    /// Paths seen in `cd`, requests and responses, for completion.
    public var paths: Set<String> = []
    /// URL paths held by the cassette being replayed or recorded (Tab completes them too).
    public var cassettePaths: [String] = []

    /// Creates an empty state.
    public init() {}

    /// The base URL and path as the prompt shows them, shortened to about `limit` characters:
    /// the host stays and whole segments go from the middle (`api.test:8080/…/orders/7`).
    public func location(limit: Int = 40) -> String {
        guard let base else { return path == "/" ? "" : path }
        var host = base.host ?? ""
        if let port = base.port { host += ":\(port)" }
        var basePath = base.path
        if basePath.hasSuffix("/") { basePath.removeLast() }
        let rest = basePath + (path == "/" && !basePath.isEmpty ? "" : path)
        guard host.count + rest.count > limit else { return host + rest }
        var tail = ""
        for segment in rest.split(separator: "/").reversed() {
            let longer = "/" + segment + tail
            guard host.count + 2 + longer.count <= limit || tail.isEmpty else { break }
            tail = longer
        }
        let shortened = host + "/…" + tail
        return shortened.count <= limit + 10 ? shortened : "…" + (host + rest).suffix(limit - 1)
    }

    /// The value of `{{name}}`: a variable, or `env.NAME` from `environment`.
    func lookup(_ name: String, environment: [String: String]) -> String? {
        if name.hasPrefix("env.") { return environment[String(name.dropFirst(4))] }
        return variables[name]
    }

    /// Moves the current path: absolute from `/`, relative from here, `..` up.
    mutating func changePath(_ target: String) {
        let joined = target.hasPrefix("/") ? target : path + "/" + target
        var normalized = URLComposer.normalize(path: joined)
        if normalized.count > 1, normalized.hasSuffix("/") { normalized.removeLast() }
        path = normalized
    }

    /// The path a request target resolves to: a URL as is, `/x` from the base, `x` from here.
    func resolve(target: String?) -> String {
        guard let target, !target.isEmpty else { return path }
        if URLShorthand.isLocalhost(target) { return URLShorthand.expand(target) }
        if target.containsBytes("://") || target.hasPrefix("/") { return target }
        return path.hasSuffix("/") ? path + target : path + "/" + target
    }

    /// Whether two URLs' texts are the same up to their queries or fragments, read as bytes in
    /// place (as characters it cost more than parsing the URL).
    private static func samePath(_ a: String, _ b: String) -> Bool {
        var a = a, b = b
        return a.withUTF8 { a in
            b.withUTF8 { b in
                func end(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
                    bytes.firstIndex { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") } ?? bytes.count
                }
                let count = end(a)
                return count == end(b) && UnsafeBufferPointer(rebasing: a[..<count]).elementsEqual(UnsafeBufferPointer(rebasing: b[..<count]))
            }
        }
    }

    /// Remembers the path a response came from when it is not the request's (already noted),
    /// and paths found in a JSON response (strings starting with `/`), a bounded number.
    mutating func notePaths(in response: HTTPResponse, to request: HTTPRequest) {
        // Compared as text up to the query: a replayed response keeps its URL as text, parsed
        // only when its path differs from the request's.
        if let url = response.storedURL, !Self.samePath(url.text, request.urlText) { paths.insert(url.url.path) }
        guard paths.count < 500, response.body.count < 1_000_000,
              response.mediaType.map(MediaType.isJSON) == true,
              let document = try? JSONParser.parse(response.body) else { return }
        for leaf in document.flattenedLeaves().prefix(200) {
            if case .string(let text) = leaf.value, text.hasPrefix("/"), text.count < 200, !text.contains(" ") {
                paths.insert(text)
            }
        }
    }
}

/// How one request was sent: its deadline and whether redirects were followed.
public struct SendOptions: Sendable, Hashable {
    /// Seconds allowed; zero or less: no limit.
    public var timeout: TimeInterval
    /// Whether 3xx responses were followed.
    public var followRedirects: Bool

    /// Creates options.
    public init(timeout: TimeInterval = 30, followRedirects: Bool = false) {
        self.timeout = timeout
        self.followRedirects = followRedirects
    }
}
