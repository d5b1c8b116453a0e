import CCurl
import Foundation
import Synchronization

/// A live transport on libcurl directly: about three times faster per request than
/// `URLSession` on Linux, keeps response headers in received order (repeated ones apart),
/// and can turn TLS verification off, which corelibs `URLSession` cannot.
///
/// ```swift
/// let transport = CurlTransport(options: .init(timeout: 5, followRedirects: false, verifyTLS: false))
/// let response = try await transport.send(HTTPRequest(url: URL(string: "https://localhost:8443/")!))
/// ```
public final class CurlTransport: HTTPTransport, Sendable {
    /// How requests are sent.
    public struct Options: Sendable, Hashable {
        /// Seconds to wait for the complete response; zero, a negative number, NaN or infinity
        /// mean no limit.
        public var timeout: TimeInterval
        /// Whether 3xx responses with a `Location` are followed (at most 30 hops).
        public var followRedirects: Bool
        /// Whether the server's TLS certificate and host name are verified.
        public var verifyTLS: Bool

        /// Creates options; the defaults suit an API client.
        public init(timeout: TimeInterval = 30, followRedirects: Bool = true, verifyTLS: Bool = true) {
            self.timeout = timeout
            self.followRedirects = followRedirects
            self.verifyTLS = verifyTLS
        }
    }

    /// The options this transport was made with.
    public let options: Options
    /// Idle easy handles; each keeps its connections alive for the next request.
    private let idle = Mutex<[CurlHandle]>([])

    /// Creates a transport.
    public init(options: Options = Options()) {
        self.options = options
        _ = CurlTransport.globalInit
    }

    private static let queue = DispatchQueue(label: "tapedeck.curl-transport", attributes: .concurrent)

    private static let globalInit: CURLcode = curl_global_init(Int(CURL_GLOBAL_DEFAULT))

    /// Sends `request` and returns its response (see the type's summary for how).
    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        try Task.checkCancellationAsHTTPError(url: request.url)
        let handle = idle.withLock { $0.popLast() } ?? CurlHandle()
        guard let handle else {
            throw HTTPError.transport(url: request.url.absoluteString, detail: "libcurl could not create a handle")
        }
        let transfer = CurlTransfer(request: request, options: options)
        let outcome: Result<HTTPResponse, HTTPError> = await withTaskCancellationHandler {
            // A private queue is overcommitting: a blocking transfer gets a thread of its own
            // (reused from the pool) instead of taking one of the few cooperative workers.
            await withCheckedContinuation { continuation in
                CurlTransport.queue.async {
                    continuation.resume(returning: transfer.perform(on: handle))
                }
            }
        } onCancel: {
            transfer.cancel()
        }
        idle.withLock { $0.append(handle) }
        return try outcome.get()
    }
}

/// One libcurl easy handle; freed with the object.
final class CurlHandle: @unchecked Sendable {
    let pointer: UnsafeMutableRawPointer

    init?() {
        guard let pointer = curl_easy_init() else { return nil }
        self.pointer = pointer
    }

    deinit { curl_easy_cleanup(pointer) }
}

extension Task where Success == Never, Failure == Never {
    /// Throws ``HTTPError/cancelled(url:)`` when the current task is cancelled.
    static func checkCancellationAsHTTPError(url: URL) throws(HTTPError) {
        if Task.isCancelled { throw .cancelled(url: url.absoluteString) }
    }
}
