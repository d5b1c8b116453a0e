import Foundation
import Tapedeck
@testable import TapedeckServer
import TapedeckTestSupport
import Testing

/// Who may use the control endpoints, and what they may touch: the run's token, requests
/// addressed to this server by name and from no other web origin, cassette paths inside the
/// served folder, and errors that never show what a file holds.
@Suite("Control endpoint access", .serialized)
struct ControlAccessTests {
    static func server(in directory: URL) async throws -> (CassetteServer, URL) {
        let cassette = try SampleCassettes.write(SampleCassettes.single(path: "/greeting", text: "hello"), to: directory, name: "served.cassette.json")
        var options = DeckOptions(environment: [:])
        options.cassetteDirectory = directory
        return (try await CassetteServer.serve([cassette], options: options), cassette)
    }

    @Test("no token, a wrong token, another Host or another web origin is refused, and the served cassettes stay")
    func refusals() async throws {
        let directory = try Proc.temporaryDirectory()
        defer { Proc.cleanUp(directory) }
        let (server, _) = try await Self.server(in: directory)
        let port = server.url.port ?? 0
        let noToken = try await Proc.run(Proc.curl, ["-s", "-o", "/dev/null", "-w", "%{http_code}", "-X", "POST",
                                                      server.url.absoluteString + "/__tapedeck/reset"])
        #expect(noToken.text == "401")
        #expect(try await ControlEndpointTests.control(server, "GET", "status", token: String(repeating: "0", count: 32)).status == 401)
        let rebound = try await ControlEndpointTests.control(server, "POST", "reset", extra: ["-H", "Host: evil.example:\(port)"])
        #expect(rebound.status == 421, "a DNS-rebound name is not this server")
        let page = try await ControlEndpointTests.control(server, "POST", "reset", extra: ["-H", "Origin: http://evil.example"])
        #expect(page.status == 403, "a page of another origin cannot post to the control endpoints")
        let local = try await ControlEndpointTests.control(server, "GET", "status", extra: ["-H", "Host: localhost:\(port)"])
        #expect(local.status == 200, "loopback's other names are this server")
        #expect(!String(decoding: noToken.stdout, as: UTF8.self).contains(server.deck.options.controlToken))
        #expect(try await Proc.run(Proc.curl, ["-s", server.url.absoluteString + "/greeting"]).text == "hello")
        _ = await server.stop()
    }

