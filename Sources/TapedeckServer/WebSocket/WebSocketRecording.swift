import Foundation
import NIOCore
import Synchronization
import Tapedeck

/// A WebSocket session recorded as it is relayed: the upstream's `101` head, then each frame
/// of either direction as it passes, read from the raw bytes (the relay never changes them).
/// When either end leaves, the session becomes one interaction: the upgrade request, the `101`
/// answer, and its frames (``HTTPResponse/webSocket``).
package final class WebSocketRecording: Sendable {
    private struct State {
        var head = Data()
        var response: HTTPResponse?
        var start = ContinuousClock.now
        var frames: [WebSocketMessage] = []
        var readers: [WebSocketMessage.Sender: WebSocketFrameReader] = [.client: .init(), .server: .init()]
        var finished = false
        /// The body of an answer other than 101.
        var refusedBody = Data()
    }

    private let state = Mutex(State())
    private let request: HTTPRequest
    private let sentAt = ContinuousClock.now
    private let store: @Sendable (Interaction) -> Void
    private let log: @Sendable (String) -> Void

    /// Records the session opened by `request`; `store` receives it at the end, and `log` hears
    /// why when there is none to store.
    package init(request: HTTPRequest, log: @escaping @Sendable (String) -> Void, store: @escaping @Sendable (Interaction) -> Void) {
        self.request = request
        self.log = log
        self.store = store
    }

    /// The upgrade's URL as a log shows it: credentials in its userinfo and query redacted.
    private var shownURL: String { Redactor.standard.redact(HTTPRequest(url: request.url)).url.absoluteString }

    /// The upstream connection failed (a TLS handshake, a reset): say so once.
    func failed(_ error: any Error) {
        let first = state.withLock { state -> Bool in
            guard !state.finished, state.response == nil else { return false }
            state.finished = true
            return true
        }
        if first {
            log("the WebSocket upgrade to \(shownURL) failed before the upstream answered: \(error); "
                + "nothing was recorded (for a certificate the upstream's CA signed, add --upstream-ca FILE)")
        }
    }

    /// Bytes that passed from `sender`.
    func saw(_ bytes: ByteBuffer, from sender: WebSocketMessage.Sender) {
        state.withLock { state in
            guard !state.finished else { return }
            var input = Array(bytes.readableBytesView)
            if sender == .server, state.response == nil {
                state.head.append(contentsOf: input)
                guard let end = state.head.firstRange(of: Data("\r\n\r\n".utf8)) else { return }
                state.response = Self.head(state.head[..<end.lowerBound], url: request.url)
                state.start = .now
                input = Array(state.head[end.upperBound...])
            }
            if state.response?.status != 101 {
                // The upstream refused the upgrade: what follows its head is a body, not frames.
                if sender == .server { state.refusedBody.append(contentsOf: input.prefix(max(0, BodyLimits().maximumBodySize - state.refusedBody.count))) }
                return
            }
            let offset = ContinuousClock.now - state.start
            let seconds = Double(offset.components.seconds) + Double(offset.components.attoseconds) / 1e18
            let messages = state.readers[sender]?.feed(input) ?? []
            state.frames += messages.map { WebSocketMessage(offset: seconds, sender: sender, kind: $0.kind, data: $0.data) }
        }
    }

    /// Whether the bytes `sender` sent so far end on a frame's end (the upgrade answered 101):
    /// a frame of the relay's own may then be put between them.
    func isBetweenFrames(from sender: WebSocketMessage.Sender) -> Bool {
        state.withLock { state in state.response?.status == 101 && state.readers[sender]?.isBetweenFrames == true }
    }

    /// Either end left: store the session (once).
    func finish() {
        var tooLarge: WebSocketMessage.Sender?
        let interaction: Interaction? = state.withLock { state in
            guard !state.finished, var response = state.response else { return nil }
            state.finished = true
            if let sender = state.readers.first(where: { $0.value.isOverLimit })?.key {
                tooLarge = sender
                return nil
            }
            let elapsed = ContinuousClock.now - sentAt
            response.duration = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            if response.status == 101 {
                response.webSocket = state.frames
            } else {
                response.body = Self.decodedBody(state.refusedBody, headers: response.headers)
            }
            return Interaction(request: request, response: response, recordedAt: Date())
        }
        if let tooLarge {
            log("the WebSocket session \(shownURL) was not recorded: the \(tooLarge.rawValue) sent a frame over "
                + "the body limit of \(WebSocketFrameReader.limit >> 20) MiB, and a session without it would not replay")
        }
        if let interaction { store(interaction) }
    }

    /// A refused upgrade's body: its chunked framing undone; a body with a length as it came.
    private static func decodedBody(_ raw: Data, headers: HTTPHeaders) -> Data {
        guard headers.values(for: "Transfer-Encoding").contains(where: { $0.lowercased().containsBytes("chunked") }) else {
            return headers["Content-Length"].flatMap(Int.init).map { Data(raw.prefix($0)) } ?? raw
        }
        var body = Data(), rest = raw[...]
        while let line = rest.firstRange(of: Data("\r\n".utf8)), let size = Int(String(decoding: rest[..<line.lowerBound], as: UTF8.self)
                .split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces) } ?? "", radix: 16), size > 0 {
            let start = line.upperBound
            guard rest.count >= start - rest.startIndex + size else { break }
            body.append(rest[start..<start + size])
            rest = rest[(start + size)...].dropFirst(2)
        }
        return body
    }

    /// `HTTP/1.1 101 Switching Protocols` and its header lines.
    private static func head(_ bytes: Data, url: URL) -> HTTPResponse {
        let lines = String(decoding: bytes, as: UTF8.self).components(separatedBy: "\r\n")
        let status = lines.first?.split(separator: " ", maxSplits: 2) ?? []
        var fields: [HTTPHeader] = []
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            fields.append(HTTPHeader(name: String(line[..<colon]), value: line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)))
        }
        let headers = HTTPHeaders(fields)
        return HTTPResponse(status: status.count > 1 ? Int(status[1]) ?? 0 : 0, reason: status.count > 2 ? String(status[2]) : nil,
                            headers: headers, url: url)
    }
}

