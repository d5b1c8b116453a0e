import Foundation
import Tapedeck
import TapedeckTestSupport
import Testing

/// `tapedeck cassette view C` and `cassette diff A B --html`, read in Debian's Chromium, headless.
@Suite("The cassette viewer and the HTML diff in a real browser",
       .enabled(if: Binary.path != nil, "needs the built binary (make test sets TAPEDECK_BIN)"))
struct CassetteViewBrowserTests {
    static let hostile = "<img src=x onerror=alert(1)>"

    /// Four interactions: JSON, a login with a bearer token, a 404, and values that would be markup.
    static func cassette() -> Cassette {
        let date = Date(timeIntervalSince1970: 1_795_000_000)
        func interaction(_ method: HTTPMethod, _ path: String, _ status: Int, headers: HTTPHeaders = [:], body: String,
                         type: String = "application/json") -> Interaction {
            Interaction(request: HTTPRequest(method: method, url: URL(string: "http://api.test" + path)!, headers: headers),
                        response: HTTPResponse(status: status, headers: ["Content-Type": type], body: Data(body.utf8)), recordedAt: date)
        }
        return Cassette(interactions: [
            interaction(.get, "/users", 200, body: #"{"users":[{"name":"Ada"},{"name":"Grace"}]}"#),
            interaction(.post, "/login", 200, headers: ["Authorization": "Bearer tok_live_VIEW12345"], body: #"{"ok":true}"#),
            interaction(.get, "/missing", 404, body: "not here", type: "text/plain"),
            interaction(.get, "/odd", 200, headers: ["X-Note": hostile], body: "</script><script>alert(2)</script>" + hostile, type: "text/html"),
        ])
    }

    /// Starts `cassette view` on `cassette` (written to FOLDER/c.json): the process, its banner and the page's address.
    static func view(_ cassette: Cassette, in folder: URL) throws -> (Process, String, String) {
        try cassette.write(to: folder.appendingPathComponent("c.json"))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try #require(Binary.path))
        process.arguments = ["cassette", "view", "c.json", "--port", "0"]
        process.currentDirectoryURL = folder
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        var banner = ""
        while !banner.contains("\n") {
            let chunk = out.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            banner += String(decoding: chunk, as: UTF8.self)
        }
        guard let range = banner.range(of: #"http://127\.0\.0\.1:\d+/[0-9a-f]+/"#, options: .regularExpression) else {
            process.interrupt()
            process.waitUntilExit()
            throw CocoaError(.fileReadCorruptFile, userInfo: [NSLocalizedDescriptionKey: "no address in: \(banner)"])
        }
        return (process, banner, String(banner[range]))
    }

    @Test("a stream shows each event with its time, and a WebSocket session each frame with its direction")
    func streamsAndFrames() throws {
        try #require(FileManager.default.isExecutableFile(atPath: RunReportBrowserTests.chromium), "make test installs Debian's chromium")
        let folder = try Binary.temporaryDirectory("cassette-view-streams")
        defer { try? FileManager.default.removeItem(at: folder) }
        let chunks = [BodyChunk(offset: 0, data: Data("id: 0\nevent: tick\ndata: {\"i\":0}\n\n".utf8)),
                      BodyChunk(offset: 0.3, data: Data("id: 1\nevent: tick\ndata: \(Self.hostile)\n\n".utf8))]
        var upgrade = HTTPResponse(status: 101)
        upgrade.webSocket = [WebSocketMessage(offset: 0, sender: .server, kind: .text, data: Data("welcome".utf8)),
                             WebSocketMessage(offset: 0.012, sender: .client, kind: .text, data: Data("hello".utf8))]
        let cassette = Cassette(interactions: [
            Interaction(request: HTTPRequest(url: URL(string: "http://api.test/events")!),
                        response: HTTPResponse(status: 200, headers: ["Content-Type": "text/event-stream"], chunks: chunks)),
            Interaction(request: HTTPRequest(url: URL(string: "http://api.test/chat")!), response: upgrade),
        ])
        let (process, _, address) = try Self.view(cassette, in: folder)
        defer { if process.isRunning { process.interrupt(); process.waitUntilExit() } }
        let events = try RunReportBrowserTests.chromium(URL(string: address + "#show=0")!)
        #expect(events.contains("+0 ms  #0  event: tick  id: 0  data: {\"i\":0}"), "\(events)")
        #expect(events.contains("+300 ms  #1  event: tick  id: 1  data: &lt;img"), "\(events)")
        #expect(!events.contains("<img"))
        let frames = try RunReportBrowserTests.chromium(URL(string: address + "#show=1")!)
        #expect(frames.contains("+0 ms  ← server text \"welcome\"") && frames.contains("+12 ms  → client text \"hello\""), "\(frames)")
    }

    @Test("the viewer lists every interaction, filters by status and text from its address, shows one redacted, and leaves hostile values as text")
    func viewer() throws {
        try #require(FileManager.default.isExecutableFile(atPath: RunReportBrowserTests.chromium), "make test installs Debian's chromium")
        let folder = try Binary.temporaryDirectory("cassette-view")
        defer { try? FileManager.default.removeItem(at: folder) }
        let (process, banner, address) = try Self.view(Self.cassette(), in: folder)
        defer { if process.isRunning { process.interrupt(); process.waitUntilExit() } }
        #expect(banner.hasPrefix("viewing c.json (4 interactions) at \(address) · Ctrl-C to stop"))

        let all = try RunReportBrowserTests.chromium(URL(string: address)!)
        #expect(all.contains("4 of 4 shown"), "\(all)")
        #expect(all.contains("<span class=\"url\">http://api.test/users</span>"))
        #expect(!all.contains("<img"), "no element came from a value")

        let failing = try RunReportBrowserTests.chromium(URL(string: address + "#status=4xx")!)
        #expect(failing.contains("1 of 4 shown") && failing.contains("http://api.test/missing") && !failing.contains(">http://api.test/users<"),
                "\(failing)")

        let login = try RunReportBrowserTests.chromium(URL(string: address + "#text=login&show=1")!)
        #expect(login.contains("<h2>#1 POST http://api.test/login → 200</h2>"), "\(login)")
        #expect(login.contains("<th>Authorization</th><td>Bearer &lt;REDACTED&gt;</td>"), "\(login)")
        #expect(!login.contains("tok_live_VIEW12345"))

        let odd = try RunReportBrowserTests.chromium(URL(string: address + "#show=3")!)
        #expect(odd.contains("&lt;/script&gt;&lt;script&gt;alert(2)&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt;"), "\(odd)")
        #expect(!odd.contains("<img"))

        let port = try #require(URL(string: address)?.port)
        let wrong = try ChildProcess.run("/usr/bin/curl", ["-s", "-o", "/dev/null", "-w", "%{http_code}", "http://127.0.0.1:\(port)/other/"])
        #expect(String(decoding: wrong.stdout, as: UTF8.self) == "404", "a path without the token gets nothing")
        process.interrupt()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
    }

    @Test("a clicked interaction is shown in the window, an address changed in the tab is applied, typing filters, rows take the keyboard")
    func viewerInteraction() throws {
        let python = try #require(ReplStreamUpstream.python)
        try #require(FileManager.default.isExecutableFile(atPath: "/usr/bin/chromedriver"), "make test installs Debian's chromium-driver")
        let folder = try Binary.temporaryDirectory("cassette-view-driven")
        defer { try? FileManager.default.removeItem(at: folder) }
        // Enough rows that the list is taller than the window.
        var cassette = Self.cassette()
        for index in 0..<200 { cassette.interactions.append(Interaction.init(request: HTTPRequest(url: URL(string: "http://api.test/row-\(index)-")!),
                                                                            response: HTTPResponse(status: 200, body: Data("ok".utf8)))) }
        let (process, _, address) = try Self.view(cassette, in: folder)
        defer { if process.isRunning { process.interrupt(); process.waitUntilExit() } }
        let script = ReplStreamUpstream.packageRoot.appendingPathComponent("Tests/Support/Python/viewer_browser.py").path
        // Chromium's temporary files and sockets go in a short folder of the test's own, removed
        // after (a socket path must stay under about 100 bytes).
        let chromeTemp = URL(fileURLWithPath: "/tmp/tapedeck-chrome-" + UUID().uuidString.prefix(8))
        try FileManager.default.createDirectory(at: chromeTemp, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: chromeTemp) }
        let run = try ChildProcess.run(python, [script, address, folder.appendingPathComponent("viewer.png").path],
                                       environment: ["TMPDIR": chromeTemp.path], timeout: 120)
        let text = String(decoding: run.stdout, as: UTF8.self)
        let result = try JSONSerialization.jsonObject(with: run.stdout) as? [String: Any] ?? [:]
        #expect(result["clicked"] as? String == "#2 GET http://api.test/missing → 404", "\(text) \(String(decoding: run.stderr, as: UTF8.self))")
        #expect(result["clickedInWindow"] as? Bool == true, "\(text)")
        #expect(result["address"] as? String == "#show=2", "\(text)")
        #expect(result["afterHashCount"] as? String == "1 of 204 shown" && result["afterHashShown"] as? String == "#1 POST http://api.test/login → 200", "\(text)")
        #expect(result["typedCount"] as? String == "111 of 204 shown", "row-1-, row-10- … row-199-: \(text)")
        #expect(result["focusable"] as? Int == 0, "\(text)")
        // Addressed by another name (DNS rebinding), or with another method, the viewer refuses.
        let port = try #require(URL(string: address)?.port)
        let rebound = try ChildProcess.run("/usr/bin/curl", ["-s", "-o", "/dev/null", "-w", "%{http_code}", "-H", "Host: evil.example:\(port)", address])
        #expect(String(decoding: rebound.stdout, as: UTF8.self) == "421")
        // Two Host fields, the first its own (curl sends only one: the request is written by hand).
        let raw = "import socket,sys; s=socket.create_connection(('127.0.0.1', \(port))); "
            + "s.sendall(b'GET ' + sys.argv[1].encode() + b' HTTP/1.1\\r\\nHost: 127.0.0.1:\(port)\\r\\nHost: evil.example\\r\\nConnection: close\\r\\n\\r\\n'); "
            + "print(s.recv(100).split(b' ')[1].decode())"
        let twice = try ChildProcess.run(python, ["-c", raw, try #require(URL(string: address)?.path)])
        #expect(String(decoding: twice.stdout, as: UTF8.self).hasPrefix("421"), "two Host fields: \(String(decoding: twice.stdout, as: UTF8.self))")
        let posted = try ChildProcess.run("/usr/bin/curl", ["-s", "-D", "-", "-o", "/dev/null", "-X", "POST", address])
        #expect(String(decoding: posted.stdout, as: UTF8.self).contains("Allow: GET, HEAD"), "\(String(decoding: posted.stdout, as: UTF8.self))")
    }

    @Test("cassette diff --html shows added, removed and changed interactions with their changes")
    func diffPage() throws {
        try #require(FileManager.default.isExecutableFile(atPath: RunReportBrowserTests.chromium), "make test installs Debian's chromium")
        let folder = try Binary.temporaryDirectory("cassette-diff-html")
        defer { try? FileManager.default.removeItem(at: folder) }
        var old = Self.cassette(), new = Self.cassette()
        old.interactions.remove(at: 3)
        new.interactions.remove(at: 2)
        new.interactions[0].response.body = Data(#"{"users":[{"name":"Ada"}],"next":null}"#.utf8)
        try old.write(to: folder.appendingPathComponent("old.json"))
        try new.write(to: folder.appendingPathComponent("new.json"))
        let outcome = try Binary.run(["cassette", "diff", "old.json", "new.json", "--html"], in: folder)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        try Data(outcome.stdout.utf8).write(to: folder.appendingPathComponent("diff.html"))
        let dom = try RunReportBrowserTests.chromium(folder.appendingPathComponent("diff.html"))
        #expect(dom.contains("3 differences"), "\(dom)")
        #expect(dom.contains(#"<div class="entry changed">"#) && dom.contains(#"<div class="entry added">"#) && dom.contains(#"<div class="entry removed">"#))
        #expect(dom.contains("/next"), "the changed member is named: \(dom)")
        #expect(!dom.contains("<img"))
    }
}

/// A viewer asked for a port another process holds says so and names --port 0.
@Suite("cassette view on a port in use", .enabled(if: Binary.path != nil))
struct CassetteViewPortTests {
    @Test("a port in use is refused with the reason and --port 0; --port-file gives the port and the page's token")
    func portInUse() throws {
        let folder = try Binary.temporaryDirectory("cassette-view-port")
        defer { try? FileManager.default.removeItem(at: folder) }
        try CassetteViewBrowserTests.cassette().write(to: folder.appendingPathComponent("c.json"))
        let first = Process()
        first.executableURL = URL(fileURLWithPath: try #require(Binary.path))
        first.arguments = ["cassette", "view", "c.json", "--port", "0", "--port-file", "port"]
        first.currentDirectoryURL = folder
        first.standardOutput = FileHandle.nullDevice
        first.standardError = FileHandle.nullDevice
        try first.run()
        defer { first.interrupt(); first.waitUntilExit() }
        var port = ""
        for _ in 0..<100 where port.isEmpty {
            port = (try? String(contentsOf: folder.appendingPathComponent("port"), encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
            if port.isEmpty { Thread.sleep(forTimeInterval: 0.05) }
        }
        try #require(!port.isEmpty)
        // The page's token is beside the port, for scripts, readable by its owner only.
        let tokenFile = folder.appendingPathComponent("port.token")
        let token = try String(contentsOf: tokenFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        let mode = try FileManager.default.attributesOfItem(atPath: tokenFile.path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        let page = try ChildProcess.run("/usr/bin/curl", ["-s", "-o", "/dev/null", "-w", "%{http_code}", "http://127.0.0.1:\(port)/\(token)/"])
        #expect(String(decoding: page.stdout, as: UTF8.self) == "200")
        let second = try Binary.run(["cassette", "view", "c.json", "--port", port], in: folder)
        #expect(second.status == 3)
        #expect(second.stderr.contains("cannot listen on 127.0.0.1:\(port)") && second.stderr.contains("--port 0 for a free one"), "\(second.stderr)")
    }
}
