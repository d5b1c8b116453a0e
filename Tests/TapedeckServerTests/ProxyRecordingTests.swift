import Foundation
import Tapedeck
import TapedeckCurl
import TapedeckServer
import TapedeckTesting
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `proxy` records any client's traffic to httpbin; the cassette replays through `serve` and `URLSession.replaying`.
@Suite("Recording through the proxy", .enabled(if: Proc.httpbin != nil && Proc.tapedeck != nil && Proc.hasVenv))
struct ProxyRecordingTests {
    /// Paths whose bodies do not echo the request, so replay must give the same bytes.
    static let stablePaths = ["/json", "/html", "/bytes/64?seed=7", "/encoding/utf8", "/response-headers?X-A=1&X-A=2"]

    /// The children's environment: no record-mode override, and usage records kept in the
    /// test's own folder (removed with it).
    static func noRecordOverride(_ directory: URL) -> [String: String] {
        ["TAPEDECK_RECORD_MODE": "", "TAPEDECK_USAGE_DIR": directory.appendingPathComponent("usage").path]
    }

    @Test("curl through proxy records a cassette that serve replays byte-identical to requests, and URLSession.replaying in-process")
    func recordThenReplayEverywhere() async throws {
        let upstream = try #require(Proc.httpbin)
        let directory = try Proc.temporaryDirectory()
        defer { Proc.cleanUp(directory) }
        let cassette = directory.appendingPathComponent("httpbin.cassette.json")

        let proxy = try await ServerProcess(["proxy", upstream.absoluteString, "--record", cassette.path, "--mode", "all"],
                                            environment: Self.noRecordOverride(directory))
        var recorded: [String: Data] = [:]
        for path in Self.stablePaths {
            let result = try await Proc.run(Proc.curl, ["-s", "--fail", proxy.url.absoluteString + path])
            #expect(result.status == 0, "curl \(path) through the proxy: \(result.stderr)")
            recorded[path] = result.stdout
        }
        let stopped = await proxy.stop()
        #expect(stopped.status == 0)
        #expect(stopped.stderr.contains("\(Self.stablePaths.count) recorded"), "\(stopped.stderr)")
        let stored = try Cassette.load(from: cassette)
        #expect(stored.interactions.count == Self.stablePaths.count)
        #expect(stored.baseURL?.absoluteString == upstream.absoluteString)
        #expect(stored.interactions[4].response.headers.values(for: "X-A") == ["1", "2"])

        let serve = try await ServerProcess(["serve", cassette.path], environment: Self.noRecordOverride(directory))
        let script = """
            import sys, requests, binascii
            for path in sys.argv[2:]:
                r = requests.get(sys.argv[1] + path)
                print(r.status_code, binascii.hexlify(r.content).decode())
            """
        let replayed = try await Proc.run(Proc.python, ["-c", script, serve.url.absoluteString] + Self.stablePaths)
        _ = await serve.stop()
        let lines = replayed.text.split(separator: "\n").map(String.init)
        #expect(lines.count == Self.stablePaths.count, "\(replayed.stderr)")
        for (path, line) in zip(Self.stablePaths, lines) {
            let hex = recorded[path].map { $0.map { String(format: "%02x", $0) }.joined() } ?? ""
            #expect(line == "200 " + hex, "\(path) through serve differs from what curl got through the proxy")
        }

        let session = try URLSession.replaying(cassette)
        for path in Self.stablePaths {
            let (data, _) = try await session.data(from: URL(string: upstream.absoluteString + path)!)
            #expect(data == recorded[path], "\(path) through URLSession.replaying")
        }
    }

