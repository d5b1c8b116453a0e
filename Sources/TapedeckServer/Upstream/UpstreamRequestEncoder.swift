import NIOCore
import NIOHTTP1

/// Writes the request parts an ``UpstreamHandler`` sends as bytes, in NIO's request encoder's
/// place: the head in one piece, into a buffer sized for it beforehand (NIO's writes each
/// name, separator and value on its own, forty writes for a browser's head), and a body as it
/// is.
///
/// It frames nothing: ``UpstreamTransport/head(of:origin:)`` gives every request with a body
/// its `Content-Length`, so a request's end adds no bytes, and a request is never chunked, so
/// it has no trailers to send. The response decoder after it still sees each part go out,
/// which is how it knows a `HEAD`'s answer has no body.
final class UpstreamRequestEncoder: ChannelOutboundHandler, RemovableChannelHandler {
    typealias OutboundIn = HTTPClientRequestPart
    typealias OutboundOut = IOData

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head(let head):
            context.write(wrapOutboundOut(.byteBuffer(Self.encode(head, allocator: context.channel.allocator))), promise: promise)
        case .body(let body):
            context.write(wrapOutboundOut(body), promise: promise)
        case .end:
            // Nothing to write; a promise is kept in the order of the writes before it.
            guard let promise else { return }
            context.write(wrapOutboundOut(.byteBuffer(context.channel.allocator.buffer(capacity: 0))), promise: promise)
        }
    }

    /// `head` as it goes on the wire: the request line, each field as `Name: value`, the empty line.
    static func encode(_ head: HTTPRequestHead, allocator: ByteBufferAllocator) -> ByteBuffer {
        // The request line's spaces, version (at most 19 digits each side) and line end, and the empty line.
        var most = head.method.rawValue.utf8.count + head.uri.utf8.count + 56
        for (name, value) in head.headers { most += name.utf8.count + value.utf8.count + 4 }
        var buffer = allocator.buffer(capacity: most)
        buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: most) { raw in
            var writer = HeadWriter(raw)
            writer.put(head.method.rawValue)
            writer.put(" ")
            writer.put(head.uri)
            writer.put(" HTTP/")
            writer.putDecimal(head.version.major)
            writer.put(".")
            writer.putDecimal(head.version.minor)
            writer.put("\r\n")
            for (name, value) in head.headers { writer.putField(name, value) }
            writer.put("\r\n")
            return writer.count
        }
        return buffer
    }
}
