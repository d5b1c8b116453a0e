import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import Synchronization
import Tapedeck

/// One request of an ``UpstreamTransport`` on one connection: what the task waiting for it
/// and the connection's ``UpstreamHandler`` share.
final class UpstreamExchange: Sendable {
    /// How an exchange on a connection ended.
    enum Outcome: Sendable {
        /// The response, and whether the connection can carry another request.
        case answered(HTTPResponse, reusable: Bool)
        /// Why there is no response.
        case failed(HTTPError)
        /// The connection closed before any byte of an answer: a kept-alive connection the
        /// upstream had already let go, so the request may go again on a new one.
        case closedUnused
    }

    let request: HTTPRequest
    /// The request's head as it goes on the wire (``UpstreamTransport/wireHead(of:origin:allocator:)``).
    let wire: ByteBuffer
    let options: UpstreamTransport.Options
    let observer: ResponseObserver?
    private let state = Mutex<(cancelled: Bool, channel: (any Channel)?)>((false, nil))

    init(request: HTTPRequest, wire: ByteBuffer, options: UpstreamTransport.Options, observer: ResponseObserver?) {
        self.request = request
        self.wire = wire
        self.options = options
        self.observer = observer
    }

    var isCancelled: Bool { state.withLock { $0.cancelled } }

    /// The waiting task was cancelled: the connection closes, and the exchange fails as cancelled.
    func cancel() {
        let channel = state.withLock { state in
            state.cancelled = true
            return state.channel
        }
        channel?.close(promise: nil)
    }

    /// Sends the request on `channel`; the outcome arrives on the channel's loop.
    func run(on channel: any Channel) -> EventLoopFuture<Outcome> {
        let cancelled = state.withLock { state in
            state.channel = channel
            return state.cancelled
        }
        if cancelled {
            // Neither sent nor kept: the connection may hold nothing for the next request.
            channel.close(promise: nil)
            return channel.eventLoop.makeSucceededFuture(.failed(.cancelled(url: request.urlText)))
        }
        let promise = channel.eventLoop.makePromise(of: Outcome.self)
        let start = { @Sendable in
            guard let handler = try? channel.pipeline.syncOperations.handler(type: UpstreamHandler.self) else {
                return promise.succeed(.closedUnused)
            }
            handler.start(self, promise: promise)
        }
        // From the connection's own loop (a task on ``EventLoopExecutor``, the recording lane) it starts at once.
        if channel.eventLoop.inEventLoop { start() } else { channel.eventLoop.execute(start) }
        return promise.futureResult
    }

    /// A time limit as NIO counts it; nil for no limit.
    static func timeLimit(_ seconds: TimeInterval) -> TimeAmount? {
        guard seconds.isFinite, seconds > 0, seconds < Double(Int64.max / 1_000_000_000) else { return nil }
        return .nanoseconds(Int64(seconds * 1_000_000_000))
    }

    /// `error` from NIO, NIOSSL or the HTTP parser as the ``HTTPError`` every transport throws.
    static func mapped(_ error: any Error, url: URL, host: String, port: Int, timeout: TimeInterval) -> HTTPError {
        let text = url.absoluteString
        switch error {
        case let error as HTTPError:
            return error
        case let error as NIOConnectionError:
            if error.connectionErrors.isEmpty, error.dnsAError != nil || error.dnsAAAAError != nil { return .hostNotFound(host) }
            if error.connectionErrors.contains(where: { if case ChannelError.connectTimeout = $0.error { true } else { false } }) {
                return .timedOut(url: text, seconds: timeout)
            }
            return .cannotConnect(host: host, port: port)
        case ChannelError.connectTimeout:
            return .timedOut(url: text, seconds: timeout)
        case is NIOSSLError, is BoringSSLError, is NIOSSLExtraError:
            return .tlsFailure(host: "\(host):\(port)", detail: UpstreamTLSProblem(error, host: host).detail)
        case let error as HTTPParserError:
            if case .headerOverflow = error {
                return .headerTooLarge(url: text, detail: "the header block is over \(UpstreamHandler.maxHeaderBlock / 1024) KiB, "
                    + "or one line over \(UpstreamHandler.maxHeaderLine / 1024) KiB")
            }
            return .noResponse(url: text, detail: "the upstream's answer is not HTTP/1.1: it has \(error.plainWords)")
        case let error as IOError where error.errnoCode == ECONNREFUSED:
            return .cannotConnect(host: host, port: port)
        case let error as IOError where error.errnoCode == ECONNRESET || error.errnoCode == EPIPE:
            return .noResponse(url: text, detail: "the upstream reset the connection")
        default:
            return .transport(url: text, detail: "\(error)")
        }
    }
}

