import Foundation
import Synchronization
import Tapedeck
import TapedeckServer
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `serve` answers real clients (curl, Python requests, HTTPie, URLSession) byte-faithfully.
@Suite("Serving cassettes to real clients")
struct ServeClientsTests {
    /// Runs `body` against a server on a free port serving the sample cassette, then stops it.
    static func withServer(_ cassettes: [Cassette] = [SampleCassettes.api()], options: DeckOptions = DeckOptions(),
                           _ body: (CassetteServer, URL) async throws -> Void) async throws {
        let directory = try Proc.temporaryDirectory()
        defer { Proc.cleanUp(directory) }
        let files = try cassettes.enumerated().map { try SampleCassettes.write($1, to: directory, name: "c\($0).cassette.json") }
        let server = try await CassetteServer.serve(files, options: options)
        do { try await body(server, directory) } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }

    @Test("curl gets the recorded status, reason phrase, repeated headers in order and body bytes")
    func curlIsByteFaithful() async throws {
        try await Self.withServer { server, directory in
            let teapot = try await Proc.run(Proc.curl, ["-s", "-i", "-X", "PURGE", server.url.absoluteString + "/pot"])
            let pot = try #require(RawResponse(teapot.stdout))
            #expect(pot.statusLine == "HTTP/1.1 418 I'M A TEAPOT")
            #expect(pot.body == Data("short and stout\n".utf8))

            let users = try #require(RawResponse(try await Proc.run(Proc.curl, ["-s", "-i", server.url.absoluteString + "/users"]).stdout))
            #expect(users.values("Set-Cookie") == ["a=1; Path=/", "b=2"])
            #expect(users.values("X-Order") == ["first", "second"])
            #expect(users.headers.map(\.0).prefix(5) == ["Content-Type", "Set-Cookie", "X-Order", "Set-Cookie", "X-Order"])
            #expect(users.body == Data(#"{"users": [{"id": 1, "name": "Ada"}]}"#.utf8))

            let logo = directory.appendingPathComponent("logo.png")
            _ = try await Proc.run(Proc.curl, ["-s", "-o", logo.path, server.url.absoluteString + "/logo.png"])
            #expect(try Data(contentsOf: logo) == Data([0x00, 0x01, 0xFE, 0xFF, 0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A]))
        }
    }

    @Test("a recorded redirect points at the server, so curl -L follows it there", .enabled(if: FileManager.default.fileExists(atPath: Proc.curl)))
    func redirectsStayOnTheServer() async throws {
        try await Self.withServer { server, _ in
            let result = try await Proc.run(Proc.curl, ["-s", "-i", "-L", server.url.absoluteString + "/old"])
            let text = result.text
            #expect(text.contains("Location: \(server.url.absoluteString)/users"))
            #expect(text.hasSuffix(#"{"users": [{"id": 1, "name": "Ada"}]}"#))
        }
    }

    @Test("Python requests reads status, reason, headers and body", .enabled(if: Proc.hasVenv))
    func pythonRequests() async throws {
        try await Self.withServer { server, _ in
            let script = """
                import json, sys, requests
                r = requests.post(sys.argv[1] + "/users", json={"name": "Grace"})
                t = requests.request("PURGE", sys.argv[1] + "/pot")
                print(json.dumps([r.status_code, r.reason, r.json()["href"], t.status_code, t.reason, t.text]))
                """
            let result = try await Proc.run(Proc.python, ["-c", script, server.url.absoluteString])
            #expect(result.status == 0, "\(result.stderr)")
            let values = try JSONSerialization.jsonObject(with: result.stdout) as? [Any]
            #expect(values?[0] as? Int == 201)
            #expect(values?[1] as? String == "Created")
            #expect(values?[2] as? String == server.url.absoluteString + "/users/2")
            #expect(values?[3] as? Int == 418)
            #expect(values?[4] as? String == "I'M A TEAPOT")
            #expect(values?[5] as? String == "short and stout\n")
        }
    }

