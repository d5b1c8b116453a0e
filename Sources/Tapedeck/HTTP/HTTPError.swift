import Foundation

/// Everything that can go wrong building, sending or decoding an HTTP exchange.
///
/// Each message names the bad value, where it came from and what to do next, so the REPL
/// and the CLI can print `errorDescription` as it is.
public enum HTTPError: Error, LocalizedError, Sendable, Equatable {
    /// A URL could not be built from user input.
    case invalidURL(input: String, reason: String)
    /// A method name is not a valid token.
    case invalidMethod(String)
    /// A header name is not a valid token.
    case invalidHeaderName(String)
    /// A header value contains CR, LF or NUL.
    case invalidHeaderValue(name: String, value: String)
    /// A body could not be encoded.
    case invalidBody(String)
    /// A file named with `@file` or `< file` could not be read.
    case fileUnreadable(path: String, reason: String)
    /// Nothing listens at the host and port.
    case cannotConnect(host: String, port: Int)
    /// DNS could not resolve the host.
    case hostNotFound(String)
    /// No complete response arrived in time.
    case timedOut(url: String, seconds: Double)
    /// The request was cancelled (Ctrl-C, task cancellation).
    case cancelled(url: String)
    /// TLS negotiation or certificate verification failed.
    case tlsFailure(host: String, detail: String)
    /// A response arrived with a status outside the accepted range.
    case unacceptableStatus(status: Int, reason: String, url: String, body: Data)
    /// A response body could not be decoded into the expected type.
    case decodingFailed(type: String, codingPath: String, detail: String)
    /// The connection closed before a response.
    case noResponse(url: String, detail: String)
    /// Any other transport failure, with the underlying message.
    case transport(url: String, detail: String)

    /// The whole message: the bad value, where it came from, and what to do next.
    public var errorDescription: String? {
        switch self {
        case .invalidURL(let input, let reason):
            return "cannot build a URL from '\(input)': \(reason)"
        case .invalidMethod(let method):
            return "'\(method)' is not a valid HTTP method; use GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS or a token of letters, digits and !#$%&'*+-.^_`|~"
        case .invalidHeaderName(let name):
            return "'\(name)' is not a valid header name; names are letters, digits and !#$%&'*+-.^_`|~ with no spaces or colons"
        case .invalidHeaderValue(let name, let value):
            return "the value of header '\(name)' contains a line break or NUL (\(value.debugDescription)); remove it"
        case .invalidBody(let detail):
            return "cannot encode the body: \(detail)"
        case .fileUnreadable(let path, let reason):
            return "cannot read file '\(path)': \(reason); check the path (relative paths start from \(FileManager.default.currentDirectoryPath))"
        case .cannotConnect(let host, let port):
            return "cannot connect to \(host):\(port): connection refused; is the server running and listening on that port?"
        case .hostNotFound(let host):
            return "host '\(host)' not found; check the spelling or your DNS"
        case .timedOut(let url, let seconds):
            return "request to \(url) timed out after \(HTTPError.format(seconds)) s; raise it with --timeout SECONDS"
        case .cancelled(let url):
            return "request to \(url) was cancelled"
        case .tlsFailure(let host, let detail):
            return "TLS failure with \(host): \(detail); if you trust this server, retry with --insecure"
        case .unacceptableStatus(let status, let reason, let url, let body):
            let snippet = String(decoding: body.prefix(512), as: UTF8.self)
            let shown = snippet.isEmpty ? "" : "\n\(snippet)\(body.count > 512 ? "…" : "")"
            return "\(url) answered \(status) \(reason)\(shown)"
        case .decodingFailed(let type, let codingPath, let detail):
            let at = codingPath.isEmpty ? "the top level" : "'\(codingPath)'"
            return "cannot decode \(type) at \(at): \(detail)"
        case .noResponse(let url, let detail):
            return "no response from \(url): \(detail)"
        case .transport(let url, let detail):
            return "request to \(url) failed: \(detail)"
        }
    }

    static func format(_ seconds: Double) -> String {
        seconds == seconds.rounded() ? String(Int(seconds)) : String(format: "%.1f", seconds)
    }
}
