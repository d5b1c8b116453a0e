import Foundation
import Synchronization
import Tapedeck
import TapedeckCurl
@testable import TapedeckServer
import TapedeckTestSupport
import Testing

/// A header no client could be sent (a name outside the token characters, a value with a line
/// break) never reaches the socket: the client gets 502 with the reason, the server goes on.
@Suite("Hostile headers through the server")
struct HostileHeaderTests {
    static func upstream(_ name: String, _ value: String) -> StubTransport {
        StubTransport { request in
            HTTPResponse(status: 200, headers: HTTPHeaders([HTTPHeader(name: "Content-Type", value: "text/plain"), HTTPHeader(name: name, value: value)]),
                         body: Data("upstream".utf8), url: request.url)
        }
    }

    @Test("forwarded answers with a non-token header name or an injected line get 502 and the server keeps serving",
          arguments: [("X-\u{e9}", "1"), ("X-Note", "ok\r\nSet-Cookie: injected=1"), ("Bad Name", "1")])
    func writeCheck(name: String, value: String) async throws {
        let directory = try Proc.temporaryDirectory()
        defer { Proc.cleanUp(directory) }
        let cassette = try SampleCassettes.write(Cassette(interactions: []), to: directory, name: "empty.cassette.json")
        let options = DeckOptions(unmatched: .forward, upstream: URL(string: "http://upstream.test"),
                                  live: Self.upstream(name, value), environment: [:])
        let server = try await CassetteServer.serve([cassette], options: options)
        let hostile = try await Proc.run(Proc.curl, ["-s", "-i", server.url.absoluteString + "/anything"])
        let text = String(decoding: hostile.stdout, as: UTF8.self)
        #expect(text.hasPrefix("HTTP/1.1 502"), "\(text)")
        #expect(text.contains("the answer cannot be sent"), "\(text)")
        #expect(!text.contains("injected=1") && !text.contains("Set-Cookie"), "no header line is injected: \(text)")
        let status = try await Proc.run(Proc.curl, ["-s", "-o", "/dev/null", "-w", "%{http_code}",
                                                     "-H", "X-Tapedeck-Token: \(server.deck.options.controlToken)",
                                                     server.url.absoluteString + "/__tapedeck/status"])
        #expect(String(decoding: status.stdout, as: UTF8.self) == "200", "still serving")
        _ = await server.stop()
    }

    @Test("a proxy does not record an upstream answer it could not send, and answers 502 with the reason")
    func recordCheck() async throws {
        let directory = try Proc.temporaryDirectory()
        defer { Proc.cleanUp(directory) }
        let cassette = directory.appendingPathComponent("proxied.cassette.json")
        let upstream = try #require(URL(string: "http://upstream.test"))
        let proxy = try await CassetteServer.proxy(to: upstream, recordingTo: cassette, mode: .all,
                                                   options: DeckOptions(live: Self.upstream("X-\u{e9}", "1"), environment: [:]))
        let answer = try await Proc.run(Proc.curl, ["-s", "-i", proxy.url.absoluteString + "/thing"])
        let text = String(decoding: answer.stdout, as: UTF8.self)
        #expect(text.hasPrefix("HTTP/1.1 502"), "\(text)")
        #expect(text.contains(#"X-\u{e9}"#) && text.contains("not recorded"), "\(text)")
        _ = await proxy.stop()
        let stored = FileManager.default.fileExists(atPath: cassette.path) ? try Cassette.load(from: cassette).interactions.count : 0
        #expect(stored == 0, "nothing was recorded")
    }

    /// A server on `[::1]` that answers every GET with the `Host` it was sent.
    static let hostEcho = """
        import http.server, socket
        class Server(http.server.HTTPServer):
            address_family = socket.AF_INET6
        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                body = str(self.headers.get("Host")).encode()
                self.send_response(200)
                self.send_header("Content-Type", "text/plain")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)
            def log_message(self, *args):
                pass
        server = Server(("::1", 0), Handler)
        print(server.server_address[1], flush=True)
        server.serve_forever()
        """

