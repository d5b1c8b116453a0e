import Foundation
import Testing
@testable import Tapedeck

/// The built `tapedeck` binary: convert and the cassette commands, output and exit codes.
@Suite("tapedeck convert and cassette commands (built binary)",
       .enabled(if: TapedeckBinary.path != nil, "needs the built tapedeck (make test sets TAPEDECK_BIN)"))
struct CommandLineTests {
    private func tapedeck(_ arguments: String..., usageDir: URL? = nil) throws -> (status: Int32, stdout: String, stderr: String) {
        var environment: [String: String] = [:]
        if let usageDir { environment["TAPEDECK_USAGE_DIR"] = usageDir.path }
        return try InteropFixtures.run(try #require(TapedeckBinary.path), arguments, environment: environment, timeout: 30)
    }

    @Test("convert goes YAML → HAR → native → YAML with nothing lost but credentials (cookies redacted), and names the format of each file")
    func convertChain() throws {
        let directory = try InteropFixtures.temporaryDirectory()
        let source = InteropFixtures.url("vcrpy-httpbin.yaml").path
        let har = directory.appendingPathComponent("a.har").path
        let native = directory.appendingPathComponent("a.cassette.json").path
        let yaml = directory.appendingPathComponent("a.yaml").path
        let first = try tapedeck("convert", source, har)
        #expect(first.status == 0)
        #expect(first.stdout == "converted 8 interactions: \(source) (vcrpy YAML) → \(har) (HAR 1.2)\n")
        #expect(try tapedeck("convert", har, native).status == 0)
        #expect(try tapedeck("convert", native, yaml).status == 0)
        // diff compares both sides redacted: the cookies convert redacted are no difference.
        let diff = try tapedeck("cassette", "diff", source, yaml)
        #expect(diff.stdout.hasSuffix("0 changed, 0 removed, 0 added, 8 unchanged\n"), "\(diff.stdout)")
        let replayed = try Cassette.load(from: URL(fileURLWithPath: native))
        #expect(replayed.interactions.contains { $0.response.headers.values(for: "Set-Cookie") == ["a=<REDACTED>", "b=<REDACTED>"] },
                "convert redacts what recording would")
        #expect(replayed.interactions[3].response.body == Data(base64Encoded: "RCCCPP3m8cJrMPkOx90B5A=="))
    }

    @Test("convert reads cassetter YAML by its content and writes it with --format cassetter or a .cassetter.yaml name")
    func convertCassetter() throws {
        let directory = try InteropFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let source = InteropFixtures.url("cassetter-sample.yaml").path
        let native = directory.appendingPathComponent("c.cassette.json").path
        let read = try tapedeck("convert", source, native)
        #expect(read.stdout == "converted 2 interactions: \(source) (cassetter YAML) → \(native) (Tapedeck JSON)\n", "\(read.stderr)")
        let cassette = try Cassette.load(from: URL(fileURLWithPath: native))
        #expect(String(decoding: cassette.interactions[0].request.body ?? Data(), as: UTF8.self)
            == #"{"name": "Ada", "n": 1, "f": 1.0, "password": "[FILTERED]"}"#)
        #expect(String(decoding: cassette.interactions[0].response.body, as: UTF8.self) == #"{"id": 7, "tags": ["a", "\u00e9"]}"#)
        #expect(cassette.interactions[0].response.headers.values(for: "x-twice") == ["1", "2"])
        #expect(cassette.interactions[0].response.headers["content-length"] == String(cassette.interactions[0].response.body.count),
                "fixed to the served bytes")
        #expect(cassette.interactions[1].response.body == Data([0x00, 0x01, 0xFE, 0xFF]))
        #expect(cassette.interactions[1].request.body == nil)