/// Reads WebSocket frames (RFC 6455 §5.2) out of one direction's bytes as they come, unmasking
/// client frames and joining fragmented messages. A frame larger than ``limit`` stops the reading
/// of that direction (the relay goes on).
struct WebSocketFrameReader: Sendable {
    /// The largest frame recorded: the body limit.
    static let limit = BodyLimits().maximumBodySize
    private var buffer: [UInt8] = []
    private var fragments: (kind: WebSocketMessage.Kind, data: Data)?
    private var gaveUp = false
    /// Whether a frame over ``limit`` came: the session can no longer be recorded faithfully.
    var isOverLimit: Bool { gaveUp }
    /// Whether no frame has begun and not ended: the bytes read so far end on a frame's end.
    var isBetweenFrames: Bool { !gaveUp && buffer.isEmpty }

    mutating func feed(_ bytes: [UInt8]) -> [(kind: WebSocketMessage.Kind, data: Data)] {
        guard !gaveUp else { return [] }
        buffer += bytes
        var messages: [(kind: WebSocketMessage.Kind, data: Data)] = []
        while let (fin, opcode, payload, used) = frame() {
            buffer.removeFirst(used)
            let kinds: [UInt8: WebSocketMessage.Kind] = [1: .text, 2: .binary, 8: .close, 9: .ping, 10: .pong]
            if opcode == 0 {
                guard var partial = fragments else { continue }
                partial.data.append(payload)
                if fin { messages.append(partial); fragments = nil } else { fragments = partial }
            } else if let kind = kinds[opcode] {
                if fin || opcode >= 8 { messages.append((kind, payload)) } else { fragments = (kind, payload) }
            }
        }
        return messages
    }

    /// The first whole frame in the buffer: (FIN, opcode, unmasked payload, bytes used).
    private mutating func frame() -> (Bool, UInt8, Data, Int)? {
        guard buffer.count >= 2 else { return nil }
        let fin = buffer[0] & 0x80 != 0, opcode = buffer[0] & 0x0F, masked = buffer[1] & 0x80 != 0
        var length = Int(buffer[1] & 0x7F), at = 2
        if length == 126 {
            guard buffer.count >= 4 else { return nil }
            length = Int(buffer[2]) << 8 | Int(buffer[3]); at = 4
        } else if length == 127 {
            guard buffer.count >= 10 else { return nil }
            length = buffer[2..<10].reduce(0) { $0 << 8 | Int($1) }; at = 10
        }
        guard length >= 0, length <= Self.limit else {
            gaveUp = true
            buffer = []
            return nil
        }
        let mask = masked ? Array(buffer[at..<min(at + 4, buffer.count)]) : []
        if masked { at += 4 }
        guard buffer.count >= at + length else { return nil }
        var payload = Array(buffer[at..<at + length])
        if masked { for index in payload.indices { payload[index] ^= mask[index % 4] } }
        return (fin, opcode, Data(payload), at + length)
    }
}

/// Passes bytes on unchanged and shows them to a ``WebSocketRecording``; tells it when the connection ends.
final class WebSocketTap: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    private let recording: WebSocketRecording
    private let sender: WebSocketMessage.Sender

    init(_ recording: WebSocketRecording, from sender: WebSocketMessage.Sender) {
        self.recording = recording
        self.sender = sender
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        recording.saw(unwrapInboundIn(data), from: sender)
        context.fireChannelRead(data)
    }

    func channelInactive(context: ChannelHandlerContext) {
        recording.finish()
        context.fireChannelInactive()
    }

    /// The server is stopping: the client (this tap's connection, when it reads the client) is
    /// told so with a close frame (1001), unless the upstream's frame it is receiving is not
    /// whole yet, and the connection closes. The frame is not recorded: the upstream never sent it.
    func goingAway(context: ChannelHandlerContext) {
        guard sender == .client, recording.isBetweenFrames(from: .server) else { return context.close(promise: nil) }
        let payload = WebSocketMessage.closePayload(code: 1001, reason: WebSocketMessage.goingAwayReason)
        var buffer = context.channel.allocator.buffer(capacity: payload.count + 2)
        buffer.writeBytes([0x88, UInt8(payload.count)] + payload)
        context.writeAndFlush(NIOAny(buffer)).assumeIsolated().whenComplete { _ in context.close(promise: nil) }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        recording.failed(error)
        context.close(promise: nil)
    }
}