    @Test("tapedeck proxy in front of an upstream at an IPv6 literal sends its Host in brackets, and records its URL")
    func ipv6Upstream() async throws {
        let upstreamServer = try TapedeckTestSupport.ServerProcess(arguments: ["-c", Self.hostEcho], expecting: 1)
        defer { upstreamServer.stop() }
        let port = upstreamServer.ports[0]
        let directory = try Proc.temporaryDirectory()
        defer { Proc.cleanUp(directory) }
        let cassette = directory.appendingPathComponent("ipv6.cassette.json")
        let proxy = try await ServerProcess(["proxy", "http://[::1]:\(port)", "--record", cassette.path, "--mode", "all"])
        let answer = try await Proc.run(Proc.curl, ["-s", proxy.url.absoluteString + "/thing"])
        #expect(String(decoding: answer.stdout, as: UTF8.self) == "[::1]:\(port)")
        let stopped = await proxy.stop()
        #expect(stopped.status == 0, "\(stopped.stderr)")
        #expect(try Cassette.load(from: cassette).interactions.map(\.request.url.absoluteString) == ["http://[::1]:\(port)/thing"])
    }

    @Test("CONNECT gets 501 with the reason and the connection closes, instead of a URL error on an open connection")
    func connect() async throws {
        let directory = try Proc.temporaryDirectory()
        defer { Proc.cleanUp(directory) }
        let cassette = try SampleCassettes.write(Cassette(interactions: []), to: directory, name: "empty.cassette.json")
        let server = try await CassetteServer.serve([cassette], options: DeckOptions(environment: [:]))
        let result = try await Proc.run(Proc.curl, ["-s", "-o", "/dev/null", "-w", "%{http_connect}", "--max-time", "5",
                                                     "-x", server.url.absoluteString, "https://api.example/"])
        #expect(result.text == "501", "curl's tunnel gets the answer at once: \(result.text) \(result.stderr)")
        let raw = try await Proc.run("/bin/bash", ["-c", "exec 3<>/dev/tcp/127.0.0.1/\(server.url.port ?? 0); "
            + "printf 'CONNECT api.example:443 HTTP/1.1\\r\\nHost: api.example:443\\r\\n\\r\\n' >&3; timeout 5 cat <&3"])
        #expect(raw.text.hasPrefix("HTTP/1.1 501") && raw.text.contains("is not intercepted: start the server with --intercept"), "\(raw.text)")
        #expect(raw.status == 0, "the server closed the connection (cat ended before its timeout)")
        _ = await server.stop()
    }

    @Test("a flood of one unmatched request logs its report once, then counted lines; status shows it redacted")
    func boundedLog() async throws {
        let directory = try Proc.temporaryDirectory()
        defer { Proc.cleanUp(directory) }
        let lines = LogLines()
        let cassette = try SampleCassettes.write(SampleCassettes.single(path: "/greeting", text: "hi"), to: directory, name: "one.cassette.json")
        let server = try await CassetteServer.serve([cassette], options: DeckOptions(log: { lines.append($0) }, environment: [:]))
        for _ in 0..<30 {
            _ = try await Proc.run(Proc.curl, ["-s", "-o", "/dev/null", server.url.absoluteString + "/nope?api_key=sk_live_0123456789abcdef"])
        }
        let logged = lines.all
        #expect(logged.filter { $0.hasPrefix("unmatched: ") }.count == 1, "\(logged)")
        #expect(logged.filter { $0.hasPrefix("unmatched again") }.count == 9, "the 2nd to 10th, then every 100th")
        #expect(!logged.joined().contains("sk_live_0123456789abcdef"))
        #expect(server.deck.status.lastMismatches.allSatisfy { !$0.contains("sk_live") && $0.contains("%3CREDACTED%3E") },
                "\(server.deck.status.lastMismatches)")
        _ = await server.stop()
    }

    /// Options for a server whose live transport is curl (no proxy from the environment), whose
    /// control endpoints may name cassettes in `directory`.
    static func liveOptions(_ directory: URL) -> DeckOptions {
        var curl = CurlTransport.Options(timeout: 5, followRedirects: false)
        curl.proxyFromEnvironment = false
        var options = DeckOptions(live: CurlTransport(options: curl), environment: [:])
        options.cassetteDirectory = directory
        return options
    }

    /// A server of one empty cassette.
    static func emptyServer(_ directory: URL, options: DeckOptions) async throws -> CassetteServer {
        let empty = try SampleCassettes.write(Cassette(interactions: []), to: directory, name: "empty.cassette.json")
        return try await CassetteServer.serve([empty], options: options)
    }

    /// Starts recording `server` into `cassette` from `upstream`, then sends it a request that
    /// must come back as 508.
    static func recordThrough(_ server: CassetteServer, to cassette: URL, upstream: URL) async throws {
        let started = try await ControlEndpointTests.control(server, "POST",
                                                             "record/start?mode=all&cassette=\(cassette.path)&upstream=\(upstream.absoluteString)")
        #expect(started.status == 200, "\(String(decoding: started.body, as: UTF8.self))")
        let answer = try await Proc.run(Proc.curl, ["-s", "-i", "--max-time", "10", server.url.absoluteString + "/thing"])
        #expect(answer.text.hasPrefix("HTTP/1.1 508"), "\(answer.text)")
    }

    @Test("a proxy pointed at itself answers 508 at once and records nothing; a request that comes around gets 508 too")
    func loops() async throws {
        let directory = try Proc.temporaryDirectory()
        defer { Proc.cleanUp(directory) }
        let options = Self.liveOptions(directory)
        let server = try await Self.emptyServer(directory, options: options)
        let cassette = directory.appendingPathComponent("loop.cassette.json")
        try await Self.recordThrough(server, to: cassette, upstream: server.url)
        let around = try await Proc.run(Proc.curl, ["-s", "-o", "/dev/null", "-w", "%{http_code}", "-H", "Via: 1.1 other, 1.1 \(server.deck.viaName)",
                                                     server.url.absoluteString + "/elsewhere"])
        #expect(around.text == "508")
        _ = await server.stop()
        let stored = FileManager.default.fileExists(atPath: cassette.path) ? try Cassette.load(from: cassette).interactions.count : 0
        #expect(stored == 0)
    }

    @Test("a loop through another recording proxy answers 508 and neither hop records it")
    func indirectLoop() async throws {
        let directory = try Proc.temporaryDirectory()
        defer { Proc.cleanUp(directory) }
        let options = Self.liveOptions(directory)
        let first = try await Self.emptyServer(directory, options: options)
        // The second proxy records whatever its upstream, the first, answers.
        let second = directory.appendingPathComponent("second.cassette.json")
        let other = try await CassetteServer.proxy(to: first.url, recordingTo: second, mode: .all, options: options)
        let cassette = directory.appendingPathComponent("first.cassette.json")
        try await Self.recordThrough(first, to: cassette, upstream: other.url)
        _ = await other.stop()
        _ = await first.stop()
        for file in [cassette, second] {
            let stored = FileManager.default.fileExists(atPath: file.path) ? try Cassette.load(from: file).interactions.count : 0
            #expect(stored == 0, "\(file.lastPathComponent) recorded the loop's 508")
        }
    }
}

