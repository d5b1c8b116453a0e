import Foundation
import Tapedeck
import TapedeckTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Bad paths and values given to `run`, `repl` and `convert`: refused before any work, exit 1
/// (usage), one line naming the option, the path and the fix.
@Suite("tapedeck run, repl, convert: bad invocations", .enabled(if: CLI.isAvailable, "needs the built tapedeck binary (make test sets TAPEDECK_BIN)"))
struct BadInvocationTests {
    /// A temporary directory holding `script.tape` (which prints RAN) and a regular file `plain`.
    final class Folder {
        let url: URL
        init() throws {
            url = try TestScratch.directory("tapedeck-badinv")
            try Data("print RAN\n".utf8).write(to: url.appendingPathComponent("script.tape"))
            try Data("x".utf8).write(to: url.appendingPathComponent("plain"))
        }
        func path(_ name: String) -> String { url.appendingPathComponent(name).path }
        deinit { try? FileManager.default.removeItem(at: url) }
    }

    private func expectUsage(_ result: CLI.Result, _ fragments: [String]) {
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderr.hasPrefix("tapedeck: error: ") || result.stderr.hasPrefix("<command line>"), "\(result.stderr)")
        for fragment in fragments { #expect(result.stderr.contains(fragment), "\(result.stderr) lacks \(fragment)") }
        #expect(!result.stdout.contains("RAN"), "the script ran before the bad option was refused")
    }

    @Test("--timeout -5 for run and repl says the value must be positive")
    func negativeTimeout() throws {
        let folder = try Folder()
        expectUsage(try CLI.run(["run", "--timeout", "-5", folder.path("script.tape")]), ["--timeout -5 must be a positive number of seconds"])
        expectUsage(try CLI.run(["repl", "--timeout", "-5"]), ["--timeout -5 must be a positive number of seconds"])
    }

    @Test("a report path that is a directory, or under a file, is refused before the run, naming the report and the path")
    func reportPaths() throws {
        let folder = try Folder()
        expectUsage(try CLI.run(["run", "--report-tap", folder.url.path, folder.path("script.tape")]),
                    ["--report-tap \(folder.url.path): it is a directory; name a file inside it"])
        let underFile = folder.path("plain/dir/j.xml")
        expectUsage(try CLI.run(["run", "--report-junit", underFile, folder.path("script.tape")]),
                    ["--report-junit \(underFile)", "\(folder.path("plain")) is not a directory"])
        expectUsage(try CLI.run(["run", "--record", folder.url.path, folder.path("script.tape")]),
                    ["--record \(folder.url.path): it is a directory"])
        #if os(Linux)
        // A file system that takes no new files, whatever its permission bits say (to a superuser,
        // they say it is writable).
        for (option, path) in [("--report-junit", "/proc/j.xml"), ("--record", "/proc/x.cassette.json")] {
            let result = try CLI.run(["run", option, path, folder.path("script.tape")])
            expectUsage(result, ["\(option) \(path): "])
            #expect(result.stderr.contains("files cannot be made in /proc") || result.stderr.contains("/proc is not writable"), "\(result.stderr)")
        }
        #endif
    }

