import Foundation
import Tapedeck
import TapedeckServer
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `tapedeck serve` and `tapedeck proxy` as a user runs them: the URL printed, --port-file,
/// the tape summary on Ctrl-C/SIGTERM, and clear errors for bad input.
@Suite("serve and proxy commands", .enabled(if: Proc.tapedeck != nil))
struct ServeCommandTests {
    @Test("serve prints its URL, writes --port-file, and on Ctrl-C prints the tape summary and exits 0")
    func summaryOnInterrupt() async throws {
        let directory = try Proc.temporaryDirectory()
        defer { Proc.cleanUp(directory) }
        let file = try SampleCassettes.write(SampleCassettes.api(), to: directory)
        let portFile = directory.appendingPathComponent("port")
        let server = try await ServerProcess(["serve", file.path, "--port-file", portFile.path],
                                             environment: ["TAPEDECK_USAGE_DIR": directory.path])
        #expect(try String(contentsOf: portFile, encoding: .utf8) == "\(server.url.port ?? -1)\n")
        _ = try await Proc.run(Proc.curl, ["-s", server.url.absoluteString + "/users"])
        _ = try await Proc.run(Proc.curl, ["-s", server.url.absoluteString + "/missing"])
        let (status, stderr) = await server.stop(signal: SIGINT)
        #expect(status == 0)
        #expect(stderr.contains("api.cassette.json · 0 recorded · 1 played · 5 unused · 6 in cassette"), "\(stderr)")
        #expect(stderr.contains("1 unmatched request"))
        #expect(stderr.contains("unmatched: no recorded interaction matches GET"), "unmatched requests are logged to stderr")
    }

