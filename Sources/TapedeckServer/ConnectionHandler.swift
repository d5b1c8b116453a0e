import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import NIOWebSocket
import Tapedeck

/// One connection: collects each request under the ``ServerLimits``, hands it to the responder
/// and writes the reply back byte-faithfully, or applies its ``SocketFault``.
final class ConnectionHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    typealias Responder = ServerResponder

    private enum State {
        case idle
        case receiving(HTTPRequestHead, ByteBuffer)
        /// A limit was hit: the rest of the request is ignored and the connection closes after the answer.
        case rejected
        case responding
        /// The last answer said the connection ends: what else arrives is not read.
        case closing
    }

    private let limits: ServerLimits
    private let responder: Responder
    private var state = State.idle
    /// The check that closes a connection idle (or sending its request) for longer than
    /// ``ServerLimits/readTimeout``; scheduled once and moved on only when it comes due, not
    /// for every request.
    private var deadline: Scheduled<Void>?
    /// When the read timeout began counting, while it counts.
    private var idleSince: NIODeadline?
    private var isOpen = true
    /// The client's IP address, read once (each read of it is a system call).
    private var clientAddress: String?
    /// The task writing a streamed reply (``StreamBody``), cancelled when the client leaves.
    private var streaming: Task<Void, Never>?
    /// Runs the tasks that answer this connection's requests later, on its own loop.
    private var loopExecutor: EventLoopExecutor?

    /// The reply the fast lane already has for the first request it hands over (``HTTPFastLane``).
    private var handedOver: ServerReply?
    /// What the lane saw wrong in the head it handed over, for the codec's refusal to name.
    private var handedOverProblem: HandedOverHead?
    /// Parts of requests that arrived while an answer's end was being written: the pipelining
    /// handler hands the next request on from inside that write. They are read after it.
    private var deferred = CircularBuffer<HTTPServerRequestPart>()
    /// Whether ``readDeferred(context:)`` is reading them (it reads them one after another, not
    /// one inside another).
    private var readingDeferred = false
    /// Set when bytes after the request being answered turned out malformed: its answer is
    /// written whole, then the connection closes.
    private var closeAfterAnswer = false
    /// Set when the client closed its side (a half-close, `shutdown(SHUT_WR)`): the requests
    /// it sent are still answered, then the connection closes.
    private var inputEnded = false
    /// Set when the server stops (``ServerStopping``): a request not read whole is not answered.
    private var stopping = false
    /// Set while a `hang` fault holds the answer back for good.
    private var hanging = false
    /// The most deferred requests read in one turn of the event loop before the others on it
    /// get theirs.
    private static let deferredPerTurn = 64

    /// What terminates TLS inside a `CONNECT` (nil: tunnels are not intercepted).
    private let tls: ListenerTLS?
    /// The origin (`https://api.example.com`) an origin-form target is for, inside an
    /// intercepted tunnel; nil on a connection of the server's own.
    private let tunnelOrigin: String?

    init(limits: ServerLimits, tls: ListenerTLS? = nil, tunnelOrigin: String? = nil, responder: Responder) {
        self.limits = limits
        self.tls = tls
        self.tunnelOrigin = tunnelOrigin
        self.responder = responder
    }

    /// Called by the fast lane as it hands the connection over to the codec: when `reply` is
    /// given, the next request to arrive is the one it is the answer to.
    func takeOver(_ reply: ServerReply?, problem: HandedOverHead? = nil) {
        handedOver = reply
        handedOverProblem = problem
    }

    /// The fast lane found, in bytes it passed on after the handover, what is wrong with the
    /// head it handed over.
    func noteHandedOver(_ problem: HandedOverHead) {
        handedOverProblem = problem
    }

    /// Called by the fast lane after it answered a request: the read timeout counts from now.
    func answeredByFastLane(context: ChannelHandlerContext) {
        armDeadline(context: context)
    }

    /// Inside an intercepted tunnel the connection is active already, and no `channelActive`
    /// comes: the read timeout starts counting here, so a client that opens a tunnel and then
    /// sends nothing is closed as on a connection of its own.
    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { armDeadline(context: context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        armDeadline(context: context)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        isOpen = false
        streaming?.cancel()
        cancelDeadline()
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let part = unwrapInboundIn(data)
        // An answer is being written (this part came from inside the write of its end), or
        // parts that did are still waiting: this one waits behind them.
        if case .responding = state {
            deferred.append(part)
            return
        }
        guard deferred.isEmpty else {
            deferred.append(part)
            return
        }
        receive(part, context: context)
    }

    /// Reads one part of a request: collects its head and body, and answers it at its end.
    private func receive(_ part: HTTPServerRequestPart, context: ChannelHandlerContext) {
        switch part {
        case .head(let head):
            // The head handed over was read whole: a later refusal is about another.
            handedOverProblem = nil
            guard case .idle = state else { return }
            if let length = head.headers.first(name: "content-length").flatMap(Int.init), length > limits.maxBodyBytes {
                reject(context: context, head: head, status: 413, text: Self.bodyTooLarge(length, limits: limits))
                return
            }
            if head.headers.first(name: "expect")?.lowercased() == "100-continue" {
                context.writeAndFlush(wrapOutboundOut(.head(HTTPResponseHead(version: head.version, status: .continue))), promise: nil)
            }
            state = .receiving(head, context.channel.allocator.buffer(capacity: 0))
        case .body(var chunk):
            guard case .receiving(let head, var body) = state else { return }
            if body.readableBytes + chunk.readableBytes > limits.maxBodyBytes {
                reject(context: context, head: head, status: 413, text: Self.bodyTooLarge(body.readableBytes + chunk.readableBytes, limits: limits))
                return
            }
            state = .idle  // drop the reference so the buffer grows in place
            body.writeBuffer(&chunk)
            state = .receiving(head, body)
        case .end:
            guard case .receiving(let head, let body) = state else { return }
            // The check stays scheduled; finding nothing counting when it comes due, it ends.
            idleSince = nil
            state = .responding
            respond(context: context, head: head, body: body)
        }
    }

    /// The client closed its side: the connection closes once what it sent is answered. An
    /// answer that never ends on its own (a `hang` fault, a stream) ends with it, as before
    /// half-closes were kept open.
    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if event is ServerStopping { stopping = true }
        guard event is ServerStopping || (event as? ChannelEvent) == .inputClosed else { return context.fireUserInboundEventTriggered(event) }
        inputEnded = true
        if hanging || streaming != nil { return context.close(promise: nil) }
        closeIfAnswered(context: context)
    }

    /// Closes, once every answer is written, a connection whose client closed its side and
    /// has no request left unanswered; one being answered closes after it (``finish(context:keepAlive:)``).
    private func closeIfAnswered(context: ChannelHandlerContext) {
        guard inputEnded, isOpen, deferred.isEmpty else { return }
        switch state {
        case .idle, .receiving:
            state = .closing
            cancelDeadline()
            closeWhenWritten(context: context)
        case .responding, .rejected, .closing:
            return
        }
    }

    /// Closes once everything written so far is on its way, the fast lane's answers (which it
    /// may not have flushed yet) as well as this handler's: from the lane's place in the pipeline.
    private func closeWhenWritten(context: ChannelHandlerContext) {
        guard let lane = try? context.pipeline.syncOperations.context(name: HTTPPipeline.fastLane) else {
            return context.close(promise: nil)
        }
        lane.closeOnceWritten()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        // A stopping server reads nothing more: what was cut short is not the client's fault.
        if stopping { return context.close(promise: nil) }
        if let parse = error as? HTTPParserError, isOpen {
            let version = HTTPVersion(major: 1, minor: 1)
            switch state {
            case .idle, .receiving:
                if let (status, text) = handedOverProblem?.refusal(limit: limits.maxHeaderBytes, parsing: parse) {
                    reject(context: context, version: version, status: status, text: text)
                } else if parse == .headerOverflow {
                    reject(context: context, version: version, status: 431,
                           text: "request headers are over the limit of \(limits.maxHeaderBytes) bytes; send fewer or shorter headers\n")
                } else {
                    reject(context: context, version: version, status: 400,
                           text: "malformed HTTP request: \(parse); check the request line, the header lines and the body's framing\n")
                }
            case .responding:
                // The pipelining handler hands this on once the answer's end is written: the
                // answer goes out whole, then the connection closes.
                closeAfterAnswer = true
            case .rejected, .closing:
                context.close(promise: nil)
            }
            return
        }
        context.close(promise: nil)
    }

    // MARK: Responding

    private func respond(context: ChannelHandlerContext, head: HTTPRequestHead, body: ByteBuffer) {
        // A request the fast lane already asked the responder about: its answer, not a second asking.
        if let reply = handedOver.take() {
            write(reply, context: context, head: head)
            return
        }
        let request = incomingRequest(context: context, head: head, body: body)
        // Most answers (a replayed response, a miss) are known at once: written from here,
        // with no hop to a task and back. A recording sent from here answers on this loop too.
        switch responder.atOnce(request) {
        case .reply(let reply): write(reply, context: context, head: head)
        case .pending(let reply): write(reply.hop(to: context.eventLoop).assumeIsolated(), context: context, head: head)
        case .later: write(askLater(request, context: context), context: context, head: head)
        }
    }

    /// The request as the responder sees it.
    private func incomingRequest(context: ChannelHandlerContext, head: HTTPRequestHead, body: ByteBuffer) -> IncomingRequest {
        if clientAddress == nil { clientAddress = context.remoteAddress?.ipAddress }
        let headers = Tapedeck.HTTPHeaders(head.headers.map { HTTPHeader(name: $0.name, value: $0.value) })
        // Inside an intercepted tunnel the target names the tunnel's host: the handlers see
        // `https://host/path`, as a forward proxy's request for it.
        let target = tunnelOrigin.map { head.uri.hasPrefix("/") ? $0 + head.uri : head.uri } ?? head.uri
        return IncomingRequest(method: head.method.rawValue, target: target, headers: headers,
                               body: body.readableData, remoteAddress: clientAddress)
    }

    /// Writes the reply `answer` gives when it comes, unless the connection closed meanwhile.
    private func write(_ answer: EventLoopFuture<ServerReply>.Isolated, context: ChannelHandlerContext, head: HTTPRequestHead) {
        answer.whenSuccess { [self] reply in
            // The client left meanwhile: a stream relayed from upstream is let go of, so the upstream stops.
            guard isOpen else {
                reply.stream?.abandoned()
                return
            }
            write(reply, context: context, head: head)
        }
    }

    /// The responder's ``ServerResponder/later`` answer to `request`, asked from a task on this
    /// connection's loop; it arrives on that loop. The fast lane asks through here too.
    func askLater(_ request: IncomingRequest, context: ChannelHandlerContext) -> EventLoopFuture<ServerReply>.Isolated {
        let later = responder.later
        let answer = context.eventLoop.makePromise(of: ServerReply.self)
        let executor = executor(on: context.eventLoop)
        Task(executorPreference: executor) {
            answer.succeed(await EventLoopExecutor.$current.withValue(executor) { await later(request) })
        }
        return answer.futureResult.assumeIsolated()
    }

    /// Called by the fast lane while it waits for a later answer: the read timeout does not
    /// count meanwhile (``answeredByFastLane(context:)`` starts it again).
    func waitingForAnswer() {
        idleSince = nil
    }

    /// The executor of this connection's loop, made on first use.
    private func executor(on loop: any EventLoop) -> EventLoopExecutor {
        if let loopExecutor { return loopExecutor }
        let made = EventLoopExecutor(loop)
        loopExecutor = made
        return made
    }

    private func write(_ reply: ServerReply, context: ChannelHandlerContext, head: HTTPRequestHead) {
        // A handler that answers `Connection: close` ends the connection after its answer.
        let keepAlive = head.isKeepAlive && !(reply.response.headers["Connection"].map { $0.caseInsensitiveEquals("close") } ?? false)
        if let tunnel = reply.tunnel {
            open(tunnel, context: context, head: head)
            return
        }
        if let plan = reply.webSocket {
            upgrade(plan, response: reply.response, context: context, head: head)
            return
        }
        switch reply.fault {
        case .hang:
            hanging = true
            return
        case .reset:
            resetConnection(context: context)
            return
        default:
            break
        }
        let response = Self.sendable(reply.response)
        let omitsBody = Self.omitsBody(response, isHead: head.method == .HEAD)
        let responseHead = HTTPResponseHead(version: head.version,
                                            status: .custom(code: UInt(max(0, response.status)), reasonPhrase: response.reason),
                                            headers: Self.wireHeaders(response, omitsBody: omitsBody, keepAlive: keepAlive, version: head.version))
        if let stream = reply.stream {
            var headers = NIOHTTP1.HTTPHeaders(response.headers.map { ($0.name, $0.value) })
            for name in ["Content-Length", "Connection", "Transfer-Encoding"] { headers.remove(name: name) }
            headers.add(name: "Connection", value: "close")
            // An HTTP/1.0 client knows no chunked framing: its stream ends when the connection closes.
            if head.version.major == 1, head.version.minor >= 1 { headers.add(name: "Transfer-Encoding", value: "chunked") }
            context.writeAndFlush(wrapOutboundOut(.head(HTTPResponseHead(version: head.version, status: .custom(code: UInt(response.status),
                                                                                                            reasonPhrase: response.reason),
                                                                         headers: headers))), promise: nil)
            writeStream(stream, context: context)
            return
        }
        context.write(wrapOutboundOut(.head(responseHead)), promise: nil)
        var body = context.channel.allocator.buffer(capacity: omitsBody ? 0 : response.body.count)
        if !omitsBody { body.writeBytes(response.body) }
        switch reply.fault {
        case .truncate:
            let half = body.getSlice(at: body.readerIndex, length: body.readableBytes / 2) ?? body
            context.writeAndFlush(wrapOutboundOut(.body(.byteBuffer(half)))).assumeIsolated().whenComplete { _ in
                context.close(promise: nil)
            }
        case .slow(let bytesPerSecond):
            context.flush()
            writeSlowly(body, bytesPerSecond: max(1, bytesPerSecond), context: context, keepAlive: keepAlive)
        default:
            if body.readableBytes > 0 { context.write(wrapOutboundOut(.body(.byteBuffer(body))), promise: nil) }
            finish(context: context, keepAlive: keepAlive)
        }
    }

    /// Writes each chunk of `chunks` as it comes, flushed, and ends the response (and the
    /// connection) when the stream ends; the client leaving cancels it.
    private func writeStream(_ stream: StreamBody, context: ChannelHandlerContext) {
        let chunks = stream.chunks
        let loop = context.eventLoop
        let bound = NIOLoopBound((handler: self, context: context), eventLoop: loop)
        streaming = Task {
            for await chunk in chunks {
                // Each chunk waits for the one before to reach the socket: a client that does not
                // read holds the stream back (whose buffer drops the oldest), not the server's memory.
                let written = loop.makePromise(of: Void.self)
                loop.execute {
                    let (handler, context) = bound.value
                    guard handler.isOpen else { return written.fail(ChannelError.ioOnClosedChannel) }
                    var buffer = context.channel.allocator.buffer(capacity: chunk.count)
                    buffer.writeBytes(chunk)
                    context.writeAndFlush(handler.wrapOutboundOut(.body(.byteBuffer(buffer))), promise: written)
                }
                do { try await written.futureResult.get() } catch { return stream.abandoned() }
                stream.written(chunk.count)
                if Task.isCancelled { return stream.abandoned() }
            }
            let complete = stream.isComplete()
            loop.execute {
                let (handler, context) = bound.value
                guard handler.isOpen else { return }
                // A stream that broke off ends without its last chunk, so the client knows.
                guard complete else { return context.close(promise: nil) }
                handler.finish(context: context, keepAlive: false)
            }
        }
    }

    /// Writes `body` in tenths of a second's worth, then ends the response.
    private func writeSlowly(_ body: ByteBuffer, bytesPerSecond: Int, context: ChannelHandlerContext, keepAlive: Bool) {
        var rest = body
        let step = max(1, bytesPerSecond / 10)
        guard isOpen else { return }
        guard rest.readableBytes > 0 else {
            finish(context: context, keepAlive: keepAlive)
            return
        }
        let chunk = rest.readSlice(length: min(step, rest.readableBytes)) ?? rest
        context.writeAndFlush(wrapOutboundOut(.body(.byteBuffer(chunk))), promise: nil)
        let delay = TimeAmount.nanoseconds(Int64(1_000_000_000 * chunk.readableBytes / bytesPerSecond))
        context.eventLoop.assumeIsolated().scheduleTask(in: delay) { [self] in
            writeSlowly(rest, bytesPerSecond: bytesPerSecond, context: context, keepAlive: keepAlive)
        }
    }

    private func finish(context: ChannelHandlerContext, keepAlive: Bool) {
        // Writing the end can hand the next pipelined request on at once, from inside the
        // write: it waits in `deferred` (the state is still `.responding`) and is read after.
        // It can hand on a parse error of the bytes after this request too (`closeAfterAnswer`).
        guard keepAlive, !closeAfterAnswer else { return close(context: context) }
        let written = context.writeAndFlush(wrapOutboundOut(.end(nil)))
        guard !closeAfterAnswer else {
            state = .closing
            deferred.removeAll()
            written.assumeIsolated().whenComplete { _ in context.close(promise: nil) }
            return
        }
        state = .idle
        armDeadline(context: context)
        readDeferred(context: context)
        closeIfAnswered(context: context)
    }

    /// Writes the answer's end and closes the connection once it is written; nothing after it
    /// is read (RFC 9112, 9.6).
    private func close(context: ChannelHandlerContext) {
        context.writeAndFlush(wrapOutboundOut(.end(nil))).assumeIsolated().whenComplete { _ in context.close(promise: nil) }
        state = .closing
        deferred.removeAll()
    }

    /// Reads the parts that arrived while answers were written, in order, until one is answered
    /// later; one after another, so a client that pipelines thousands of requests does not
    /// deepen the stack with each, and ``deferredPerTurn`` at a time, so it does not hold the
    /// event loop from the other connections on it.
    private func readDeferred(context: ChannelHandlerContext) {
        guard !readingDeferred else { return }
        readingDeferred = true
        defer { readingDeferred = false }
        var read = 0
        while isOpen, let part = deferred.first {
            switch state {
            case .idle, .receiving: break
            case .responding, .rejected, .closing: return
            }
            if read == Self.deferredPerTurn {
                context.eventLoop.assumeIsolated().execute { [self] in readDeferred(context: context) }
                return
            }
            if case .end = part { read += 1 }
            deferred.removeFirst()
            receive(part, context: context)
        }
    }

    /// Closes with a TCP reset (SO_LINGER 0) rather than an orderly FIN.
    private func resetConnection(context: ChannelHandlerContext) {
        guard let provider = context.channel as? any SocketOptionProvider else {
            context.close(promise: nil)
            return
        }
        provider.setSoLinger(linger(l_onoff: 1, l_linger: 0)).assumeIsolated().whenComplete { _ in context.close(promise: nil) }
    }

    /// The response's headers as sent: in order and case as recorded, with the framing the
    /// written body needs (`Content-Length`, no `Transfer-Encoding`) and `Connection: close`
    /// when the connection ends after it.
    static func wireHeaders(_ response: HTTPResponse, omitsBody: Bool, keepAlive: Bool, version: HTTPVersion) -> NIOHTTP1.HTTPHeaders {
        var headers = NIOHTTP1.HTTPHeaders()
        headers.reserveCapacity(response.headers.count + 2)
        forEachWireHeader(response, omitsBody: omitsBody, keepAlive: keepAlive, version: version) { headers.add(name: $0, value: $1) }
        return headers
    }

    /// Each header of ``wireHeaders(_:omitsBody:keepAlive:version:)``, in order: the one rule
    /// for the codec's path and the fast lane's (``HTTPFastLane``).
    static func forEachWireHeader(_ response: HTTPResponse, omitsBody: Bool, keepAlive: Bool, version: HTTPVersion,
                                  _ add: (_ name: String, _ value: String) -> Void) {
        // One pass, on every answer: no copy of the fields, no lower-cased names.
        let dropsLength = response.status == 204 || (100..<200).contains(response.status)
        let setsLength = !dropsLength && !omitsBody
        var lengthWritten = false
        for field in response.headers {
            let name = field.name
            // A name's length rules out all but one or two of them, compared no further.
            switch name.utf8.count {
            case 10, 17:
                if name.caseInsensitiveEquals("Connection") || name.caseInsensitiveEquals("Keep-Alive") || name.caseInsensitiveEquals("Transfer-Encoding") {
                    continue
                }
            case 14:
                break
            default:
                add(name, field.value)
                continue
            }
            if name.caseInsensitiveEquals("Content-Length") {
                if dropsLength || (setsLength && lengthWritten) { continue }
                if setsLength {
                    // The body's true length, under the recorded field's name and place.
                    add(name, String(response.body.count))
                    lengthWritten = true
                    continue
                }
            }
            add(name, field.value)
        }
        if setsLength, !lengthWritten { add("Content-Length", String(response.body.count)) }
        if !keepAlive {
            add("Connection", "close")
        } else if version.minor == 0 {
            add("Connection", "keep-alive")
        }
    }

    /// `response`, or when it cannot be sent as is, a 502 that says why.
    ///
    /// Whatever produced the reply (a cassette, an upstream, a handler), a header that cannot
    /// be sent as is (a name outside the token characters, a value with a line break) gets the
    /// client a 502 with the reason, never a trap or an injected line.
    static func sendable(_ response: HTTPResponse) -> HTTPResponse {
        guard let (_, problem) = response.unsendablePart() else { return response }
        return HTTPResponse(status: 502, headers: ["Content-Type": "text/plain; charset=utf-8", ServerMarker.errorHeader: "502"],
                            body: Data(("the answer cannot be sent: \(problem)\n").utf8))
    }

    /// Whether `response` is written without a body: the answer to a `HEAD`, a 204, a 304 or a 1xx.
    static func omitsBody(_ response: HTTPResponse, isHead: Bool) -> Bool {
        isHead || response.status == 204 || response.status == 304 || (100..<200).contains(response.status)
    }

    // MARK: Tunnels

    /// Answers a `CONNECT` with 200 and turns the connection into `tunnel`: TLS terminated
    /// here with the host's leaf and HTTP inside, or bytes relayed to the host untouched.
    private func open(_ tunnel: Tunnel, context: ChannelHandlerContext, head: HTTPRequestHead) {
        cancelDeadline()
        let client = Self.describe(head.headers.first(name: "user-agent"), context.remoteAddress)
        switch tunnel {
        case .intercept(let host, let port):
            guard let tls else {
                reject(context: context, head: head, status: 501, text: "this server does not intercept CONNECT tunnels\n")
                return
            }
            let sslContext: NIOSSLContext
            do { sslContext = try tls.mint.context(for: host) } catch {
                reject(context: context, head: head, status: 502, text: (error.errorDescription ?? "\(error)") + "\n")
                return
            }
            let limits = self.limits, responder = self.responder
            established(context: context, head: head) { sync, anchor in
                let handler = NIOSSLServerHandler(context: sslContext)
                let watcher = TLSHandshakeWatcher(host: host, client: client, tunnelled: true, log: tls.log)
                let plain = PlainHTTPOnTLS()
                try sync.addHandler(plain, position: .after(anchor))
                try sync.addHandler(handler, position: .after(plain))
                try sync.addHandler(watcher, position: .after(handler))
                try HTTPPipeline.install(on: sync, after: watcher, limits: limits, tls: tls, tunnelOrigin: Tunnel.origin(host: host, port: port),
                                         responder: responder)
            }
        case .passThrough(let host, let port):
            relay(to: host, port: port, purpose: "pass the tunnel through", context: context, head: head) { handler, context, _, ours in
                handler.established(context: context, head: head) { sync, anchor in
                    try sync.addHandler(ours, position: .after(anchor))
                }
            }
        }
    }

    /// Connects to `host:port` and glues it to this connection: `theirs` of a ``GlueHandler``
    /// pair (after the `upstream` handlers) goes on the new channel, and `start` puts `ours` on
    /// this one. A failure to connect answers 502, naming the `purpose`.
    private func relay(to host: String, port: Int, purpose: String, upstream: [any ChannelHandler] = [],
                       context: ChannelHandlerContext, head: HTTPRequestHead,
                       start: @escaping (ConnectionHandler, ChannelHandlerContext, any Channel, GlueHandler) -> Void) {
        let bound = NIOLoopBound((handler: self, context: context, upstream: upstream, start: start), eventLoop: context.eventLoop)
        ClientBootstrap(group: context.eventLoop)
            .channelOption(.socketOption(.tcp_nodelay), value: 1)
            .connectTimeout(.seconds(10))
            .connect(host: host, port: port)
            .whenComplete { result in
                let (handler, context, upstream, start) = bound.value
                switch result {
                case .failure(let error):
                    guard handler.isOpen else { return }
                    handler.reject(context: context, head: head, status: 502, text: "cannot reach \(host):\(port) to \(purpose): \(error)\n")
                case .success(let peer):
                    guard handler.isOpen else { return peer.close(promise: nil) }
                    let (ours, theirs) = GlueHandler.matchedPair()
                    do {
                        for extra in upstream { try peer.pipeline.syncOperations.addHandler(extra) }
                        try peer.pipeline.syncOperations.addHandler(theirs)
                    } catch {
                        peer.close(promise: nil)
                        return context.close(promise: nil)
                    }
                    start(handler, context, peer, ours)
                }
            }
    }

    /// Writes `200 Connection established`, then swaps this connection's HTTP handlers for
    /// what `install` adds after the decoder; the decoder goes last, handing any bytes the
    /// client already sent to the new handlers.
    private func established(context: ChannelHandlerContext, head: HTTPRequestHead,
                             answer: HTTPResponseHead? = nil,
                             install: @escaping (ChannelPipeline.SynchronousOperations, any ChannelHandler) throws -> Void) {
        let answer = answer ?? HTTPResponseHead(version: head.version, status: .custom(code: 200, reasonPhrase: "Connection established"))
        context.write(wrapOutboundOut(.head(answer)), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil))).assumeIsolated().whenComplete { [self] result in
            guard case .success = result else { return context.close(promise: nil) }
            swapHandlers(context: context, install: install)
        }
    }

    /// Replaces this connection's HTTP handlers with what `install` adds after the decoder; the
    /// decoder goes last, handing any bytes the client already sent to the new handlers.
    private func swapHandlers(context: ChannelHandlerContext,
                              install: @escaping (ChannelPipeline.SynchronousOperations, any ChannelHandler) throws -> Void) {
        guard isOpen else { return context.close(promise: nil) }
        let sync = context.pipeline.syncOperations
        do {
            let decoder = try sync.context(name: HTTPPipeline.decoder).handler
            try install(sync, decoder)
            sync.removeHandler(name: HTTPPipeline.fastLane, promise: nil)
            sync.removeHandler(name: HTTPPipeline.encoder, promise: nil)
            sync.removeHandler(name: HTTPPipeline.pipelining, promise: nil)
            sync.removeHandler(context: context, promise: nil)
            sync.removeHandler(name: HTTPPipeline.decoder, promise: nil)
            // The client closed its side before the handlers changed: the new ones are told,
            // so a tunnel passes the close on and a TLS or WebSocket session ends.
            if inputEnded { sync.fireUserInboundEventTriggered(ChannelEvent.inputClosed) }
        } catch {
            context.close(promise: nil)
        }
    }

    /// A WebSocket upgrade: answer `101` and play the recorded session, or connect to the
    /// upstream, hand it the upgrade request and relay both ways while recording.
    private func upgrade(_ plan: WebSocketPlan, response: HTTPResponse, context: ChannelHandlerContext, head: HTTPRequestHead) {
        cancelDeadline()
        switch plan {
        case .replay(let frames, let label, let latency, let log):
            var headers = NIOHTTP1.HTTPHeaders([("Upgrade", "websocket"), ("Connection", "Upgrade"),
                                                ("Sec-WebSocket-Accept", WebSocketPlan.accept(forKey: head.headers.first(name: "sec-websocket-key") ?? ""))])
            // The recorded choice, when this client offered it (``WebSocketPlan/subprotocolRefusal(recorded:offered:summary:)``
            // refused a client that offers others); a client that offered none is answered without one.
            if let chosen = response.headers["Sec-WebSocket-Protocol"]?.trimmingHTTPSpace(),
               head.headers[canonicalForm: "sec-websocket-protocol"].contains(where: { $0 == Substring(chosen) }) {
                headers.add(name: "Sec-WebSocket-Protocol", value: chosen)
            }
            let answer = HTTPResponseHead(version: head.version, status: .switchingProtocols, headers: headers)
            let maxFrame = limits.maxBodyBytes
            established(context: context, head: head, answer: answer) { sync, anchor in
                let decoder = ByteToMessageHandler(WebSocketFrameDecoder(maxFrameSize: max(125, min(maxFrame, 1 << 24))))
                let aggregator = NIOWebSocketFrameAggregator(minNonFinalFragmentSize: 0, maxAccumulatedFrameCount: 10_000,
                                                             maxAccumulatedFrameSize: max(125, min(maxFrame, 1 << 24)))
                let replayer = WebSocketReplayer(frames: frames, label: label, latency: latency, log: log)
                // Outbound frames pass the encoder on their way to the socket, so it sits nearer the head than the replayer.
                let encoder = WebSocketFrameEncoder()
                try sync.addHandler(encoder, position: .after(anchor))
                try sync.addHandler(decoder, position: .after(encoder))
                try sync.addHandler(aggregator, position: .after(decoder))
                try sync.addHandler(replayer, position: .after(aggregator))
            }
        case .record(let host, let port, let tls, let request, let recording):
            var upstream: [any ChannelHandler] = []
            if let tls {
                // An IP address is no server name to send in SNI or to check as one.
                let name = host.allSatisfy { $0.isNumber || $0 == "." || $0 == ":" } ? nil : host
                do {
                    upstream.append(try NIOSSLClientHandler(context: tls, serverHostname: name))
                } catch {
                    return reject(context: context, head: head, status: 502, text: "cannot start TLS to \(host):\(port) for the WebSocket: \(error)\n")
                }
            }
            upstream.append(WebSocketTap(recording, from: .server))
            relay(to: host, port: port, purpose: "open the WebSocket", upstream: upstream,
                  context: context, head: head) { handler, context, peer, ours in
                var buffer = peer.allocator.buffer(capacity: request.count)
                buffer.writeBytes(request)
                peer.writeAndFlush(buffer, promise: nil)
                // The upstream's own 101 reaches the client through the relay.
                handler.swapHandlers(context: context) { sync, anchor in
                    let tap = WebSocketTap(recording, from: .client)
                    try sync.addHandler(tap, position: .after(anchor))
                    try sync.addHandler(ours, position: .after(tap))
                }
            }
        }
    }

    /// `curl/8.5.0 at 127.0.0.1:52811`: who a log line is about.
    static func describe(_ userAgent: String?, _ address: SocketAddress?) -> String {
        let place = address.map(describe) ?? "a client"
        guard let userAgent, !userAgent.isEmpty else { return place }
        return Excerpt.of(userAgent, limit: 80) + " at " + place
    }

    /// `127.0.0.1:52811` (`[::1]:52811`).
    static func describe(_ address: SocketAddress) -> String {
        guard let ip = address.ipAddress else { return "\(address)" }
        return ip.bracketedIfIPv6 + (address.port.map { ":\($0)" } ?? "")
    }

    // MARK: Limits

    private func armDeadline(context: ChannelHandlerContext) {
        // A limit past what NIO counts (about 292 years) is no limit.
        guard let limit = UpstreamExchange.timeLimit(limits.readTimeout) else { return }
        let now = NIODeadline.now()
        idleSince = now
        if deadline == nil { checkDeadline(at: now + limit, context: context) }
    }

    /// Closes the connection at `due` when the read timeout has run out by then; when it began
    /// counting again meanwhile, looks again when it will have.
    private func checkDeadline(at due: NIODeadline, context: ChannelHandlerContext) {
        deadline = context.eventLoop.assumeIsolated().scheduleTask(deadline: due) { [self] in
            deadline = nil
            guard let idleSince else { return }
            switch state {
            case .responding, .closing: return
            case .idle, .receiving, .rejected:
                guard let limit = UpstreamExchange.timeLimit(limits.readTimeout) else { return }
                let end = idleSince + limit
                if end > .now() { checkDeadline(at: end, context: context) } else { context.close(promise: nil) }
            }
        }
    }

    /// Stops the read timeout for good (the connection closed, or became a tunnel).
    private func cancelDeadline() {
        deadline?.cancel()
        deadline = nil
        idleSince = nil
    }

    private func reject(context: ChannelHandlerContext, head: HTTPRequestHead, status: Int, text: String) {
        reject(context: context, version: head.version, status: status, text: text)
    }

    private func reject(context: ChannelHandlerContext, version: HTTPVersion, status: Int, text: String) {
        state = .rejected
        handedOver = nil
        deferred.removeAll()
        cancelDeadline()
        let body = context.channel.allocator.buffer(string: text)
        var headers = NIOHTTP1.HTTPHeaders()
        headers.add(name: "Content-Type", value: "text/plain; charset=utf-8")
        headers.add(name: "Content-Length", value: String(body.readableBytes))
        headers.add(name: "Connection", value: "close")
        headers.add(name: ServerMarker.errorHeader, value: String(status))
        let head = HTTPResponseHead(version: version, status: HTTPResponseStatus(statusCode: status), headers: headers)
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(body))), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil))).assumeIsolated().whenComplete { _ in
            context.close(promise: nil)
        }
    }

    private static func bodyTooLarge(_ length: Int, limits: ServerLimits) -> String {
        "request body of \(length) bytes is over the limit of \(limits.maxBodyBytes) bytes; raise it with --max-body BYTES\n"
    }
}