/// Log lines a server wrote, kept for a test.
final class LogLines: Sendable {
    private let storage = Mutex<[String]>([])
    func append(_ line: String) { storage.withLock { $0.append(line) } }
    var all: [String] { storage.withLock { $0 } }
}

/// An upstream given with userinfo: its password never reaches the cassette or the banner,
/// and the proxy sends it as Basic auth, as curl does.
@Suite("Upstream userinfo")
struct UpstreamUserinfoTests {
    @Test("the proxy sends userinfo as Basic auth to the upstream only, and the cassette holds no password")
    func basicAuth() async throws {
        let directory = try Proc.temporaryDirectory()
        defer { Proc.cleanUp(directory) }
        let seen = LogLines()
        let upstream = StubTransport { request in
            seen.append("\(request.url.host ?? "") \(request.headers["Authorization"] ?? "none")")
            return HTTPResponse(status: 200, headers: ["Content-Type": "text/plain"], body: Data("ok".utf8), url: request.url)
        }
        let cassette = directory.appendingPathComponent("userinfo.cassette.json")
        let upstreamURL = try #require(URL(string: "http://alice:PW-s3cret-123@upstream.test"))
        let proxy = try await CassetteServer.proxy(to: upstreamURL, recordingTo: cassette,
                                                   mode: .all, options: DeckOptions(live: upstream, environment: [:]))
        _ = try await Proc.run(Proc.curl, ["-s", proxy.url.absoluteString + "/thing"])
        _ = try await Proc.run(Proc.curl, ["-s", "-x", proxy.url.absoluteString, "http://elsewhere.test/other"])
        _ = await proxy.stop()
        let basic = "Basic " + Data("alice:PW-s3cret-123".utf8).base64EncodedString()
        #expect(seen.all.contains("upstream.test \(basic)"), "\(seen.all)")
        #expect(seen.all.contains("elsewhere.test none"), "another host never gets the upstream's credentials: \(seen.all)")
        let text = try String(contentsOf: cassette, encoding: .utf8)
        #expect(!text.contains("PW-s3cret-123") && !text.contains(Data("alice:PW-s3cret-123".utf8).base64EncodedString()), "\(text)")
    }
}
