import Foundation
import Tapedeck

/// The answer the front-end writes back: a response, and what the socket should do to it.
package struct ServerReply: Sendable, Hashable {
    /// The response, written byte-faithfully: status, reason, headers in order, body.
    package var response: HTTPResponse
    /// A socket-level fault to apply, if any.
    package var fault: SocketFault?

    /// Creates a reply.
    package init(response: HTTPResponse, fault: SocketFault? = nil) {
        self.response = response
        self.fault = fault
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