/// The last handler of an upstream connection: writes one request at a time and gathers its
/// response, handing a stream's chunks to the exchange's ``ResponseObserver`` as they arrive.
///
/// An observer may block (a slow client holds the upstream back), so it is called on a queue
/// of the exchange's own, never on the event loop; reading pauses while chunks wait for it.
final class UpstreamHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPClientResponsePart
    typealias OutboundOut = HTTPClientRequestPart

    /// libcurl's limits for a header line and for the whole header block, kept for the same answers.
    static let maxHeaderLine = 100 * 1024
    static let maxHeaderBlock = 300 * 1024
    /// Chunks waiting for the observer before reading pauses.
    static let chunksAhead = 8

    private let limits: BodyLimits
    /// The reason phrases as sent, which the decoder does not keep.
    private let reasons: StatusLineReasons?
    private var context: ChannelHandlerContext?
    private var current: Current?
    /// The scheduled check of ``Current/due`` (``armTimer(context:)``).
    private var check: Scheduled<Void>?

    /// The exchange in flight.
    private struct Current {
        var exchange: UpstreamExchange
        var promise: EventLoopPromise<UpstreamExchange.Outcome>
        var started = NIODeadline.now()
        var head: HTTPResponseHead?
        /// The response the head describes, its body still empty: made once, when the head comes.
        var response: HTTPResponse?
        var body = ByteBuffer()
        var bodyBytes = 0
        /// When a stream's head arrived (its chunks are kept with their times); nil for a whole body.
        var streamStart: NIODeadline?
        var chunks: [BodyChunk] = []
        /// The bytes of a stream that arrived in the read under way, and when the first came:
        /// one chunk per read, as the socket delivered them (a body of many tiny HTTP chunks
        /// that came together is one chunk, not thousands).
        var arriving: ByteBuffer?
        var arrivedAt = 0.0
        /// The queue the observer is called on, when it watches this stream.
        var observing: DispatchQueue?
        var waiting = 0
        var paused = false
        /// When the exchange times out: the whole of it, or an observed stream's silence.
        var due: NIODeadline?
        var poll: RepeatedTask?
    }

    init(limits: BodyLimits, reasons: StatusLineReasons? = nil) {
        self.limits = limits
        self.reasons = reasons
    }

    func handlerAdded(context: ChannelHandlerContext) { self.context = context }

    func handlerRemoved(context: ChannelHandlerContext) {
        self.context = nil
        check?.cancel()
        check = nil
    }

    /// Writes `exchange`'s request; `promise` gets the outcome.
    func start(_ exchange: UpstreamExchange, promise: EventLoopPromise<UpstreamExchange.Outcome>) {
        guard let context, context.channel.isActive, current == nil else { return promise.succeed(.closedUnused) }
        current = Current(exchange: exchange, promise: promise)
        armTimer(context: context)
        reasons?.expectResponse()
        // The head part tells the response decoder the method (a HEAD's answer has no body); its
        // bytes follow, made beforehand (``UpstreamRequestEncoder``).
        let method = NIOHTTP1.HTTPMethod(rawValue: exchange.request.method.rawValue)
        context.write(wrapOutboundOut(.head(HTTPRequestHead(version: .http1_1, method: method, uri: ""))), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(exchange.wire))), promise: nil)
        if let body = exchange.request.body, !body.isEmpty {
            context.write(wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(bytes: body)))), promise: nil)
        }
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard current != nil else { return }
        switch unwrapInboundIn(data) {
        case .head(let head):
            received(head, context: context)
        case .body(let bytes):
            received(bytes, context: context)
        case .end:
            handOnArriving(context: context)
            guard let current else { return }
            finish(current, reusable: current.head.map(Self.keepsAlive) == true, context: context)
        }
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        handOnArriving(context: context)
        context.fireChannelReadComplete()
    }

    func channelInactive(context: ChannelHandlerContext) {
        if let current {
            if current.exchange.isCancelled {
                fail(.cancelled(url: current.exchange.request.urlText), context: context)
            } else if current.head == nil {
                end(current, with: .closedUnused)
            } else {
                fail(.noResponse(url: current.exchange.request.urlText, detail: "the upstream closed the connection mid-answer"),
                     context: context)
            }
        }
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if let current, current.head == nil, !current.exchange.isCancelled, Self.isDropped(error) {
            // A reset before any byte of an answer: the upstream had let the connection go.
            end(current, with: .closedUnused)
        } else if let current, let head = current.head, error as? HTTPParserError == .invalidEOFState {
            fail(.noResponse(url: current.exchange.request.urlText, detail: Self.cutShort(head, received: current.bodyBytes)), context: context)
        } else if let current {
            let request = current.exchange.request
            let origin = UpstreamTransport.Origin(request.url)
            fail(UpstreamExchange.mapped(error, url: request.url, host: origin?.host ?? "?", port: origin?.port ?? 0,
                                         timeout: current.exchange.options.timeout), context: context)
        }
        context.close(promise: nil)
    }

    /// Why an answer whose head came, `received` bytes into its body, ended when the upstream
    /// closed the connection: the body it announced was not all sent.
    static func cutShort(_ head: HTTPResponseHead, received: Int) -> String {
        if let length = head.headers.first(name: "Content-Length") {
            return "the upstream closed the connection after \(received) of the \(length) body bytes its Content-Length announced"
        }
        return "the upstream closed the connection before the end of its chunked body (\(received) bytes received)"
    }

    /// Whether `error` says the connection was dropped under the request (a reset, a broken pipe).
    static func isDropped(_ error: any Error) -> Bool {
        if let error = error as? IOError { return error.errnoCode == ECONNRESET || error.errnoCode == EPIPE }
        if let error = error as? ChannelError { return error == .eof || error == .ioOnClosedChannel || error == .outputClosed }
        return false
    }

    // MARK: - The response

    private func received(_ head: HTTPResponseHead, context: ChannelHandlerContext) {
        let sent = reasons?.reason(for: Int(head.status.code))
        guard var current, head.status.code >= 200 else { return }
        current.head = head
        let response = Self.response(head, for: current.exchange.request, reason: sent)
        current.response = response
        // A stream flows as it comes. A compressed chunked answer (a gzip JSON body from most
        // servers) is decoded whole at its end; only a compressed message stream (events, NDJSON,
        // sent so despite the request's `identity`) is relayed and kept as it came, with its
        // `Content-Encoding`, since it may never end.
        let encoded = !ContentCoding.codings(of: response.headers).isEmpty
        let messages = response.headers["Content-Type"].map { StreamMedia.streamTypes.contains(MediaType.essence($0)) } ?? false
        if response.isStream, current.exchange.request.method != .head, !encoded || messages {
            current.streamStart = .now()
            if let observer = current.exchange.observer, observer.head(response) {
                current.observing = DispatchQueue(label: "tapedeck.upstream-stream")
                let handler = NIOLoopBound(self, eventLoop: context.eventLoop)
                current.poll = context.eventLoop.scheduleRepeatedTask(initialDelay: .seconds(1), delay: .seconds(1)) { _ in
                    handler.value.pollReader()
                }
            }
        }
        self.current = current
        if current.observing != nil { armTimer(context: context) }
    }

    private func received(_ bytes: ByteBuffer, context: ChannelHandlerContext) {
        // Changed in place (`current?.`): a copy taken out and put back would copy the body
        // gathered so far on every read.
        // No copy of `current` is held meanwhile, for the same reason: the buffer must stay unique.
        current?.bodyBytes += bytes.readableBytes
        guard let bodyBytes = current?.bodyBytes, let url = current?.exchange.request.url else { return }
        guard bodyBytes <= limits.maximumBodySize else {
            return fail(.bodyTooLarge(url: url.absoluteString, limit: limits.maximumBodySize), context: context)
        }
        guard let streamStart = current?.streamStart else {
            current?.body.writeImmutableBuffer(bytes)
            return
        }
        if current?.arriving == nil {
            current?.arriving = bytes
            current?.arrivedAt = Double((NIODeadline.now() - streamStart).nanoseconds) / 1e9
        } else {
            current?.arriving?.writeImmutableBuffer(bytes)
        }
    }

    /// Makes what arrived in this read one chunk of the stream, and shows it to the observer.
    private func handOnArriving(context: ChannelHandlerContext) {
        guard let arriving = current?.arriving else { return }
        current?.arriving = nil
        let chunk = BodyChunk(offset: current?.arrivedAt ?? 0, data: arriving.readableData)
        current?.chunks.append(chunk)
        guard let current, let queue = current.observing, let observer = current.exchange.observer else { return }
        self.current?.waiting += 1
        if current.waiting + 1 >= Self.chunksAhead, !current.paused {
            self.current?.paused = true
            context.channel.setOption(.autoRead, value: false).whenComplete { _ in }
        }
        let loop = context.eventLoop
        let handler = NIOLoopBound(self, eventLoop: loop)
        let exchange = current.exchange
        queue.async {
            let more = observer.chunk(chunk)
            loop.execute { handler.value.delivered(more: more, to: exchange) }
        }
        armTimer(context: context)
    }

    /// The observer took a chunk of `exchange`; `more` is false when its reader left. Word about
    /// an exchange that has ended (the connection may carry the next one) is ignored.
    private func delivered(more: Bool, to exchange: UpstreamExchange) {
        guard let context, let current, current.exchange === exchange else { return }
        self.current?.waiting -= 1
        if current.paused, current.waiting - 1 <= Self.chunksAhead / 4 {
            self.current?.paused = false
            context.channel.setOption(.autoRead, value: true).whenComplete { _ in }
            context.read()
        }
        if !more, let current = self.current { finish(current, reusable: false, context: context) }
    }

    /// Asked about once a second while an observed stream flows: the reader may have left.
    private func pollReader() {
        guard let current, let context, let observer = current.exchange.observer, current.observing != nil, observer.stop() else { return }
        finish(current, reusable: false, context: context)
    }

    /// Hands on the response gathered so far (after every chunk the observer is still to see).
    private func finish(_ current: Current, reusable: Bool, context: ChannelHandlerContext) {
        guard var response = current.response else {
            return fail(.noResponse(url: current.exchange.request.urlText, detail: "no answer"), context: context)
        }
        let request = current.exchange.request
        response.duration = Double((NIODeadline.now() - current.started).nanoseconds) / 1e9
        if current.streamStart != nil {
            response.body = BodyChunk.joined(current.chunks)
            response.chunks = StreamMedia.keepsChunks(current.chunks, headers: response.headers) ? current.chunks : nil
        } else {
            response.body = current.body.readableData
            do {
                response.body = try Self.decoded(response.body, headers: response.headers, url: request.urlText, limits: limits)
            } catch {
                return fail(error, context: context)
            }
        }
        end(current, with: .answered(response, reusable: reusable))
        if !reusable {
            context.close(promise: nil)
        } else if current.paused {
            context.channel.setOption(.autoRead, value: true).whenComplete { _ in }
        }
    }

    /// Whether the connection may carry another request after `head`'s answer, by its
    /// `Connection` field and version alone (the parser's own view counts an answer without a
    /// length, such as a HEAD's, as read to the close; a body that really is read to the close
    /// leaves the connection closed anyway).
    static func keepsAlive(_ head: HTTPResponseHead) -> Bool {
        // After a 101 the connection speaks another protocol.
        guard head.status.code != 101, head.version.major == 1 else { return false }
        // The Connection field's tokens, compared in place: a list of them lower-cased cost more
        // than the rest of reading the answer's head.
        var keepAlive = false
        for (name, value) in head.headers where name.caseInsensitiveEquals("Connection") {
            if ProxyHeaders.listsToken(value, "close") { return false }
            if ProxyHeaders.listsToken(value, "keep-alive") { keepAlive = true }
        }
        return head.version.minor >= 1 || keepAlive
    }

    private func fail(_ error: HTTPError, context: ChannelHandlerContext) {
        guard let current else { return }
        end(current, with: .failed(error))
        context.close(promise: nil)
    }

    /// Ends the exchange in flight with `outcome`, after the chunks its observer has yet to see.
    private func end(_ ending: Current, with outcome: UpstreamExchange.Outcome) {
        ending.poll?.cancel()
        current = nil
        let promise = ending.promise
        if let queue = ending.observing {
            queue.async { promise.succeed(outcome) }
        } else {
            promise.succeed(outcome)
        }
    }

    /// The time limit: for the whole exchange, or for silence while an observed stream flows.
    /// One check is scheduled at a time and moved on when it comes due, not one per exchange
    /// (scheduling and cancelling a task cost more than the rest of sending the request).
    private func armTimer(context: ChannelHandlerContext) {
        guard let timeout = current?.exchange.options.timeout, let limit = UpstreamExchange.timeLimit(timeout) else { return }
        let due = NIODeadline.now() + limit
        current?.due = due
        if check == nil { scheduleCheck(at: due, context: context) }
    }

    /// Fails the exchange in flight at `when` if its time is up by then; otherwise looks again
    /// when it will be.
    private func scheduleCheck(at when: NIODeadline, context: ChannelHandlerContext) {
        check = context.eventLoop.assumeIsolated().scheduleTask(deadline: when) { [self] in
            check = nil
            guard let context = self.context, let due = current?.due, let exchange = current?.exchange else { return }
            guard due <= .now() else { return scheduleCheck(at: due, context: context) }
            fail(.timedOut(url: exchange.request.urlText, seconds: exchange.options.timeout), context: context)
        }
    }

    /// The response a head describes, its body still empty; `reason` is the phrase as sent,
    /// where the decoder's is the standard one for the code.
    static func response(_ head: HTTPResponseHead, for request: HTTPRequest, reason: String? = nil) -> HTTPResponse {
        var fields: [HTTPHeader] = []
        fields.reserveCapacity(head.headers.count)
        for (name, value) in head.headers { fields.append(HTTPHeader(name: name, value: value)) }
        return HTTPResponse(status: Int(head.status.code), reason: reason ?? head.status.reasonPhrase, headers: Tapedeck.HTTPHeaders(fields), body: Data(),
                            url: request.url)
    }

    /// `body` decoded per its `Content-Encoding` (gzip and deflate; others are left as they
    /// came), within what ``BodyLimits`` lets it expand to.
    static func decoded(_ body: Data, headers: Tapedeck.HTTPHeaders, url: String, limits: BodyLimits) throws(HTTPError) -> Data {
        let codings = ContentCoding.codings(of: headers)
        guard !codings.isEmpty, !body.isEmpty else { return body }
        var result = body
        for coding in codings.reversed() {
            let limit = limits.decodedLimit(compressedSize: max(result.count, 1))
            do {
                switch coding {
                case "gzip", "x-gzip": result = try Inflate.gunzip(result, limit: limit)
                case "deflate": result = try Inflate.inflateZlibOrRaw(result, limit: limit)
                default:
                    // Handed on as it came, the client would get the bytes without the coding
                    // that makes them readable (the stored form names no coding).
                    throw HTTPError.transport(url: url, detail: "the upstream answered with Content-Encoding \(coding), which Tapedeck "
                        + "cannot decode (it asked for gzip or deflate only); configure the upstream to honour Accept-Encoding")
                }
            } catch let error as HTTPError {
                throw error
            } catch let error as Inflate.Failure where error.exceededLimit {
                throw .decompressionLimit(url: url, compressed: body.count, limit: limit)
            } catch let error as Inflate.Failure {
                throw .transport(url: url, detail: "the upstream's \(coding) body cannot be decoded: \(error.reason)")
            } catch {
                throw .transport(url: url, detail: "the upstream's \(coding) body cannot be decoded: \(error)")
            }
        }
        return result
    }
}

