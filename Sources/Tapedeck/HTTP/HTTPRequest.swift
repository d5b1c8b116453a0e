import Foundation

/// An HTTP request as a plain value: what the REPL composes, a script sends, and a cassette stores.
///
/// ```swift
/// var request = HTTPRequest(method: .post, url: URL(string: "http://localhost:8080/post")!)
/// try request.setBody(.json(["name": "Ada"]))
/// let response = try await URLSessionTransport().send(request)
/// ```
public struct HTTPRequest: Hashable, Sendable, Codable {
    /// The method.
    public var method: HTTPMethod
    /// The absolute URL, query included. Requests compare their URLs as absolute text, so a URL
    /// relative to a base equals the absolute URL it resolves to.
    public var url: URL {
        get { storedURL.url }
        set { storedURL = .parsed(newValue) }
    }
    /// The URL as kept; a request read from a cassette keeps only its text.
    package var storedURL: StoredURL
    /// Header fields in the order they are sent.
    public var headers: HTTPHeaders
    /// The body bytes, if any.
    public var body: Data?

    /// Creates a request; everything but the URL has a default.
    public init(method: HTTPMethod = .get, url: URL, headers: HTTPHeaders = [:], body: Data? = nil) {
        self.method = method
        self.storedURL = .parsed(url)
        self.headers = headers
        self.body = body
    }

    /// Creates a request whose URL is kept as ``StoredURL`` already is.
    package init(method: HTTPMethod, storedURL: StoredURL, headers: HTTPHeaders = [:], body: Data? = nil) {
        self.method = method
        self.storedURL = storedURL
        self.headers = headers
        self.body = body
    }

    /// The absolute URL as text, read without parsing the URL.
    package var urlText: String { storedURL.text }

    private enum CodingKeys: String, CodingKey {
        case method
        case storedURL = "url"
        case headers
        case body
    }

    /// Encodes `body` and sets it with matching `Content-Type` (unless one is already set)
    /// and `Content-Length`.
    public mutating func setBody(_ body: RequestBody) throws(HTTPError) {
        let encoded = try body.encoded()
        self.body = encoded.data
        if let contentType = encoded.contentType, !headers.contains("Content-Type") {
            headers["Content-Type"] = contentType
        }
        headers["Content-Length"] = String(encoded.data.count)
    }

    /// Checks what a transport is about to put on the wire: the method is a token, every
    /// header name a token and no header value holds CR, LF or NUL (so a value taken from
    /// user data cannot inject a header), a HEAD carries no body, and the scheme is http or https.
    package func validateForSending() throws(HTTPError) {
        guard !method.rawValue.isEmpty, method.rawValue.utf8.allSatisfy(HTTPMethod.isTokenByte) else {
            throw .invalidMethod(method.rawValue)
        }
        try headers.validate()
        // A HEAD's answer has no body, and libcurl sends none for it: a Content-Length with no
        // bytes after it would leave the server waiting for them.
        if method == .head, let body, !body.isEmpty {
            throw .invalidBody("a HEAD request sends no body; drop the body items, or send them with GET or POST")
        }
        let scheme = url.scheme?.lowercased()
        guard scheme == "http" || scheme == "https" else {
            throw .invalidURL(input: url.absoluteString, reason: "only http and https URLs are sent")
        }
    }
}
