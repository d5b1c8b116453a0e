import Foundation

/// A typed description of one API call: what to send and how to read the answer.
///
/// ```swift
/// struct Joke: Decodable { var id: Int; var setup: String; var punchline: String }
///
/// extension Endpoint where Response == Joke {
///     static func joke(id: Int) -> Endpoint { Endpoint(path: "jokes/\(id)") }
/// }
///
/// let joke = try await client.send(.joke(id: 1))
/// ```
public struct Endpoint<Response>: Sendable {
    /// The method.
    public var method: HTTPMethod
    /// The path relative to the client's base URL, or a full URL.
    public var path: String
    /// Query items, in order.
    public var query: [QueryItem]
    /// Headers added to the client's default headers.
    public var headers: HTTPHeaders
    /// The body, if any.
    public var body: RequestBody?
    /// The statuses that count as success; others throw ``HTTPError/unacceptableStatus(status:reason:url:body:)``.
    public var acceptedStatus: Range<Int>
    /// Reads the response body into `Response`.
    public var decode: @Sendable (HTTPResponse, JSONDecoder) throws -> Response

    /// Creates an endpoint with an explicit decoder.
    public init(
        method: HTTPMethod = .get,
        path: String,
        query: [QueryItem] = [],
        headers: HTTPHeaders = [:],
        body: RequestBody? = nil,
        acceptedStatus: Range<Int> = 200..<300,
        decode: @escaping @Sendable (HTTPResponse, JSONDecoder) throws -> Response
    ) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body
        self.acceptedStatus = acceptedStatus
        self.decode = decode
    }

    /// Throws for a header whose name is not a token or whose value holds CR, LF or NUL.
    /// ``APIClient/request(for:)`` calls it before anything is built or sent; the initialisers
    /// stay non-throwing so endpoints can be declared as `static` values.
    public func validate() throws(HTTPError) {
        try headers.validate()
    }

    /// Returns a copy whose body is `value` encoded as JSON with `encoder`.
    public func withJSONBody<Body: Encodable>(_ value: Body, encoder: JSONEncoder = JSONEncoder()) throws(HTTPError) -> Endpoint {
        var copy = self
        do {
            copy.body = .raw(try encoder.encode(value), contentType: "application/json")
        } catch {
            throw .invalidBody("cannot encode \(Body.self) as JSON: \(error)")
        }
        return copy
    }
}

extension Endpoint where Response: Decodable & Sendable {
    /// An endpoint whose JSON response decodes into `Response` (a `Sendable` model type).
    public init(
        method: HTTPMethod = .get,
        path: String,
        query: [QueryItem] = [],
        headers: HTTPHeaders = [:],
        body: RequestBody? = nil,
        acceptedStatus: Range<Int> = 200..<300
    ) {
        self.init(method: method, path: path, query: query, headers: headers, body: body,
                  acceptedStatus: acceptedStatus) { response, decoder in
            try Endpoint.decodeJSON(from: response.body, decoder: decoder)
        }
    }

    static func decodeJSON(from data: Data, decoder: JSONDecoder) throws(HTTPError) -> Response {
        let type = Response.self
        do {
            return try decoder.decode(type, from: data)
        } catch let DecodingError.keyNotFound(key, context) {
            throw .decodingFailed(type: "\(type)", codingPath: path(context.codingPath + [key]),
                                  detail: "the key '\(key.stringValue)' is missing")
        } catch let DecodingError.typeMismatch(expected, context) {
            throw .decodingFailed(type: "\(type)", codingPath: path(context.codingPath),
                                  detail: "expected \(expected): \(context.debugDescription)")
        } catch let DecodingError.valueNotFound(expected, context) {
            throw .decodingFailed(type: "\(type)", codingPath: path(context.codingPath),
                                  detail: "expected \(expected) but found null")
        } catch let DecodingError.dataCorrupted(context) {
            throw .decodingFailed(type: "\(type)", codingPath: path(context.codingPath),
                                  detail: context.debugDescription)
        } catch {
            throw .decodingFailed(type: "\(type)", codingPath: "", detail: "\(error)")
        }
    }

    private static func path(_ keys: [any CodingKey]) -> String {
        keys.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
            .trimmingCharacters(in: CharacterSet(charactersIn: "."))
    }
}

extension Endpoint where Response == Data {
    /// An endpoint that returns the raw body.
    public init(method: HTTPMethod = .get, path: String, query: [QueryItem] = [],
                headers: HTTPHeaders = [:], body: RequestBody? = nil,
                acceptedStatus: Range<Int> = 200..<300) {
        self.init(method: method, path: path, query: query, headers: headers, body: body,
                  acceptedStatus: acceptedStatus) { response, _ in response.body }
    }
}

/// The response type of endpoints that return no content.
public struct NoContent: Sendable, Hashable {
    /// The only value.
    public init() {}
}

extension Endpoint where Response == NoContent {
    /// An endpoint whose response body is ignored.
    public init(method: HTTPMethod = .get, path: String, query: [QueryItem] = [],
                headers: HTTPHeaders = [:], body: RequestBody? = nil,
                acceptedStatus: Range<Int> = 200..<300) {
        self.init(method: method, path: path, query: query, headers: headers, body: body,
                  acceptedStatus: acceptedStatus) { _, _ in NoContent() }
    }
}
