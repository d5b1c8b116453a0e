import CCurl
import Tapedeck
import Foundation
import Synchronization

/// A live transport on libcurl directly: about four times less time per request than
/// `URLSession` on Linux (`make bench`, Benchmarks/RESULTS.md), keeps response headers in received order (repeated ones apart),
/// and can turn TLS verification off, which corelibs `URLSession` cannot.
///
/// ```swift
/// let transport = CurlTransport(options: .init(timeout: 5, followRedirects: false, verifyTLS: false))
/// let response = try await transport.send(HTTPRequest(url: URL(string: "https://localhost:8443/")!))
/// ```
public final class CurlTransport: HTTPTransport, Sendable {
    /// How requests are sent.
    public struct Options: Sendable, Hashable {
        /// Seconds to wait for the complete response (for a stream relayed as it flows, or a
        /// body written out as it arrives: to connect, and for any silence); zero, a negative
        /// number, NaN or infinity mean no limit.
        public var timeout: TimeInterval
        /// Whether 3xx responses with a `Location` are followed, by the core's one rule
        /// (``RedirectFollower``: http and https only, credentials kept to one origin, at most 30 hops).
        public var followRedirects: Bool
        /// Whether the server's TLS certificate and host name are verified.
        public var verifyTLS: Bool
        /// The largest body kept in memory, and how far a compressed body may expand.
        public var limits: BodyLimits
        /// Whether `http_proxy`, `https_proxy` and `all_proxy` from the environment are used, as
        /// curl does (on unless set off). `serve` and `proxy` turn it off for their upstream: a
        /// proxy whose own `http_proxy` names itself would send every request around in a loop.
        public var proxyFromEnvironment = true
        /// PEM certificates trusted as roots in place of the system's store (nil: the system's
        /// store). ``CurlTransport/systemTrustStore(adding:)`` keeps the system's roots and adds some.
        public var trustedRoots: Data?

        /// Creates options; the defaults suit an API client.
        public init(timeout: TimeInterval = 30, followRedirects: Bool = true, verifyTLS: Bool = true,
                    limits: BodyLimits = BodyLimits()) {
            self.timeout = timeout
            self.followRedirects = followRedirects
            self.verifyTLS = verifyTLS
            self.limits = limits
        }
    }

    /// The system's root certificates (PEM) with `extra` appended: what `--upstream-ca FILE`
    /// trusts. Empty when the system's store is not found in its usual places.
    public static func systemTrustStore(adding extra: Data) -> Data {
        let places = ["/etc/ssl/certs/ca-certificates.crt", "/etc/pki/tls/certs/ca-bundle.crt", "/etc/ssl/ca-bundle.pem", "/etc/ssl/cert.pem"]
        let system = places.lazy.compactMap { FileManager.default.contents(atPath: $0) }.first ?? Data()
        return system + Data("\n".utf8) + extra
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

    private static let globalInit: CURLcode = curl_global_init(Int(CURL_GLOBAL_DEFAULT))

    /// Sends `request` and returns its response (see the type's summary for how).
    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        guard options.followRedirects else { return try await sendOne(request, sink: nil) }
        return try await RedirectFollower.follow(request) { hop in try await sendOne(hop, sink: nil) }
    }

    /// Sends `request` and streams the body of the response `sink` accepts to it, in bounded
    /// memory; the response returned carries the status and headers, and an empty body when
    /// it was streamed. Redirects are followed as ``send(_:)`` does (the sink sees each
    /// response that is not followed further).
    package func send(_ request: HTTPRequest, streamingTo sink: CurlBodySink) async throws -> HTTPResponse {
        guard options.followRedirects else { return try await sendOne(request, sink: sink) }
        return try await RedirectFollower.follow(request) { hop in
            let hopSink = CurlBodySink(accept: { head in
                // A redirect that is followed, or refused (another scheme), never reaches the sink.
                do {
                    return try RedirectFollower.nextRequest(after: head, for: hop) == nil && sink.accept(head)
                } catch {
                    return false
                }
            }, write: sink.write)
            return try await sendOne(hop, sink: hopSink)
        }
    }

    private func sendOne(_ request: HTTPRequest, sink: CurlBodySink?) async throws -> HTTPResponse {
        try Task.checkCancellationAsHTTPError(url: request.url)
        try request.validateForSending()
        let handle = idle.withLock { $0.popLast() } ?? CurlHandle()
        guard let handle else {
            throw HTTPError.transport(url: request.urlText, detail: "libcurl could not create a handle")
        }
        let transfer = CurlTransfer(request: request, options: options, sink: sink, observer: ResponseObserver.current)
        let outcome: Result<HTTPResponse, HTTPError> = await withTaskCancellationHandler {
            // A blocking transfer gets a thread of its own (``TransferThreads``), never one of
            // the few cooperative workers. Not a dispatch queue: on Linux even a private
            // concurrent queue runs about as many blocking blocks at once as there are cores,
            // so `run --jobs 4` on two cores sent two requests at a time.
            await withCheckedContinuation { continuation in
                TransferThreads.shared.run {
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
    /// The multi handle its transfers are driven through (``CurlTransfer``): kept with the easy
    /// handle, as its connection cache is, so a kept-alive connection serves the next transfer.
    let multi: UnsafeMutableRawPointer?

    init?() {
        guard let pointer = curl_easy_init() else { return nil }
        self.pointer = pointer
        multi = curl_multi_init()
    }

    deinit {
        if let multi { curl_multi_cleanup(multi) }
        curl_easy_cleanup(pointer)
    }
}

extension Task where Success == Never, Failure == Never {
    /// Throws ``HTTPError/cancelled(url:)`` when the current task is cancelled.
    static func checkCancellationAsHTTPError(url: URL) throws(HTTPError) {
        if Task.isCancelled { throw .cancelled(url: url.absoluteString) }
    }
}

/// Threads for blocking transfers: a transfer runs on an idle one, or on a new one when all
/// are busy, so as many run at once as are asked for; a thread that finishes waits for the
/// next transfer (up to ``keptIdle`` of them) instead of ending, which saves starting a
/// thread per request.
final class TransferThreads: Sendable {
    static let shared = TransferThreads()
    /// Idle threads kept for the next transfers; more than this many end when done.
    static let keptIdle = 64

    private final class Worker: Sendable {
        let ready = DispatchSemaphore(value: 0)
        let job = Mutex<(@Sendable () -> Void)?>(nil)
    }

    private let idle = Mutex<[Worker]>([])

    /// Runs `work` on a thread of its own.
    func run(_ work: @escaping @Sendable () -> Void) {
        if let worker = idle.withLock({ $0.popLast() }) {
            worker.job.withLock { $0 = work }
            worker.ready.signal()
            return
        }
        let worker = Worker()
        worker.job.withLock { $0 = work }
        let thread = Thread { [self] in
            while let job = worker.job.withLock({ job in defer { job = nil }; return job }) {
                job()
                let kept = idle.withLock { idle in
                    guard idle.count < Self.keptIdle else { return false }
                    idle.append(worker)
                    return true
                }
                guard kept else { return }
                worker.ready.wait()
            }
        }
        thread.name = "tapedeck.curl-transfer"
        thread.start()
    }
}
