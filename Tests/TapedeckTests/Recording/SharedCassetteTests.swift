import Foundation
import Testing
@testable import Tapedeck

/// Several sessions recording into one cassette file, as parallel tests sharing a cassette do.
@Suite("Sessions sharing one cassette file")
struct SharedCassetteTests {
    func get(_ path: String) -> HTTPRequest { HTTPRequest(url: URL(string: "http://api.test" + path)!) }

    @Test("two sessions recording into a missing cassette at once both keep their interactions", arguments: [RecordMode.once, .new])
    func parallelRecorders(mode: RecordMode) async throws {
        let directory = TemporaryDirectory()
        let url = directory.file("shared/api.cassette.json")
        let server = CountingServer()
        let a = try RecordingTransport(configuration: CassetteConfiguration(url, mode: mode, environment: [:]), inner: server.transport)
        let b = try RecordingTransport(configuration: CassetteConfiguration(url, mode: mode, environment: [:]), inner: server.transport)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<20 {
                group.addTask { _ = try await (index % 2 == 0 ? a : b).send(get("/item/\(index)")) }
            }
            try await group.waitForAll()
        }
        try a.flush()
        try b.flush()
        let paths = try Cassette.load(from: url).interactions.map(\.request.url.path)
        #expect(paths.count == 20, "\(paths)")
        #expect(Set(paths) == Set((0..<20).map { "/item/\($0)" }))
        #expect(b.counts.total == 20, "the last to merge counts the other's interactions too")
    }

    @Test("new mode appends to what another session saved after this one opened the file")
    func appendAfterOtherSession() async throws {
        let directory = TemporaryDirectory()
        let url = directory.file("api.cassette.json")
        try Cassette(interactions: [.make(.get, "http://api.test/a", body: "a")]).write(to: url)
        let server = CountingServer()
        let first = try RecordingTransport(configuration: CassetteConfiguration(url, mode: .new, environment: [:]), inner: server.transport)
        let second = try RecordingTransport(configuration: CassetteConfiguration(url, mode: .new, environment: [:]), inner: server.transport)
        _ = try await first.send(get("/b"))
        _ = try await second.send(get("/c"))
        _ = try await first.send(get("/d"))
        #expect(try Cassette.load(from: url).interactions.map(\.request.url.path) == ["/a", "/b", "/c", "/d"])
    }

    @Test("mode all still replaces the old file when nobody else wrote it")
    func allReplaces() async throws {
        let directory = TemporaryDirectory()
        let url = directory.file("api.cassette.json")
        try Cassette(interactions: [.make(.get, "http://api.test/old")]).write(to: url)
        let recorder = try RecordingTransport(configuration: CassetteConfiguration(url, mode: .all, environment: [:]), inner: CountingServer().transport)
        _ = try await recorder.send(get("/new"))
        #expect(try Cassette.load(from: url).interactions.map(\.request.url.path) == ["/new"])
    }
}
