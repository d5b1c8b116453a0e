import Foundation
import NIOCore
import NIOPosix
import NIOHTTP1
import NIOSSL
import Synchronization
import Tapedeck

/// The live transport `serve` and `proxy` reach their upstream with: HTTP/1.1 on the server's
/// own event loops, each connection kept open for the next request to the same origin.
///
/// A request costs the proxy no thread of its own and no hand-over between threads: sent from
/// one of the transport's loops (``send(_:observer:on:)``, the recording lane), it goes out and
/// its answer comes back on that loop; awaited (``send(_:)``), only the task that awaits it may
/// run elsewhere.
///
/// It keeps the rules of every live transport here: redirects are not
/// followed (a proxy records them hop by hop), no proxy is taken from the environment, TLS is
/// verified against the system's roots (plus ``Options/extraRoots``) unless turned off, bodies
/// are bounded by ``BodyLimits``, a gzip or deflate body is decoded, and a streamed body (SSE,
/// NDJSON, chunked over time) keeps its chunks and their times and is shown to a
/// ``ResponseObserver`` as it arrives.
///
/// ```swift
/// let upstream = try UpstreamTransport(options: .init(timeout: 30))
/// let response = try await upstream.send(HTTPRequest(url: URL(string: "http://127.0.0.1:8080/users")!))
/// ```
package final class UpstreamTransport: HTTPTransport {
    /// How requests are sent.
    package struct Options: Sendable {
        /// Seconds to wait for a whole response (for an observed stream: to connect, and for
        /// any silence); zero, negative or not finite means no limit.
        package var timeout: TimeInterval
        /// Whether the upstream's certificate and host name are verified.
        package var verifiesTLS: Bool
        /// PEM certificates trusted beside the system's roots (`--upstream-ca`).
        package var extraRoots: Data?
        /// The largest body kept, and how far a compressed one may expand.
        package var limits: BodyLimits
        /// Idle connections kept per origin; past it, the longest idle one is closed. The pool
        /// never holds more than the most requests that were in flight at once, so this bounds
        /// only what is kept after a burst. It is above the clients a busy proxy serves at once:
        /// each request past the pool's size opens a connection of its own, TLS handshake included.
        package var idlePerOrigin: Int

        /// Creates options; the defaults suit a proxy.
        package init(timeout: TimeInterval = 30, verifiesTLS: Bool = true, extraRoots: Data? = nil, limits: BodyLimits = BodyLimits(),
                     idlePerOrigin: Int = 512) {
            self.timeout = timeout
            self.verifiesTLS = verifiesTLS
            self.extraRoots = extraRoots
            self.limits = limits
            self.idlePerOrigin = idlePerOrigin
        }
    }

    /// Where a connection goes: scheme, host and port.
    struct Origin: Hashable, Sendable {
        var secure: Bool
        var host: String
        var port: Int

        init?(_ url: URL) {
            guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
                  let host = url.host(percentEncoded: false), !host.isEmpty else { return nil }
            secure = scheme == "https"
            self.host = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
            port = url.port ?? (secure ? 443 : 80)
        }
    }

    /// The options this transport was made with.
    package let options: Options
    private let group: any EventLoopGroup
    /// The group's loops, to tell at once whether the calling thread runs one of them.
    private let loops: Set<ObjectIdentifier>
    /// How TLS to an https upstream is set up; the context itself is made on first use.
    private let tlsConfiguration: TLSConfiguration
    /// The TLS context, once an https upstream needed it: loading the system's roots costs
    /// a third of `serve`'s start-up, and most decks never reach an https upstream.
    private let tlsContext = Mutex<NIOSSLContext?>(nil)
    /// Open connections waiting for a request, per origin, with when each became idle.
    private let idle = Mutex<[Origin: [(channel: any Channel, since: NIODeadline)]]>([:])
    /// How long a connection may have been idle and still carry a request that is not sent
    /// twice (a POST): upstreams close idle connections after a few seconds at the least.
    static let freshEnough = TimeAmount.seconds(2)

    /// Creates a transport on `group`'s event loops; throws when ``Options/extraRoots`` holds
    /// no certificate TLS can use.
    package init(options: Options = Options(), group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton) throws {
        self.options = options
        self.group = group
        loops = Set(group.makeIterator().map { ObjectIdentifier($0) })
        var configuration = TLSConfiguration.makeClientConfiguration()
        configuration.applicationProtocols = ["http/1.1"]
        if !options.verifiesTLS {
            configuration.certificateVerification = .none
        } else if let pem = options.extraRoots {
            configuration.additionalTrustRoots = [.certificates(try NIOSSLCertificate.fromPEMBytes(Array(pem)))]
        }
        tlsConfiguration = configuration
    }

    /// The TLS context for https upstreams, made the first time one is reached.
    private func tls(for origin: Origin) throws -> NIOSSLContext {
        try tlsContext.withLock { made in
            if let made { return made }
            do {
                let context = try NIOSSLContext(configuration: tlsConfiguration)
                made = context
                return context
            } catch {
                throw HTTPError.tlsFailure(host: origin.host, detail: "TLS to the upstream cannot be set up: \(error)")
            }
        }
    }

    /// Sends `request` and returns the upstream's response (see the type's summary).
    package func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        if Task.isCancelled { throw HTTPError.cancelled(url: request.urlText) }
        let sending = try begin(request, observer: ResponseObserver.current, from: loopHere())
        return try await withTaskCancellationHandler {
            try await sending.response.get()
        } onCancel: {
            sending.exchange.cancel()
        }
    }

    /// Sends `request` from `loop`, one of this transport's event loops, with no task: the
    /// response arrives on `loop`, and `observer` sees a stream as it flows. What ``send(_:)``
    /// does, for a caller that runs on the loop and waits with a future (the recording lane).
    package func send(_ request: HTTPRequest, observer: ResponseObserver?, on loop: any EventLoop) -> EventLoopFuture<HTTPResponse> {
        do {
            return try begin(request, observer: observer, from: runs(on: loop) ? loop : nil).response.hop(to: loop)
        } catch {
            return loop.makeFailedFuture(error)
        }
    }

    /// Whether `loop` is one of this transport's event loops (the ones ``send(_:observer:on:)`` runs on).
    package func runs(on loop: any EventLoop) -> Bool {
        loops.contains(ObjectIdentifier(loop))
    }

    /// Checks `request`, then sends it on a kept-alive connection or a new one: `here`'s, when
    /// it is sent from one of this transport's loops. Throws at once what makes it unsendable.
    private func begin(_ request: HTTPRequest, observer: ResponseObserver?, from here: (any EventLoop)?) throws
        -> (exchange: UpstreamExchange, response: EventLoopFuture<HTTPResponse>) {
        let url = request.urlText
        try request.validateForSending()
        for field in request.headers {
            // Named by its place, not quoted: the value may be a credential, and this message
            // reaches the log and the client.
            guard let place = Self.controlByte(in: field.value) else { continue }
            throw HTTPError.transport(url: url, detail: "the value of header '\(Excerpt.of(field.name))' holds the control character "
                + "\(place.code) at byte \(place.offset + 1), which no HTTP/1.1 field may carry; remove it")
        }
        guard let origin = Origin(request.url) else {
            throw HTTPError.invalidURL(input: url, reason: "the URL names no host; give scheme and host, e.g. http://127.0.0.1:8080/")
        }
        let exchange = UpstreamExchange(request: request, wire: Self.wireHead(of: request, origin: origin), options: options, observer: observer)
        // A request that may be sent twice (RFC 9110 §9.2.2) takes any kept-alive connection and,
        // when the upstream had let it go as the request went out, goes once more on a new one.
        // Any other takes only a connection idle for under ``freshEnough``, and is never resent.
        let resendable = ["GET", "HEAD", "OPTIONS", "TRACE", "PUT", "DELETE"].contains(request.method.rawValue)
        let idle = takeIdle(origin, idleFor: resendable ? nil : Self.freshEnough, on: here)
        // The answer arrives on the loop it is sent from, else on the kept-alive connection's,
        // so that completing it crosses no threads. One promise for the whole send, completed
        // from the connection's callbacks.
        let loop = here ?? idle?.eventLoop ?? group.next()
        let answered = loop.makePromise(of: HTTPResponse.self)
        let onNewConnection = { @Sendable [self] in
            connect(origin, url: request.url, on: loop).whenComplete { [self] connected in
                switch connected {
                case .failure(let error):
                    answered.fail(error)
                case .success(let channel):
                    send(exchange, on: channel, to: origin) { outcome in
                        switch outcome {
                        case .success(let response?): answered.succeed(response)
                        case .success(nil): answered.fail(HTTPError.noResponse(url: url, detail: "the upstream closed the connection without answering"))
                        case .failure(let error): answered.fail(error)
                        }
                    }
                }
            }
        }
        if let channel = idle {
            send(exchange, on: channel, to: origin) { outcome in
                switch outcome {
                case .success(let response?):
                    answered.succeed(response)
                case .success(nil) where resendable:
                    onNewConnection()
                case .success(nil):
                    answered.fail(HTTPError.noResponse(url: url, detail: "the upstream closed its kept-alive connection as the \(request.method.rawValue) "
                        + "went out; it is not sent twice (it may have been carried out), so send it again"))
                case .failure(let error):
                    answered.fail(error)
                }
            }
        } else {
            onNewConnection()
        }
        return (exchange, answered.futureResult)
    }

    /// Sends `exchange` on `channel` (which goes back to the idle ones when it can carry another
    /// request) and calls `then` with the response, or nil when the connection closed before any
    /// byte of an answer.
    private func send(_ exchange: UpstreamExchange, on channel: any Channel, to origin: Origin,
                      then: @escaping @Sendable (Result<HTTPResponse?, any Error>) -> Void) {
        exchange.run(on: channel).whenComplete { [self] ran in
            switch ran {
            case .success(.answered(let response, let reusable)):
                release(channel, to: origin, reusable: reusable)
                then(.success(response))
            case .success(.failed(let error)):
                then(.failure(error))
            case .success(.closedUnused):
                channel.close(promise: nil)
                then(.success(nil))
            case .failure(let error):
                channel.close(promise: nil)
                then(.failure(error))
            }
        }
    }

    /// Closes every idle connection.
    package func shutdown() {
        let channels = idle.withLock { idle in
            defer { idle = [:] }
            return idle.values.flatMap { $0.map(\.channel) }
        }
        for channel in channels { channel.close(promise: nil) }
    }

    deinit { shutdown() }

    // MARK: - Connections

    /// An open idle connection to `origin` (idle for under `idleFor`, when given) on `here`, the
    /// loop of this transport's the request is sent from: its answer then arrives there, where one
    /// of another loop's would make every exchange on it cross between threads twice. With no
    /// such loop, one of any loop. When there is none, a new connection is made.
    private func takeIdle(_ origin: Origin, idleFor limit: TimeAmount?, on here: (any EventLoop)?) -> (any Channel)? {
        let oldest = limit.map { NIODeadline.now() - $0 }
        return idle.withLock { idle in
            guard idle[origin] != nil else { return nil }
            // Changed in place: a copy taken out and put back would copy every entry for each request.
            return Self.take(from: &idle[origin, default: []], on: here, since: oldest)
        }
    }

    /// The most recently idle open connection of `entries` on `loop` (any loop when nil) that
    /// became idle at `oldest` or later, taken out; closed connections met on the way are dropped.
    private static func take(from entries: inout [(channel: any Channel, since: NIODeadline)], on loop: (any EventLoop)?,
                             since oldest: NIODeadline?) -> (any Channel)? {
        var index = entries.count - 1
        while index >= 0 {
            let entry = entries[index]
            if !entry.channel.isActive {
                entries.remove(at: index)
            } else if oldest.map({ entry.since >= $0 }) ?? true, loop.map({ entry.channel.eventLoop === $0 }) ?? true {
                return entries.remove(at: index).channel
            }
            index -= 1
        }
        return nil
    }

    /// The loop of this transport's group the calling thread runs, if it runs one.
    private func loopHere() -> (any EventLoop)? {
        MultiThreadedEventLoopGroup.currentEventLoop.flatMap { here in loops.contains(ObjectIdentifier(here)) ? here : nil }
    }

    /// Keeps `channel` for the next request to `origin` when it can carry one. A full pool lets
    /// its closed connections go, then its longest idle one, so that a loop whose connections
    /// were all closed for room is not kept from reusing any by another loop's.
    private func release(_ channel: any Channel, to origin: Origin, reusable: Bool) {
        let limit = options.idlePerOrigin
        guard reusable, channel.isActive, limit > 0 else { return channel.close(promise: nil) }
        let evicted: (any Channel)? = idle.withLock { idle in
            Self.keep(channel, in: &idle[origin, default: []], limit: limit)
        }
        evicted?.close(promise: nil)
    }

    /// Appends `channel` to `entries`, at most `limit` long: closed entries go first, then the
    /// oldest, which is returned to be closed.
    private static func keep(_ channel: any Channel, in entries: inout [(channel: any Channel, since: NIODeadline)], limit: Int) -> (any Channel)? {
        if entries.count >= limit { entries.removeAll { !$0.channel.isActive } }
        let evicted = entries.count >= limit ? entries.removeFirst().channel : nil
        entries.append((channel, .now()))
        return evicted
    }

    /// The first control character other than a tab, or DEL, in `value` (which no HTTP/1.1
    /// field value may hold, RFC 9110 §5.5): its code (`U+0001`) and its offset in bytes.
    static func controlByte(in value: String) -> (code: String, offset: Int)? {
        // Read in place, a byte at a time: the generic search over the view cost more than the
        // rest of checking the field.
        var value = value
        return value.withUTF8 { bytes in
            for offset in bytes.indices where (bytes[offset] < 0x20 && bytes[offset] != 0x09) || bytes[offset] == 0x7F {
                return ("U+" + String(format: "%04X", bytes[offset]), offset)
            }
            return nil
        }
    }

    /// A new connection to `origin`: TCP, TLS for https (SNI unless the host is an address),
    /// then the HTTP/1.1 client handlers and the ``UpstreamHandler``.
    private func connect(_ origin: Origin, url: URL, on loop: any EventLoop) -> EventLoopFuture<any Channel> {
        let tls: NIOSSLContext?
        do {
            tls = origin.secure ? try self.tls(for: origin) : nil
        } catch {
            return loop.makeFailedFuture(error)
        }
        let sniHost = origin.secure && !Self.isAddress(origin.host) ? origin.host : nil
        let limits = options.limits
        var bootstrap = ClientBootstrap(group: loop)
            .channelOption(.socketOption(.tcp_nodelay), value: 1)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    let sync = channel.pipeline.syncOperations
                    if let tls { try sync.addHandler(try NIOSSLClientHandler(context: tls, serverHostname: sniHost)) }
                    let reasons = StatusLineReasons()
                    try sync.addHandler(reasons)
                    var headerLimits = NIOHTTPDecoderLimitConfiguration()
                    headerLimits.maxHeaderFieldSize = UpstreamHandler.maxHeaderLine
                    headerLimits.maxHeaderListSize = UpstreamHandler.maxHeaderBlock
                    // NIO's response decoder with a request encoder of Tapedeck's own, and no header
                    // validator: ``send(_:)`` has refused what it would (a name that is not a token,
                    // a value with a control character) before the request got here; the target
                    // comes percent-encoded from its URL. The head goes as bytes made beforehand
                    // (``wireHead(of:origin:allocator:)``).
                    try sync.addHandler(UpstreamRequestEncoder())
                    try sync.addHandler(ByteToMessageHandler(HTTPResponseDecoder(leftOverBytesStrategy: .dropBytes,
                                                                                 limitConfiguration: headerLimits)))
                    try sync.addHandler(UpstreamHandler(limits: limits, reasons: reasons))
                }
            }
        if let timeout = UpstreamExchange.timeLimit(options.timeout) { bootstrap = bootstrap.connectTimeout(timeout) }
        let timeout = options.timeout
        return bootstrap.connect(host: origin.host, port: origin.port).flatMapErrorThrowing { error in
            throw UpstreamExchange.mapped(error, url: url, host: origin.host, port: origin.port, timeout: timeout)
        }
    }

    static func isAddress(_ host: String) -> Bool {
        host.containsByte(UInt8(ascii: ":")) || host.allSatisfy { $0.isASCII && ($0.isNumber || $0 == ".") }
    }

    /// The head sent upstream, as it goes on the wire: the request line with the origin-form
    /// target, the fields of ``forEachField(of:origin:wantsStream:_:)``, the empty line. Written
    /// in one pass into room worked out beforehand (`room`, when given, in its place); written
    /// again into a buffer that grows, should the room ever fall short.
    static func wireHead(of request: HTTPRequest, origin: Origin, allocator: ByteBufferAllocator = ByteBufferAllocator(),
                         room given: Int? = nil) -> ByteBuffer {
        let path = request.url.path(percentEncoded: true)
        let target = (path.isEmpty ? "/" : path) + (request.url.query(percentEncoded: true).map { "?" + $0 } ?? "")
        let method = request.method.rawValue
        // A client asking for a stream gets it uncompressed: a compressed stream is decoded only
        // whole, so its events could not be passed on as they come.
        let wantsStream = request.headers.values(for: "Accept").contains { accept in
            let lower = accept.lowercased()
            return StreamMedia.streamTypes.contains { lower.containsBytes($0) }
        }
        // Room for the request line (" HTTP/1.1" and its line end), each field and its four
        // bytes, the empty line, and the three fields this transport may add (Host: at most the
        // host, brackets and a port; Accept-Encoding; Content-Length: at most 19 digits). An
        // Accept-Encoding narrowed may be longer than it came ("gzip,gzip" becomes "gzip, gzip":
        // at most one byte more for each item kept, so at most twice as long), or "identity".
        var room = method.utf8.count + target.utf8.count + 14 + origin.host.utf8.count + 100
        for field in request.headers {
            let value = field.value.utf8.count
            room += field.name.utf8.count + value + 4 + (field.name.utf8.count == 15 ? max(value, 8) : 0)
        }
        room = given ?? room
        var buffer = allocator.buffer(capacity: room)
        var fits = true
        buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: room) { raw in
            var writer = HeadWriter(UnsafeMutableRawBufferPointer(rebasing: raw[..<room]))
            writer.put(method)
            writer.put(" ")
            writer.put(target)
            writer.put(" HTTP/1.1\r\n")
            forEachField(of: request, origin: origin, wantsStream: wantsStream) { name, value in writer.putField(name, value) }
            writer.put("\r\n")
            fits = !writer.overflowed
            return writer.count
        }
        guard !fits else { return buffer }
        buffer.clear()
        buffer.writeString(method)
        buffer.writeStaticString(" ")
        buffer.writeString(target)
        buffer.writeStaticString(" HTTP/1.1\r\n")
        forEachField(of: request, origin: origin, wantsStream: wantsStream) { name, value in
            buffer.writeString(name)
            buffer.writeStaticString(": ")
            buffer.writeString(value)
            buffer.writeStaticString("\r\n")
        }
        buffer.writeStaticString("\r\n")
        return buffer
    }

    /// Each field of the head sent upstream for `request`, in order: its own fields (hop-by-hop
    /// ones are the caller's to remove) but for its framing, `Connection` and `Expect`, with
    /// `Accept-Encoding` narrowed to what this transport can decode (`identity` when the client
    /// `wantsStream`); then `Host` when it has none, `Accept-Encoding` when it has none, and the
    /// body's length.
    static func forEachField(of request: HTTPRequest, origin: Origin, wantsStream: Bool, _ body: (String, String) -> Void) {
        var hasHost = false, acceptsEncoding = false
        for field in request.headers {
            let name = field.name
            // Compared in place, and only names of the lengths below: lower-casing each name
            // would allocate, and comparing each with six names cost more than the rest.
            switch name.utf8.count {
            case 6, 10, 14, 17:
                if name.caseInsensitiveEquals("Content-Length") || name.caseInsensitiveEquals("Transfer-Encoding")
                    || name.caseInsensitiveEquals("Connection") || name.caseInsensitiveEquals("Expect") {
                    continue
                }
            case 4:
                if name.caseInsensitiveEquals("Host") { hasHost = true }
            case 15:
                if name.caseInsensitiveEquals("Accept-Encoding") {
                    acceptsEncoding = true
                    body(name, wantsStream ? "identity" : decodableEncodings(field.value))
                    continue
                }
            default:
                break
            }
            body(name, field.value)
        }
        if !hasHost {
            let host = origin.host.bracketedIfIPv6
            body("Host", origin.port == (origin.secure ? 443 : 80) ? host : "\(host):\(origin.port)")
        }
        if !acceptsEncoding { body("Accept-Encoding", wantsStream ? "identity" : "gzip, deflate") }
        let length = request.body?.count ?? 0
        if length > 0 || [.post, .put, .patch].contains(request.method) { body("Content-Length", String(length)) }
    }

    /// A client's `Accept-Encoding` narrowed to what this transport decodes (gzip, deflate,
    /// identity), so every body it hands on is readable; `identity` when none is left.
    static func decodableEncodings(_ value: String) -> String {
        // Most clients send codings this transport decodes (`gzip, deflate`): the value as it
        // came, read in place, where taking it apart and joining it again cost more than the
        // rest of the request's head.
        if isDecodableAsWritten(value) { return value }
        let kept = value.split(separator: ",").map { $0.trimmingHTTPSpace() }.filter { item in
            let coding = item.split(separator: ";").first.map { $0.trimmingHTTPSpace().lowercased() } ?? ""
            return decodable.contains(coding)
        }
        return kept.isEmpty ? "identity" : kept.joined(separator: ", ")
    }

    /// The codings this transport decodes.
    private static let decodable = ["gzip", "x-gzip", "deflate", "identity"]

    /// Whether ``decodableEncodings(_:)`` keeps every item of `value` and writes them as they
    /// are: items with no space around them, after `, ` but the first, each a decodable coding
    /// (with any parameters after `;`).
    static func isDecodableAsWritten(_ value: String) -> Bool {
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0D || byte == 0x0A }
        var value = value
        return value.withUTF8 { bytes in
            var start = 0
            while true {
                var end = start
                while end < bytes.count, bytes[end] != UInt8(ascii: ",") { end += 1 }
                guard end > start, !isSpace(bytes[start]), !isSpace(bytes[end - 1]) else { return false }
                var coding = start
                while coding < end, bytes[coding] != UInt8(ascii: ";") { coding += 1 }
                while coding > start, isSpace(bytes[coding - 1]) { coding -= 1 }
                let name = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<coding]), as: UTF8.self)
                guard decodable.contains(where: name.caseInsensitiveEquals) else { return false }
                if end == bytes.count { return true }
                guard end + 1 < bytes.count, bytes[end + 1] == UInt8(ascii: " ") else { return false }
                start = end + 2
            }
        }
    }
}
