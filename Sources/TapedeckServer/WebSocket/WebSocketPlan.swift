import Crypto
import Foundation
import NIOSSL
import Tapedeck

/// What a connection does with a WebSocket upgrade (``ServerReply/webSocket``).
package enum WebSocketPlan: Sendable {
    /// Answer `101` and play the recorded session (``WebSocketReplayer``).
    case replay(frames: [WebSocketMessage], label: String, latency: Latency, log: @Sendable (String) -> Void)
    /// Relay the upgrade to `host:port` byte for byte, recording both directions
    /// (``WebSocketRecording``); `finish` stores the session when either end leaves.
    /// `tls` is the client context for a `wss://` upstream (nil: plain `ws://`).
    case record(host: String, port: Int, tls: NIOSSLContext?, request: Data, recording: WebSocketRecording)

    /// The `Sec-WebSocket-Accept` value for a client's `Sec-WebSocket-Key` (RFC 6455 §4.2.2).
    static func accept(forKey key: String) -> String {
        Data(Insecure.SHA1.hash(data: Data((key.trimmingCharacters(in: .whitespaces) + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11").utf8)))
            .base64EncodedString()
    }

    /// The TLS client context for a `wss://` upstream: the system's roots plus `https`'s extra
    /// CAs, verification on unless `--insecure-upstream`.
    static func upstreamTLS(_ https: HTTPSOptions?) throws -> NIOSSLContext {
        var configuration = TLSConfiguration.makeClientConfiguration()
        if https?.verifiesUpstream == false {
            configuration.certificateVerification = .none
        } else if let pem = https?.upstreamRoots {
            configuration.additionalTrustRoots = [.certificates(try NIOSSLCertificate.fromPEMBytes(Array(pem)))]
        }
        return try NIOSSLContext(configuration: configuration)
    }

    /// Whether a request asks to upgrade to a WebSocket.
    static func isUpgrade(_ headers: HTTPHeaders) -> Bool {
        headers.values(for: "Upgrade").contains { $0.lowercased().containsBytes("websocket") }
    }

    /// The subprotocols a client offers (`Sec-WebSocket-Protocol: chat.v2, chat.v1`), in order.
    static func offeredSubprotocols(_ headers: HTTPHeaders) -> [String] {
        headers.values(for: "Sec-WebSocket-Protocol").flatMap { $0.split(separator: ",") }.map { $0.trimmingHTTPSpace() }.filter { !$0.isEmpty }
    }

    /// The refusal for replaying a session whose answer chose `recorded`'s subprotocol to a
    /// client that offers others (RFC 6455 §4.1: the answer names one the client offered, else
    /// the client fails the connection); nil when it may be replayed. A client that offers
    /// none is answered without one.
    static func subprotocolRefusal(recorded: HTTPHeaders, offered headers: HTTPHeaders, summary: String) -> ServerReply? {
        let offered = offeredSubprotocols(headers)
        guard let chosen = recorded["Sec-WebSocket-Protocol"]?.trimmingHTTPSpace(), !offered.isEmpty, !offered.contains(chosen) else { return nil }
        let shown = offered.map { "'\(Excerpt.visible($0))'" }.joined(separator: ", ")
        return ServerReply.text(400, "\(summary): the recorded session spoke subprotocol '\(Excerpt.visible(chosen))', which this client does not offer "
            + "(it offers \(shown)); offer '\(Excerpt.visible(chosen))', or record the session again with this client\n",
            headers: [ServerMarker.errorHeader: "400"])
    }

    /// The request as bytes on the wire (HTTP/1.1), for relaying the upgrade upstream.
    static func wire(_ request: HTTPRequest) -> Data {
        let target = request.url.path(percentEncoded: true).isEmpty ? "/" : request.url.path(percentEncoded: true)
        let query = request.url.query(percentEncoded: true).map { "?" + $0 } ?? ""
        var text = "\(request.method.rawValue) \(target)\(query) HTTP/1.1\r\n"
        for field in request.headers { text += "\(field.name): \(field.value)\r\n" }
        text += "\r\n"
        return Data(text.utf8)
    }
}

extension WebSocketPlan: Hashable {
    package static func == (lhs: WebSocketPlan, rhs: WebSocketPlan) -> Bool {
        switch (lhs, rhs) {
        case (.replay(let a, let x, let l, _), .replay(let b, let y, let m, _)): a == b && x == y && l == m
        case (.record(let h1, let p1, let t1, let r1, let s1), .record(let h2, let p2, let t2, let r2, let s2)):
            h1 == h2 && p1 == p2 && t1 === t2 && r1 == r2 && s1 === s2
        default: false
        }
    }

    package func hash(into hasher: inout Hasher) {
        switch self {
        case .replay(let frames, let label, _, _): hasher.combine(frames); hasher.combine(label)
        case .record(let host, let port, _, let request, _): hasher.combine(host); hasher.combine(port); hasher.combine(request)
        }
    }
}
