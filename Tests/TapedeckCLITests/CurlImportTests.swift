import Foundation
import TapedeckTestSupport
import Testing

/// Real "Copy as cURL" commands from Chrome and Firefox (URLs pointed at httpbin): each must make
/// Tapedeck send what curl itself sends, as httpbin's /anything echoes it.
@Suite("Pasted curl commands send what curl sends", .enabled(if: CLI.isAvailable && CLI.httpbin != nil))
struct CurlImportTests {
    static let commands: [(browser: String, command: String)] = [
        ("Chrome GET", #"""
        curl 'HTTPBIN/anything/api/items?page=2&sort=desc' \
          -H 'accept: application/json, text/plain, */*' \
          -H 'accept-language: en-GB,en;q=0.9' \
          -H 'cache-control: no-cache' \
          -H 'sec-ch-ua: "Chromium";v="131", "Not_A Brand";v="24"' \
          -H 'user-agent: Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36'
        """#),
        ("Chrome POST JSON", #"""
        curl 'HTTPBIN/anything/api/login' \
          -H 'content-type: application/json' \
          -H 'origin: http://localhost:3000' \
          --data-raw '{"user":"ada","remember":true,"tags":["a","b"]}'
        """#),
        ("Chrome cookies and $'' body", #"""
        curl 'HTTPBIN/anything/comment' \
          -H 'content-type: text/plain;charset=UTF-8' \
          -b 'session=abc123; theme=dark' \
          --data-raw $'it\'s "quoted"\nline two'
        """#),
        ("Firefox PUT", #"""
        curl 'HTTPBIN/anything/api/items/7' -X PUT -H 'User-Agent: Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0' -H 'Accept: */*' -H 'Accept-Language: en-US,en;q=0.5' -H 'Content-Type: application/json' -H 'Connection: keep-alive' --data-raw '{"id":7,"name":"Ada"}'
        """#),
        ("Firefox form post", #"""
        curl 'HTTPBIN/anything/form' -X POST -H 'Accept: text/html' -H 'Content-Type: application/x-www-form-urlencoded' --data-raw 'name=Ada+Lovelace&lang=en&note=a%26b'
        """#),
        ("multipart -F", #"""
        curl HTTPBIN/anything/upload -F 'title=Notes' -F 'file=@UPLOAD'
        """#),
        ("basic auth, -G data and DELETE", #"""
        curl -u 'ada:s3cret' -G HTTPBIN/anything/search -d q=tapes -d page=2
        """#),
        ("DELETE with a bearer token", #"""
        curl -X DELETE 'HTTPBIN/anything/items/7' -H 'Authorization: Bearer abc.def' --compressed -s
        """#),
        ("-L follows redirects", #"""
        curl -L 'HTTPBIN/redirect-to?url=/anything/after'
        """#),
    ]

    /// Headers curl and Tapedeck add on their own unless the command sets them.
    static let ownHeaders: Set<String> = ["host", "user-agent", "accept", "accept-encoding", "accept-language", "connection", "x-amzn-trace-id"]

    @Test("each Copy-as-cURL command sends the same method, URL, headers and body as curl", arguments: commands)
    func sameRequest(_ entry: (browser: String, command: String)) throws {
        let directory = try TestScratch.directory("tapedeck-curl")
        defer { try? FileManager.default.removeItem(at: directory) }
        let upload = directory.appendingPathComponent("notes.txt")
        try "line one\n".write(to: upload, atomically: true, encoding: .utf8)
        let command = entry.command.replacingOccurrences(of: "HTTPBIN", with: CLI.httpbin ?? "")
            .replacingOccurrences(of: "UPLOAD", with: upload.path)

        let curl = Process()
        curl.executableURL = URL(fileURLWithPath: "/bin/bash")  // $'…' is bash's
        curl.arguments = ["-c", command + " -s"]
        let out = Pipe()
        curl.standardOutput = out
        try curl.run()
        let curlData = out.fileHandleForReading.readDataToEndOfFile()
        curl.waitUntilExit()
        let curlText = String(decoding: curlData, as: UTF8.self)
        let expected = try #require(try JSONSerialization.jsonObject(with: curlData) as? [String: Any], "\(entry.browser): curl said \(curlText)")

        let script = directory.appendingPathComponent("pasted.tape")
        try (command + "\ncapture echoed = body\nprint {{echoed}}\n").write(to: script, atomically: true, encoding: .utf8)
        let run = try CLI.run(["run", script.path])
        #expect(run.status == 0, "\(entry.browser): \(run.stderr)")
        // The echoed JSON, without the "1 passed, 0 failed" line after it.
        let printed = run.stdout.range(of: "}", options: .backwards).map { String(run.stdout[..<$0.upperBound]) } ?? run.stdout
        let actual = try #require(try JSONSerialization.jsonObject(with: Data(printed.utf8)) as? [String: Any], "\(entry.browser): \(printed)")

        for key in ["method", "url", "args", "data", "form", "files", "json"] {
            #expect(try Self.canonical(actual[key]) == Self.canonical(expected[key]), "\(entry.browser): \(key)")
        }
        let given = Set(command.components(separatedBy: "-H '").dropFirst().compactMap { $0.split(separator: ":").first?.lowercased() })
        let curlHeaders = try #require(expected["headers"] as? [String: String])
        let ourHeaders = try #require(actual["headers"] as? [String: String])
        for (name, value) in curlHeaders where !Self.ownHeaders.contains(name.lowercased()) || given.contains(name.lowercased()) {
            if name == "Content-Type", value.hasPrefix("multipart/form-data") {
                #expect(ourHeaders[name]?.hasPrefix("multipart/form-data; boundary=") == true, "\(entry.browser)")
            } else if name == "Content-Length", value != "0", curlHeaders["Content-Type"]?.hasPrefix("multipart") == true {
                continue  // the boundaries differ in length
            } else {
                #expect(ourHeaders[name] == value, "\(entry.browser): header \(name)")
            }
        }
    }

    /// A JSON value as sorted-key text, so that member order does not matter.
    static func canonical(_ value: Any?) throws -> String {
        String(decoding: try JSONSerialization.data(withJSONObject: value ?? NSNull(), options: [.sortedKeys, .fragmentsAllowed]), as: UTF8.self)
    }

    @Test("tapedeck import curl prints the command; an unsupported option is named")
    func importCommand() throws {
        let result = try CLI.run(["import", "curl", "curl 'http://localhost:8080/post' -H 'accept: application/json' --data-raw '{\"a\":1}' -L"])
        #expect(result.status == 0)
        #expect(result.stdout == "post http://localhost:8080/post accept:application/json Content-Type:application/x-www-form-urlencoded --follow --raw '{\"a\":1}'\n")
        let bad = try CLI.run(["import", "curl", "-X", "GET", "http://x/", "--proxy", "http://p:3128"])
        #expect(bad.status == 2)
        #expect(bad.stderr.contains("curl option --proxy is not supported"))
    }

    @Test("tapedeck import curl --help shows its help, and --help inside a curl command is still curl's")
    func help() throws {
        let help = try CLI.run(["import", "curl", "--help"])
        #expect(help.status == 0, "\(help.stderr)")
        #expect(help.stdout.contains("Prints the Tapedeck request command") && help.stdout.contains("EXIT CODES"), "\(help.stdout)")
        let inside = try CLI.run(["import", "curl", "http://x/", "--help"])
        #expect(inside.status == 2 && inside.stderr.contains("--help"))
    }
}
