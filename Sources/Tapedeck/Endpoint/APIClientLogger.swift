import Foundation

/// Sees every request an ``APIClient`` sends, every response and every failure, with
/// credentials redacted before the closure is called: a network logger in one line.
///
/// The core depends on Foundation alone, so the logger is a closure; hand its entries to
/// `print`, `os.Logger` or swift-log as you like.
///
/// ```swift
/// let client = try APIClient(baseURL: "https://dogs.example", logger: APIClientLogger { entry in
///     print(entry)   // → GET https://dogs.example/dogs?api_key=%3CREDACTED%3E
/// })                 // ← 200 OK https://dogs.example/dogs?api_key=%3CREDACTED%3E (12 ms, 87 bytes)
///
/// // swift-log
/// let log = Logger(label: "dogs")
/// let client = try APIClient(baseURL: "https://dogs.example", logger: APIClientLogger { log.debug("\($0)") })
/// ```
public struct APIClientLogger: Sendable {
    /// One thing the client did, already redacted.
    public enum Entry: Sendable, Equatable, CustomStringConvertible {
        /// A request about to be sent.
        case request(HTTPRequest)
        /// The response to `request`, whatever its status.
        case response(HTTPResponse, request: HTTPRequest)
        /// `request` failed: no response, a status outside the endpoint's accepted range, or a
        /// body that did not decode. `message` is the error's description.
        case failure(message: String, request: HTTPRequest)

        /// One line: `→ GET URL`, `← 200 OK URL (12 ms, 87 bytes)` or `✗ GET URL: message`.
        public var description: String {
            switch self {
            case .request(let request):
                return "→ \(request.method.rawValue) \(request.urlText)"
            case .response(let response, let request):
                let milliseconds = Int((response.duration * 1000).rounded())
                let status = response.reason.isEmpty ? "\(response.status)" : "\(response.status) \(response.reason)"
                return "← \(status) \(request.urlText) (\(milliseconds) ms, \(response.body.count) bytes)"
            case .failure(let message, let request):
                return "✗ \(request.method.rawValue) \(request.urlText): \(message)"
            }
        }
    }

    /// What is replaced before the closure sees an entry (the cassettes' rules).
    public var redactor: Redactor
    private let sink: @Sendable (Entry) -> Void

    /// A logger that hands each redacted entry to `sink`.
    public init(redactor: Redactor = .standard, _ sink: @escaping @Sendable (Entry) -> Void) {
        self.redactor = redactor
        self.sink = sink
    }

    func sending(_ request: HTTPRequest) {
        sink(.request(redactor.redact(request)))
    }

    func received(_ response: HTTPResponse, for request: HTTPRequest) {
        let redacted = redactor.redact(Interaction(request: request, response: response))
        sink(.response(redacted.response, request: redacted.request))
    }

    /// The error's message with every credential the request carried scrubbed: it may quote the
    /// URL, or a response body that echoes a token.
    func failed(_ error: any Error, for request: HTTPRequest) {
        let message = Data(error.localizedDescription.utf8)
        let carrier = HTTPResponse(status: 0, headers: ["Content-Type": "text/plain; charset=utf-8"], body: message)
        let redacted = redactor.redact(Interaction(request: request, response: carrier))
        sink(.failure(message: String(decoding: redacted.response.body, as: UTF8.self), request: redacted.request))
    }
}
