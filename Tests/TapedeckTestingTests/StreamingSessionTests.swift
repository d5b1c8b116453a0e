import Foundation
import Synchronization
import Tapedeck
import Testing
@testable import TapedeckTesting
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A streamed body replayed in process: delegate code gets one `didReceive data` per recorded
/// chunk, at once by default and at the recorded times with `latency: .recorded`.
@Suite("Replaying streams through URLSession")
struct StreamingSessionTests {
    /// Collects each `didReceive data` with the time it came.
    final class Collector: NSObject, URLSessionDataDelegate, @unchecked Sendable {
        let pieces = Mutex<[(Date, Data)]>([])
        let done = Mutex<CheckedContinuation<Void, Never>?>(nil)
        func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
            pieces.withLock { $0.append((Date(), data)) }
        }
        func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
            done.withLock { $0 }?.resume()
        }
    }

    static let chunks = (0..<4).map { i in BodyChunk(offset: Double(i) * 0.15, data: Data("data: {\"i\":\(i)}\n\n".utf8)) }

    static func replay() -> ReplayTransport {
        let response = HTTPResponse(status: 200, headers: ["Content-Type": "text/event-stream"], chunks: chunks)
        return ReplayTransport(cassette: Cassette(interactions: [Interaction(request: HTTPRequest(url: URL(string: "http://api.test/events")!),
                                                                             response: response)]))
    }

    static func collect(_ make: (URLSessionConfiguration) -> URLSession) async -> [(Date, Data)] {
        let collector = Collector()
        let configuration = URLSessionConfiguration.ephemeral
        let routed = make(configuration)
        let session = URLSession(configuration: routed.configuration, delegate: collector, delegateQueue: nil)
        // Waiting without blocking a thread: a blocked dispatch worker would hold back URLSession's own deliveries.
        await withCheckedContinuation { continuation in
            collector.done.withLock { $0 = continuation }
            session.dataTask(with: URL(string: "http://api.test/events")!).resume()
        }
        session.finishTasksAndInvalidate()
        // The routed session owns the route: it must outlive the requests sent with its configuration.
        withExtendedLifetime(routed) {}
        return collector.pieces.withLock { $0 }
    }

    @Test("each recorded chunk is one didReceive data, in order, at once by default")
    func oneDeliveryPerChunk() async {
        let replay = Self.replay()
        let pieces = await Self.collect { URLSession.replaying(replay, configuration: $0) }
        #expect(pieces.map(\.1) == Self.chunks.map(\.data))
        let span = (pieces.last?.0 ?? Date()).timeIntervalSince(pieces.first?.0 ?? Date())
        #expect(span < 0.1, "instant by default: \(pieces.map { $0.0.timeIntervalSince(pieces[0].0) })")
    }

    @Test("with latency recorded each chunk arrives at its recorded time, within 20%")
    func recordedTiming() async {
        let replay = Self.replay()
        let pieces = await Self.collect { URLSession.replaying(replay, conditions: NetworkConditions(latency: .recorded), configuration: $0) }
        #expect(pieces.map(\.1) == Self.chunks.map(\.data))
        let gaps = zip(pieces.dropFirst(), pieces).map { $0.0.timeIntervalSince($1.0) }
        for gap in gaps { #expect(abs(gap - 0.15) <= 0.03, "a 150 ms gap arrived as \(Int(gap * 1000)) ms") }
    }

    #if !canImport(FoundationNetworking)
    /// Apple platforms only: corelibs Foundation on Linux has no `bytes(for:)`; there the delegate
    /// tests above check the same per-chunk delivery.
    @Test("URLSession.bytes(for:).lines sees each recorded event's lines, in order")
    func asyncBytesLines() async throws {
        let session = URLSession.replaying(Self.replay())
        let (bytes, _) = try await session.bytes(for: URLRequest(url: URL(string: "http://api.test/events")!))
        var lines: [String] = []
        for try await line in bytes.lines { lines.append(line) }
        #expect(lines == (0..<4).map { "data: {\"i\":\($0)}" })
    }
    #endif
}