    @Test("gzip from the upstream reaches the client decoded, without Content-Encoding, and is stored decoded")
    func gzipIsDecoded() async throws {
        let upstream = try #require(Proc.httpbin)
        let directory = try Proc.temporaryDirectory()
        defer { Proc.cleanUp(directory) }
        let cassette = directory.appendingPathComponent("gzip.cassette.json")
        let server = try await CassetteServer.proxy(to: upstream, recordingTo: cassette, mode: .all,
                                                    options: DeckOptions(live: CurlTransport(options: .init(followRedirects: false))))
        let result = try await Proc.run(Proc.curl, ["-s", "-i", "-H", "Accept-Encoding: gzip", server.url.absoluteString + "/gzip"])
        await server.stop()
        let raw = try #require(RawResponse(result.stdout))
        #expect(raw.values("Content-Encoding").isEmpty)
        #expect(raw.values("Content-Length") == [String(raw.body.count)])
        #expect(String(decoding: raw.body, as: UTF8.self).contains(#""gzipped": true"#))
        let stored = try Cassette.load(from: cassette)
        #expect(stored.interactions.first?.response.headers.contains("Content-Encoding") == false)
    }

    @Test("hop-by-hop headers stop at the proxy; Host names the upstream and X-Forwarded-* the client side")
    func hopByHopAndForwardedHeaders() async throws {
        let upstream = try #require(Proc.httpbin)
        let directory = try Proc.temporaryDirectory()
        defer { Proc.cleanUp(directory) }
        let cassette = directory.appendingPathComponent("headers.cassette.json")
        let server = try await CassetteServer.proxy(to: upstream, recordingTo: cassette, mode: .all,
                                                    options: DeckOptions(live: CurlTransport(options: .init(followRedirects: false))))
        let result = try await Proc.run(Proc.curl, ["-s", "-H", "Connection: keep-alive, X-Hop", "-H", "X-Hop: secret", "-H", "Keep-Alive: timeout=5",
                                                    "-H", "Proxy-Authorization: Basic Zm9vOmJhcg==", "-H", "X-End: kept",
                                                    server.url.absoluteString + "/headers"])
        await server.stop()
        let echoed = try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
        let headers = try #require(echoed["headers"] as? [String: String])
        #expect(headers["X-End"] == "kept")
        #expect(headers["X-Hop"] == nil && headers["Keep-Alive"] == nil && headers["Proxy-Authorization"] == nil)
        #expect(headers["Host"] == "\(upstream.host!):\(upstream.port!)")
        #expect(headers["X-Forwarded-Host"] == "\(server.url.host!):\(server.url.port!)")
        let request = try #require(try Cassette.load(from: cassette).interactions.first).request
        #expect(request.headers["X-Forwarded-For"] == "127.0.0.1")
        #expect(request.headers["X-Forwarded-Proto"] == "http")
        #expect(!request.headers.contains("Connection") && !request.headers.contains("X-Hop"))
    }

