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
    /// Answers this client had that the handlers would give again (``AnswerAgain``), with the
    /// bytes of the head that asked: a request whose head is one of these byte for byte is
    /// answered without reading it. The newest ``maxRepeats``, of heads up to ``maxRepeatHead``.
    private var repeats: [Repeat] = []

    private struct Repeat {
        let head: [UInt8]
        let bytes: ByteBuffer
        let again: AnswerAgain
    }

    /// How many answers a connection keeps to give again.
    static let maxRepeats = 8
    /// The longest head whose answer is kept to give again.
    static let maxRepeatHead = 4096

    init(limits: ServerLimits, tunnelOrigin: String?, responder: ServerResponder, connection: ConnectionHandler) {
        self.limits = limits
        self.tunnelOrigin = tunnelOrigin
        self.responder = responder
        self.connection = connection
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch mode {
        case .passing:
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
            if readHeld, mode == .answering {
                readHeld = false
                context.read()
            }
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

    /// After the client closed its side: once every whole request it sent is answered, closes
    /// when the answers are written; bytes left that never became a whole request go to the
    /// codec with the half-close, which refuses them as it would on a connection of its own.
    private func endIfInputEnded(context: ChannelHandlerContext) {
        // Still answering (the socket did not take everything yet) or waiting: this is called again.
        guard inputEnded, mode == .answering, context.channel.isWritable else { return }
        if let pending, pending.readableBytes > 0 { return handOver(nil, context: context) }
        mode = .closing
        context.closeOnceWritten()
    }

    /// Holds reads back while the client does not take its answers, and while a request waits
    /// for its answer once another has come, so that requests wait in the socket rather than
    /// in memory; the codec's pipelining handler does it once it has the connection.
    func read(context: ChannelHandlerContext) {
        switch mode {
        case .answering where !context.channel.isWritable:
            readHeld = true
        case .waiting(let headLength) where (pending?.readableBytes ?? 0) > headLength:
            readHeld = true
        default:
            context.read()
        }
    }

    /// Answers the complete plain requests in ``pending``, in order, while the socket takes
    /// more; hands over at the first that is not plain.
    private func answer(context: ChannelHandlerContext) {
        var wrote = false
        defer { if wrote { context.flush() } }
        while mode == .answering, let buffer = pending, buffer.readableBytes > 0, context.channel.isWritable {
            if !repeats.isEmpty, answerAgain(buffer, context: context) {
                wrote = true
                continue
            }
            let maxBytes = limits.maxHeaderBytes
            // A head is read when it first comes (most come whole); one that came short is read
            // again only once more bytes may end it, so a head sent in many pieces is not read
            // from its start at each.
            if searched > 0, !buffer.withUnsafeReadableBytes({ PlainRequestHead.mayEnd($0, searchingFrom: searched, maxBytes: maxBytes) }) {
                searched = buffer.readableBytes
                return
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
            guard let reply = responder.atOnce(request) else { return wait(for: request, head: head, context: context) }
            guard Self.isPlain(reply) else { return handOver(reply, context: context) }
            guard send(reply, to: head, context: context) else {
                wrote = false
                return
            }
            wrote = true
        }
    }

    /// Answers the first request in `buffer` (``pending``) again, unwritten, when its head is
    /// one of ``repeats`` and that answer still holds; false, writing nothing, otherwise.
    private func answerAgain(_ buffer: ByteBuffer, context: ChannelHandlerContext) -> Bool {
        let found = buffer.withUnsafeReadableBytes { bytes in
            repeats.firstIndex { Self.begins(bytes, with: $0.head) }
        }
        guard let found else { return false }
        let known = repeats[found]
        guard known.again.holds else {
            // The tapes changed: none of this connection's answers holds.
            repeats.removeAll()
            return false
        }
        searched = 0
        pending?.moveReaderIndex(forwardBy: known.head.count)
        if pending?.readableBytes == 0 { pending = nil }
        known.again.played()
        context.write(wrapOutboundOut(known.bytes), promise: nil)
        connection.answeredByFastLane(context: context)
        return true
    }

    /// Whether `bytes` begin with `head`'s bytes.
    static func begins(_ bytes: UnsafeRawBufferPointer, with head: [UInt8]) -> Bool {
        guard head.count <= bytes.count else { return false }
        return head.withUnsafeBytes { head in
            guard let start = head.baseAddress, let other = bytes.baseAddress else { return head.isEmpty }
            return memcmp(start, other, head.count) == 0
        }
    }

    /// Keeps `bytes`, the answer to the request `head` (the first in ``pending``), to give
    /// again to the same head (``repeats``).
    private func keep(_ bytes: ByteBuffer, again: AnswerAgain, for head: PlainRequestHead) {
        guard head.length <= Self.maxRepeatHead, let pending, pending.readableBytes >= head.length else { return }
        if repeats.count == Self.maxRepeats { repeats.removeFirst() }
        repeats.append(Repeat(head: Array(pending.readableBytesView.prefix(head.length)), bytes: bytes, again: again))
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

    /// Asks the responder's later answer to `request` (whose head is `head`, the first in
    /// ``pending``) and writes it when it comes, then answers the requests that came meanwhile.
    private func wait(for request: IncomingRequest, head: PlainRequestHead, context: ChannelHandlerContext) {
        mode = .waiting(headLength: head.length)
        connection.waitingForAnswer()
        connection.askLater(request, context: context).whenSuccess { [self] reply in
            // The client left, or the connection closed, while the answer was on its way.
            guard mode == .waiting(headLength: head.length), context.channel.isActive else { return }
            mode = .answering
            guard Self.isPlain(reply) else { return handOver(reply, context: context) }
            guard send(reply, to: head, context: context) else { return }
            context.flush()
            if readHeld {
                readHeld = false
                context.read()
            }
            answer(context: context)
            endIfInputEnded(context: context)
        }
    }

    /// Puts the codec in place and passes it the unanswered bytes, the first request's with
    /// the reply the lane already has for it, if any.
    private func handOver(_ reply: ServerReply?, context: ChannelHandlerContext) {
        mode = .passing
        if readHeld {
            readHeld = false
            context.read()
        }
        do {
            try HTTPPipeline.installCodec(on: context.pipeline.syncOperations, after: self, limits: limits)
        } catch {
            context.close(promise: nil)
            return
        }
        connection.takeOver(reply)
        let rest = pending
        pending = nil
        if let rest, rest.readableBytes > 0 { context.fireChannelRead(wrapInboundOut(rest)) }
        if inputEnded { context.fireUserInboundEventTriggered(ChannelEvent.inputClosed) }
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

/// The head of a plain request (``HTTPFastLane``), read from its bytes.
///
/// It reads only what has one reading: the request line `METHOD SP TARGET SP HTTP/1.1 CRLF`
/// with a method of ``methods`` and an origin-form target of URI characters (no fragment);
/// at most ``maxFields`` header lines `NAME: VALUE CRLF` with a token name and a value of
/// visible ASCII, spaces and tabs, none after it; an empty line. Anything else (a body's
/// framing, `Expect`, `Upgrade`, `Proxy-Connection`, a `Connection` other than `close` or
/// `keep-alive`, an absolute-form target, a bare LF, a folded line, a byte past ASCII, another
/// version) is ``Parsed/notPlain``, for the codec to read and, where it is wrong, to refuse.
package struct PlainRequestHead: Equatable {
    /// The method, as sent.
    package var method: String
    /// The request target, as sent.
    package var target: String
    /// The header fields in order, values without the spaces before them.
    package var fields: [HTTPHeader]
    /// Whether the client asked to close after the answer (`Connection: close`).
    package var closes: Bool
    /// The head's length in bytes, its last CRLF included.
    package var length: Int

    /// What reading a head found.
    package enum Parsed: Equatable {
        /// A plain head, whole.
        case plain(PlainRequestHead)
        /// The bytes so far begin a plain head; more are needed.
        case incomplete
        /// Not a plain head: the codec reads it.
        case notPlain
    }

    /// The most fields a plain head has; more are the codec's to count against its limits.
    static let maxFields = 256

    /// Whether bytes past `searched` (those before were searched) may let a head be read to
    /// a verdict: an empty line after a CRLF (the head's end), a LF with no CR before it (a line
    /// end to the codec, so not plain), or as many bytes as a head may have.
    package static func mayEnd(_ bytes: UnsafeRawBufferPointer, searchingFrom searched: Int, maxBytes: Int) -> Bool {
        if bytes.count >= maxBytes { return true }
        var index = max(0, searched - 3)
        while index < bytes.count {
            if bytes[index] == 0x0A {
                if index == 0 || bytes[index - 1] != 0x0D { return true }
                if index >= 3, bytes[index - 3] == 0x0D, bytes[index - 2] == 0x0A { return true }
            }
            index += 1
        }
        return false
    }

    /// The methods a plain request has: none of them carries a body here.
    package static let methods = ["GET", "HEAD", "DELETE", "OPTIONS"]

    /// Reads the head at the start of `bytes`, at most `maxBytes` long.
    package static func parse(_ bytes: UnsafeRawBufferPointer, maxBytes: Int) -> Parsed {
        var reader = Reader(bytes: bytes, maxBytes: maxBytes)
        guard let methodRange = reader.token(endingWith: UInt8(ascii: " ")) else { return reader.verdict }
        let method = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[methodRange]), as: UTF8.self)
        guard methods.contains(method) else { return .notPlain }
        guard let targetRange = reader.run(while: isTargetByte), reader.expect(UInt8(ascii: " ")) else { return reader.verdict }
        let target = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[targetRange]), as: UTF8.self)
        // Origin-form only: an absolute-form target (a forward proxy's) is read by the codec,
        // whose parser refuses what no URL holds in its authority.
        guard target.utf8.first == UInt8(ascii: "/") else { return .notPlain }
        guard reader.expect("HTTP/1.1\r\n") else { return reader.verdict }
        var fields: [HTTPHeader] = []
        var closes = false
        while true {
            guard let first = reader.peek() else { return reader.verdict }
            if first == UInt8(ascii: "\r") {
                guard reader.expect("\r\n") else { return reader.verdict }
                return .plain(PlainRequestHead(method: method, target: target, fields: fields, closes: closes, length: reader.offset))
            }
            guard let nameRange = reader.token(endingWith: UInt8(ascii: ":")) else { return reader.verdict }
            _ = reader.run(while: { $0 == 0x20 || $0 == 0x09 }, allowEmpty: true)
            guard let valueRange = reader.run(while: { ($0 >= 0x20 && $0 < 0x7F) || $0 == 0x09 }, allowEmpty: true),
                  reader.expect("\r\n") else { return reader.verdict }
            // Spaces after a value: whether they belong to it is the codec's to say.
            if let last = valueRange.last, bytes[last] == 0x20 || bytes[last] == 0x09 { return .notPlain }
            guard fields.count < maxFields else { return .notPlain }
            let name = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[nameRange]), as: UTF8.self)
            let value = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[valueRange]), as: UTF8.self)
            // Most names have none of the lengths below: one comparison, not six.
            switch nameRange.count {
            case 6, 7, 14, 17:
                if name.caseInsensitiveEquals("Content-Length") || name.caseInsensitiveEquals("Transfer-Encoding")
                    || name.caseInsensitiveEquals("Expect") || name.caseInsensitiveEquals("Upgrade") {
                    return .notPlain
                }
            case 16:
                // The parser takes `Proxy-Connection` for `Connection`: the codec reads those.
                if name.caseInsensitiveEquals("Proxy-Connection") { return .notPlain }
            case 10:
                if name.caseInsensitiveEquals("Connection") {
                    if value.caseInsensitiveEquals("close") {
                        closes = true
                    } else if !value.caseInsensitiveEquals("keep-alive") {
                        return .notPlain
                    }
                }
            default:
                break
            }
            fields.append(HTTPHeader(name: name, value: value))
        }
    }

    /// A byte a target may hold: RFC 3986's unreserved and reserved characters but `#` (a
    /// fragment is no part of a request), and `%`.
    private static func isTargetByte(_ byte: UInt8) -> Bool { byteKinds[Int(byte)] & targetKind != 0 }

    /// A token character (``HTTPMethod/isTokenByte(_:)``).
    private static func isTokenByte(_ byte: UInt8) -> Bool { byteKinds[Int(byte)] & tokenKind != 0 }

    private static let targetKind: UInt8 = 1, tokenKind: UInt8 = 2

    /// For each byte, whether a target (``targetKind``) and a token (``tokenKind``) may hold it:
    /// one load a byte.
    private static let byteKinds: [UInt8] = (0..<256).map { value in
        let byte = UInt8(value)
        var kinds: UInt8 = 0
        if PercentEncoding.isUnreserved(byte) || PercentEncoding.isSubDelimiter(byte) || ":/?[]@%".utf8.contains(byte) { kinds |= targetKind }
        if HTTPMethod.isTokenByte(byte) { kinds |= tokenKind }
        return kinds
    }

    /// Reads forward through the bytes, no further than the limit.
    private struct Reader {
        let bytes: UnsafeRawBufferPointer
        let limit: Int
        var offset = 0
        /// Set when a byte was read that no plain head has at its place.
        private var refused = false
        /// Whether the limit is the longest head allowed, not the end of the bytes so far.
        private let capped: Bool

        init(bytes: UnsafeRawBufferPointer, maxBytes: Int) {
            self.bytes = bytes
            self.limit = min(bytes.count, maxBytes)
            self.capped = bytes.count >= maxBytes
        }

        /// Why reading stopped short: a refused byte or a head over the limit are not plain;
        /// otherwise the bytes ran out and more may come.
        var verdict: Parsed { refused || capped ? .notPlain : .incomplete }

        func peek() -> UInt8? { offset < limit ? bytes[offset] : nil }

        /// A run of one or more token bytes, then `end` (read past).
        mutating func token(endingWith end: UInt8) -> Range<Int>? {
            guard let range = run(while: PlainRequestHead.isTokenByte) else { return nil }
            guard expect(end) else { return nil }
            return range
        }

        /// The bytes from here while `accepts` holds; nil when that is none (unless
        /// `allowEmpty`), or when the bytes end before a byte that stops it.
        mutating func run(while accepts: (UInt8) -> Bool, allowEmpty: Bool = false) -> Range<Int>? {
            let start = offset
            while offset < limit, accepts(bytes[offset]) { offset += 1 }
            guard offset < limit else { return nil }
            guard allowEmpty || offset > start else {
                refused = true
                return nil
            }
            return start..<offset
        }

        /// Reads `byte`, or says why not.
        mutating func expect(_ byte: UInt8) -> Bool {
            guard offset < limit else { return false }
            guard bytes[offset] == byte else {
                refused = true
                return false
            }
            offset += 1
            return true
        }

        /// Reads `text`'s bytes, or says why not.
        mutating func expect(_ text: StaticString) -> Bool {
            let expected = UnsafeRawBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount)
            for byte in expected {
                guard expect(byte) else { return false }
            }
            return true
        }
    }
}
