import Foundation

/// One WebSocket frame of a recorded session: who sent it, what kind it is, its payload, and
/// when, counted from the `101 Switching Protocols` answer. A response that upgraded to a
/// WebSocket carries the session's frames in order (``HTTPResponse/webSocket``).
///
/// ```swift
/// let session = [WebSocketMessage(offset: 0.01, sender: .client, kind: .text, data: Data("hi".utf8)),
///                WebSocketMessage(offset: 0.02, sender: .server, kind: .text, data: Data("echo: hi".utf8))]
/// ```
public struct WebSocketMessage: Hashable, Sendable, Codable {
    /// Which end sent a frame.
    public enum Sender: String, Hashable, Sendable, Codable {
        /// The client that opened the WebSocket.
        case client
        /// The server that accepted it.
        case server
    }

    /// A frame's type.
    public enum Kind: String, Hashable, Sendable, Codable, CaseIterable {
        /// UTF-8 text.
        case text
        /// Bytes.
        case binary
        /// The closing handshake; the payload is a two-byte status code and a UTF-8 reason.
        case close
        /// A ping (its payload is echoed by the pong).
        case ping
        /// A pong.
        case pong
    }

    /// Seconds after the upgrade answer.
    public var offset: TimeInterval
    /// Who sent it.
    public var sender: Sender
    /// Its type.
    public var kind: Kind
    /// Its payload, unmasked (a message sent in fragments is joined into one).
    public var data: Data

    /// Creates a message.
    public init(offset: TimeInterval, sender: Sender, kind: Kind, data: Data) {
        self.offset = offset
        self.sender = sender
        self.kind = kind
        self.data = data
    }

    /// A close frame's status code (1000 when it has none), for `.close`.
    public var closeCode: Int {
        data.count >= 2 ? Int(data[data.startIndex]) << 8 | Int(data[data.startIndex + 1]) : 1000
    }

    /// The reason a server's close frame gives when it stops (code 1001, going away).
    package static let goingAwayReason = "the server is stopping"

    /// Whether `code` is one a close frame may carry (RFC 6455 §7.4.1): 1000 to 4999 but 1004,
    /// 1005, 1006 and 1015, which are reserved and never sent.
    package static func isSentCloseCode(_ code: Int) -> Bool {
        (1000...4999).contains(code) && ![1004, 1005, 1006, 1015].contains(code)
    }

    /// A close frame's reason, for `.close`.
    public var closeReason: String { data.count > 2 ? String(decoding: data.dropFirst(2), as: UTF8.self) : "" }

    /// A close frame's payload: `code` in two bytes, then `reason` cut to the 123 bytes a close frame allows.
    public static func closePayload(code: Int, reason: String) -> Data {
        var data = Data([UInt8((code >> 8) & 0xFF), UInt8(code & 0xFF)])
        var bytes = Array(reason.utf8.prefix(123))
        while !bytes.isEmpty, String(validating: bytes, as: UTF8.self) == nil { bytes.removeLast() }
        data.append(contentsOf: bytes)
        return data
    }

    /// What of the frame redaction and the lint read, and as what: a text frame, or a binary
    /// frame that holds a JSON document, as JSON; any other binary frame as bytes; a close
    /// frame's reason as text (as JSON when it is). Nil for a ping, a pong and a close frame
    /// with no reason.
    package var readable: (data: Data, contentType: String?)? {
        switch kind {
        case .text: return (data, "application/json")
        case .binary: return (data, Self.holdsJSON(data) ? "application/json" : nil)
        case .close:
            guard data.count > 2 else { return nil }
            let reason = Data(data.dropFirst(2))
            return (reason, Self.holdsJSON(reason) ? "application/json" : "text/plain")
        case .ping, .pong: return nil
        }
    }

    /// The frame with ``readable`` passed through `transform`; a close frame keeps its code.
    package func mappingReadable(_ transform: (_ data: Data, _ contentType: String?) -> Data) -> WebSocketMessage {
        guard let readable else { return self }
        var copy = self
        let mapped = transform(readable.data, readable.contentType)
        copy.data = kind == .close ? Data(data.prefix(2)) + mapped : mapped
        return copy
    }

    /// Whether `data` is UTF-8 text that opens a JSON object or array.
    private static func holdsJSON(_ data: Data) -> Bool {
        guard let first = data.first(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }),
              first == UInt8(ascii: "{") || first == UInt8(ascii: "[") else { return false }
        return String(validating: data, as: UTF8.self) != nil
    }

    /// `client text "hi"`: for mismatch reports and logs.
    public var summary: String {
        switch kind {
        case .text: return "\(sender.rawValue) text \("\"" + Excerpt.of(String(decoding: data, as: UTF8.self), limit: 80) + "\"")"
        case .close: return "\(sender.rawValue) close \(closeCode)" + (closeReason.isEmpty ? "" : " \"" + Excerpt.of(closeReason, limit: 80) + "\"")
        default: return "\(sender.rawValue) \(kind.rawValue) (\(data.count) bytes)"
        }
    }
}
