import Foundation
import Tapedeck
@testable import TapedeckServer
import Testing

/// The relay between a recording tape's live stream and the client's: its stream is made only
/// when a stream's head comes.
@Suite("Stream relay")
struct StreamRelayTests {
    @Test("a relay finished before any stream head says no head came, and its chunks, read after, have already ended")
    func finishedBeforeHead() async {
        let relay = StreamRelay()
        relay.finish()
        #expect(await relay.head() == nil)
        var count = 0
        for await _ in relay.chunks { count += 1 }
        #expect(count == 0)
    }

    @Test("a stream's head is handed on, its chunks reach the client's stream in order, and it ends when the relay finishes")
    func chunksThenFinish() async {
        let relay = StreamRelay()
        let observer = relay.observer
        #expect(observer.head(HTTPResponse(status: 200)))
        #expect(await relay.head()?.status == 200)
        #expect(observer.chunk(BodyChunk(offset: 0, data: Data("a".utf8))))
        #expect(observer.chunk(BodyChunk(offset: 0.1, data: Data("b".utf8))))
        relay.finish()
        var seen: [String] = []
        for await chunk in relay.chunks { seen.append(String(decoding: chunk, as: UTF8.self)) }
        #expect(seen == ["a", "b"])
        #expect(relay.isComplete)
    }
}
