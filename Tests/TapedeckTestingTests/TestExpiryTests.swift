import Foundation
import Synchronization
import Tapedeck
import TapedeckTestSupport
import Testing
@testable import TapedeckTesting

@Suite("TAPEDECK_MAX_AGE and TAPEDECK_ON_EXPIRY in withCassette")
struct TestExpiryTests {
    private func oldCassette() throws -> URL {
        let file = try cassetteFile("expiry", body: "old")
        var cassette = try Cassette.load(from: file)
        cassette.interactions[0].recordedAt = Date().addingTimeInterval(-40 * 86_400)
        try cassette.write(to: file)
        return file
    }

    private func replay(_ file: URL, _ environment: [String: String], warn: (String) -> Void = { _ in }) async throws -> String {
        try await runCassette(file.path, mode: .replayOnly, matcher: Matcher(), allowRepeats: false, requireAllPlayed: false,
                              file: #filePath, environment: environment.merging(["TAPEDECK_USAGE_DIR": TestScratch.root.path]) { a, _ in a },
                              warn: warn) { session in
            String(decoding: try await session.data(from: URL(string: "http://api.test/who")!).0, as: UTF8.self)
        }
    }

    @Test("warn (the default) replays and warns with the interaction's age")
    func warn() async throws {
        let file = try oldCassette()
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let warnings = Mutex<[String]>([])
        let body = try await replay(file, ["TAPEDECK_MAX_AGE": "30d"]) { message in warnings.withLock { $0.append(message) } }
        #expect(body == "old")
        let text = warnings.withLock { $0.joined() }
        #expect(text.contains("1 of 1 interactions in \(file.path) are older than 30d"))
        #expect(text.contains("(recorded 40 d ago)"))
    }

    @Test("fail refuses the cassette; a fresh one under the limit passes")
    func fail() async throws {
        let file = try oldCassette()
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        await #expect(throws: CassetteError.self) {
            _ = try await replay(file, ["TAPEDECK_MAX_AGE": "30d", "TAPEDECK_ON_EXPIRY": "fail"])
        }
        #expect(try await replay(file, ["TAPEDECK_MAX_AGE": "60d", "TAPEDECK_ON_EXPIRY": "fail"]) == "old")
    }

    @Test("rerecord records the cassette again, so the request goes live")
    func rerecord() async throws {
        let file = try oldCassette()
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        // api.test does not resolve: the live send is what fails, proving the cassette was not replayed.
        await #expect(throws: (any Error).self) {
            _ = try await replay(file, ["TAPEDECK_MAX_AGE": "30d", "TAPEDECK_ON_EXPIRY": "rerecord"])
        }
        #expect(try await replay(file, ["TAPEDECK_MAX_AGE": "30d", "TAPEDECK_ON_EXPIRY": "warn"]) == "old")
    }
}
