import Foundation

/// Watches a streamed response as a live transport receives it, for front-ends that pass a
/// stream on as it arrives (the proxy relays each chunk to its client, the REPL prints each
/// event). A transport that streams reads ``current`` when a request starts; every layer above
/// it (recording, redirects, conditions) is unchanged and still gets the whole response, its
/// body as ``BodyChunk``s, when the stream ends.
///
/// ```swift
/// let observer = ResponseObserver(head: { head in head.isStream }, chunk: { chunk in print(chunk.data.count); return true })
/// let response = try await ResponseObserver.$current.withValue(observer) { try await transport.send(request) }
/// ```
package final class ResponseObserver: Sendable {
    /// Called once with the final head (status and headers, no body) of a response whose body
    /// is a stream (``HTTPResponse/isStream``); return false to receive it whole instead.
    package let head: @Sendable (HTTPResponse) -> Bool
    /// Called with each chunk as it arrives; return false to stop the transfer there (the
    /// reader left): the response then ends with the chunks received so far, as a success.
    package let chunk: @Sendable (BodyChunk) -> Bool
    /// Asked while a stream is quiet (every few tens of milliseconds): true ends it as a `false` from
    /// ``chunk`` would, so a stream that sends nothing can still be stopped.
    package let stop: @Sendable () -> Bool

    /// Creates an observer.
    package init(head: @escaping @Sendable (HTTPResponse) -> Bool, chunk: @escaping @Sendable (BodyChunk) -> Bool,
                 stop: @escaping @Sendable () -> Bool = { false }) {
        self.head = head
        self.chunk = chunk
        self.stop = stop
    }

    /// The observer for requests sent from the current task.
    @TaskLocal package static var current: ResponseObserver?
}
