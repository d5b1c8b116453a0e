import Foundation
import NIOCore
import NIOSSL
import NIOTLS
import Tapedeck

/// What a `CONNECT` turns its connection into, once answered 200.
package enum Tunnel: Sendable, Hashable {
    /// TLS ends here, with a leaf minted for `host`; the requests inside are answered as
    /// `https://host:port/…` by the same handlers as every other request.
    case intercept(host: String, port: Int)
    /// Bytes go to `host:port` and back untouched: the client sees the upstream's own certificate.
    case passThrough(host: String, port: Int)

    /// `host:port` from a `CONNECT` target (`api.example.com:443`, `[::1]:8443`); nil when it is not one.
    package static func authority(_ target: String) -> (host: String, port: Int)? {
        let host: Substring, rest: Substring
        if target.hasPrefix("[") {
            guard let close = target.firstIndex(of: "]") else { return nil }
            host = target[target.index(after: target.startIndex)..<close]
            rest = target[target.index(after: close)...]
        } else {
            guard let colon = target.lastIndex(of: ":") else { return nil }
            host = target[..<colon]
            rest = target[colon...]
        }
        // The port is digits alone (no sign); a bracketed host is an IPv6 address, and only
        // a bracketed host holds colons.
        let digits = rest.dropFirst()
        guard rest.hasPrefix(":"), !digits.isEmpty, digits.count <= 5, digits.allSatisfy({ $0.isASCII && $0.isNumber }),
              let port = Int(digits), (1...65535).contains(port), !host.isEmpty,
              host.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-._:".contains($0)) }) else { return nil }
        if target.hasPrefix("[") {
            var address = in6_addr()
            guard inet_pton(AF_INET6, String(host), &address) == 1 else { return nil }
        } else if host.contains(":") {
            return nil
        }
        return (String(host), port)
    }

    /// `https://host[:port]`, the origin the requests inside an intercepted tunnel are for.
    static func origin(host: String, port: Int) -> String {
        "https://" + host.bracketedIfIPv6 + (port == 443 ? "" : ":\(port)")
    }
}

/// What a listener needs for TLS: the mint that makes leaves, the names of the socket's own
/// leaf when the socket itself speaks TLS (`serve --tls`), and where handshake failures go.
package struct ListenerTLS: Sendable {
    /// Mints and keeps the leaves.
    package var mint: LeafMint
    /// The names the socket's own leaf covers; nil when the socket speaks plain HTTP (and TLS
    /// starts only inside an intercepted `CONNECT`).
    package var serveNames: [String]?
    /// Where a failed handshake is reported.
    package var log: @Sendable (String) -> Void

    /// Creates the settings.
    package init(mint: LeafMint, serveNames: [String]?, log: @escaping @Sendable (String) -> Void) {
        self.mint = mint
        self.serveNames = serveNames
        self.log = log
    }
}

