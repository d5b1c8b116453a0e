import Foundation
import Tapedeck
import TapedeckServer
import TapedeckTestSupport
import Testing

/// `serve --ui`: the live inspector at /__tapedeck/ui/TOKEN/, its feed pushed as server-sent
/// events, and the page driven in Chromium through Selenium.
@Suite("The live inspector", .serialized)
struct InspectorTests {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Support/Python/inspector_browser.py")

    /// A server with the inspector on, serving one `/greeting`.
    static func server(_ directory: URL) async throws -> CassetteServer {
        let cassette = try SampleCassettes.write(SampleCassettes.single(path: "/greeting", text: "hello"), to: directory, name: "c.cassette.json")
        var options = ControlEndpointTests.scratchOptions()
        options.inspector = true
        return try await CassetteServer.serve([cassette], options: options)
    }

    /// The venv's Python, with Debian's chromium-driver beside it (both installed by `make test`).
    static func browserPython() throws -> String {
        let python = try #require(Proc.venv.map { $0 + "/bin/python" }, "make test makes the venv (selenium is in it)")
        try #require(FileManager.default.isExecutableFile(atPath: "/usr/bin/chromedriver"), "make test installs Debian's chromium-driver")
        return python
    }

    /// Runs `body` with the venv's Python, a scratch folder and an inspector server; the server
    /// is stopped and the folder removed however `body` ends.
    static func inBrowser(_ body: (_ python: String, _ directory: URL, _ server: CassetteServer) async throws -> Void) async throws {
        let python = try browserPython()
        let directory = try Proc.temporaryDirectory()
        defer { Proc.cleanUp(directory) }
        let server = try await Self.server(directory)
        do {
            try await body(python, directory, server)
        } catch {
            _ = await server.stop()
            throw error
        }
        _ = await server.stop()
    }

