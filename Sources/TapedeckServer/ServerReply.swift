import Foundation
import NIOCore
import Tapedeck

/// The answer the front-end writes back: a response, and what the socket should do to it.
package struct ServerReply: Sendable, Hashable {
    /// The response, written byte-faithfully: status, reason, headers in order, body.
    package var response: HTTPResponse
    /// A socket-level fault to apply, if any.
    package var fault: SocketFault?
    /// A body written as it comes, chunk by chunk, each flushed, after `response`'s head (its
    /// body is not written); the connection closes when the stream ends or the client leaves.
    package var stream: StreamBody?
    /// For a `CONNECT`: answer 200 and turn the connection into this tunnel (`response` is not written).
    package var tunnel: Tunnel?
    /// For a WebSocket upgrade: replay a recorded session, or relay and record one (`response`
    /// is the `101` to answer with, for a replay).
    package var webSocket: WebSocketPlan?
    /// `response`'s bytes as written to an HTTP/1.1 request other than `HEAD` on a connection
    /// that stays open, when they were known beforehand (``WireForms``): written as they are.
    var wire: ByteBuffer?
    /// Set when the handlers would give this answer again, unchanged, to the same request
    /// (``AnswerAgain``): the lane then answers its head's bytes without asking them.
    var again: AnswerAgain?

    /// Creates a reply.
    package init(response: HTTPResponse, fault: SocketFault? = nil, stream: StreamBody? = nil, tunnel: Tunnel? = nil,
                 webSocket: WebSocketPlan? = nil) {
        self.response = response
        self.fault = fault
        self.stream = stream
        self.tunnel = tunnel
        self.webSocket = webSocket
    }

    /// Whether two replies say the same: ``wire`` and ``again`` are left out, as they are only
    /// their response's bytes known beforehand and how to give them again.
    package static func == (lhs: ServerReply, rhs: ServerReply) -> Bool {
        lhs.response == rhs.response && lhs.fault == rhs.fault && lhs.stream == rhs.stream && lhs.tunnel == rhs.tunnel
            && lhs.webSocket == rhs.webSocket
    }

    /// Hashes what ``==(_:_:)`` compares.
    package func hash(into hasher: inout Hasher) {
        hasher.combine(response)
        hasher.combine(fault)
        hasher.combine(stream)
        hasher.combine(tunnel)
        hasher.combine(webSocket)
    }

    /// A plain-text reply, for control answers and errors.
    package static func text(_ status: Int, _ text: String, headers: HTTPHeaders = [:]) -> ServerReply {
        let all = HTTPHeaders([HTTPHeader(name: "Content-Type", value: "text/plain; charset=utf-8")] + headers.fields)
        return ServerReply(response: HTTPResponse(status: status, headers: all, body: Data(text.utf8)))
    }

    /// A JSON reply.
    package static func json(_ status: Int, _ data: Data) -> ServerReply {
        ServerReply(response: HTTPResponse(status: status, headers: ["Content-Type": "application/json"], body: data))
    }
}

/// A reply body that arrives over time (server-sent events): the chunks, in order.
package final class StreamBody: Sendable, Hashable {
    /// The chunks; the body ends when the stream does.
    package let chunks: AsyncStream<Data>
    /// Asked when the chunks end: false when the stream broke off (an upstream failed, a limit
    /// was hit), so the client sees the connection cut rather than a body that looks complete.
    package let isComplete: @Sendable () -> Bool
    /// Told how many bytes of a chunk reached the socket, for a producer that waits for room.
    package let written: @Sendable (Int) -> Void
    /// Told that the client left before the stream ended, so the producer stops.
    package let abandoned: @Sendable () -> Void

    /// Creates a streamed body.
    package init(_ chunks: AsyncStream<Data>, isComplete: @escaping @Sendable () -> Bool = { true },
                 written: @escaping @Sendable (Int) -> Void = { _ in }, abandoned: @escaping @Sendable () -> Void = {}) {
        self.chunks = chunks
        self.isComplete = isComplete
        self.written = written
        self.abandoned = abandoned
    }

    /// Recorded chunks given back in order, each at the time `latency` gives it after the head
    /// (``Latency/chunkOffset(_:)``: at once unless the latency is `recorded` or `xFACTOR`).
    package static func replaying(_ chunks: [BodyChunk], latency: Latency) -> StreamBody {
        let (stream, continuation) = AsyncStream<Data>.makeStream(bufferingPolicy: .unbounded)
        let task = Task {
            let start = ContinuousClock.now
            for chunk in chunks {
                let due = start + .nanoseconds(Int64(min(latency.chunkOffset(chunk.offset), 86_400) * 1_000_000_000))
                if due > .now {
                    do { try await Task.sleep(until: due, clock: .continuous) } catch { break }
                }
                continuation.yield(chunk.data)
            }
            continuation.finish()
        }
        continuation.onTermination = { _ in task.cancel() }
        return StreamBody(stream)
    }

    package static func == (lhs: StreamBody, rhs: StreamBody) -> Bool { lhs === rhs }
    package func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}