/// Watches a TLS handshake the server answers and, when it fails, logs who failed and why in
/// words that say what to do (trust the CA, or pass the host through); removes itself once
/// the handshake is done.
final class TLSHandshakeWatcher: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = NIOAny
    typealias OutboundIn = NIOAny

    private let host: String
    private let client: String
    private let tunnelled: Bool
    private let log: @Sendable (String) -> Void
    private var reported = false
    /// Set when the server closed the connection (its read timeout, a stop), not the client.
    private var closedHere = false

    /// Watches the handshake of `client` (its description) for `host`; `tunnelled` when it is
    /// inside a `CONNECT`, so `--pass-through` is a way out.
    init(host: String, client: String, tunnelled: Bool, log: @escaping @Sendable (String) -> Void) {
        self.host = host
        self.client = client
        self.tunnelled = tunnelled
        self.log = log
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        context.fireChannelRead(data)
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if event is PlainHTTPOnTLS.Seen, !reported {
            reported = true
            log("\(client) sent plain HTTP where TLS was expected for \(host): it was answered 400; use https:// with this address")
            return
        }
        if case .handshakeCompleted? = event as? TLSUserEvent {
            reported = true
            context.fireUserInboundEventTriggered(event)
            context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
            return
        }
        context.fireUserInboundEventTriggered(event)
    }

    func close(context: ChannelHandlerContext, mode: CloseMode, promise: EventLoopPromise<Void>?) {
        closedHere = true
        context.close(mode: mode, promise: promise)
    }

    func channelInactive(context: ChannelHandlerContext) {
        if !reported {
            reported = true
            log(closedHere ? "\(client)'s TLS handshake for \(host) did not finish before the server closed the connection "
                + "(the read timeout, --read-timeout, or the server stopping)"
                : TLSHandshakeWatcher.message(client: client, host: host, detail: nil, tunnelled: tunnelled))
        }
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard !reported else { return context.fireErrorCaught(error) }
        reported = true
        log(TLSHandshakeWatcher.message(client: client, host: host, detail: "\(error)", tunnelled: tunnelled))
        context.close(promise: nil)
    }

    /// Whether a TLS library's words for a failed handshake say the peer did not speak TLS
    /// (BoringSSL's `HTTP_REQUEST`, `WRONG_VERSION_NUMBER`): one rule for clients and upstreams.
    static func spokeOtherThanTLS(_ detail: String) -> Bool {
        let upper = detail.uppercased()
        return upper.contains("HTTP_REQUEST") || upper.contains("WRONG_VERSION_NUMBER")
    }

    /// The log line for a handshake that failed with `detail` (nil: the client closed the
    /// connection before finishing it).
    static func message(client: String, host: String, detail: String?, tunnelled: Bool) -> String {
        let trust = "trust the CA with `tapedeck ca trust --simulator booted` (or `--android-emulator`) or `tapedeck ca env`"
            + (tunnelled ? ", or pass the host through with `--pass-through \(host)`" : "")
        guard let detail else {
            return "\(client) closed the connection during the TLS handshake for \(host): it may not trust Tapedeck's certificate; " + trust
        }
        let upper = detail.uppercased()
        if let alert = ["UNKNOWN_CA", "BAD_CERTIFICATE", "CERTIFICATE_UNKNOWN", "UNSUPPORTED_CERTIFICATE", "CERTIFICATE_EXPIRED",
                        "CERTIFICATE_REVOKED", "ACCESS_DENIED"].first(where: { upper.contains("ALERT_" + $0) }) {
            return "\(client) rejected Tapedeck's certificate for \(host) (\(alert.lowercased())): " + trust
        }
        // An OpenSSL client that does not trust the certificate sends its alert in the clear
        // after TLS 1.3 has switched to encrypted records: the server cannot read it.
        if ["DECRYPTION_FAILED", "BAD_PACKET_LENGTH", "BAD_RECORD_MAC"].contains(where: upper.contains) {
            return "\(client) rejected Tapedeck's certificate for \(host): " + trust
        }
        if spokeOtherThanTLS(upper) {
            return "\(client) sent something other than TLS (plain HTTP?) where TLS was expected for \(host): use https:// with this address"
        }
        return "\(client)'s TLS handshake for \(host) failed (\(Excerpt.of(detail, limit: 300))): " + trust
    }
}

/// Relays everything one channel reads to its partner channel and back (a pass-through
/// tunnel), with back-pressure: a side reads only while the other can take more.
final class GlueHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = NIOAny
    typealias OutboundIn = NIOAny
    typealias OutboundOut = NIOAny

    private var partner: GlueHandler?
    private var context: ChannelHandlerContext?
    private var pendingRead = false

    private init() {}

    /// Two handlers joined to each other: one for each channel (both on one event loop).
    static func matchedPair() -> (GlueHandler, GlueHandler) {
        let first = GlueHandler(), second = GlueHandler()
        first.partner = second
        second.partner = first
        return (first, second)
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        self.context = nil
        partner = nil
    }

    private var isWritable: Bool { context?.channel.isWritable ?? false }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        partner?.context?.write(data, promise: nil)
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        partner?.context?.flush()
    }

    /// One side closed: the other closes once what was relayed to it is written.
    func channelInactive(context: ChannelHandlerContext) {
        partner?.context?.closeOnceWritten()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if case .inputClosed? = event as? ChannelEvent {
            partner?.context?.close(mode: .output, promise: nil)
        }
        context.fireUserInboundEventTriggered(event)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        partner?.context?.close(promise: nil)
        context.close(promise: nil)
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable, let partner, partner.pendingRead {
            partner.pendingRead = false
            partner.context?.read()
        }
        context.fireChannelWritabilityChanged()
    }

    func read(context: ChannelHandlerContext) {
        if partner?.isWritable ?? false {
            context.read()
        } else {
            pendingRead = true
        }
    }
}

/// Answers a plain HTTP request sent to a TLS socket with a plain `400` that says so, as nginx
/// does, rather than a closed connection the client cannot read: the first byte of a TLS
/// connection is a handshake record's (0x16), and an HTTP request's is a method's capital.
/// Stands before the TLS handler, and leaves once the first bytes are seen.
final class PlainHTTPOnTLS: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private static let answer = "HTTP/1.1 400 Bad Request\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n"
        + "Content-Length: 75\r\n\r\nthis address speaks HTTPS, and a plain HTTP request was sent; use https://\n"

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let bytes = unwrapInboundIn(data)
        guard let first = bytes.readableBytesView.first else { return }
        guard first >= UInt8(ascii: "A"), first <= UInt8(ascii: "Z") else {
            context.fireChannelRead(data)
            context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
            return
        }
        context.fireUserInboundEventTriggered(PlainHTTPOnTLS.Seen())
        let reply = context.channel.allocator.buffer(string: Self.answer)
        context.writeAndFlush(wrapOutboundOut(reply)).assumeIsolated().whenComplete { _ in context.close(promise: nil) }
    }

    /// The event the handshake watcher logs the refusal by.
    struct Seen {}
}
