import Foundation
import TapedeckTestSupport
import Testing

@Suite("Recording a request that does not complete", .enabled(if: HostileServerProcess.available, "needs python3 and the built binary"))
struct UnfinishedRecordingTests {
    @Test("a timed-out request or a decompression bomb is not saved as an interaction")
    func notSaved() throws {
        let server = try HostileServerProcess()
        defer { server.stop() }
        let directory = try TestScratch.directory("tapedeck-unfinished")
        defer { try? FileManager.default.removeItem(at: directory) }
        let script = directory.appendingPathComponent("s.tape")
        let cassette = directory.appendingPathComponent("c.cassette.json")
        // The bomb gets a generous timeout, so a loaded machine cannot turn it into a timeout.
        for (path, timeout, message) in [("/slow", "1", "timed out after 1 s"),
                                         ("/gzip-bomb?mb=64", "120", "looks like a decompression bomb")] {
            try Data("get \(server.url(path))\n".utf8).write(to: script)
            let result = try CLI.run(["run", script.path, "--record", cassette.path, "--mode", "all", "--timeout", timeout],
                                     environment: ["CI": ""])
            #expect(result.status == 3)
            #expect(result.stderr.contains(message), "\(result.stderr)")
            #expect(result.stderr.contains("0 recorded"), "\(result.stderr)")
            let saved = (try? Data(contentsOf: cassette)).map { String(decoding: $0, as: UTF8.self) } ?? ""
            #expect(!saved.contains(path), "the unfinished exchange reached the cassette")
        }
    }
}
