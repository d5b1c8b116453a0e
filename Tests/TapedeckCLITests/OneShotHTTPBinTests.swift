import Foundation
import TapedeckTestSupport
import Testing

@Suite("tapedeck one-shot against httpbin", .enabled(if: CLI.isAvailable && CLI.httpbin != nil, "needs the built binary and httpbin (make test)"))
struct OneShotHTTPBinTests {
    private var base: String { CLI.httpbin ?? "" }

    private func json(_ text: String) throws -> [String: Any] {
        try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] ?? [:]
    }

    @Test("piped output is the raw body only, so it can go to jq")
    func piped() throws {
        let result = try CLI.run(["\(base)/get", "q==a b+c&d", "X-Trace:abc"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty)
        let body = try json(result.stdout)
        #expect((body["args"] as? [String: String])?["q"] == "a b+c&d")
        #expect((body["headers"] as? [String: String])?["X-Trace"] == "abc")
        #expect((body["headers"] as? [String: String])?["User-Agent"]?.hasPrefix("tapedeck/") == true)
    }

    @Test("an explicit --pretty formats a piped body, as HTTPie's does")
    func prettyPiped() throws {
        let result = try CLI.run(["--ignore-stdin", "\(base)/json", "--pretty=format"])
        #expect(result.status == 0 && result.stdout.contains("\n    \"slideshow\": {"), "\(result.stdout)")
    }

    @Test("--follow sends the cookies a redirect sets with the request it leads to, as HTTPie does")
    func cookiesAcrossRedirects() throws {
        let result = try CLI.run(["--ignore-stdin", "--follow", "\(base)/cookies/set?a=1"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect((try json(result.stdout)["cookies"] as? [String: String]) == ["a": "1"], "\(result.stdout)")
    }

    @Test("a download's --timeout bounds connecting and silence, not the whole transfer")
    func downloadTimeoutIsSilence() throws {
        let file = TestScratch.path("tapedeck-drip")
        defer { try? FileManager.default.removeItem(at: file) }
        let slow = try CLI.run(["--ignore-stdin", "\(base)/drip?duration=2&numbytes=4&delay=0&code=200", "--download", file.path, "--timeout", "1"])
        #expect(slow.status == 0, "\(slow.stderr)")
        #expect(try Data(contentsOf: file).count == 4)
        let silent = try CLI.run(["--ignore-stdin", "\(base)/delay/3", "--download", file.path, "--timeout", "1"])
        #expect(silent.status == 3 && silent.stderr.contains("timed out"), "\(silent.stderr)")
        // An error page is not the file: nothing is saved, and the file there stays.
        let missing = try CLI.run(["--ignore-stdin", "\(base)/status/404", "--download", file.path])
        #expect(missing.status == 4 && missing.stderr.contains("HTTP 404"), "\(missing.stderr)")
        #expect(try Data(contentsOf: file).count == 4, "the earlier download is kept")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: file.deletingLastPathComponent().path).filter { $0.hasSuffix(".part") }
        #expect(leftovers.isEmpty, "\(leftovers)")
    }

    @Test("Name: and Name; send the header empty, as --help says; a HEAD with a body and a misspelled option are refused, not sent")
    func emptyHeadersAndTypos() throws {
        let result = try CLI.run(["--ignore-stdin", "\(base)/headers", "X-Colon:", "X-Semi;"])
        #expect(result.status == 0, "\(result.stderr)")
        let headers = try json(result.stdout)["headers"] as? [String: String]
        #expect(headers?["X-Colon"] == "" && headers?["X-Semi"] == "", "\(result.stdout)")
        let head = try CLI.run(["--ignore-stdin", "HEAD", "\(base)/anything", "a=1", "--timeout", "5"])
        #expect(head.status == 1 && head.stderr.contains("a HEAD request sends no body"), "\(head.stderr)")
        let typo = try CLI.run(["--ignore-stdin", "\(base)/anything", "--verify=no"])
        #expect(typo.status == 1 && typo.stderr.contains("unknown option '--verify=no'"), "\(typo.stderr)")
        let before = try CLI.run(["--ignore-stdin", "--foo=bar", "\(base)/anything"])
        #expect(before.status == 1 && before.stderr.contains("unknown option '--foo=bar'"), "\(before.stderr)")
    }

    @Test("a body redirected from a file (< body.json) is sent as JSON with POST, as HTTPie does; --ignore-stdin skips it")
    func stdinBody() throws {
        let file = TestScratch.path("tapedeck-stdin").appendingPathExtension("json")
        try Data(#"{"k": [1, 2]}"#.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let result = try CLI.run(["\(base)/anything"], stdin: file)
        #expect(result.status == 0, "\(result.stderr)")
        let body = try json(result.stdout)
        #expect(body["method"] as? String == "POST")
        #expect(body["data"] as? String == #"{"k": [1, 2]}"#)
        #expect((body["headers"] as? [String: String])?["Content-Type"] == "application/json")
        let mixed = try CLI.run(["\(base)/anything", "a=1"], stdin: file)
        #expect(mixed.status == 1)
        #expect(mixed.stderr.contains("--ignore-stdin"), "\(mixed.stderr)")
        // With --form, a body from standard input is a form, as HTTPie sends it.
        let formFile = TestScratch.path("tapedeck-stdin-form")
        try Data("a=1&b=2".utf8).write(to: formFile)
        defer { try? FileManager.default.removeItem(at: formFile) }
        let form = try json(try CLI.run(["--form", "\(base)/anything"], stdin: formFile).stdout)
        #expect((form["form"] as? [String: String]) == ["a": "1", "b": "2"], "\(form)")
        let ignored = try CLI.run(["--ignore-stdin", "\(base)/anything", "a=1"], stdin: file)
        #expect(try json(ignored.stdout)["data"] as? String == #"{"a":"1"}"#)
    }

    @Test("body items imply POST with a JSON body and JSON Accept")
    func jsonBody() throws {
        let result = try CLI.run(["\(base)/anything", "name=Zoë", "age:=36", "tags[]=a", "ok:=true"])
        let body = try json(result.stdout)
        #expect(body["method"] as? String == "POST")
        #expect(body["data"] as? String == #"{"name":"Zoë","age":36,"tags":["a"],"ok":true}"#)
        #expect((body["headers"] as? [String: String])?["Accept"] == "application/json, */*;q=0.5")
    }

    @Test("--form and files send urlencoded and multipart bodies")
    func formAndMultipart() throws {
        let form = try json(try CLI.run(["--form", "PUT", "\(base)/put", "city=Zürich", "q=a&b"]).stdout)
        #expect(form["form"] as? [String: String] == ["city": "Zürich", "q": "a&b"])
        let directory = try TestScratch.directory("tapedeck-cli")
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data("file body".utf8).write(to: directory.appendingPathComponent("note.txt"))
        let multipart = try json(try CLI.run(["\(base)/post", "title=x", "doc@note.txt"], directory: directory).stdout)
        #expect(multipart["files"] as? [String: String] == ["doc": "file body"])
        #expect(multipart["form"] as? [String: String] == ["title": "x"])
    }

    @Test("--print hb shows the status line with timing, headers and body; -v adds the request")
    func printParts() throws {
        let result = try CLI.run(["\(base)/status/418", "--print", "hb"])
        #expect(result.status == 0)
        #expect(result.stdout.range(of: #"^HTTP/1\.1 418 I'M A TEAPOT  \(\d+(\.\d)? ms, \d+ B\)\n"#, options: [.regularExpression, .caseInsensitive]) != nil,
                "\(result.stdout)")
        #expect(result.stdout.contains("teapot"))
        let verbose = try CLI.run(["-v", "\(base)/post", "a=1"])
        #expect(verbose.stdout.hasPrefix("POST /post HTTP/1.1\nHost: "))
        #expect(verbose.stdout.contains("\n{\"a\":\"1\"}\n\nHTTP/1.1 200 OK"))
    }

    @Test("--check-status exits 4 for 4xx/5xx and 0 otherwise")
    func checkStatus() throws {
        let missing = try CLI.run(["--check-status", "\(base)/status/404"])
        #expect(missing.status == 4)
        #expect(missing.stderr.contains("tapedeck: warning: HTTP 404"))
        #expect(try CLI.run(["\(base)/status/404"]).status == 0)
        #expect(try CLI.run(["--check-status", "\(base)/status/204"]).status == 0)
    }

    @Test("redirects are shown unless --follow")
    func follow() throws {
        let shown = try CLI.run(["\(base)/redirect/1", "--headers"])
        #expect(shown.stdout.hasPrefix("HTTP/1.1 302"))
        let followed = try CLI.run(["\(base)/redirect/1", "--follow", "--headers"])
        #expect(followed.stdout.hasPrefix("HTTP/1.1 200"))
    }

    @Test("--timeout exits 3 with the limit in the message")
    func timeout() throws {
        let result = try CLI.run(["\(base)/delay/3", "--timeout", "1"])
        #expect(result.status == 3)
        #expect(result.stderr.contains("timed out after 1 s"))
    }

    @Test("binary bodies are written raw when piped")
    func binaryPiped() throws {
        let result = try CLI.run(["\(base)/image/png"])
        #expect(result.stdoutData.starts(with: [0x89, 0x50, 0x4E, 0x47]))
    }

    @Test("--raw sends the text as given")
    func raw() throws {
        let body = try json(try CLI.run(["POST", "\(base)/post", "--raw", "plain & simple", "Content-Type:text/plain"]).stdout)
        #expect(body["data"] as? String == "plain & simple")
    }

    @Test("a schemeless URL and the :port shorthand expand like HTTPie")
    func shorthand() throws {
        guard let port = URL(string: base)?.port else { return }
        let result = try CLI.run([":\(port)/get", "--headers"])
        #expect(result.stdout.hasPrefix("HTTP/1.1 200"), "\(result.stderr)")
        #expect(try CLI.run(["127.0.0.1:\(port)/get", "--headers"]).stdout.hasPrefix("HTTP/1.1 200"))
    }
}
