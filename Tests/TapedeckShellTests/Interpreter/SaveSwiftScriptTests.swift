import Foundation
import Tapedeck
import TapedeckTooling
import Testing
@testable import TapedeckShell

@Suite("save --swift: what the test replays")
struct SaveSwiftScriptTests {
    @Test("the Swift script of a session: cassette commands out, requests before the cassette out, set-up kept")
    func swiftScript() {
        let history = ["base http://h", "get /early", "expect 200", "capture t = json $.t", "set user = ada", "PURGE /cache",
                       "record c.json", "get /a", "expect 200", "live", "post /b name=x"]
        #expect(Interpreter.swiftScript(from: history) == "base http://h\nset user = ada\nget /a\nexpect 200\npost /b name=x\n")
    }

    @Test("at the prompt, a request the cassette does not hold gets a fix typed at the prompt, not a shell command")
    func promptWording() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("save-swift-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let cassette = folder.appendingPathComponent("c.json")
        try Cassette(interactions: []).write(to: cassette)
        for (wording, fix, not) in [(FixContext.repl, "record it: record ", "tapedeck run"),
                                    (nil, "tapedeck run session", "record it: record ")] {
            do {
                _ = try await SwiftTestGenerator.generate(script: "get http://h/x\n", named: "session", cassette: cassette.path,
                                                          cassetteFromTest: "c.json", suite: "S", variables: [:], generatedBy: nil,
                                                          wording: wording)
                Issue.record("a request the cassette does not hold was generated")
            } catch {
                let message = error.localizedDescription
                #expect(message.contains(fix) && !message.contains(not), "\(message)")
            }
        }
    }
}
