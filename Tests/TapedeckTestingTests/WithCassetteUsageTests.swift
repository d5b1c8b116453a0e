import Foundation
import Synchronization
import TapedeckTestSupport
import Testing
@testable import TapedeckTesting
import TapedeckTooling
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("withCassette's mode and usage record")
struct WithCassetteUsageTests {
    @Test("mode: .replayOnly means replay only: a missing cassette fails at once instead of recording")
    func modeNoneIsReplayOnly() async throws {
        let missing = TestScratch.path("testing").appendingPathComponent("absent.cassette.json")
        do {
            try await withCassette(missing.path, mode: .replayOnly) { session in
                _ = try await session.data(from: URL(string: "http://api.test/who")!)
            }
            Issue.record("a missing cassette in mode none did not fail")
        } catch let CassetteError.missing(path, _) {
            #expect(path == missing.path)
        }
        #expect(!FileManager.default.fileExists(atPath: missing.path))
    }

    @Test("an unwritable usage directory gives a warning, never a failed test")
    func unwritableUsageDirectory() async throws {
        let file = try cassetteFile("usage", body: "played")
        let blocker = file.deletingLastPathComponent().appendingPathComponent("blocker")
        try Data("x".utf8).write(to: blocker)
        let environment = ["TAPEDECK_USAGE_DIR": blocker.appendingPathComponent("usage").path]
        let warnings = Mutex<[String]>([])

        let body = try await runCassette(file.path, mode: RecordMode.replayOnly, matcher: Matcher(), allowRepeats: false,
                                         requireAllPlayed: true, file: #filePath, environment: environment,
                                         warn: { message in warnings.withLock { $0.append(message) } }) { session in
            String(decoding: try await session.data(from: URL(string: "http://api.test/who")!).0, as: UTF8.self)
        }

        #expect(body == "played")
        let recorded = warnings.withLock { $0 }
        #expect(recorded.count == 1)
        #expect(recorded.first?.contains("usage record not saved") == true)
        #expect(recorded.first?.contains(blocker.path) == true)
        #expect(recorded.first?.contains("TAPEDECK_USAGE_DIR") == true)
    }

    @Test("a writable usage directory gets the record and no warning")
    func writableUsageDirectory() async throws {
        let file = try cassetteFile("usage-ok", body: "played", count: 2)
        let environment = ["TAPEDECK_USAGE_DIR": file.deletingLastPathComponent().appendingPathComponent("usage").path]
        let warnings = Mutex<[String]>([])

        try await runCassette(file.path, mode: RecordMode.replayOnly, matcher: Matcher(), allowRepeats: false,
                              requireAllPlayed: false, file: #filePath, environment: environment,
                              warn: { message in warnings.withLock { $0.append(message) } }) { session in
            _ = try await session.data(from: URL(string: "http://api.test/who")!)
        }

        #expect(warnings.withLock { $0 }.isEmpty)
        #expect(try CassetteUsage.read(for: file, environment: environment).unused == [1])
    }

    @Test("the public helper turns the warning into a Swift Testing warning, so the test still passes")
    func publicHelperPasses() async throws {
        // TAPEDECK_USAGE_DIR cannot be set per test, so this checks the path users take end to
        // end with whatever the environment holds: the call must succeed either way.
        let file = try cassetteFile("usage-public", body: "played")
        let body = try await withCassette(file.path, mode: .replayOnly) { session in
            String(decoding: try await session.data(from: URL(string: "http://api.test/who")!).0, as: UTF8.self)
        }
        #expect(body == "played")
    }
}
