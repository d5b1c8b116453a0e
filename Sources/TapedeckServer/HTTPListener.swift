import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import Synchronization

/// A bound HTTP/1.1 socket on swift-nio that hands every complete request to a responder.
///
/// ```swift
/// let listener = try await HTTPListener.bind(host: "127.0.0.1", port: 0) { request in
///     .text(200, "hello\n")
/// }
/// print(listener.url)      // http://127.0.0.1:53211
/// try await listener.close()
/// ```
package final class HTTPListener: Sendable {
    /// The host it listens on.
    package let host: String
    /// The port it listens on (the one the system picked for port 0).
    package let port: Int
    private let channel: any Channel
    private let connections: ConnectionSet

    private init(host: String, port: Int, isTLS: Bool, channel: any Channel, connections: ConnectionSet) {
        self.host = host
        self.isTLS = isTLS
        self.port = port
        self.channel = channel
        self.connections = connections
    }

    /// How many connections it has accepted since it started.
    package var acceptedConnections: Int { connections.accepted.load(ordering: .relaxed) }

    /// Whether the socket speaks HTTPS.
    package let isTLS: Bool

    /// `http://HOST:PORT`, or `https://` when the socket speaks TLS (IPv6 hosts in brackets).
    package var url: URL {
        let shown = host.bracketedIfIPv6
        return URL(string: "\(isTLS ? "https" : "http")://\(shown):\(port)") ?? URL(fileURLWithPath: "/")
    }

    /// Binds `host:port` (0 picks a free port) and starts answering; with `tls` whose
    /// ``ListenerTLS/serveNames`` are set the socket speaks HTTPS, and with any `tls` a
    /// `CONNECT` the responder answers with ``Tunnel/intercept(host:port:)`` is terminated here.
    package static func bind(host: String, port: Int, limits: ServerLimits = ServerLimits(), tls: ListenerTLS? = nil,
                            responder: @escaping @Sendable (IncomingRequest) async -> ServerReply) async throws(ServerError) -> HTTPListener {
        try await bind(host: host, port: port, limits: limits, tls: tls, answering: ServerResponder(later: responder))
    }

    /// ``bind(host:port:limits:tls:responder:)`` with a responder that answers what it can at
    /// once, on the connection's thread.
    package static func bind(host: String, port: Int, limits: ServerLimits = ServerLimits(), tls: ListenerTLS? = nil,
                            answering responder: ServerResponder) async throws(ServerError) -> HTTPListener {
        let connections = ConnectionSet()
        var socketContext: NIOSSLContext?
        if let tls, let names = tls.serveNames {
            // Only the names served are signed: a client naming another host is shown these.
            do { socketContext = try tls.mint.minted(for: names, followingSNI: false).context } catch {
                throw .cannotListen(host: host, port: port, reason: error.errorDescription ?? "\(error)")
            }
        }
        let bootstrap = ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.backlog, value: 1024)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
            .childChannelOption(.maxMessagesPerRead, value: 16)
            // A client that closes its side after its requests still gets their answers.
            .childChannelOption(.allowRemoteHalfClosure, value: true)
            .childChannelInitializer { [socketContext] channel in
                let id = ObjectIdentifier(channel)
                connections.accepted.add(1, ordering: .relaxed)
                connections.channels.withLock { $0[id] = channel }
                channel.closeFuture.whenComplete { _ in _ = connections.channels.withLock { $0.removeValue(forKey: id) } }
                return channel.eventLoop.makeCompletedFuture {
                    let sync = channel.pipeline.syncOperations
                    if let socketContext, let tls {
                        try sync.addHandler(PlainHTTPOnTLS())
                        try sync.addHandler(NIOSSLServerHandler(context: socketContext))
                        try sync.addHandler(TLSHandshakeWatcher(host: tls.serveNames?.first ?? host, client: channel.remoteAddress.map(ConnectionHandler.describe) ?? "a client",
                                                                tunnelled: false, log: tls.log))
                    }
                    try HTTPPipeline.install(on: sync, limits: limits, tls: tls, tunnelOrigin: nil, responder: responder)
                }
            }
        do {
            let channel = try await bootstrap.bind(host: host, port: port).get()
            let bound = channel.localAddress?.port ?? port
            return HTTPListener(host: host, port: bound, isTLS: socketContext != nil, channel: channel, connections: connections)
        } catch {
            throw .cannotListen(host: host, port: port, reason: "\(error)")
        }
    }

    /// Stops accepting, lets each open connection answer the plain requests it already read (no
    /// more is read; ``HTTPFastLane/drain(context:)``), closing it once they are written, and
    /// closes whatever is still open after `grace` seconds (an upstream slower than that, a
    /// stream, a client that does not read). So a recording stopped under load holds no plain
    /// answer its client did not get, and a stop waits no longer than `grace` (and a TLS
    /// connection, the TLS handler's wait for its client's close_notify).
    package func close(grace: Double = 3) async {
        try? await channel.close()
        let open = connections.channels.withLock { Array($0.values) }
        for connection in open { Self.onLane(of: connection, orElse: Self.goingAway) { $0.drain(context: $1) } }
        // Waiting for a close future ignores cancellation: the grace ends by closing what is open.
        await withTaskGroup(of: Void.self) { group in
            group.addTask { for connection in open { try? await connection.closeFuture.get() } }
            group.addTask {
                try? await Task.sleep(for: .seconds(grace))
                for connection in open { Self.onLane(of: connection) { $0.closeNow(context: $1) } }
            }
            await group.next()
            group.cancelAll()
        }
    }

    /// Calls `body` on `connection`'s loop with its fast lane and the lane's context; when it has
    /// no lane (a WebSocket, a tunnel relayed byte for byte), `orElse`, which by default closes it.
    private static func onLane(of connection: any Channel, orElse: @escaping @Sendable (any Channel) -> Void = { $0.close(promise: nil) },
                               _ body: @escaping @Sendable (HTTPFastLane, ChannelHandlerContext) -> Void) {
        connection.eventLoop.execute {
            let pipeline = connection.pipeline.syncOperations
            guard let lane = try? pipeline.handler(type: HTTPFastLane.self), let context = try? pipeline.context(handlerType: HTTPFastLane.self) else {
                return orElse(connection)
            }
            body(lane, context)
        }
    }

    /// Closes `connection`, which has no fast lane, as the server stops: a WebSocket's client is
    /// first told the server is going away (close 1001), a replayed session's or a relayed one's.
    /// Called on the connection's loop.
    private static func goingAway(_ connection: any Channel) {
        let pipeline = connection.pipeline.syncOperations
        if let replayer = try? pipeline.handler(type: WebSocketReplayer.self), let context = try? pipeline.context(handlerType: WebSocketReplayer.self) {
            return replayer.goingAway(context: context)
        }
        if let tap = try? pipeline.handler(type: WebSocketTap.self), let context = try? pipeline.context(handlerType: WebSocketTap.self) {
            return tap.goingAway(context: context)
        }
        connection.close(promise: nil)
    }
}