        let flagged = directory.appendingPathComponent("out.yaml").path
        let written = try tapedeck("convert", native, flagged, "--format", "cassetter")
        #expect(written.stdout.hasSuffix("→ \(flagged) (cassetter YAML)\n"), "\(written.stdout)\(written.stderr)")
        let named = directory.appendingPathComponent("out.cassetter.yaml").path
        #expect(try tapedeck("convert", native, named).status == 0)
        let text = try String(contentsOfFile: named, encoding: .utf8)
        #expect(text == (try String(contentsOfFile: flagged, encoding: .utf8)))
        #expect(text.contains("      type: json\n      content:\n        name: Ada\n        \"n\": 1\n        f: 1.0\n"), "\(text)")
        #expect(text.contains("      type: binary\n      content: '0001feff'\n"))
        let back = try Cassette.load(from: URL(fileURLWithPath: named))
        #expect(back.interactions.map(\.response.body) == cassette.interactions.map(\.response.body))
        #expect(back.interactions.map(\.request.body) == cassette.interactions.map(\.request.body))
        let bad = try tapedeck("convert", native, flagged, "--format", "xml")
        #expect(bad.status == 1 && bad.stderr.contains("--format 'xml' is not a cassette format; use native, vcr, cassetter or har"))
    }

    @Test("convert warns on stderr about what HAR cannot hold, and refuses unknown extensions")
    func convertWarnings() throws {
        let directory = try InteropFixtures.temporaryDirectory()
        let native = directory.appendingPathComponent("s.cassette.json")
        try InteropFixtures.sampleCassette().write(to: native)
        let har = directory.appendingPathComponent("s.har").path
        let result = try tapedeck("convert", native.path, har)
        #expect(result.status == 0)
        #expect(result.stderr == "tapedeck: warning: \(har): interactions[2].request.body: 8 bytes that are not UTF-8 "
            + "text; HAR 1.2 has no encoding for binary request bodies, so they are kept in postData._base64Body, "
            + "which only Tapedeck reads\n")
        let unknown = try tapedeck("convert", native.path, directory.appendingPathComponent("s.txt").path)
        #expect(unknown.status == 1)
        #expect(unknown.stderr == "tapedeck: error: s.txt: unknown cassette format; use .cassette.json or .json "
            + "(Tapedeck), .yaml or .yml (vcrpy), or .har (HAR 1.2)\n")
    }

    @Test("a malformed input names the file, the path inside it and the problem, with exit code 3")
    func malformedInput() throws {
        let directory = try InteropFixtures.temporaryDirectory()
        let bad = directory.appendingPathComponent("bad.har")
        try Data(#"{"log": {"entries": [{"startedDateTime": "2024-05-01T10:00:00Z", "request": {"method": "GET", "url": "http://x.test/", "headers": []}, "response": {"status": 200, "headers": [], "content": {"text": "!!", "encoding": "base64"}}}]}}"#.utf8).write(to: bad)
        let result = try tapedeck("cassette", "show", bad.path)
        #expect(result.status == 3)
        #expect(result.stderr == "tapedeck: error: \(bad.path): log.entries[0].response.content.text: not valid base64 (\"!!\")\n")
    }

    @Test("show prints the table; lint exits 4 on findings, only notes exact duplicates, and exits 0 on a clean cassette")
    func showAndLint() throws {
        let source = InteropFixtures.url("vcrpy-httpbin.yaml").path
        let show = try tapedeck("cassette", "show", source)
        #expect(show.status == 0)
        let lines = show.stdout.split(separator: "\n")
        #expect(lines.count == 10)
        #expect(lines[0] == "\(source) · vcrpy YAML · 8 interactions")
        #expect(lines[1].hasPrefix("#  METHOD  URL"))
        #expect(lines[6].contains("418") && lines[6].contains("135 B"))
        let clean = try tapedeck("cassette", "lint", source)
        #expect(clean.status == 0)
        let directory = try InteropFixtures.temporaryDirectory()
        var duplicated = InteropFixtures.sampleCassette()
        duplicated.interactions.append(duplicated.interactions[0])
        let file = directory.appendingPathComponent("dup.yaml")
        try duplicated.write(to: file, format: .vcrYAML)
        let lint = try tapedeck("cassette", "lint", file.path)
        #expect(lint.status == 0)
        #expect(lint.stdout.contains("note: interactions[5] repeats interactions[0] exactly; replay serves them in order"))
        #expect(lint.stdout.hasSuffix("no findings\n"))
        var leaky = InteropFixtures.sampleCassette()
        leaky.interactions[0].request.headers["Authorization"] = "Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhZGEifQ.c2lnbmF0dXJlc2ln"
        let leakyFile = directory.appendingPathComponent("leaky.yaml")
        try leaky.write(to: leakyFile, format: .vcrYAML)
        let findings = try tapedeck("cassette", "lint", leakyFile.path)
        #expect(findings.status == 4)
        #expect(findings.stdout.contains("interactions[0].request.headers.Authorization: [secret]"))
        #expect(findings.stdout.hasSuffix("1 finding\n"))
    }

    @Test("tapedeck run --replay passes when the usage record cannot be written, with a warning on stderr")
    func usageWarning() throws {
        let directory = try InteropFixtures.temporaryDirectory()
        let cassette = directory.appendingPathComponent("w.cassette.json")
        try InteropFixtures.sampleCassette().write(to: cassette)
        let script = directory.appendingPathComponent("s.tape")
        try Data("get http://127.0.0.1:8080/get?b=two%20words&a=1\nexpect 200\n".utf8).write(to: script)
        let blocker = directory.appendingPathComponent("blocker")
        try Data("x".utf8).write(to: blocker)
        let run = try tapedeck("run", "--replay", cassette.path, script.path, usageDir: blocker.appendingPathComponent("usage"))
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("warning: usage record not saved"))
        #expect(run.stderr.contains("set TAPEDECK_USAGE_DIR to a writable directory"))
        #expect(!run.stderr.contains("Fatal error"))
    }

    @Test("prune drops what the last replay run (tapedeck run --replay) never played, keeping the file's format")
    func prune() throws {
        let directory = try InteropFixtures.temporaryDirectory()
        let cassette = directory.appendingPathComponent("p.har")
        try InteropFixtures.sampleCassette().write(to: cassette, format: .har)
        let script = directory.appendingPathComponent("s.tape")
        try Data("get http://127.0.0.1:8080/get?b=two%20words&a=1\nexpect 200\npost http://127.0.0.1:8080/post name=Ada\nexpect 201\n".utf8)
            .write(to: script)
        let usage = directory.appendingPathComponent("usage")
        let run = try tapedeck("run", "--replay", cassette.path, script.path, usageDir: usage)
        #expect(run.status == 0, "\(run.stderr)")
        let dry = try tapedeck("cassette", "prune", "--dry-run", cassette.path, usageDir: usage)
        #expect(dry.stdout == "would drop #2 PUT http://127.0.0.1:8080/upload\nwould drop #3 PURGE http://127.0.0.1:8080/cache\n"
            + "would drop #4 GET http://127.0.0.1:8080/redirect/1\n")
        let pruned = try tapedeck("cassette", "prune", cassette.path, usageDir: usage)
        #expect(pruned.status == 0)
        #expect(pruned.stdout.hasSuffix("pruned 3 of 5 interactions from \(cassette.path); 2 left\n"))
        let left = try Cassette.load(from: cassette)
        #expect(left.interactions.map(\.request.url.path) == ["/get", "/post"])
        let again = try tapedeck("cassette", "prune", cassette.path, usageDir: usage)
        #expect(again.status == 3)
        #expect(again.stderr.contains("no usage record: replay p.har first"))
    }

    @Test("prune lists what it drops as show lists it: a key in a never-redacted HAR's URL is not printed")
    func pruneRedacts() throws {
        let directory = try InteropFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let cassette = directory.appendingPathComponent("p.har")
        try Cassette(interactions: [.make(.get, "http://127.0.0.1:8080/get"), .make(.get, "http://127.0.0.1:8080/keyed?api_key=k-prune-secret-1")])
            .write(to: cassette, format: .har)
        let script = directory.appendingPathComponent("s.tape")
        try Data("get http://127.0.0.1:8080/get\nexpect 200\n".utf8).write(to: script)
        let usage = directory.appendingPathComponent("usage")
        let run = try tapedeck("run", "--replay", cassette.path, script.path, usageDir: usage)
        #expect(run.status == 0, "\(run.stderr)")
        let dry = try tapedeck("cassette", "prune", "--dry-run", cassette.path, usageDir: usage)
        #expect(dry.stdout == "would drop #1 GET http://127.0.0.1:8080/keyed?api_key=%3CREDACTED%3E\n", "\(dry.stdout)")
    }
}

/// The tapedeck binary under test: `TAPEDECK_BIN`, else `<package root>/.build/debug/tapedeck`.
enum TapedeckBinary {
    static let path: String? = {
        if let path = ProcessInfo.processInfo.environment["TAPEDECK_BIN"] { return path }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let path = root.appendingPathComponent(".build/debug/tapedeck").path
        return FileManager.default.isExecutableFile(atPath: path) ? path : nil
    }()
}
