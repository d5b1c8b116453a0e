import Foundation
import Tapedeck

/// Where ``CurlTransport/send(_:streamingTo:)`` puts a response body as it arrives, so a body of
/// any size passes through in bounded memory (the one-shot CLI writes it to standard output or
/// a `--download` file).
///
/// ```swift
/// let sink = CurlBodySink(accept: { head in head.status == 200 }, write: { chunk in try handle.write(contentsOf: chunk) })
/// let head = try await transport.send(request, streamingTo: sink)   // head.body is empty
/// ```
package struct CurlBodySink: Sendable {
    /// Called once a response's status line and headers are in (for each redirect hop that is not
    /// followed further): return true to stream its body to ``write``, false to keep it in the
    /// response as usual (bounded by ``CurlTransport/Options/limits``).
    package var accept: @Sendable (HTTPResponse) -> Bool
    /// Receives the body in chunks, in order; a thrown error stops the transfer and is rethrown.
    package var write: @Sendable (Data) throws -> Void

    /// Creates a sink.
    package init(accept: @escaping @Sendable (HTTPResponse) -> Bool, write: @escaping @Sendable (Data) throws -> Void) {
        self.accept = accept
        self.write = write
    }
}
