import Foundation
import Tapedeck
import TapedeckTestSupport
import Testing

@Suite("save writes scripts that run from anywhere", .enabled(if: CLI.isAvailable, "needs the built tapedeck binary (make test sets TAPEDECK_BIN)"))
struct SavedScriptTests {
    @Test("a session saved into another folder replays its cassette when run from a third directory")
    func savedElsewhereRunsFromAnywhere() throws {
        let root = TestScratch.path("tapedeck-save")
        defer { try? FileManager.default.removeItem(at: root) }
        let work = root.appendingPathComponent("work"), other = root.appendingPathComponent("other")
        for folder in [work, other] { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
        let url = try #require(URL(string: "http://127.0.0.1:1/thing"))
        let interaction = Interaction(request: HTTPRequest(method: .get, url: url),
                                      response: HTTPResponse(status: 200, headers: ["Content-Type": "application/json"], body: Data(#"{"ok":true}"#.utf8)),
                                      recordedAt: Date(timeIntervalSince1970: 0))
        try Cassette(interactions: [interaction]).write(to: work.appendingPathComponent("Sessions/api.cassette.json"), format: .native)
        let input = root.appendingPathComponent("input.txt")
        try Data("""
            replay Sessions/api.cassette.json
            get http://127.0.0.1:1/thing
            expect json $.ok == true
            save ../scripts/smoke.tape

            """.utf8).write(to: input)
        let repl = try CLI.run(["repl"], directory: work, stdin: input)
        #expect(repl.status == 0, "\(repl.stderr)")
        let script = try String(contentsOf: root.appendingPathComponent("scripts/smoke.tape"), encoding: .utf8)
        #expect(script.contains("replay ../work/Sessions/api.cassette.json\n"), "\(script)")

        let run = try CLI.run(["run", "../scripts/smoke.tape"], directory: other)
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("1 passed, 0 failed") || run.stderr.contains("1 passed, 0 failed"), "\(run.stdout)\(run.stderr)")
    }

    @Test("a script's missing cassette is reported with the fix as the script writes it, wherever it is run from")
    func missingCassetteHintFromAnotherDirectory() throws {
        let root = TestScratch.path("tapedeck-hint")
        defer { try? FileManager.default.removeItem(at: root) }
        let scripts = root.appendingPathComponent("scripts")
        try FileManager.default.createDirectory(at: scripts, withIntermediateDirectories: true)
        try Data("replay Sessions/gone.cassette.json\n".utf8).write(to: scripts.appendingPathComponent("s.tape"))
        let run = try CLI.run(["run", "scripts/s.tape"], directory: root)
        #expect(run.status == 3)
        #expect(run.stderr.contains("record it first: record Sessions/gone.cassette.json"), "\(run.stderr)")
        #expect(!run.stderr.contains("record scripts/"), "\(run.stderr)")
    }
}