/// Why a TLS handshake with an upstream failed, in words, and the fix that applies to that
/// reason alone (`serve` and `proxy` add it to the message).
enum UpstreamTLSProblem: Equatable {
    /// The certificate did not verify: not signed by a trusted CA, expired, not valid yet.
    case notTrusted
    /// The certificate does not name the host reached.
    case otherName(String)
    /// The upstream did not answer in TLS.
    case notTLS
    /// Anything else, in the library's words.
    case other(String)

    init(_ error: any Error, host: String) {
        let text = "\(error)"
        if case .failedToValidateHostname? = error as? NIOSSLExtraError {
            self = .otherName(host)
        } else if text.contains("CERTIFICATE_VERIFY_FAILED") {
            self = .notTrusted
        } else if TLSHandshakeWatcher.spokeOtherThanTLS(text) {
            self = .notTLS
        } else {
            // BoringSSL's words name the source file each error came from: left out.
            self = .other(text.replacingOccurrences(of: #" at /[^\]\)]*"#, with: "", options: .regularExpression))
        }
    }

    /// What went wrong, for the message.
    var detail: String {
        switch self {
        case .notTrusted: "the upstream's certificate was not accepted: no CA trusted here signed it, or it has expired or is not valid yet"
        case .otherName(let host): "the upstream's certificate does not name \(host)"
        case .notTLS: "the upstream did not answer in TLS"
        case .other(let text): text
        }
    }

    /// The problem whose ``detail`` is `detail` (an ``HTTPError/tlsFailure(host:detail:)``
    /// carries the words only); ``other(_:)`` for words of the library's own.
    init(detail: String) {
        let named = UpstreamTLSProblem.otherName("").detail
        if detail.hasPrefix(named) {
            self = .otherName(String(detail.dropFirst(named.count)))
        } else {
            self = [UpstreamTLSProblem.notTrusted, .notTLS].first { $0.detail == detail } ?? .other(detail)
        }
    }

    /// The fix in the server's own flags.
    var fix: String {
        let skip = "to skip verification (a test server, never real credentials), use --insecure-upstream"
        switch self {
        case .otherName: return "reach the upstream by a name its certificate holds; " + skip
        case .notTLS: return "if it speaks plain HTTP, give its URL as http://"
        case .notTrusted, .other:
            return "if a CA of your own signed its certificate, trust that CA with --upstream-ca FILE; if it has expired, renew it; " + skip
        }
    }
}