    /// Opens `server`'s inspector in Chromium, waits for `rows` rows, sends `/later` from
    /// outside, and returns what the page showed (the script's JSON) with its raw text.
    static func browse(with python: String, _ server: CassetteServer, rows: Int, screenshot: URL) async throws -> (JSONValue, String) {
        let base = server.url.absoluteString, token = server.deck.options.controlToken
        // Chromium's temporary files and sockets go in a short folder of the test's own, removed
        // after (a socket path must stay under about 100 bytes).
        let chromeTemp = URL(fileURLWithPath: "/tmp/tapedeck-chrome-" + UUID().uuidString.prefix(8))
        try FileManager.default.createDirectory(at: chromeTemp, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: chromeTemp) }
        let run = try await Proc.run(python, [Self.script.path, base + "/__tapedeck/ui/\(token)/", String(rows), screenshot.path,
                                              base + "/later"], environment: ["TMPDIR": chromeTemp.path], timeout: 120)
        let result = try #require(try? JSONParser.parse(Data(run.text.utf8)), "the browser script failed: \(run.stderr.suffix(2000))")
        return (result, run.text)
    }

    @Test("the feed holds each answer as an event, played or unmatched with its report, redacted; the inspector's own requests are not in it; a wrong token gets 401, another Host 421")
    func feed() async throws {
        let directory = try Proc.temporaryDirectory()
        defer { Proc.cleanUp(directory) }
        let server = try await Self.server(directory)
        let base = server.url.absoluteString, token = server.deck.options.controlToken
        _ = try await Proc.run(Proc.curl, ["-s", base + "/greeting"])
        _ = try await Proc.run(Proc.curl, ["-s", base + "/missing?api_key=sk_live_SECRET99"])
        let events = try await Proc.run(Proc.curl, ["-s", "-N", "--max-time", "1", base + "/__tapedeck/ui/\(token)/events"])
        let lines = events.text.split(separator: "\n").filter { $0.hasPrefix("data: ") }.map { String($0.dropFirst(6)) }
        try #require(lines.count == 2, "\(events.text)")
        let first = try JSONParser.parse(Data(lines[0].utf8)), second = try JSONParser.parse(Data(lines[1].utf8))
        #expect(first.value(at: "/outcome")?.stringValue == "played" && first.value(at: "/status")?.doubleValue == 200)
        #expect(second.value(at: "/outcome")?.stringValue == "unmatched" && second.value(at: "/status")?.doubleValue == 404)
        #expect(second.value(at: "/report")?.stringValue?.contains("nearest recorded interactions") == true, "\(lines[1])")
        #expect(!events.text.contains("sk_live_SECRET99"))
        let page = try await Proc.run(Proc.curl, ["-s", "-i", base + "/__tapedeck/ui/\(token)/"])
        #expect(page.text.hasPrefix("HTTP/1.1 200") && page.text.contains("<title>Tapedeck inspector</title>"))
        #expect(page.text.contains("Content-Security-Policy: default-src 'none'"))
        let wrong = try await Proc.run(Proc.curl, ["-s", "-o", "/dev/null", "-w", "%{http_code}", base + "/__tapedeck/ui/nottoken/"])
        #expect(wrong.text == "401")
        let rebound = try await Proc.run(Proc.curl, ["-s", "-o", "/dev/null", "-w", "%{http_code}", "-H", "Host: evil.example:\(server.url.port ?? 0)",
                                                     base + "/__tapedeck/ui/\(token)/"])
        #expect(rebound.text == "421")
        _ = await server.stop()
    }

    @Test("in Chromium the page shows requests as they happen, an unmatched one's report on click, filters, and its Reset button works")
    func browser() async throws {
        try await Self.inBrowser { python, directory, server in
            let base = server.url.absoluteString
            for path in ["/greeting", "/missing", "/%3Cimg%20src=x%20onerror=alert(1)%3E"] {
                _ = try await Proc.run(Proc.curl, ["-s", base + path])
            }
            // One more once the page shows the first three, sent from outside: it must arrive
            // pushed, within a second, without a reload.
            let shot = directory.appendingPathComponent("inspector.png")
            let (result, text) = try await Self.browse(with: python, server, rows: 3, screenshot: shot)
            let rows = result.value(at: "/rows")?.arrayValue?.compactMap(\.stringValue) ?? []
            #expect(rows.count == 4, "\(text)")
            #expect(rows.first?.contains("GET /greeting 200") == true && rows.first?.contains("played") == true, "\(rows)")
            #expect(rows.last?.contains("/later") == true, "the request sent after the page opened arrived: \(rows)")
            let pushed = try #require(result.value(at: "/pushMs")?.doubleValue, "\(text)")
            #expect(pushed < 1000, "the row appeared \(pushed) ms after the request")
            #expect(result.value(at: "/report")?.stringValue?.hasPrefix("no recorded interaction matches GET") == true, "\(text)")
            #expect(result.value(at: "/visibleAfterFilter")?.arrayValue?.count == 3, "three unmatched: /missing, the odd one, /later: \(text)")
            #expect(result.value(at: "/reset")?.stringValue?.hasPrefix("200") == true, "\(text)")
            #expect(result.value(at: "/images")?.doubleValue == 0, "no element came from a request's target")
            #expect((try? Data(contentsOf: shot).count) ?? 0 > 10_000)
        }
    }

    @Test("in Chromium the page keeps working with thousands of rows: a new request still arrives within a second, the filter narrows them, and a page opened late says it has the last 5,000")
    func thousandsOfRows() async throws {
        try await Self.inBrowser { python, directory, server in
            let base = server.url.absoluteString
            // 5,100 requests from one curl: the first is played, the rest are repeats the cassette
            // does not allow, answered as unmatched, which is the heavier row (it carries a report).
            // The server keeps the last 5,000 for a page that opens later.
            let count = 5_100
            let kept = InspectorFeed.kept
            let config = directory.appendingPathComponent("many.curlrc")
            try Data((0..<count).map { _ in "url = \"\(base)/greeting\"\noutput = \"/dev/null\"\n" }.joined().utf8).write(to: config)
            _ = try await Proc.run(Proc.curl, ["-s", "-K", config.path], timeout: 120)
            let (result, text) = try await Self.browse(with: python, server, rows: kept,
                                                       screenshot: directory.appendingPathComponent("inspector-many.png"))
            #expect(result.value(at: "/count")?.doubleValue == Double(kept + 1), "\(text.prefix(2000))")
            let rows = result.value(at: "/rows")?.arrayValue?.compactMap(\.stringValue) ?? []
            #expect(rows.first?.hasPrefix("\(count - kept + 1) ") == true && rows.first?.contains("unmatched") == true, "the first kept: \(rows)")
            #expect(rows.last?.contains("/later") == true, "\(rows)")
            let pushed = try #require(result.value(at: "/pushMs")?.doubleValue, "\(text.prefix(2000))")
            #expect(pushed < 1000, "with \(kept) rows, the new row appeared \(pushed) ms after the request")
            #expect(result.value(at: "/visibleCount")?.doubleValue == Double(kept + 1), "every row is unmatched: \(text.prefix(2000))")
            #expect(result.value(at: "/state")?.stringValue?.hasPrefix("the last \(kept + 1) of \(count + 1) requests · \(kept + 1) unmatched") == true,
                    "\(String(describing: result.value(at: "/state")))")
            #expect(result.value(at: "/reset")?.stringValue?.hasPrefix("200") == true)
        }
    }

    @Test("in Chromium a page past the 32 open says so, not that the server stopped")
    func pageRefused() async throws {
        try await Self.inBrowser { python, directory, server in
            let token = server.deck.options.controlToken
            let events = server.url.absoluteString + "/__tapedeck/ui/\(token)/events"
            // One process holds every place open: it opens the feed 32 times, reads each answer's
            // status line, then says so (a line the helper reads as a port) and waits.
            let holder = """
                import socket, sys, time, urllib.parse
                url = urllib.parse.urlsplit(sys.argv[1]); held = []
                for _ in range(int(sys.argv[2])):
                    s = socket.create_connection((url.hostname, url.port))
                    s.sendall(("GET %s HTTP/1.1\\r\\nHost: %s\\r\\nAccept: text/event-stream\\r\\n\\r\\n" % (url.path, url.netloc)).encode())
                    assert s.recv(12).startswith(b"HTTP/1.1 200"); held.append(s)
                print(1, flush=True); time.sleep(60)
                """
            let pages = try TapedeckTestSupport.ServerProcess(Proc.python, arguments: ["-c", holder, events, String(InspectorFeed.maximumPages)], expecting: 1)
            defer { pages.stop() }
            let probe = try await Proc.run(Proc.curl, ["-s", "-o", "/dev/null", "-w", "%{http_code}", "--max-time", "2", events])
            #expect(probe.text == "503", "one more page is refused")
            let (result, text) = try await Self.browse(with: python, server, rows: 0, screenshot: directory.appendingPathComponent("inspector-full.png"))
            let state = result.value(at: "/state")?.stringValue ?? ""
            #expect(state.contains("503 32 inspector pages are open already; close one and reload"), "\(text.prefix(2000))")
        }
    }

    @Test("an event's target and report are cut to a bound, whatever a client sends")
    func eventsBounded() async throws {
        let feed = InspectorFeed()
        feed.publish(method: "GET", target: "/" + String(repeating: "a", count: 20_000), status: 404, milliseconds: 1,
                     outcome: "unmatched", report: String(repeating: "r", count: 100_000))
        var events = try #require(feed.stream()).makeAsyncIterator()
        _ = await events.next()  // the comment line
        let event = try #require(await events.next())
        #expect(event.count < InspectorFeed.maximumTarget + InspectorFeed.maximumReport + 500, "\(event.count) bytes")
        feed.close()
    }

    @Test("at most 32 inspector pages are fed at once; a page that closes frees its place")
    func pagesBounded() {
        let feed = InspectorFeed()
        var open = (0..<InspectorFeed.maximumPages).compactMap { _ in feed.stream() }
        #expect(open.count == InspectorFeed.maximumPages)
        #expect(feed.stream() == nil)
        open.removeLast()
        #expect(feed.stream() != nil, "a closed page's place is free again")
        feed.close()
    }
}