    @Test("every output creates its missing parent directories: reports and convert's OUT (as cassettes do)")
    func outputsCreateDirectories() throws {
        let folder = try Folder()
        let junit = folder.path("reports/a/junit.xml"), tap = folder.path("reports/b/run.tap")
        let result = try CLI.run(["run", "--report-junit", junit, "--report-tap", tap, folder.path("script.tape")])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("RAN"))
        #expect(FileManager.default.fileExists(atPath: junit))
        #expect(FileManager.default.fileExists(atPath: tap))
        let cassette = folder.path("in.yaml")
        try Data("""
            interactions:
            - request: {method: GET, uri: 'http://127.0.0.1/x', body: null, headers: {}}
              response: {status: {code: 200, message: OK}, headers: {}, body: {string: hi}}
            version: 1

            """.utf8).write(to: URL(fileURLWithPath: cassette))
        let converted = folder.path("converted/d/out.har")
        let conversion = try CLI.run(["convert", cassette, converted])
        #expect(conversion.status == 0, "\(conversion.stderr)")
        #expect(FileManager.default.fileExists(atPath: converted))
        expectUsage(try CLI.run(["convert", cassette, folder.path("plain/x.har")]), ["is not a directory"])
    }

    @Test("repl with a malformed base URL or a missing replay cassette exits with the usage code 1")
    func replUsage() throws {
        expectUsage(try CLI.run(["repl", "http://[bad"]), ["'http://[bad'"])
        let folder = try Folder()
        expectUsage(try CLI.run(["repl", "--replay", folder.path("missing.cassette.json")]),
                    ["--replay \(folder.path("missing.cassette.json")): no such cassette", "--record"])
        expectUsage(try CLI.run(["run", "--replay", folder.path("missing.cassette.json"), folder.path("script.tape")]),
                    ["no such cassette"])
    }

    @Test("run --replay of a cassette a killed recording left as its journal alone merges the journal and replays it")
    func replayJournalOnly() async throws {
        let folder = try Folder()
        let url = URL(fileURLWithPath: folder.path("left.cassette.json"))
        let recorder = try RecordingTransport(configuration: CassetteConfiguration(url, mode: .all, environment: [:]),
                                              inner: StubTransport { _ in HTTPResponse(status: 200, body: Data("from the journal".utf8)) })
        _ = try await recorder.send(HTTPRequest(url: URL(string: "http://api.test/x")!))
        #expect(!FileManager.default.fileExists(atPath: url.path) && FileManager.default.fileExists(atPath: url.path + ".journal"))
        try Data("get http://api.test/x\nexpect body contains \"from the journal\"\n".utf8).write(to: URL(fileURLWithPath: folder.path("j.tape")))
        let result = try CLI.run(["run", "--replay", url.path, folder.path("j.tape")])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        withExtendedLifetime(recorder) {}
    }

    @Test("Ctrl-C stops run: the scripts not begun are not run, what ran is summed up and reported, and it exits 130")
    func interrupted() throws {
        // A server that takes connections and never answers.
        let listener = try #require(LoopbackSocket.make(listening: 8))
        defer { close(listener.fd) }
        let folder = try Folder()
        try Data("print FIRST\nget http://127.0.0.1:\(listener.port)/hang\n".utf8).write(to: URL(fileURLWithPath: folder.path("a.tape")))
        try Data("print SECOND\n".utf8).write(to: URL(fileURLWithPath: folder.path("b.tape")))
        let binary = try #require(CLI.binary)
        let script = #""$0" run --jobs 1 --timeout 60 --report-junit "$1" "$2" "$3" > "$4" 2>&1 & pid=$!; sleep 2; kill -INT $pid; wait $pid; echo "exit $?" >> "$4""#
        _ = try CLI.run(["-c", script, binary.path, folder.path("r.xml"), folder.path("a.tape"), folder.path("b.tape"), folder.path("out")],
                        executable: URL(fileURLWithPath: "/bin/sh"))
        let out = try String(contentsOf: URL(fileURLWithPath: folder.path("out")), encoding: .utf8)
        #expect(out.contains("FIRST") && !out.contains("SECOND"), "\(out)")
        #expect(out.contains("0 passed, 1 failed") && out.hasSuffix("exit 130\n"), "\(out)")
        #expect(FileManager.default.fileExists(atPath: folder.path("r.xml")), "the report is written")
    }

    @Test("run DIR says it is a directory and how to run the scripts in it")
    func runDirectory() throws {
        let folder = try Folder()
        expectUsage(try CLI.run(["run", folder.url.path]), ["'\(folder.url.path)' is a directory", "tapedeck run \(folder.url.path)/*.tape"])
    }

    @Test("convert given a FIFO says it is a named pipe, not a permission problem")
    func convertFIFO() throws {
        let folder = try Folder()
        let fifo = folder.path("pipe.har")
        #expect(mkfifo(fifo, 0o600) == 0)
        let result = try CLI.run(["convert", fifo, folder.path("out.yaml")])
        #expect(result.status == 3)
        #expect(result.stderr.contains("\(fifo): it is a FIFO (named pipe), not a regular file"), "\(result.stderr)")
        #expect(!result.stderr.contains("Permission denied"))
    }
}
