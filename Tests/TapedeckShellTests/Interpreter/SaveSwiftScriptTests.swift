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

    /// A cassette path `c.json` in a folder of its own, removed when `body` ends.
    private func withCassettePath(_ body: (URL) async throws -> Void) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("save-swift-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try await body(folder.appendingPathComponent("c.json"))
    }

    @Test("a generated test holds no credential the script sends, from a variable or typed in it, in its requests or its comments")
    func generatedTestsAreRedacted() async throws {
        try await withCassettePath { cassette in
            try Data(#"{"version":1,"interactions":[{"duration":0.001,"recordedAt":"2026-11-22T00:58:26.489Z","request":{"headers":[["Authorization","Bearer <REDACTED>"]],"method":"GET","url":"http://h.local/p?password=%3CREDACTED%3E"},"response":{"status":200,"reason":"OK","headers":[],"body":{"text":"ok"}}}]}"#.utf8)
                .write(to: cassette)
            let script = "base http://h.local\nget /p password=={{pw}} 'Authorization:Bearer {{token}}'\nexpect 200\n"
                + "get /p password==typed-pw-0451 'Authorization:Bearer typed_token_0451'\nexpect 200\n"
            let text = try await SwiftTestGenerator.generate(script: script, named: "secrets.tape", cassette: cassette.path, cassetteFromTest: "c.json",
                                                             suite: "Secrets", variables: ["token": "sk_live_abcdef123456", "pw": "hunter2secret"])
            for secret in ["sk_live_abcdef123456", "hunter2secret", "typed-pw-0451", "typed_token_0451"] {
                #expect(!text.contains(secret), "\(secret) in \(text)")
            }
            #expect(text.contains("<REDACTED>"), "\(text)")
        }
    }

    @Test("at the prompt, a request the cassette does not hold gets a fix typed at the prompt, not a shell command")
    func promptWording() async throws {
        try await withCassettePath { cassette in
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
}
