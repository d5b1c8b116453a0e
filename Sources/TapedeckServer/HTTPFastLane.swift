import Foundation
import NIOCore
import NIOHTTP1
import Tapedeck

/// The first HTTP handler of every connection: answers plain requests itself, from their bytes
/// to the reply's bytes, without NIO's HTTP codec, and hands everything else to the codec.
///
/// A plain request is an HTTP/1.1 `GET`, `HEAD`, `DELETE` or `OPTIONS` with no body, no
/// `Expect` or `Upgrade`, and a head within ``ServerLimits/maxHeaderBytes`` that reads
/// unambiguously (``PlainRequestHead``); a plain reply is one with no fault, stream, tunnel or
/// WebSocket. That is what a replay server and a recording proxy mostly answer, and on that
/// path the codec cost more than the lookup.
///
/// A reply the responder knows at once is written at once. For one it does not, the lane asks
/// ``ServerResponder/later`` (``ConnectionHandler/askLater(_:context:)``) and waits: the
/// requests after it wait in ``pending``, and in the socket once one more has come, so that
/// answers go out in order.
///
/// At the first request that is not plain, or whose reply is not, the lane puts the codec
/// after itself (``HTTPPipeline/installCodec(on:after:limits:)``), tells the
/// ``ConnectionHandler`` the reply it already has for that request, if any, and passes every
/// byte on from then: the codec parses it from its first byte, so its limits, its errors and
/// its ordering of pipelined answers are the ones that apply. A connection never goes back.
///
/// An answer the handlers would give again to the same head (``AnswerAgain``) is kept with that
/// head's bytes in the loop's ``AnswerBook``: a request whose head is the same byte for byte,
/// on any connection of the loop, is answered with it before its head is parsed.
final class HTTPFastLane: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private enum Mode: Equatable {
        case answering
        /// The request whose head is the first `headLength` bytes of ``pending`` waits for
        /// its later answer.
        case waiting(headLength: Int)
        /// The codec reads every byte from here on.
        case passing
        /// The connection closes after the answer written (`Connection: close`).
        case closing
    }

    private let limits: ServerLimits
    /// Set while ``wait(for:head:context:)`` asks for an answer: one already there is taken up
    /// in the loop's next turn.
    private var asking = false
    private let tunnelOrigin: String?
    private let responder: ServerResponder
    private let connection: ConnectionHandler
    private var mode = Mode.answering
    /// Bytes of requests not answered yet.
    private var pending: ByteBuffer?
    /// How many of ``pending``'s bytes were searched for the end of a head without finding it:
    /// a head that arrives in pieces is searched once, not again from its start at each piece.
    private var searched = 0
    /// Whether a read was held back while the client did not take its answers.
    private var readHeld = false
    /// The client's IP address, read once (each read of it is a system call).
    private var clientAddress: String?
    /// Set when the client closed its side (a half-close): what it sent is answered, then
    /// the connection closes.
    private var inputEnded = false
    /// Set when the server stops (``drain(context:)``): nothing more is read.
    private var draining = false
    /// How many bytes of the handed-over request's line have passed with no line end, while
    /// they are counted (``watchRequestLine(_:)``).
    private var lineUnended: Int?
    /// The answers the handlers would give again (``AnswerAgain``) that this loop's lanes keep,
    /// by the bytes of the head that asked; set when the lane is added, on its loop.
    private var book: AnswerBook?

    init(limits: ServerLimits, tunnelOrigin: String?, responder: ServerResponder, connection: ConnectionHandler) {
        self.limits = limits
        self.tunnelOrigin = tunnelOrigin
        self.responder = responder
        self.connection = connection
    }

    func handlerAdded(context: ChannelHandlerContext) {
        book = responder.books.book(for: context.eventLoop)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch mode {
        case .passing:
            if lineUnended != nil { watchRequestLine(unwrapInboundIn(data)) }
            context.fireChannelRead(data)
        case .closing:
            return
        case .answering, .waiting:
            var bytes = unwrapInboundIn(data)
            if pending == nil {
                pending = bytes
            } else {
                pending?.writeBuffer(&bytes)
            }
            if mode == .answering { answer(context: context) }
        }
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if mode == .answering, context.channel.isWritable {
            answer(context: context)
            if mode == .answering { resumeReading(context: context) }
            endIfInputEnded(context: context)
        }
        context.fireChannelWritabilityChanged()
    }

    /// The client closed its side (`shutdown(SHUT_WR)`): the requests it sent are answered,
    /// in order, and then the connection closes. Once the codec reads the connection, it is
    /// told instead.
    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        guard case .inputClosed? = event as? ChannelEvent else { return context.fireUserInboundEventTriggered(event) }
        switch mode {
        case .passing:
            context.fireUserInboundEventTriggered(event)
        case .closing:
            return
        case .answering, .waiting:
            inputEnded = true
            endIfInputEnded(context: context)
        }
    }

    /// The server is stopping: nothing more is read, the whole requests already read are
    /// answered in order, and the connection closes once their answers are written. Once the
    /// codec reads the connection, the ``ConnectionHandler`` is told (``ServerStopping``): a
    /// stream or a hanging answer ends at once, and a request not read whole is not answered.
    func drain(context: ChannelHandlerContext) {
        draining = true
        switch mode {
        case .passing:
            context.fireUserInboundEventTriggered(ServerStopping())
        case .closing:
            return
        case .answering, .waiting:
            inputEnded = true
            endIfInputEnded(context: context)
        }
    }

    /// After the client closed its side: once every whole request it sent is answered, closes
    /// when the answers are written; bytes left that never became a whole request go to the
    /// codec with the half-close, which refuses them as it would on a connection of its own
    /// (when the server stops, they are not answered: the client is still sending).
    private func endIfInputEnded(context: ChannelHandlerContext) {
        // Still answering (the socket did not take everything yet) or waiting: this is called again.
        guard inputEnded, mode == .answering, context.channel.isWritable else { return }
        if !draining, let pending, pending.readableBytes > 0 { return handOver(nil, context: context) }
        mode = .closing
        context.closeOnceWritten()
    }

    /// The server stops and its grace is over: the connection closes now, whatever it was doing.
    func closeNow(context: ChannelHandlerContext) {
        mode = .closing
        context.close(promise: nil)
    }

    /// Holds reads back while the client does not take its answers, and while a request waits
    /// for its answer once another has come, so that requests wait in the socket rather than
    /// in memory; the codec's pipelining handler does it once it has the connection.
    func read(context: ChannelHandlerContext) {
        // Once closing, reads go on: a TLS connection reads the client's close_notify.
        if draining, mode != .closing {
            readHeld = true
            return
        }
        switch mode {
        case .answering where !context.channel.isWritable:
            readHeld = true
        case .waiting(let headLength) where (pending?.readableBytes ?? 0) > headLength:
            readHeld = true
        default:
            context.read()
        }
    }

    /// Reads again, when a read was held back, unless the server is stopping.
    private func resumeReading(context: ChannelHandlerContext) {
        guard readHeld, !draining else { return }
        readHeld = false
        context.read()
    }

    /// Answers the complete plain requests in ``pending``, in order, while the socket takes
    /// more; hands over at the first that is not plain.
    private func answer(context: ChannelHandlerContext) {
        var wrote = false
        defer { if wrote { context.flush() } }
        while mode == .answering, let buffer = pending, buffer.readableBytes > 0, context.channel.isWritable {
            let maxBytes = limits.maxHeaderBytes
            // A head is read when it first comes (most come whole); one that came short is read
            // again only once more bytes may end it, so a head sent in many pieces is not read
            // from its start at each.
            if searched > 0, !buffer.withUnsafeReadableBytes({ PlainRequestHead.mayEnd($0, searchingFrom: searched, maxBytes: maxBytes) }) {
                searched = buffer.readableBytes
                return
            }
            if let book, !book.isEmpty, answerAgain(buffer, from: book, context: context) {
                wrote = true
                continue
            }
            let parsed = buffer.withUnsafeReadableBytes { PlainRequestHead.parse($0, maxBytes: maxBytes) }
            searched = 0
            let head: PlainRequestHead
            switch parsed {
            case .incomplete:
                searched = buffer.readableBytes
                return
            case .notPlain:
                return handOver(nil, context: context)
            case .plain(let plain):
                head = plain
            }
            if clientAddress == nil { clientAddress = context.remoteAddress?.ipAddress }
            // A plain head's target is origin-form; inside a tunnel it is put after the tunnel's origin.
            let request = tunnelOrigin.map {
                IncomingRequest(method: head.method, tunnel: $0, originForm: head.target, headers: HTTPHeaders(head.fields), remoteAddress: clientAddress)
            } ?? IncomingRequest(method: head.method, target: head.target, headers: HTTPHeaders(head.fields), remoteAddress: clientAddress)
            let reply: ServerReply
            switch responder.atOnce(request) {
            case .reply(let given): reply = given
            case .pending(let given): return wait(for: given.hop(to: context.eventLoop).assumeIsolated(), head: head, context: context)
            case .later: return wait(for: connection.askLater(request, context: context), head: head, context: context)
            }
            guard Self.isPlain(reply) else { return handOver(reply, context: context) }
            guard send(reply, to: head, context: context) else {
                wrote = false
                return
            }
            wrote = true
        }
    }

    /// Answers the first request in `buffer` (``pending``) again, unwritten, when `book` keeps
    /// an answer for its head that still holds; false, writing nothing, otherwise.
    private func answerAgain(_ buffer: ByteBuffer, from book: AnswerBook, context: ChannelHandlerContext) -> Bool {
        let found = buffer.withUnsafeReadableBytes { bytes -> AnswerBook.Entry? in
            guard let end = PlainRequestHead.end(of: bytes, within: AnswerBook.maxHead) else { return nil }
            return book.find(UnsafeRawBufferPointer(rebasing: bytes[..<end]), tunnelOrigin: tunnelOrigin)
        }
        guard let found else { return false }
        searched = 0
        pending?.moveReaderIndex(forwardBy: found.head.count)
        if pending?.readableBytes == 0 { pending = nil }
        found.again.played()
        context.write(wrapOutboundOut(found.bytes), promise: nil)
        connection.answeredByFastLane(context: context)
        return true
    }

    /// Keeps `bytes`, the answer to the request `head` (the first in ``pending``), in the book
    /// to give again to the same head.
    private func keep(_ bytes: ByteBuffer, again: AnswerAgain, for head: PlainRequestHead) {
        guard let book, let pending, pending.readableBytes >= head.length else { return }
        pending.withUnsafeReadableBytes { book.keep(UnsafeRawBufferPointer(rebasing: $0[..<head.length]), tunnelOrigin: tunnelOrigin, bytes: bytes, again: again) }
    }

    /// Whether the lane writes `reply` itself: it has no fault, stream, tunnel or WebSocket.
    static func isPlain(_ reply: ServerReply) -> Bool {
        reply.fault == nil && reply.stream == nil && reply.tunnel == nil && reply.webSocket == nil
    }

    /// Writes `reply` (not flushed) to the request `head`, the first in ``pending``, and takes
    /// the request's bytes from it; false when the connection closes after it (then flushed).
    private func send(_ reply: ServerReply, to head: PlainRequestHead, context: ChannelHandlerContext) -> Bool {
        let keepAlive = !head.closes && !(reply.response.headers["Connection"].map { $0.caseInsensitiveEquals("close") } ?? false)
        let isHead = head.method == "HEAD"
        // A replayed answer's bytes, encoded once for every request that gets it (``WireForms``).
        let known = keepAlive && !isHead ? reply.wire : nil
        if let known, let again = reply.again { keep(known, again: again, for: head) }
        pending?.moveReaderIndex(forwardBy: head.length)
        // Once every byte is answered the lane lets go of the buffer, so the channel can
        // read into it again rather than allocate another.
        if pending?.readableBytes == 0 { pending = nil }
        let bytes = known ?? Self.encode(reply.response, isHead: isHead, keepAlive: keepAlive, allocator: context.channel.allocator)
        guard keepAlive else {
            mode = .closing
            pending = nil
            context.writeAndFlush(wrapOutboundOut(bytes)).assumeIsolated().whenComplete { _ in context.close(promise: nil) }
            return false
        }
        context.write(wrapOutboundOut(bytes), promise: nil)
        connection.answeredByFastLane(context: context)
        return true
    }

    /// Waits for `coming`, the reply to the request whose head is `head` (the first in
    /// ``pending``), and writes it when it comes, then answers the requests that came meanwhile.
    private func wait(for coming: EventLoopFuture<ServerReply>.Isolated, head: PlainRequestHead, context: ChannelHandlerContext) {
        mode = .waiting(headLength: head.length)
        connection.waitingForAnswer()
        // An answer already there when asked for (a request refused before it went out) is taken
        // up in the loop's next turn: taken up here, each of many pipelined requests would go
        // one call deeper.
        asking = true
        defer { asking = false }
        coming.whenSuccess { [self] reply in
            guard !asking else {
                return context.eventLoop.assumeIsolated().execute { self.received(reply, for: head, context: context) }
            }
            received(reply, for: head, context: context)
        }
    }

    /// Writes `reply`, the answer the request whose head is `head` waited for, then answers the
    /// requests that came meanwhile.
    private func received(_ reply: ServerReply, for head: PlainRequestHead, context: ChannelHandlerContext) {
        // The client left, or the connection closed, while the answer was on its way: a stream
        // relayed from upstream is let go of, so the upstream stops.
        guard mode == .waiting(headLength: head.length), context.channel.isActive else {
            reply.stream?.abandoned()
            return
        }
        mode = .answering
        guard Self.isPlain(reply) else { return handOver(reply, context: context) }
        guard send(reply, to: head, context: context) else { return }
        context.flush()
        resumeReading(context: context)
        answer(context: context)
        endIfInputEnded(context: context)
    }

    /// Puts the codec in place and passes it the unanswered bytes, the first request's with
    /// the reply the lane already has for it, if any.
    private func handOver(_ reply: ServerReply?, context: ChannelHandlerContext) {
        mode = .passing
        resumeReading(context: context)
        do {
            try HTTPPipeline.installCodec(on: context.pipeline.syncOperations, after: self, limits: limits)
        } catch {
            context.close(promise: nil)
            return
        }
        let problem = pending?.withUnsafeReadableBytes { HandedOverHead.problem(in: $0, maxBytes: limits.maxHeaderBytes) }
        connection.takeOver(reply, problem: problem)
        // A request line not ended yet (a long URL arriving) is counted as it passes on.
        if problem == nil, let pending, pending.readableBytesView.firstIndex(of: UInt8(ascii: "\n")) == nil {
            lineUnended = pending.readableBytes
        }
        let rest = pending
        pending = nil
        if let rest, rest.readableBytes > 0 { context.fireChannelRead(wrapInboundOut(rest)) }
        if inputEnded { context.fireUserInboundEventTriggered(ChannelEvent.inputClosed) }
    }

    /// Counts `bytes`, passed on after the handover, toward the handed-over request's line: at
    /// the limit for a whole head with no line end, the ``ConnectionHandler`` learns the URL is too long.
    private func watchRequestLine(_ bytes: ByteBuffer) {
        guard let counted = lineUnended else { return }
        if let end = bytes.readableBytesView.firstIndex(of: UInt8(ascii: "\n")) {
            lineUnended = nil
            if counted + (end - bytes.readerIndex) >= limits.maxHeaderBytes { connection.noteHandedOver(.targetTooLong) }
        } else if counted + bytes.readableBytes >= limits.maxHeaderBytes {
            lineUnended = nil
            connection.noteHandedOver(.targetTooLong)
        } else {
            lineUnended = counted + bytes.readableBytes
        }
    }

    /// The reply's bytes as the codec would write them: the status line, the headers as sent
    /// (``ConnectionHandler/forEachWireHeader(_:omitsBody:keepAlive:version:_:)``), the body.
    static func encode(_ reply: HTTPResponse, isHead: Bool, keepAlive: Bool, allocator: ByteBufferAllocator) -> ByteBuffer {
        let response = ConnectionHandler.sendable(reply)
        let omitsBody = ConnectionHandler.omitsBody(response, isHead: isHead)
        var most = headRoom + response.reason.utf8.count
        for field in response.headers { most += field.name.utf8.count + field.value.utf8.count + 4 }
        var buffer = allocator.buffer(capacity: most + (omitsBody ? 0 : response.body.count))
        // Written in place, each piece copied whole: a write of each piece to the buffer
        // (or an append to an array) cost more than the rest of the encoding.
        buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: most) { raw in
            var writer = HeadWriter(raw)
            writer.put("HTTP/1.1 ")
            writer.putDecimal(max(0, response.status))
            writer.put(" ")
            writer.put(response.reason)
            writer.put("\r\n")
            ConnectionHandler.forEachWireHeader(response, omitsBody: omitsBody, keepAlive: keepAlive, version: .http1_1) { name, value in
                writer.putField(name, value)
            }
            writer.put("\r\n")
            return writer.count
        }
        if !omitsBody { buffer.writeBytes(response.body) }
        return buffer
    }

    /// The most a head takes besides its reason phrase and its recorded fields: the rest of
    /// the status line (`HTTP/1.1 `, at most 19 digits, a space, CRLF: 31 bytes), a
    /// Content-Length and a Connection of the server's own (37 and 24 bytes at most) and the
    /// empty line (2), rounded up.
    private static let headRoom = 128
}

/// The event the fast lane passes on to the codec's side of a connection when the server stops
/// (``HTTPFastLane/drain(context:)``).
struct ServerStopping {}