    @Test("HTTPie prints the served headers and body", .enabled(if: Proc.hasVenv))
    func httpie() async throws {
        try await Self.withServer { server, _ in
            let result = try await Proc.run((Proc.venv ?? "") + "/bin/http", ["--ignore-stdin", "--print=hb", "GET", server.url.absoluteString + "/users"])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.text.contains("HTTP/1.1 200 OK"))
            #expect(result.text.contains("Set-Cookie: b=2"))
            #expect(result.text.contains("\"name\": \"Ada\""))
        }
    }

    @Test("URLSession reads the served cassette over a real socket")
    func urlSession() async throws {
        try await Self.withServer { server, _ in
            let session = URLSession(configuration: .ephemeral)
            defer { session.finishTasksAndInvalidate() }
            let (data, response) = try await session.data(from: server.url.appendingPathComponent("users"))
            #expect((response as? HTTPURLResponse)?.statusCode == 200)
            #expect(data == Data(#"{"users": [{"id": 1, "name": "Ada"}]}"#.utf8))
            let (big, _) = try await session.data(from: server.url.appendingPathComponent("big"))
            #expect(big.count == 4000)
        }
    }

    @Test("an unmatched request gets the mismatch report, 404 and the marker header, and is logged")
    func unmatchedReport() async throws {
        let logged = Mutex<[String]>([])
        let options = DeckOptions(log: { line in logged.withLock { $0.append(line) } })
        try await Self.withServer(options: options) { server, _ in
            let raw = try #require(RawResponse(try await Proc.run(Proc.curl, ["-s", "-i", server.url.absoluteString + "/userz"]).stdout))
            #expect(raw.status == 404)
            #expect(raw.values(ServerMarker.unmatchedHeader) == ["1"])
            let text = String(decoding: raw.body, as: UTF8.self)
            #expect(text.contains("no recorded interaction matches GET \(server.url.absoluteString)/userz"))
            #expect(text.contains("path: /users → /userz"))
            #expect(logged.withLock { $0 }.contains { $0.contains("/userz") })
            #expect(server.deck.status.lastMismatches == ["GET /userz"])
        }
    }

    @Test("--unmatched STATUS sets the status of unmatched answers")
    func unmatchedStatus() async throws {
        try await Self.withServer(options: DeckOptions(unmatched: try UnmatchedPolicy(parsing: "599"))) { server, _ in
            let result = try await Proc.run(Proc.curl, ["-s", "-o", "/dev/null", "-w", "%{http_code}", server.url.absoluteString + "/nope"])
            #expect(result.text == "599")
        }
        #expect(throws: ServerError.self) { try UnmatchedPolicy(parsing: "nope") }
    }

    @Test("several cassettes serve together, and a mount serves one under a path prefix")
    func severalAndMounted() async throws {
        let directory = try Proc.temporaryDirectory()
        defer { Proc.cleanUp(directory) }
        let a = try SampleCassettes.write(SampleCassettes.single(path: "/a", text: "from a"), to: directory, name: "a.cassette.json")
        let b = try SampleCassettes.write(SampleCassettes.single(path: "/b", text: "from b"), to: directory, name: "b.cassette.json")
        let v2 = try SampleCassettes.write(SampleCassettes.single(path: "/a", text: "from v2"), to: directory, name: "v2.cassette.json")
        let server = try await CassetteServer.serve([a, b], mounts: [(prefix: "/v2", cassette: v2)])
        let base = server.url.absoluteString
        #expect(try await Proc.run(Proc.curl, ["-s", base + "/a"]).text == "from a")
        #expect(try await Proc.run(Proc.curl, ["-s", base + "/b"]).text == "from b")
        #expect(try await Proc.run(Proc.curl, ["-s", base + "/v2/a"]).text == "from v2")
        let summary = await server.stop()
        #expect(summary.contains("a.cassette.json · 0 recorded · 1 played · 0 unused"))
        #expect(summary.contains("v2.cassette.json · 0 recorded · 1 played · 0 unused"))
    }

    @Test("vcrpy YAML and mitmproxy HAR cassettes are served to curl", arguments: ["vcrpy-httpbin.yaml", "mitmproxy.har"])
    func interopFormats(name: String) async throws {
        let file = Proc.fixture(name)
        let cassette = try Cassette.load(from: file)
        let first = try #require(cassette.interactions.first)
        let server = try await CassetteServer.serve([file])
        defer { Task { await server.stop() } }
        let path = first.request.url.path(percentEncoded: true) + (first.request.url.query(percentEncoded: true).map { "?" + $0 } ?? "")
        let result = try await Proc.run(Proc.curl, ["-s", "-i", server.url.absoluteString + path])
        let raw = try #require(RawResponse(result.stdout))
        #expect(raw.status == first.response.status)
        let expected = try #require(cassette.rewritingOrigin(to: server.url).interactions.first).response.body
        #expect(raw.body == expected)
    }
}