    @Test("a client with HTTP_PROXY set records through the forward proxy without changing its URL")
    func forwardProxy() async throws {
        let upstream = try #require(Proc.httpbin)
        let directory = try Proc.temporaryDirectory()
        defer { Proc.cleanUp(directory) }
        let cassette = directory.appendingPathComponent("forward.cassette.json")
        let unrelated = URL(string: "http://127.0.0.1:9")!  // the reverse target is never used for absolute-form requests
        let server = try await CassetteServer.proxy(to: unrelated, recordingTo: cassette, mode: .all,
                                                    options: DeckOptions(live: CurlTransport(options: .init(followRedirects: false))))
        let target = upstream.absoluteString + "/anything/forwarded?x=1"
        let result = try await Proc.run(Proc.curl, ["-s", "--fail", target], environment: ["http_proxy": server.url.absoluteString, "no_proxy": ""])
        await server.stop()
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.text.contains("\"url\": \"\(target)\""))
        let stored = try Cassette.load(from: cassette)
        #expect(stored.interactions.map(\.request.url.absoluteString) == [target])
        #expect(stored.interactions.first?.request.headers["Host"] == "\(upstream.host!):\(upstream.port!)")
    }

    @Test("on CI, where the default mode is none, a proxy asked to record a missing cassette says why and how to record anyway")
    func missingCassetteOnCI() async throws {
        let upstream = try #require(Proc.httpbin)
        let directory = try Proc.temporaryDirectory()
        defer { Proc.cleanUp(directory) }
        let cassette = directory.appendingPathComponent("new.cassette.json").path
        let environment = Self.noRecordOverride(directory).merging(["CI": "true"]) { $1 }
        let refused = try await Proc.run(try #require(Proc.tapedeck), ["proxy", upstream.absoluteString, "--record", cassette, "--port", "0"],
                                         environment: environment)
        #expect(refused.status != 0 && refused.stderr.contains("CI is set") && refused.stderr.contains("TAPEDECK_RECORD_MODE=once"),
                "\(refused.stderr)")
        let proxy = try await ServerProcess(["proxy", upstream.absoluteString, "--record", cassette, "--mode", "once"], environment: environment)
        let status = await proxy.stop()
        #expect(status.status == 0, "an explicit mode records on CI: \(status.stderr)")
    }

    @Test("mode new replays what the cassette holds and records the rest")
    func modeNew() async throws {
        let upstream = try #require(Proc.httpbin)
        let directory = try Proc.temporaryDirectory()
        defer { Proc.cleanUp(directory) }
        let cassette = directory.appendingPathComponent("new.cassette.json")
        let live = CurlTransport(options: .init(followRedirects: false))
        let first = try await CassetteServer.proxy(to: upstream, recordingTo: cassette, mode: .all, options: DeckOptions(live: live))
        _ = try await Proc.run(Proc.curl, ["-s", first.url.absoluteString + "/uuid"])
        await first.stop()
        let uuid = try #require(try Cassette.load(from: cassette).interactions.first).response.body

        let second = try await CassetteServer.proxy(to: upstream, recordingTo: cassette, mode: .new, options: DeckOptions(live: live))
        let again = try await Proc.run(Proc.curl, ["-s", second.url.absoluteString + "/uuid"])
        _ = try await Proc.run(Proc.curl, ["-s", second.url.absoluteString + "/json"])
        let summary = await second.stop()
        #expect(again.stdout == uuid, "a known request is replayed, not sent again")
        #expect(summary.contains("1 recorded · 1 played"), "\(summary)")
        #expect(try Cassette.load(from: cassette).interactions.count == 2)
    }

    @Test("200 concurrent clients recording through one proxy give 200 interactions")
    func twoHundredConcurrentClients() async throws {
        let upstream = try #require(Proc.httpbin)
        let directory = try Proc.temporaryDirectory()
        defer { Proc.cleanUp(directory) }
        let cassette = directory.appendingPathComponent("concurrent.cassette.json")
        let server = try await CassetteServer.proxy(to: upstream, recordingTo: cassette, mode: .all,
                                                    options: DeckOptions(live: CurlTransport(options: .init(followRedirects: false))))
        let script = """
            import sys, threading, requests
            base = sys.argv[1]
            barrier = threading.Barrier(200)
            codes = [0] * 200
            def fetch(i):
                s = requests.Session()
                barrier.wait()
                codes[i] = s.get(f"{base}/anything/client-{i}").status_code
            threads = [threading.Thread(target=fetch, args=(i,)) for i in range(200)]
            for t in threads: t.start()
            for t in threads: t.join()
            print(sum(1 for c in codes if c == 200))
            """
        let result = try await Proc.run(Proc.python, ["-c", script, server.url.absoluteString], timeout: 120)
        await server.stop()
        #expect(result.text.trimmingCharacters(in: .whitespacesAndNewlines) == "200", "\(result.stderr.suffix(2000))")
        let urls = Set(try Cassette.load(from: cassette).interactions.map(\.request.url.path))
        #expect(urls == Set((0..<200).map { "/anything/client-\($0)" }))
    }

    @Test("HTTPie and URLSession record through the proxy too")
    func httpieAndURLSessionThroughTheProxy() async throws {
        let upstream = try #require(Proc.httpbin)
        let directory = try Proc.temporaryDirectory()
        defer { Proc.cleanUp(directory) }
        let cassette = directory.appendingPathComponent("clients.cassette.json")
        let server = try await CassetteServer.proxy(to: upstream, recordingTo: cassette, mode: .all,
                                                    options: DeckOptions(live: CurlTransport(options: .init(followRedirects: false))))
        let httpie = try await Proc.run((Proc.venv ?? "") + "/bin/http", ["--ignore-stdin", "--print=b", "POST", server.url.absoluteString + "/post", "name=Ada"])
        #expect(httpie.status == 0, "\(httpie.stderr)")
        #expect(httpie.text.contains("\"name\": \"Ada\""))
        let session = URLSession(configuration: .ephemeral)
        defer { session.finishTasksAndInvalidate() }
        let (data, response) = try await session.data(from: server.url.appendingPathComponent("json"))
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        #expect(String(decoding: data, as: UTF8.self).contains("slideshow"))
        await server.stop()
        let stored = try Cassette.load(from: cassette)
        #expect(stored.interactions.map(\.request.method) == [.post, .get])
        #expect(stored.interactions.first?.request.body.map { String(decoding: $0, as: UTF8.self) } == #"{"name": "Ada"}"#)
    }

    @Test("serve --unmatched forward answers unmatched requests from the upstream")
    func unmatchedForward() async throws {
        let upstream = try #require(Proc.httpbin)
        var options = DeckOptions(unmatched: .forward, upstream: upstream, live: CurlTransport(options: .init(followRedirects: false)))
        options.log = { _ in }
        try await ServeClientsTests.withServer(options: options) { server, _ in
            let served = try await Proc.run(Proc.curl, ["-s", server.url.absoluteString + "/users"])
            #expect(served.text.contains("Ada"), "recorded requests are still served from the cassette")
            let forwarded = try await Proc.run(Proc.curl, ["-s", "-i", server.url.absoluteString + "/anything/not-recorded"])
            let raw = try #require(RawResponse(forwarded.stdout))
            #expect(raw.status == 200)
            #expect(raw.values(ServerMarker.unmatchedHeader).isEmpty)
            #expect(String(decoding: raw.body, as: UTF8.self).contains("/anything/not-recorded"))
        }
    }

    @Test("credentials are redacted before the cassette is written, and redirects are recorded hop by hop as the client follows them")
    func redactionAndRedirects() async throws {
        let upstream = try #require(Proc.httpbin)
        let directory = try Proc.temporaryDirectory()
        defer { Proc.cleanUp(directory) }
        let cassette = directory.appendingPathComponent("redacted.cassette.json")
        let server = try await CassetteServer.proxy(to: upstream, recordingTo: cassette, mode: .all,
                                                    options: DeckOptions(live: CurlTransport(options: .init(followRedirects: false))))
        let token = "sk_live_" + String(repeating: "q7", count: 12)
        let authorized = try await Proc.run(Proc.curl, ["-s", "-H", "Authorization: Bearer \(token)", server.url.absoluteString + "/bearer"])
        #expect(authorized.text.contains(token), "the client still gets the real answer")
        let followed = try await Proc.run(Proc.curl, ["-s", "-L", "-o", "/dev/null", "-w", "%{http_code} %{num_redirects}", server.url.absoluteString + "/redirect/2"])
        await server.stop()
        #expect(followed.text == "200 2")
        let text = try String(contentsOf: cassette, encoding: .utf8)
        #expect(!text.contains(token), "the token never reaches disk")
        #expect(text.contains("Bearer <REDACTED>"))
        let paths = try Cassette.load(from: cassette).interactions.map(\.request.url.path)
        #expect(paths == ["/bearer", "/redirect/2", "/relative-redirect/1", "/get"] || paths == ["/bearer", "/redirect/2", "/redirect/1", "/get"], "\(paths)")
    }
}