    @Test("serve writes its control token beside --port-file, readable by its owner only even over an old file, and the endpoints need it")
    func controlToken() async throws {
        let directory = try Proc.temporaryDirectory()
        defer { Proc.cleanUp(directory) }
        let file = try SampleCassettes.write(SampleCassettes.api(), to: directory)
        let portFile = directory.appendingPathComponent("port")
        // A token file left from before, readable by all, is replaced by one that is not.
        let tokenFile = directory.appendingPathComponent("port.token")
        try Data("old\n".utf8).write(to: tokenFile)
        chmod(tokenFile.path, 0o666)
        let server = try await ServerProcess(["serve", file.path, "--port-file", portFile.path, "--cassette-dir", directory.path],
                                             environment: ["TAPEDECK_USAGE_DIR": directory.path])
        let token = try String(contentsOf: tokenFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        let mode = try FileManager.default.attributesOfItem(atPath: tokenFile.path)[.posixPermissions] as? Int
        #expect(token.count == 32 && mode == 0o600, "\(token) \(String(mode ?? 0, radix: 8))")
        let status = server.url.absoluteString + "/__tapedeck/status"
        let without = try await Proc.run(Proc.curl, ["-s", "-o", "/dev/null", "-w", "%{http_code}", status])
        let with = try await Proc.run(Proc.curl, ["-s", "-o", "/dev/null", "-w", "%{http_code}", "-H", "X-Tapedeck-Token: \(token)", status])
        #expect(without.text == "401" && with.text == "200", "\(without.text) \(with.text)")
        let (exit, stderr) = await server.stop(signal: SIGINT)
        #expect(exit == 0)
        #expect(!stderr.contains(token), "the token is printed once on stdout, never logged")
    }

    @Test("SIGTERM stops a proxy with everything recorded on disk", .enabled(if: Proc.httpbin != nil))
    func proxyFlushesOnTerm() async throws {
        let upstream = try #require(Proc.httpbin)
        let directory = try Proc.temporaryDirectory()
        defer { Proc.cleanUp(directory) }
        let cassette = directory.appendingPathComponent("term.cassette.json")
        let proxy = try await ServerProcess(["proxy", upstream.absoluteString, "--record", cassette.path, "--mode", "all"],
                                            environment: ["TAPEDECK_RECORD_MODE": "", "TAPEDECK_USAGE_DIR": directory.path])
        for index in 0..<3 { _ = try await Proc.run(Proc.curl, ["-s", proxy.url.absoluteString + "/anything/\(index)"]) }
        let (status, stderr) = await proxy.stop(signal: SIGTERM)
        #expect(status == 0)
        #expect(stderr.contains("3 recorded"), "\(stderr)")
        #expect(try Cassette.load(from: cassette).interactions.count == 3)
    }

    @Test("a proxy whose cassette cannot be written at the stop says so and exits 3, its journal kept", .enabled(if: Proc.httpbin != nil))
    func proxyWriteFailureExits3() async throws {
        let upstream = try #require(Proc.httpbin)
        let directory = try Proc.temporaryDirectory()
        defer { Proc.cleanUp(directory) }
        let cassette = directory.appendingPathComponent("broken.cassette.json")
        let proxy = try await ServerProcess(["proxy", upstream.absoluteString, "--record", cassette.path, "--mode", "all"],
                                            environment: ["TAPEDECK_RECORD_MODE": "", "TAPEDECK_USAGE_DIR": directory.path])
        _ = try await Proc.run(Proc.curl, ["-s", proxy.url.absoluteString + "/anything/1"])
        try Data("not json {".utf8).write(to: cassette)
        let (status, stderr) = await proxy.stop(signal: SIGINT)
        #expect(status == 3 && stderr.contains("not valid JSON"), "\(status) \(stderr)")
        #expect(FileManager.default.fileExists(atPath: cassette.path + ".journal"), "the recording is kept in the journal")
    }

    @Test("--max-upstream-body: a larger answer is a 502 naming the flag, and a smaller one is recorded", .enabled(if: Proc.httpbin != nil))
    func upstreamBodyLimit() async throws {
        let upstream = try #require(Proc.httpbin)
        let directory = try Proc.temporaryDirectory()
        defer { Proc.cleanUp(directory) }
        let cassette = directory.appendingPathComponent("limit.cassette.json")
        let proxy = try await ServerProcess(["proxy", upstream.absoluteString, "--record", cassette.path, "--mode", "all", "--max-upstream-body", "1K"],
                                            environment: ["TAPEDECK_RECORD_MODE": "", "TAPEDECK_USAGE_DIR": directory.path])
        let large = try await Proc.run(Proc.curl, ["-s", "-w", "\n%{http_code}", proxy.url.absoluteString + "/bytes/2048"])
        let small = try await Proc.run(Proc.curl, ["-s", "-o", "/dev/null", "-w", "%{http_code}", proxy.url.absoluteString + "/bytes/512"])
        let (status, _) = await proxy.stop(signal: SIGTERM)
        #expect(status == 0)
        #expect(large.text.hasSuffix("\n502") && large.text.contains("--max-upstream-body"), "\(large.text)")
        #expect(small.text == "200")
        #expect(try Cassette.load(from: cassette).interactions.map(\.request.url.path) == ["/bytes/512"])
    }

    @Test("bad input names the problem and exits 1; a missing cassette exits 3", arguments: [
        (["serve"], Int32(1), "give at least one cassette"),
        (["serve", "x.json", "--fault", "/a=explode"], Int32(1), "is not a fault rule"),
        (["serve", "x.json", "--latency", "soon"], Int32(1), "is not a latency"),
        (["serve", "x.json", "--unmatched", "forward"], Int32(1), "--unmatched forward needs --upstream"),
        (["serve", "x.json", "--mount", "v1=x.json"], Int32(1), "is not /prefix=CASSETTE"),
        (["serve", "x.json", "--mount", "/a\r\nb=x.json"], Int32(1), "holds the control character 0x0D"),
        (["serve", "x.json", "--mount", "/v1/../x=x.json"], Int32(1), "no . or .. segment"),
        (["serve", "x.json", "--mount", "/v1/%2e%2e/x=x.json"], Int32(1), "no . or .. segment"),
        (["proxy", "not a url", "--record", "x.json"], Int32(1), "is not an http or https URL with a host"),
        (["serve", "x.json", "--upstream", "ftp://h/"], Int32(1), "is not an http or https URL with a host"),
        (["serve", "x.json", "--upstream", "http://127.0.0.1:9/api#top"], Int32(1), "has a fragment"),
        (["serve", "/no/such/dir/x.cassette.json", "--port", "0"], Int32(3), "x.cassette.json"),
        (["serve", "x.json", "--control-token", "short"], Int32(1), "--control-token must be at least 16"),
        (["serve", "x.json", "--read-timeout", "1e10"], Int32(1), "--read-timeout 10000000000.0 is more than 2000000 seconds"),
        (["proxy", "http://127.0.0.1:9", "--record", "/proc/x.cassette.json"], Int32(3), "cannot write cassette /proc/x.cassette.json: files cannot be made in /proc"),
        (["serve", "x.json", "--fault", "users/*=status:500"], Int32(1), "a path starts with / (or is *)"),
        (["serve", "x.json", "--cassette-dir", "/no/such/dir"], Int32(1), "--cassette-dir '/no/such/dir' is not a folder"),
    ])
    func badInput(arguments: [String], status: Int32, message: String) async throws {
        let result = try await Proc.run(try #require(Proc.tapedeck), arguments)
        #expect(result.status == status, "\(result.stderr)")
        #expect(result.stderr.contains(message), "\(result.stderr)")
    }

    @Test("an upstream with a query is refused, never quoted: it would be dropped from every request, and it is where a key sits")
    func upstreamWithAQuery() async throws {
        let result = try await Proc.run(try #require(Proc.tapedeck),
                                        ["proxy", "http://admin:hunter2@127.0.0.1:9/base?password=PWQ44&token=TOK45", "--record", "x.json"])
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderr.contains("the upstream http://admin:%3CREDACTED%3E@127.0.0.1:9/base has a query"), "\(result.stderr)")
        #expect(result.stderr.contains("tapedeck proxy http://admin:PASSWORD@127.0.0.1:9/base --record"), "the example to copy names the word to fill in: \(result.stderr)")
        for secret in ["PWQ44", "TOK45", "hunter2"] { #expect(!(result.text + result.stderr).contains(secret)) }
        // A password typed with a raw '/', '?' or '#', or an upstream typed without its scheme,
        // is never quoted, in whole or in part.
        for upstream in ["http://user:pa?ss_SECRET9@127.0.0.1:9", "http://user:pa/ss_SECRET9@127.0.0.1:9", "user:s3cretpw_SECRET9@127.0.0.1:9"] {
            let refused = try await Proc.run(try #require(Proc.tapedeck), ["proxy", upstream, "--record", "x.json"])
            #expect(refused.status == 1, "\(refused.stderr)")
            #expect(!refused.stderr.contains("SECRET9") && !refused.stderr.contains("user:pa") && !refused.stderr.contains("s3cretpw"), "\(refused.stderr)")
        }
        // An upstream that does not parse is quoted with its control characters escaped.
        let typed = try await Proc.run(try #require(Proc.tapedeck), ["proxy", "\u{1B}]0;owned\u{07}nope", "--record", "x.json"])
        #expect(typed.status == 1, "\(typed.stderr)")
        #expect(typed.stderr.contains(#"'\u{1b}]0;owned\u{7}nope'"#) && !typed.stderr.contains("\u{1B}"), "\(typed.stderr)")
    }

    @Test("in code, an upstream with a query or of another scheme and a mount prefix with a .. segment are refused as on the command line, and nothing listens")
    func libraryRefusals() async throws {
        let directory = try Proc.temporaryDirectory()
        defer { Proc.cleanUp(directory) }
        let upstream = try #require(URL(string: "http://127.0.0.1:9/base?api_key=KEY46"))
        let proxied = await #expect(throws: ServerError.self) {
            try await CassetteServer.proxy(to: upstream, recordingTo: directory.appending(path: "x.json"))
        }
        let proxyMessage = proxied?.errorDescription ?? ""
        #expect(proxyMessage.contains("the upstream http://127.0.0.1:9/base has a query") && !proxyMessage.contains("KEY46"), "\(proxyMessage)")
        for text in ["ftp://127.0.0.1:9/base", "file:///tmp/x", "http:/path-only"] {
            let refused = await #expect(throws: ServerError.self) {
                try await CassetteServer.proxy(to: URL(string: text), recordingTo: directory.appending(path: "x.json"))
            }
            #expect(refused?.errorDescription?.contains("is not an http or https URL with a host") == true, "\(text): \(String(describing: refused))")
        }
        let cassette = try SampleCassettes.write(SampleCassettes.api(), to: directory)
        let served = await #expect(throws: ServerError.self) {
            try await CassetteServer.serve([], mounts: [(prefix: "/v1/%2e%2e", cassette: cassette)])
        }
        #expect(served?.errorDescription?.contains("no . or .. segment") == true, "\(String(describing: served))")
    }
}
