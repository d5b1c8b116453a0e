import Foundation
import Testing
@testable import TapedeckShell

@Suite("Paths in saved scripts")
struct SavedPathsTests {
    let work = URL(fileURLWithPath: "/home/ada/project")

    @Test("record, replay, include and openapi paths are re-expressed from the script's folder, flags kept",
          arguments: [
              ("replay Sessions/a.cassette.json --repeat", "/tmp/scripts", "replay ../../home/ada/project/Sessions/a.cassette.json --repeat"),
              ("record Sessions/a.json --mode new", "/home/ada/project/tests", "record ../Sessions/a.json --mode new"),
              ("include  login.tape  # shared", "/home/ada", "include  project/login.tape  # shared"),
              ("replay 'my tapes/a.json'", "/home/ada", "replay 'project/my tapes/a.json'"),
              ("replay Sessions/a.json", "/home/ada/project", "replay Sessions/a.json"),
              ("replay /abs/a.json", "/tmp", "replay /abs/a.json"),
              ("replay {{dir}}/a.json", "/tmp", "replay {{dir}}/a.json"),
              ("get /Sessions/a.json", "/tmp", "get /Sessions/a.json"),
              ("openapi specs/api.yaml", "/home/ada/project/tests", "openapi ../specs/api.yaml"),
              ("openapi off", "/tmp", "openapi off"),
          ])
    func rewrite(_ line: String, _ folder: String, _ expected: String) {
        #expect(SavedPaths.rewrite(line, from: work, to: URL(fileURLWithPath: folder)) == expected)
    }

    @Test("a rewritten line parses back to the same file")
    func roundTrip() throws {
        let line = SavedPaths.rewrite("replay \"it's here/a.json\"", from: work, to: URL(fileURLWithPath: "/srv"))
        let statement = try #require(try Parser.parseScript(line, file: "t").first)
        guard case .replay(let word, _) = statement.command else {
            Issue.record("not a replay line: \(line)")
            return
        }
        #expect(URL(fileURLWithPath: "/srv").appendingPathComponent(word.text).standardizedFileURL.path
            == "/home/ada/project/it's here/a.json")
    }
}
