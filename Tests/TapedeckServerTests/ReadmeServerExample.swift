// The README's example of a replay server inside a test ("A server inside your tests"),
// byte for byte: ReadmeServerExampleTests requires the README to hold this file's code, and
// the test below runs it against __Cassettes__/api.cassette.json.

import Foundation
import TapedeckServer
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking   // on Linux
#endif

@Test func hostAppReadsUsers() async throws {
    let cassette = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("__Cassettes__/api.cassette.json")  // next to this test file
    let server = try await CassetteServer.serve([cassette])          // port 0: a free port
    let (data, response) = try await URLSession.shared.data(from: server.url.appending(path: "users"))
    #expect((response as? HTTPURLResponse)?.statusCode == 200)
    #expect(String(decoding: data, as: UTF8.self).contains("Ada"))
    let summary = await server.stop()                                // "replay api.cassette.json · … · 1 played …"
    #expect(summary.contains("1 played"))
}
