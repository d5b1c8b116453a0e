import Foundation
import NIOCore
import NIOWebSocket
import Tapedeck

/// Plays a recorded WebSocket session to a client after the `101`: the recorded server frames
/// in order, and before a server frame that followed a client frame in the recording, the wait
/// for a client frame that matches it. A client frame that does not match ends the session with
/// a close frame (1008) whose reason says what differed; the whole report goes to the log.
/// Pings are answered with pongs and recorded pings and pongs are not replayed: their timing is
/// the network's, not the application's. With `--latency recorded` (or `xFACTOR`) each server
/// frame waits its recorded gap after the frame before it.
final class WebSocketReplayer: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = WebSocketFrame
    typealias OutboundOut = WebSocketFrame

    private let frames: [WebSocketMessage]
    private let label: String
    private let log: @Sendable (String) -> Void
    private var next = 0
    private var received = 0
    private var closing = false
    /// Whether a protocol error was already logged for this connection.
    private var failed = false
    /// How server frames are paced (``Latency/chunkOffset(_:)``): at once unless recorded or xFACTOR.
    private let latency: Latency
    /// The last frame that happened (sent or received) in this replay: when, and its recorded offset.
    private var anchor: (at: NIODeadline, offset: TimeInterval) = (.now(), 0)
    /// A server frame waiting for its time.
    private var pending: Scheduled<Void>?

    init(frames: [WebSocketMessage], label: String, latency: Latency = .none, log: @escaping @Sendable (String) -> Void) {
        self.frames = frames.filter { $0.kind != .ping && $0.kind != .pong }
        self.label = label
        self.latency = latency
        self.log = log
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        pending?.cancel()
    }

    func handlerAdded(context: ChannelHandlerContext) {
        // The HTTP handlers leave the pipeline right after this one joins it: the first frames go after that.
        let bound = NIOLoopBound((handler: self, context: context), eventLoop: context.eventLoop)
        context.eventLoop.execute {
            let (handler, context) = bound.value
            handler.advance(context: context)
        }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        guard !closing else { return }
        let kinds: [WebSocketOpcode: WebSocketMessage.Kind] = [.text: .text, .binary: .binary, .connectionClose: .close, .ping: .ping, .pong: .pong]
        guard let kind = kinds[frame.opcode] else { return }
        let payload = frame.unmaskedData.readableData
        switch kind {
        case .ping:
            send(WebSocketFrame(fin: true, opcode: .pong, data: frame.unmaskedData), context: context)
            return
        case .pong:
            return
        default:
            break
        }
        let actual = WebSocketMessage(offset: 0, sender: .client, kind: kind, data: payload)
        // What a report quotes of the client's frame is redacted, as recorded frames are.
        // Read as recording reads it (``WebSocketMessage/readable``): a binary frame holding JSON too.
        var secrets: [String] = []
        let shown = actual.mappingReadable { data, contentType in Redactor.standard.redactBody(data, contentType: contentType, collecting: &secrets) }
        received += 1
        guard next < frames.count, frames[next].sender == .client else {
            if kind == .close { return closeBack(payload, context: context) }
            return mismatch(shown, expected: nil, context: context)
        }
        let expected = frames[next]
        anchor = (.now(), expected.offset)
        // A recorded frame holds placeholders where the client's held secrets: the redacted frame matches it.
        guard expected.kind == kind, expected.data == payload || expected.data == shown.data
                || (kind == .close && expected.closeCode == actual.closeCode) else {
            if kind == .close { return closeBack(payload, context: context) }
            return mismatch(shown, expected: expected, context: context)
        }
        next += 1
        if kind == .close, !(next < frames.count && frames[next].sender == .server && frames[next].kind == .close) {
            return closeBack(payload, context: context)
        }
        advance(context: context)
    }

    /// Sends the server frames due before the next client frame, each after its recorded gap
    /// from the frame before when the latency asks for it.
    private func advance(context: ChannelHandlerContext) {
        while next < frames.count, frames[next].sender == .server, !closing, pending == nil {
            let frame = frames[next]
            let gap = latency.chunkOffset(max(0, frame.offset - anchor.offset))
            let due = anchor.at + .nanoseconds(Int64(min(gap, 86_400) * 1_000_000_000))
            if gap > 0, due > .now() {
                let bound = NIOLoopBound((handler: self, context: context), eventLoop: context.eventLoop)
                pending = context.eventLoop.scheduleTask(deadline: due) {
                    let (handler, context) = bound.value
                    handler.pending = nil
                    handler.anchor = (due, frame.offset)
                    handler.sendServerFrame(context: context)
                    handler.advance(context: context)
                }
                return
            }
            anchor = (due > .now() ? due : .now(), frame.offset)
            sendServerFrame(context: context)
        }
    }

    /// Sends the next recorded frame (a server frame); after a close, the connection ends.
    private func sendServerFrame(context: ChannelHandlerContext) {
        guard next < frames.count, !closing else { return }
        let frame = frames[next]
        next += 1
        var buffer = context.channel.allocator.buffer(capacity: frame.data.count)
        buffer.writeBytes(frame.data)
        let opcodes: [WebSocketMessage.Kind: WebSocketOpcode] = [.text: .text, .binary: .binary, .close: .connectionClose]
        guard let opcode = opcodes[frame.kind] else { return }
        if frame.kind == .close {
            closing = true
            context.writeAndFlush(wrapOutboundOut(WebSocketFrame(fin: true, opcode: opcode, data: buffer))).assumeIsolated().whenComplete { _ in
                context.close(promise: nil)
            }
            return
        }
        send(WebSocketFrame(fin: true, opcode: opcode, data: buffer), context: context)
    }

    private func send(_ frame: WebSocketFrame, context: ChannelHandlerContext) {
        context.writeAndFlush(wrapOutboundOut(frame), promise: nil)
    }

    /// The server is stopping: the client is told so with a close frame (1001, RFC 6455 §7.4.1),
    /// and the connection closes once it is written.
    func goingAway(context: ChannelHandlerContext) {
        guard !closing else { return }
        closing = true
        var buffer = context.channel.allocator.buffer(capacity: 32)
        buffer.writeBytes(WebSocketMessage.closePayload(code: 1001, reason: WebSocketMessage.goingAwayReason))
        context.writeAndFlush(wrapOutboundOut(WebSocketFrame(fin: true, opcode: .connectionClose, data: buffer))).assumeIsolated().whenComplete { _ in
            context.close(promise: nil)
        }
    }

    /// Answers a client's close with the same code, then closes.
    private func closeBack(_ payload: Data, context: ChannelHandlerContext) {
        closing = true
        var buffer = context.channel.allocator.buffer(capacity: 2)
        buffer.writeBytes(payload.prefix(2).isEmpty ? WebSocketMessage.closePayload(code: 1000, reason: "") : Data(payload.prefix(2)))
        context.writeAndFlush(wrapOutboundOut(WebSocketFrame(fin: true, opcode: .connectionClose, data: buffer))).assumeIsolated().whenComplete { _ in
            context.close(promise: nil)
        }
    }

    /// Ends the session with 1008 and what differed.
    private func mismatch(_ actual: WebSocketMessage, expected: WebSocketMessage?, context: ChannelHandlerContext) {
        let wanted = expected.map { "the recording expects \($0.summary)" } ?? "the recording has no more client frames here"
        let report = "WebSocket \(label): client frame \(received) (\(actual.summary)) does not match: \(wanted); "
            + "record the session again or send what was recorded"
        log(report)
        let reason = "Tapedeck: client frame \(received) differs: " + (expected.map { "expected \($0.summary)" } ?? "none expected")
        closing = true
        var buffer = context.channel.allocator.buffer(capacity: 125)
        buffer.writeBytes(WebSocketMessage.closePayload(code: 1008, reason: reason))
        context.writeAndFlush(wrapOutboundOut(WebSocketFrame(fin: true, opcode: .connectionClose, data: buffer))).assumeIsolated().whenComplete { _ in
            context.close(promise: nil)
        }
    }

    /// A client that closes its side of the socket ends the session; once a close is under
    /// way (its frame answered), that close ends it instead.
    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        guard case .inputClosed? = event as? ChannelEvent else { return context.fireUserInboundEventTriggered(event) }
        guard !closing else { return }
        closing = true
        context.close(promise: nil)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        // One line per connection, however many bad frames follow.
        guard !failed else { return }
        failed = true
        closing = true
        let what: String
        switch error as? NIOWebSocketError {
        case .invalidFrameLength?: what = "a frame is longer than the server's limit"
        case .multiByteControlFrameLength?, .fragmentedControlFrame?: what = "a control frame is fragmented or over 125 bytes, which RFC 6455 forbids"
        default: what = "the client sent frames that break RFC 6455 (\(error))"
        }
        log("WebSocket \(label): \(what); the connection is closed")
        context.close(promise: nil)
    }
}
