import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
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

    private init(host: String, port: Int, channel: any Channel, connections: ConnectionSet) {
        self.host = host
        self.port = port
        self.channel = channel
        self.connections = connections
    }

    /// `http://HOST:PORT` (IPv6 hosts in brackets).
    package var url: URL {
        let shown = host.contains(":") ? "[\(host)]" : host
        return URL(string: "http://\(shown):\(port)") ?? URL(fileURLWithPath: "/")
    }

    /// Binds `host:port` (0 picks a free port) and starts answering.
    package static func bind(host: String, port: Int, limits: ServerLimits = ServerLimits(),
                            responder: @escaping @Sendable (IncomingRequest) async -> ServerReply) async throws(ServerError) -> HTTPListener {
        let connections = ConnectionSet()
        let bootstrap = ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.backlog, value: 1024)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
            .childChannelOption(.maxMessagesPerRead, value: 16)
            .childChannelInitializer { channel in
                let id = ObjectIdentifier(channel)
                connections.channels.withLock { $0[id] = channel }
                channel.closeFuture.whenComplete { _ in _ = connections.channels.withLock { $0.removeValue(forKey: id) } }
                return channel.eventLoop.makeCompletedFuture {
                    var encoderConfiguration = HTTPResponseEncoder.Configuration()
                    encoderConfiguration.automaticallySetFramingHeaders = false
                    var decoderLimits = NIOHTTPDecoderLimitConfiguration()
                    decoderLimits.maxHeaderFieldSize = limits.maxHeaderBytes
                    decoderLimits.maxHeaderListSize = limits.maxHeaderBytes
                    let sync = channel.pipeline.syncOperations
                    try sync.addHandler(HTTPResponseEncoder(configuration: encoderConfiguration))
                    try sync.addHandler(ByteToMessageHandler(HTTPRequestDecoder(leftOverBytesStrategy: .dropBytes,
                                                                                informationalResponseStrategy: .drop,
                                                                                limitConfiguration: decoderLimits)))
                    try sync.addHandler(HTTPServerPipelineHandler())
                    try sync.addHandler(ConnectionHandler(limits: limits, responder: responder))
                }
            }
        do {
            let channel = try await bootstrap.bind(host: host, port: port).get()
            let bound = channel.localAddress?.port ?? port
            return HTTPListener(host: host, port: bound, channel: channel, connections: connections)
        } catch {
            throw .cannotListen(host: host, port: port, reason: "\(error)")
        }
    }

    /// Stops accepting and closes every open connection.
    package func close() async {
        try? await channel.close()
        let open = connections.channels.withLock { Array($0.values) }
        for connection in open { try? await connection.close() }
    }
}

/// The open connections of one listener, so that closing it closes them too.
final class ConnectionSet: Sendable {
    let channels = Mutex<[ObjectIdentifier: any Channel]>([:])
}