/// How a listener answers: on the connection's event loop, at once when the answer is known
/// without waiting, or when a future started there completes; otherwise from a task.
package struct ServerResponder: Sendable {
    /// What ``atOnce`` answers.
    package enum Answer: Sendable {
        /// This reply, now.
        case reply(ServerReply)
        /// The reply the future gives, on the connection's own event loop (a request sent
        /// upstream from that loop, with no task). It never fails: a failure is a reply too.
        case pending(EventLoopFuture<ServerReply>)
        /// Only ``ServerResponder/later`` can give it.
        case later

        /// The reply given now, if any.
        package var reply: ServerReply? {
            if case .reply(let reply) = self { reply } else { nil }
        }
    }

    /// The answer known without waiting, asked on the connection's event loop (it must not block).
    package var atOnce: @Sendable (IncomingRequest) -> Answer
    /// The answer, awaited.
    package var later: @Sendable (IncomingRequest) async -> ServerReply
    /// The answers given again that each event loop's lanes keep (``AnswerBook``).
    let books = AnswerBooks()

    /// Creates a responder; with no `atOnce`, every request is answered by `later`.
    package init(atOnce: @escaping @Sendable (IncomingRequest) -> Answer = { _ in .later },
                 later: @escaping @Sendable (IncomingRequest) async -> ServerReply) {
        self.atOnce = atOnce
        self.later = later
    }
}

