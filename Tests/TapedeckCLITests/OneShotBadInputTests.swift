import Foundation
import TapedeckTestSupport
import Testing

@Suite("tapedeck one-shot: bad input", .enabled(if: CLI.isAvailable, "needs the built tapedeck binary (make test sets TAPEDECK_BIN)"))
struct OneShotBadInputTests {
    /// Each case: arguments, exit code, and fragments the one-line error must contain.
    static let cases: [([String], Int32, [String])] = [
        (["http://exa mple.org/"], 1, ["'http://exa mple.org/'", "contains a space"]),
        (["ftp://example.org/x"], 1, ["'ftp://example.org/x'", "http:// or https://"]),
        (["http://h:99999999/"], 1, ["port"]),
        (["GTE", ":1/x"], 1, ["unknown method 'GTE'", "did you mean GET?"]),
        (["fetch", ":1/x"], 1, ["unknown method 'fetch'"]),
        ([":1/x", "a:=not json"], 1, ["'a:=not json'", "column 1", "quote strings"]),
        ([":1/x", "doc@/no/such/file.png"], 1, ["'doc@/no/such/file.png'", "no such file"]),
        ([":1/x", "t=@/no/such.txt"], 1, ["'t=@/no/such.txt'", "no such file"]),
        ([":1/x", "bad name:x"], 1, ["'bad name'", "not a valid header name"]),
        ([":1/x", "hello"], 1, ["'hello' is not a request item", "Name:value"]),
        ([":1/x", "a=1", "--form", "--multipart"], 1, ["--form and --multipart"]),
        ([":1/x", "a=1", "--raw", "x"], 1, ["raw body", "a=1"]),
        ([":1/x", "--print", "hz"], 1, ["--print 'hz'", "H (request headers)"]),
        ([":1/x", "--pretty", "loud"], 1, ["--pretty 'loud'", "all, colors, format or none"]),
        ([":1/x", "--frobnicate"], 1, ["unknown option '--frobnicate'"]),
        ([":1/x", "--timeout", "soon"], 1, ["timeout"]),
        ([":1/x", "--timeout=nan"], 1, ["--timeout nan must be a positive number of seconds", "e.g. --timeout 30"]),
        ([":1/x", "--timeout=1e400"], 1, ["--timeout inf is more than 2000000 seconds"]),
        ([":1/x", "--timeout=0"], 1, ["--timeout 0 must be a positive number of seconds"]),
        ([":1/x", "--timeout", "-5"], 1, ["--timeout -5 must be a positive number of seconds"]),
        (["GET"], 1, ["no URL given", "tapedeck [METHOD] URL"]),
    ]

    @Test("bad input exits non-zero with one line naming the input and the fix, never a backtrace", arguments: cases)
    func badInput(_ arguments: [String], _ status: Int32, _ fragments: [String]) throws {
        let result = try CLI.run(arguments)
        #expect(result.status == status, "\(arguments): \(result.stderr)")
        #expect(result.stderr.hasPrefix("tapedeck: error: "), "\(result.stderr)")
        for fragment in fragments { #expect(result.stderr.contains(fragment), "\(result.stderr) lacks \(fragment)") }
        #expect(!result.stderr.contains("Stack dump") && !result.stderr.contains("Fatal error"))
        #expect(result.stdout.isEmpty)
    }

    @Test("an unreadable file names the file")
    func unreadable() throws {
        let file = TestScratch.path("tapedeck-locked").appendingPathExtension("txt")
        try Data("x".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        try FileManager.default.setAttributes([.posixPermissions: 0o000], ofItemAtPath: file.path)
        guard !FileManager.default.isReadableFile(atPath: file.path) else { return }  // root reads anything
        let result = try CLI.run([":1/x", "doc@\(file.path)"])
        #expect(result.status == 1)
        #expect(result.stderr.contains(file.path) && result.stderr.contains("unreadable"))
    }

    @Test("a refused connection exits 3 naming host and port")
    func refused() throws {
        let result = try CLI.run(["http://127.0.0.1:9/"])
        #expect(result.status == 3)
        #expect(result.stderr == "tapedeck: error: cannot connect to 127.0.0.1:9: connection refused; is the server running and listening on that port?\n")
    }

    @Test("subcommand names dispatch to their subcommands, 'help' shows the full help")
    func subcommands() throws {
        let run = try CLI.run(["run", "--help"])
        #expect(run.status == 0)
        #expect(run.stdout.contains("USAGE: tapedeck run"))
        let help = try CLI.run(["help"])
        #expect(help.status == 0 && help.stdout.contains("EXIT CODES"))
        let missing = try CLI.run(["convert"])
        #expect(missing.status == 1)
        #expect(missing.stderr.hasSuffix("(see tapedeck convert --help)\n"), "\(missing.stderr)")
    }

    @Test("--version and --help print to stdout and exit 0; help documents the exit codes")
    func versionAndHelp() throws {
        let version = try CLI.run(["--version"])
        #expect(version.status == 0)
        #expect(version.stdout.range(of: #"^\d+\.\d+\.\d+\n$"#, options: .regularExpression) != nil)
        let help = try CLI.run(["--help"])
        #expect(help.status == 0)
        for fragment in ["EXIT CODES", "3  transport failure", "4  with --check-status", "name:=json", "--insecure"] {
            #expect(help.stdout.contains(fragment), "help lacks \(fragment)")
        }
    }
}
