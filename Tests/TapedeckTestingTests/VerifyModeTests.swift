import Foundation
import Tapedeck
import TapedeckTestSupport
import Testing
@testable import TapedeckTesting
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("TAPEDECK_RECORD_MODE=verify sends live and fails on drift",
       .enabled(if: ProcessInfo.processInfo.environment["TAPEDECK_HTTPBIN_URL"] != nil, "needs httpbin (make test starts it)"))
struct VerifyModeTests {
    static let live = ProcessInfo.processInfo.environment["TAPEDECK_HTTPBIN_URL"] ?? "http://127.0.0.1:9"
    static let verify = ["TAPEDECK_RECORD_MODE": "verify"]

    private func recordedCassette() async throws -> URL {
        let url = TestScratch.path("tapedeck-verify").appendingPathComponent("httpbin.cassette.json")
        _ = try await runCassette(url.path, mode: .all, matcher: Matcher(), allowRepeats: false, requireAllPlayed: false,
                                  file: #filePath, environment: [:], warn: { _ in }) { session in
            try await HTTPBinClient(session: session, baseURL: Self.live).slideshow()
        }
        return url
    }

    @Test("a cassette that still matches the live API passes, and the cassette is not rewritten")
    func unchanged() async throws {
        let url = try await recordedCassette()
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        let before = try Data(contentsOf: url)
        let title = try await runCassette(url.path, mode: nil, matcher: Matcher(), allowRepeats: false, requireAllPlayed: false,
                                          file: #filePath, environment: Self.verify, warn: { _ in }) { session in
            try await HTTPBinClient(session: session, baseURL: Self.live).slideshow().title
        }
        #expect(title == "Sample Slide Show")
        #expect(try Data(contentsOf: url) == before)
    }

    @Test("a recorded member the live API no longer sends fails the test with its pointer")
    func drifted() async throws {
        let url = try await recordedCassette()
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        var cassette = try Cassette.load(from: url)
        cassette.interactions[0].response.body = Data(#"{"slideshow": {"author": "Yours Truly", "date": 1, "slides": [], "title": "x", "legacy": true}}"#.utf8)
        try cassette.write(to: url)
        do {
            _ = try await runCassette(url.path, mode: nil, matcher: Matcher(), allowRepeats: false, requireAllPlayed: false,
                                      file: #filePath, environment: Self.verify, warn: { _ in }) { session in
                try await HTTPBinClient(session: session, baseURL: Self.live).slideshow()
            }
            Issue.record("verify mode did not fail on drift")
        } catch let error as CassetteDriftError {
            let text = error.errorDescription ?? ""
            #expect(text.contains("body /slideshow/legacy: bool → (absent) [removed]"))
            #expect(text.contains("body /slideshow/date: number → string [retyped]"))
            #expect(text.contains("TAPEDECK_RECORD_MODE=all swift test"))
        }
    }

    @Test("a request the cassette never recorded fails verify mode too")
    func unrecordedRequest() async throws {
        let url = try await recordedCassette()
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        await #expect(throws: CassetteDriftError.self) {
            _ = try await runCassette(url.path, mode: nil, matcher: Matcher(), allowRepeats: false, requireAllPlayed: false,
                                      file: #filePath, environment: Self.verify, warn: { _ in }) { session in
                try await HTTPBinClient(session: session, baseURL: Self.live).uuid()
            }
        }
    }
}
