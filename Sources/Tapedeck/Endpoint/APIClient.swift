import Foundation

/// Sends ``Endpoint``s relative to a base URL through any ``HTTPTransport``, with default
/// headers and query items on every call and an optional ``APIClientLogger``.
///
/// ```swift
/// struct JokesAPI {
///     let client: APIClient
///     init(transport: any HTTPTransport = URLSessionTransport()) throws {
///         client = try APIClient(baseURL: "https://jokes.example", transport: transport)
///     }
///     func random() async throws -> Joke { try await client.send(Endpoint(path: "random_joke")) }
/// }
/// ```
public struct APIClient: Sendable {
    /// The base URL every endpoint path is resolved against.
    public var baseURL: URL
    /// Where requests go: live, recording, replay or a stub.
    public var transport: any HTTPTransport
    /// Headers sent with every request (an endpoint's own headers win).
    public var defaultHeaders: HTTPHeaders
    /// Query items added to every request after the endpoint's own (an API key on every call);
    /// an endpoint's item of the same name wins.
    public var defaultQuery: [QueryItem]
    /// The decoder handed to endpoints.
    public var decoder: JSONDecoder
    /// Sees each request, response and failure, redacted; nil logs nothing.
    public var logger: APIClientLogger?

    /// Creates a client from a base URL value.
    public init(baseURL: URL, transport: any HTTPTransport = URLSessionTransport(),
                defaultHeaders: HTTPHeaders = ["Accept": "application/json"], defaultQuery: [QueryItem] = [],
                decoder: JSONDecoder = JSONDecoder(), logger: APIClientLogger? = nil) {
        self.baseURL = baseURL
        self.transport = transport
        self.defaultHeaders = defaultHeaders
        self.defaultQuery = defaultQuery
        self.decoder = decoder
        self.logger = logger
    }

    /// Creates a client from a base URL string, validated.
    public init(baseURL: String, transport: any HTTPTransport = URLSessionTransport(),
                defaultHeaders: HTTPHeaders = ["Accept": "application/json"], defaultQuery: [QueryItem] = [],
                decoder: JSONDecoder = JSONDecoder(), logger: APIClientLogger? = nil) throws(HTTPError) {
        self.init(baseURL: try URLComposer.parseBase(baseURL), transport: transport, defaultHeaders: defaultHeaders,
                  defaultQuery: defaultQuery, decoder: decoder, logger: logger)
    }

    /// The request an endpoint turns into; throws ``HTTPError/invalidHeaderName(_:)`` or
    /// ``HTTPError/invalidHeaderValue(name:value:)`` for a default or endpoint header that
    /// could not be sent as given (a CR or LF from user data would inject a header).
    public func request<Response>(for endpoint: Endpoint<Response>) throws(HTTPError) -> HTTPRequest {
        try defaultHeaders.validate()
        try endpoint.validate()
        let own = Set(endpoint.query.map(\.name))
        let query = endpoint.query + defaultQuery.filter { !own.contains($0.name) }
        let url = try URLComposer.compose(base: baseURL, path: endpoint.path, query: query)
        var headers = defaultHeaders
        headers.merge(endpoint.headers)
        var request = HTTPRequest(method: endpoint.method, url: url, headers: headers)
        if let body = endpoint.body { try request.setBody(body) }
        try request.validateForSending()
        return request
    }

    /// Sends an endpoint and decodes its response; a status outside `acceptedStatus` throws
    /// ``HTTPError/unacceptableStatus(status:reason:url:body:)`` with the body.
    public func send<Response>(_ endpoint: Endpoint<Response>) async throws -> Response {
        let request = try request(for: endpoint)
        logger?.sending(request)
        do {
            let response = try await transport.send(request)
            logger?.received(response, for: request)
            guard endpoint.acceptedStatus.contains(response.status) else {
                throw HTTPError.unacceptableStatus(status: response.status, reason: response.reason,
                                                   url: request.urlText, body: response.body)
            }
            return try endpoint.decode(response, decoder)
        } catch {
            logger?.failed(error, for: request)
            throw error
        }
    }
}
