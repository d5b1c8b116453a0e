import NIOCore

extension ChannelHandlerContext {
    /// Closes the channel once everything written before, from here or from handlers nearer
    /// the tail, is on its way: an empty write from this place in the pipeline completes after
    /// them. A plain `close` fails writes still pending, and once the client has closed its
    /// side NIO turns `close(mode: .output)` into a full close, which drops them too.
    ///
    /// Called where the next outbound handler takes bytes (the fast lane, a tunnel's relay).
    func closeOnceWritten() {
        writeAndFlush(NIOAny(channel.allocator.buffer(capacity: 0))).assumeIsolated().whenComplete { [self] _ in
            close(promise: nil)
        }
    }
}
