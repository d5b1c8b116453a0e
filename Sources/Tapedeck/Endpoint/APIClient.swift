import Foundation

/// Sends ``Endpoint``s relative to a base URL through any ``HTTPTransport``.
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
    /// The decoder handed to endpoints.
    public var decoder: JSONDecoder

    /// Creates a client from a base URL value.
    public init(baseURL: URL, transport: any HTTPTransport = URLSessionTransport(),
                defaultHeaders: HTTPHeaders = ["Accept": "application/json"],
                decoder: JSONDecoder = JSONDecoder()) {
        self.baseURL = baseURL
        self.transport = transport
        self.defaultHeaders = defaultHeaders
        self.decoder = decoder
    }

    /// Creates a client from a base URL string, validated.
    public init(baseURL: String, transport: any HTTPTransport = URLSessionTransport(),
                defaultHeaders: HTTPHeaders = ["Accept": "application/json"],
                decoder: JSONDecoder = JSONDecoder()) throws(HTTPError) {
        self.init(baseURL: try URLComposer.parseBase(baseURL), transport: transport,
                  defaultHeaders: defaultHeaders, decoder: decoder)
    }

    /// The request an endpoint turns into.
    public func request<Response>(for endpoint: Endpoint<Response>) throws(HTTPError) -> HTTPRequest {
        let url = try URLComposer.compose(base: baseURL, path: endpoint.path, query: endpoint.query)
        var headers = defaultHeaders
        headers.merge(endpoint.headers)
        var request = HTTPRequest(method: endpoint.method, url: url, headers: headers)
        if let body = endpoint.body { try request.setBody(body) }
        return request
    }

    /// Sends an endpoint and decodes its response; a status outside `acceptedStatus` throws
    /// ``HTTPError/unacceptableStatus(status:reason:url:body:)`` with the body.
    public func send<Response>(_ endpoint: Endpoint<Response>) async throws -> Response {
        let request = try request(for: endpoint)
        let response = try await transport.send(request)
        guard endpoint.acceptedStatus.contains(response.status) else {
            throw HTTPError.unacceptableStatus(status: response.status, reason: response.reason,
                                               url: request.url.absoluteString, body: response.body)
        }
        return try endpoint.decode(response, decoder)
    }
}