    @Test("cassette paths outside the served folder are refused, and nothing is created there")
    func confinement() async throws {
        let directory = try Proc.temporaryDirectory()
        let outside = try Proc.temporaryDirectory()
        defer { Proc.cleanUp(directory); Proc.cleanUp(outside) }
        let (server, _) = try await Self.server(in: directory)
        try FileManager.default.createSymbolicLink(at: directory.appendingPathComponent("escape"), withDestinationURL: outside)
        for path in [outside.appendingPathComponent("evil.sh").path, "../" + outside.lastPathComponent + "/evil.json", "escape/evil.json",
                     "/etc/passwd"] {
            let started = try await ControlEndpointTests.control(server, "POST", "record/start?cassette=\(path)&upstream=http://127.0.0.1:9")
            #expect(started.status == 403, "\(path): \(String(decoding: started.body, as: UTF8.self))")
            let loaded = try await ControlEndpointTests.control(server, "POST", "load?cassette=\(path)")
            #expect(loaded.status == 403, "\(path)")
            #expect(!String(decoding: loaded.body, as: UTF8.self).contains("root:"))
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: outside.path).isEmpty)
        #expect(try await Proc.run(Proc.curl, ["-s", server.url.absoluteString + "/greeting"]).text == "hello", "the served cassette stayed")
        _ = await server.stop()
    }

    @Test("record/start at a path no file can be written at is refused with 400, and the served cassettes stay")
    func unwritablePath() async throws {
        let directory = try Proc.temporaryDirectory()
        defer { Proc.cleanUp(directory) }
        let (server, _) = try await Self.server(in: directory)
        let started = try await ControlEndpointTests.control(server, "POST", "record/start?cassette=served.cassette.json/x.json&mode=all&upstream=http://127.0.0.1:9")
        let body = String(decoding: started.body, as: UTF8.self)
        #expect(started.status == 400 && body.contains("is not a directory"), "\(started.status) \(body)")
        #expect(try await Proc.run(Proc.curl, ["-s", server.url.absoluteString + "/greeting"]).text == "hello", "the served cassette stayed")
        _ = await server.stop()
    }

    @Test("record/start takes an upstream by the rule the command line takes it: one with a query is refused, its key never quoted")
    func upstreamRule() async throws {
        let directory = try Proc.temporaryDirectory()
        defer { Proc.cleanUp(directory) }
        let (server, _) = try await Self.server(in: directory)
        let upstream = "http://127.0.0.1:9/api%3Fapi_key%3DKEY0451"
        let started = try await ControlEndpointTests.control(server, "POST", "record/start?cassette=new.cassette.json&upstream=\(upstream)")
        let body = String(decoding: started.body, as: UTF8.self)
        #expect(started.status == 400, "\(body)")
        #expect(body.contains("the upstream http://127.0.0.1:9/api has a query"), "\(body)")
        #expect(!body.contains("KEY0451"))
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("new.cassette.json").path))
        _ = await server.stop()
    }

    @Test("a mount prefix is a URL path: one with a line break or a .. segment is refused, and the served cassettes stay")
    func mountRule() async throws {
        let directory = try Proc.temporaryDirectory()
        defer { Proc.cleanUp(directory) }
        let (server, cassette) = try await Self.server(in: directory)
        for mount in ["%0d%0aX:y", "/../x"] {
            let loaded = try await ControlEndpointTests.control(server, "POST", "load?cassette=\(cassette.lastPathComponent)&mount=\(mount)")
            #expect(loaded.status == 400, "\(mount): \(String(decoding: loaded.body, as: UTF8.self))")
        }
        #expect(try await Proc.run(Proc.curl, ["-s", server.url.absoluteString + "/greeting"]).text == "hello")
        _ = await server.stop()
    }

    @Test("the summary status and the inspector show of a request scrubs a header's credential where its target repeats it")
    func summaryScrubsHeaderSecrets() {
        let incoming = IncomingRequest(method: "GET", target: "/sessions/sekrit_bearer_123456?password=pw0451",
                                       headers: HTTPHeaders([HTTPHeader(name: "Authorization", value: "Bearer sekrit_bearer_123456")]))
        let summary = Deck.redactedSummary(incoming)
        #expect(summary.hasPrefix("GET /sessions/"), "\(summary)")
        #expect(!summary.contains("sekrit_bearer_123456") && !summary.contains("pw0451"), "\(summary)")
    }

    @Test("a file inside that is not a cassette is refused without quoting a byte of it")
    func noContentInErrors() async throws {
        let directory = try Proc.temporaryDirectory()
        defer { Proc.cleanUp(directory) }
        let (server, _) = try await Self.server(in: directory)
        try Data(#"{"interactions": [{"request": {"method": "GET", "url": "SECRET-VALUE-IN-FILE"}}]}"#.utf8)
            .write(to: directory.appendingPathComponent("notes.json"))
        try Data("PRIVATE KEY material".utf8).write(to: directory.appendingPathComponent("key.txt"))
        for name in ["notes.json", "key.txt"] {
            let loaded = try await ControlEndpointTests.control(server, "POST", "load?cassette=\(name)")
            let text = String(decoding: loaded.body, as: UTF8.self)
            #expect(loaded.status == 400, "\(text)")
            #expect(!text.contains("SECRET-VALUE") && !text.contains("PRIVATE") && !text.contains("found '"), "\(text)")
        }
        #expect(try await Proc.run(Proc.curl, ["-s", server.url.absoluteString + "/greeting"]).text == "hello")
        _ = await server.stop()
    }

    @Test("which Host values address the server: its own name, loopback's names, any address when it listens on all; never a DNS name")
    func hostRule() throws {
        let loopback = try #require(URL(string: "http://127.0.0.1:8080"))
        for host in ["127.0.0.1:8080", "localhost:8080", "[::1]:8080", "127.0.0.2:8080"] { #expect(ControlGate.accepts(host, origin: loopback), "\(host)") }
        for host in ["evil.example:8080", "127.0.0.1:9090", "127.0.0.1", "192.168.1.5:8080", "localhost.evil.example:8080"] {
            #expect(!ControlGate.accepts(host, origin: loopback), "\(host)")
        }
        let everywhere = try #require(URL(string: "http://0.0.0.0:8080"))
        for host in ["127.0.0.1:8080", "10.0.2.2:8080", "[fe80::1]:8080", "localhost:8080"] { #expect(ControlGate.accepts(host, origin: everywhere), "\(host)") }
        for host in ["evil.example:8080", "10.0.2.2:9999", "1.2.3.4.evil:8080"] { #expect(!ControlGate.accepts(host, origin: everywhere), "\(host)") }
        let named = try #require(URL(string: "http://dev.local:80"))
        #expect(ControlGate.accepts("dev.local", origin: named) && ControlGate.accepts("DEV.local:80", origin: named)
                && !ControlGate.accepts("127.0.0.1:80", origin: named))
        #expect(!CassetteServer.isLoopback("127.foo") && CassetteServer.isLoopback("[::1]") && !CassetteServer.isLoopback("0.0.0.0"))
    }

    @Test("a server told --origin still answers control requests addressed to where it listens, and a symlink at the end of a path is followed before the folder check")
    func originAndLastLink() async throws {
        let directory = try Proc.temporaryDirectory()
        let outside = try Proc.temporaryDirectory()
        defer { Proc.cleanUp(directory); Proc.cleanUp(outside) }
        let cassette = try SampleCassettes.write(SampleCassettes.single(path: "/greeting", text: "hello"), to: directory, name: "served.cassette.json")
        let elsewhere = try SampleCassettes.write(SampleCassettes.single(path: "/greeting", text: "from outside"), to: outside, name: "x.cassette.json")
        try FileManager.default.createSymbolicLink(at: directory.appendingPathComponent("link.cassette.json"), withDestinationURL: elsewhere)
        var options = DeckOptions(origin: URL(string: "http://10.0.2.2:8080"), environment: [:])
        options.cassetteDirectory = directory
        let server = try await CassetteServer.serve([cassette], options: options)
        #expect(try await ControlEndpointTests.control(server, "GET", "status").status == 200, "the listener's own address is this server")
        let linked = try await ControlEndpointTests.control(server, "POST", "load?cassette=link.cassette.json")
        #expect(linked.status == 403, "\(String(decoding: linked.body, as: UTF8.self))")
        _ = await server.stop()
    }
}
