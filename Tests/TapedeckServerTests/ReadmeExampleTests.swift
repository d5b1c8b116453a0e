import Foundation
import Tapedeck
import TapedeckServer
import TapedeckTestSupport
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// The in-process example of the README ("Serve cassettes and record through a proxy"),
// compiled and run as it is printed there, with the cassette written first.

/// A spawned process, AsyncHTTPClient or a UI-test host app talks to `server.url`.
@Test("README: a replay server on a free port inside a test")
func readmeReplayServerInATest() async throws {
    let cassette = TestScratch.path("readme").appendingPathExtension("cassette").appendingPathExtension("json")
    defer { try? FileManager.default.removeItem(at: cassette) }
    try SampleCassettes.api().write(to: cassette)

    // --- README ---
    let server = try await CassetteServer.serve([cassette])          // port 0: a free port
    let (data, response) = try await URLSession.shared.data(from: server.url.appending(path: "users"))
    #expect((response as? HTTPURLResponse)?.statusCode == 200)
    #expect(String(decoding: data, as: UTF8.self).contains("Ada"))
    let summary = await server.stop()                                // "replay … · 1 played · 5 unused …"
    // --- README ---

    #expect(summary.contains("1 played"))
}

/// The README's server example is the code of ReadmeServerExample.swift, which this target
/// compiles and runs: the two cannot drift apart.
@Test("README: the server example is the compiled ReadmeServerExample.swift, byte for byte")
func readmeServerExampleIsCompiled() throws {
    let tests = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    let readme = try String(contentsOf: tests.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("README.md"), encoding: .utf8)
    let source = try String(contentsOf: tests.appendingPathComponent("ReadmeServerExample.swift"), encoding: .utf8)
    let code = try #require(source.range(of: "import Foundation\n").map { String(source[$0.lowerBound...]) })
    #expect(readme.contains("```swift\n" + code + "```"), "README and ReadmeServerExample.swift differ")
}