/// The open connections of one listener, so that closing it closes them too.
final class ConnectionSet: Sendable {
    let channels = Mutex<[ObjectIdentifier: any Channel]>([:])
    /// Connections accepted since the listener started.
    let accepted = Atomic<Int>(0)
}

/// The HTTP/1.1 handlers of one connection, by name, so a `CONNECT` can take them out
/// (``ConnectionHandler``) and put a new set inside its TLS.
///
/// A connection starts with the ``HTTPFastLane`` and the ``ConnectionHandler`` only. The lane
/// answers plain requests itself, those answered at once and those answered later alike; at
/// the first request that is not plain, or whose reply is not, it puts NIO's codec
/// (``installCodec(on:after:limits:)``) between the two and hands every byte on to it.
enum HTTPPipeline {
    static let fastLane = "http-fast-lane", encoder = "http-encoder", decoder = "http-decoder", pipelining = "http-pipelining",
               connection = "http-connection"

    /// Adds the fast lane and the ``ConnectionHandler`` after `anchor` (at the end when nil).
    /// `tunnelOrigin` is the origin (`https://api.example.com`) origin-form targets are
    /// answered for inside an intercepted tunnel.
    static func install(on sync: ChannelPipeline.SynchronousOperations, after anchor: (any ChannelHandler)? = nil, limits: ServerLimits,
                        tls: ListenerTLS?, tunnelOrigin: String?, responder: ConnectionHandler.Responder) throws {
        let connection = ConnectionHandler(limits: limits, tls: tls, tunnelOrigin: tunnelOrigin, responder: responder)
        let lane = HTTPFastLane(limits: limits, tunnelOrigin: tunnelOrigin, responder: responder, connection: connection)
        if let anchor {
            try sync.addHandler(lane, name: fastLane, position: .after(anchor))
        } else {
            try sync.addHandler(lane, name: fastLane)
        }
        try sync.addHandler(connection, name: Self.connection, position: .after(lane))
    }

    /// Puts the encoder, decoder and pipelining handlers after `lane`, before the connection's handler.
    static func installCodec(on sync: ChannelPipeline.SynchronousOperations, after lane: any ChannelHandler, limits: ServerLimits) throws {
        var encoderConfiguration = HTTPResponseEncoder.Configuration()
        encoderConfiguration.automaticallySetFramingHeaders = false
        var decoderLimits = NIOHTTPDecoderLimitConfiguration()
        decoderLimits.maxHeaderFieldSize = limits.maxHeaderBytes
        decoderLimits.maxHeaderListSize = limits.maxHeaderBytes
        let handlers: [(any ChannelHandler, String)] = [
            (HTTPResponseEncoder(configuration: encoderConfiguration), encoder),
            // Bytes after a CONNECT (a client that does not wait for the 200) go on to the TLS
            // handler that replaces this one.
            (ByteToMessageHandler(HTTPRequestDecoder(leftOverBytesStrategy: .forwardBytes, informationalResponseStrategy: .drop,
                                                     limitConfiguration: decoderLimits)), decoder),
            (HTTPServerPipelineHandler(), pipelining),
        ]
        var previous = lane
        for (handler, name) in handlers {
            try sync.addHandler(handler, name: name, position: .after(previous))
            previous = handler
        }
    }
}
