import NIOCore
import NIOHTTP1

/// Writes the request parts an ``UpstreamHandler`` sends as bytes, in NIO's request encoder's
/// place. The head's bytes are made beforehand, in one piece
/// (``UpstreamTransport/wireHead(of:origin:allocator:)``), and sent as the first body part:
/// the head part itself only tells the response decoder before this encoder which method went
/// out (a `HEAD`'s answer has no body), and writes nothing.
///
/// It frames nothing: ``UpstreamTransport/forEachField(of:origin:wantsStream:_:)`` gives every
/// request with a body its `Content-Length`, so a request's end adds no bytes, and a request is
/// never chunked, so it has no trailers to send.
final class UpstreamRequestEncoder: ChannelOutboundHandler, RemovableChannelHandler {
    typealias OutboundIn = HTTPClientRequestPart
    typealias OutboundOut = IOData

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .body(let body):
            context.write(wrapOutboundOut(body), promise: promise)
        case .head, .end:
            // Nothing to write; a promise is kept in the order of the writes before it.
            guard let promise else { return }
            context.write(wrapOutboundOut(.byteBuffer(context.channel.allocator.buffer(capacity: 0))), promise: promise)
        }
    }
}
