import Foundation
import Synchronization
import Tapedeck
import TapedeckServer
import TapedeckTestSupport
import Testing

/// WebSocket sessions recorded through `proxy` and replayed by `serve` and the in-process server.
@Suite("WebSockets: recorded through the proxy, replayed frame by frame", .enabled(if: Proc.tapedeck != nil && Proc.hasVenv))
struct WebSocketTests {
    struct Session: Decodable {
        var received: [String]
        var close: [Close]?
        var subprotocol: String?
        var refused: String?
        enum Close: Decodable, Equatable {
            case code(Int), reason(String)
            init(from decoder: any Decoder) throws {
                let container = try decoder.singleValueContainer()
                if let code = try? container.decode(Int.self) { self = .code(code) } else { self = .reason(try container.decode(String.self)) }
            }
        }
    }

    /// Runs `ws_client.py URL MESSAGES…`, offering `subprotocols` when given, and waiting `wait`
    /// seconds of silence after the last message when given.
    static func client(_ url: String, _ messages: [String], subprotocols: [String] = [], wait: Double? = nil) async throws -> Session {
        let script = Proc.packageRoot.appendingPathComponent("Tests/Support/Python/ws_client.py").path
        var environment: [String: String] = [:]
        if !subprotocols.isEmpty { environment["WS_SUBPROTOCOLS"] = subprotocols.joined(separator: ",") }
        if let wait { environment["WS_WAIT"] = String(wait) }
        let result = try await Proc.run(Proc.python, [script, url] + messages, environment: environment)
        #expect(result.status == 0, "\(result.stderr)")
        return try JSONDecoder().decode(Session.self, from: result.stdout)
    }

    static func ws(_ url: URL) -> String {
        url.absoluteString.replacingOccurrences(of: "http://", with: "ws://")
    }

    /// A cassette holding one WebSocket session at `http://chat.test/room`: text frames (seconds,
    /// sender, text), its answer choosing `subprotocol` when given.
    static func session(_ frames: [(TimeInterval, WebSocketMessage.Sender, String)], duration: TimeInterval = 0, subprotocol: String? = nil,
                        in directory: URL) throws -> URL {
        var response = HTTPResponse(status: 101, headers: ["Upgrade": "websocket", "Connection": "Upgrade"])
        if let subprotocol { response.headers["Sec-WebSocket-Protocol"] = subprotocol }
        response.duration = duration
        response.webSocket = frames.map { WebSocketMessage(offset: $0.0, sender: $0.1, kind: .text, data: Data($0.2.utf8)) }
        let cassette = directory.appendingPathComponent("ws.cassette.json")
        try Cassette(interactions: [Interaction(request: HTTPRequest(url: URL(string: "http://chat.test/room")!), response: response)]).write(to: cassette)
        return cassette
    }

    /// `ws_server.py` over TLS, its throwaway CA written to `directory/upstream-ca.pem`.
    static func secureUpstream(in directory: URL) throws -> TapedeckTestSupport.ServerProcess {
        let script = Proc.packageRoot.appendingPathComponent("Tests/Support/Python/ws_server.py").path
        return try TapedeckTestSupport.ServerProcess(Proc.python, arguments: [script, directory.path], expecting: 1)
    }

    /// `ws_server.py`, the echo-and-push upstream, over plain `ws://`.
    static func echoServer() throws -> TapedeckTestSupport.ServerProcess {
        try TapedeckTestSupport.ServerProcess(Proc.python, arguments: [Proc.packageRoot.appendingPathComponent("Tests/Support/Python/ws_server.py").path],
                                              expecting: 1)
    }

    /// What a recording `proxy` runs with in a test: recording allowed, its usage kept in `directory`.
    static func recordingEnvironment(_ directory: URL) -> [String: String] {
        ["TAPEDECK_RECORD_MODE": "", "CI": "", "TAPEDECK_USAGE_DIR": directory.path]
    }

    static let messages = ["hello", "push", "b:0001"]
    static let replies = ["welcome", "echo: hello", "echo: push", "tick 1", "tick 2", "b:0100"]

    @Test("a Python websockets session recorded through proxy replays through serve: the same frames back; a different client frame gets the mismatch report in the close reason and the log")
    func recordAndReplay() async throws {
        let directory = try Proc.temporaryDirectory()
        defer { Proc.cleanUp(directory) }
        let upstream = try Self.echoServer()
        let cassette = directory.appendingPathComponent("chat.cassette.json")
        let environment = Self.recordingEnvironment(directory)
        let proxy = try await ServerProcess(["proxy", "http://127.0.0.1:\(upstream.ports[0])", "--record", cassette.path, "--mode", "all"],
                                            environment: environment)
        let live = try await Self.client(Self.ws(proxy.url) + "/chat", Self.messages)
        #expect(live.received == Self.replies)
        let stopped = await proxy.stop()
        #expect(stopped.status == 0, "\(stopped.stderr)")
        upstream.stop()

        let recorded = try #require(try Cassette.load(from: cassette).interactions.first)
        #expect(recorded.response.status == 101)
        let frames = try #require(recorded.response.webSocket)
        #expect(frames.filter { $0.sender == .client && $0.kind == .text }.map { String(decoding: $0.data, as: UTF8.self) } == ["hello", "push"])
        #expect(frames.contains { $0.sender == .server && $0.kind == .binary && $0.data == Data([1, 0]) })
        #expect(!recorded.request.headers.contains("Sec-WebSocket-Extensions"), "no compression is negotiated, so frames are recorded as sent")
        let text = try String(contentsOf: cassette, encoding: .utf8)
        #expect(text.contains("\"webSocket\"") && text.contains("\"text\": \"echo: push\""), "\(text.prefix(2000))")

        // A recording proxy in mode once replays the session the cassette holds, with the upstream gone.
        let again = try await ServerProcess(["proxy", "http://127.0.0.1:\(upstream.ports[0])", "--record", cassette.path, "--mode", "once"],
                                            environment: environment)
        let onceMore = try await Self.client(Self.ws(again.url) + "/chat", Self.messages)
        #expect(onceMore.received == Self.replies, "mode once plays what is recorded")
        _ = await again.stop()
        #expect(try Cassette.load(from: cassette).interactions.count == 1)

        let serve = try await ServerProcess(["serve", cassette.path, "--repeat"], environment: environment)
        let replayed = try await Self.client(Self.ws(serve.url) + "/chat", Self.messages)
        #expect(replayed.received == Self.replies)
        let different = try await Self.client(Self.ws(serve.url) + "/chat", ["hello", "pull"])
        #expect(different.received == ["welcome", "echo: hello"])
        #expect(different.close?.first == .code(1008))
        guard case .reason(let reason)? = different.close?.last else { Issue.record("no close reason: \(String(describing: different.close))"); return }
        #expect(reason.contains("client frame 2") && reason.contains("\"push\""), "\(reason)")
        let plain = try await Proc.run(Proc.curl, ["-s", "-o", "/dev/null", "-w", "%{http_code}", serve.url.absoluteString + "/chat"])
        #expect(plain.text == "426", "a plain GET of a WebSocket URL is told to use a WebSocket client")
        let log = await serve.stop()
        #expect(log.stderr.contains("client frame 2 (client text \"pull\") does not match: the recording expects client text \"push\""), "\(log.stderr)")
    }

    @Test("a session recorded with a subprotocol replays to a client that offers it, and to one that offers none; one that offers others is refused, naming both")
    func subprotocols() async throws {
        let directory = try Proc.temporaryDirectory()
        defer { Proc.cleanUp(directory) }
        let cassette = try Self.session([(0, .server, "hi")], subprotocol: "chat.v2", in: directory)
        var options = DeckOptions()
        options.allowRepeats = true
        let server = try await CassetteServer.serve([cassette], options: options)
        let url = server.webSocketURL.absoluteString + "/room"
        let offering = try await Self.client(url, [], subprotocols: ["chat.v3", "chat.v2"])
        #expect(offering.subprotocol == "chat.v2" && offering.received == ["hi"], "\(offering)")
        let plain = try await Self.client(url, [])
        #expect(plain.subprotocol == nil && plain.received == ["hi"], "\(plain)")
        let other = try await Self.client(url, [], subprotocols: ["chat.v1"])
        #expect(other.refused?.hasPrefix("400 ") == true, "\(other)")
        #expect(other.refused?.contains("the recorded session spoke subprotocol 'chat.v2', which this client does not offer (it offers 'chat.v1')") == true, "\(other)")
        _ = await server.stop()
    }

    @Test("recording with --mode new, a client that offers another subprotocol than the recorded session's opens a session recorded live; --mode once refuses it")
    func subprotocolRecordedLive() async throws {
        let directory = try Proc.temporaryDirectory()
        defer { Proc.cleanUp(directory) }
        let upstream = try Self.echoServer()
        defer { upstream.stop() }
        let origin = "http://127.0.0.1:\(upstream.ports[0])"
        var answer = HTTPResponse(status: 101, headers: ["Upgrade": "websocket", "Connection": "Upgrade", "Sec-WebSocket-Protocol": "chat.v2"])
        answer.webSocket = [WebSocketMessage(offset: 0, sender: .server, kind: .text, data: Data("recorded".utf8))]
        let recorded = Interaction(request: HTTPRequest(url: try #require(URL(string: origin + "/chat"))), response: answer)
        for (mode, expectLive) in [("new", true), ("once", false)] {
            let cassette = directory.appendingPathComponent("\(mode).cassette.json")
            try Cassette(interactions: [recorded]).write(to: cassette)
            let proxy = try await ServerProcess(["proxy", origin, "--record", cassette.path, "--mode", mode],
                                                environment: Self.recordingEnvironment(directory))
            let other = try await Self.client(Self.ws(proxy.url) + "/chat", [], subprotocols: ["chat.v1"])
            _ = await proxy.stop()
            if expectLive {
                #expect(other.received == ["welcome"] && other.refused == nil, "\(other)")
                #expect(try Cassette.load(from: cassette).interactions.count == 2)
            } else {
                #expect(other.refused?.hasPrefix("400 ") == true, "\(other)")
            }
        }
    }

    @Test("a stopping server tells a WebSocket client it is going away (1001), from a replayed session and from one the proxy relays")
    func goingAway() async throws {
        let directory = try Proc.temporaryDirectory()
        defer { Proc.cleanUp(directory) }
        // Replayed: the session's next frame is minutes away when the server stops.
        let cassette = try Self.session([(0, .server, "hi"), (0.01, .client, "wait"), (300, .server, "late")], in: directory)
        let replaying = try await ServerProcess(["serve", cassette.path, "--latency", "recorded"], environment: ["TAPEDECK_USAGE_DIR": directory.path])
        let replayed = Task { try await Self.client(Self.ws(replaying.url) + "/room", ["wait"], wait: 20) }
        try await Task.sleep(for: .milliseconds(1500))
        _ = await replaying.stop()
        let told = try await replayed.value
        #expect(told.close == [.code(1001), .reason(WebSocketMessage.goingAwayReason)], "\(told)")
        // Relayed and recorded: the upstream keeps the session open.
        let upstream = try Self.echoServer()
        defer { upstream.stop() }
        let recorded = directory.appendingPathComponent("relay.cassette.json")
        let proxy = try await ServerProcess(["proxy", "http://127.0.0.1:\(upstream.ports[0])", "--record", recorded.path, "--mode", "all"],
                                            environment: Self.recordingEnvironment(directory))
        let relayed = Task { try await Self.client(Self.ws(proxy.url) + "/chat", ["hello"], wait: 20) }
        try await Task.sleep(for: .milliseconds(1500))
        let stopped = await proxy.stop()
        #expect(stopped.status == 0, "\(stopped.stderr)")
        let relayedSession = try await relayed.value
        #expect(relayedSession.received == ["welcome", "echo: hello"] && relayedSession.close == [.code(1001), .reason(WebSocketMessage.goingAwayReason)],
                "\(relayedSession)")
        // What the upstream sent is recorded; the proxy's own close is not.
        let frames = try #require(try Cassette.load(from: recorded).interactions.first?.response.webSocket)
        #expect(!frames.contains { $0.kind == .close && $0.sender == .server }, "\(frames)")
    }

    @Test("CassetteServer gives tests a ws:// URL in process, and replays a session written by hand")
    func inProcess() async throws {
        let directory = try Proc.temporaryDirectory()
        defer { Proc.cleanUp(directory) }
        let cassette = try Self.session([(0, .server, "welcome"), (0.01, .client, "hello"), (0.02, .server, "echo: hello")], in: directory)
        let server = try await CassetteServer.serve([cassette])
        let url = server.webSocketURL
        #expect(url.scheme == "ws")
        let session = try await Self.client(url.absoluteString + "/room", ["hello"])
        #expect(session.received == ["welcome", "echo: hello"])
        _ = await server.stop()
    }

    @Test("with latency recorded each server frame waits its recorded gap after the frame before it, within 20%, by the client's clock")
    func recordedTiming() async throws {
        let directory = try Proc.temporaryDirectory()
        defer { Proc.cleanUp(directory) }
        // Recorded as the proxy records one: the session's whole length is its duration, and
        // the handshake is not held back by it.
        let cassette = try Self.session([(0, .server, "a"), (0.1, .client, "go"), (0.4, .server, "b"), (0.6, .server, "c")], duration: 0.61, in: directory)
        let server = try await CassetteServer.serve([cassette], options: DeckOptions(conditions: NetworkConditions(latency: .recorded)))
        let script = """
            import sys, time
            from websockets.sync.client import connect
            opened = time.time()
            with connect(sys.argv[1]) as ws:
                first = ws.recv()
                at_a = time.time()
                sent = time.time()
                ws.send("go")
                b = ws.recv(); at_b = time.time()
                c = ws.recv(); at_c = time.time()
                print(first, b, c, round((at_b - sent) * 1000), round((at_c - at_b) * 1000), round((at_a - opened) * 1000))
            """
        let result = try await Proc.run(Proc.python, ["-c", script, server.webSocketURL.absoluteString + "/room"])
        _ = await server.stop()
        let fields = result.text.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: " ").map(String.init)
        #expect(fields.prefix(3) == ["a", "b", "c"], "\(result.text)\(result.stderr)")
        let numbers = fields.dropFirst(3).map { Double($0) ?? -1 }
        let toB = numbers.first ?? 0, toC = numbers.dropFirst().first ?? 0, toA = numbers.dropFirst(2).first ?? 0
        #expect(abs(toB - 300) <= 60 && abs(toC - 200) <= 40, "gaps of 300 and 200 ms replayed as \(toB) and \(toC) ms")
        #expect(toA < 300, "the first frame came \(toA) ms after connecting, not after the session's 610 ms")
    }

    @Test("wss:// through proxy --intercept is recorded against a TLS upstream the proxy verifies, and replays through serve --intercept")
    func secureWebSocket() async throws {
        let scratch = try HTTPSTests.Scratch()
        defer { Proc.cleanUp(scratch.directory) }
        let upstream = try Self.secureUpstream(in: scratch.directory)
        let url = "wss://localhost:\(upstream.ports[0])/chat"
        let cassette = scratch.directory.appendingPathComponent("wss.cassette.json")
        let upstreamCA = scratch.directory.appendingPathComponent("upstream-ca.pem").path
        func client(through proxy: URL, _ messages: [String]) async throws -> Session {
            let result = try await Proc.run(Proc.python, [Proc.packageRoot.appendingPathComponent("Tests/Support/Python/ws_client.py").path, url] + messages,
                                            environment: scratch.environment.merging(["WS_PROXY": proxy.absoluteString, "WS_CA": scratch.tapedeckCA]) { $1 })
            #expect(result.status == 0, "\(result.stderr)")
            return try JSONDecoder().decode(Session.self, from: result.stdout)
        }
        let proxy = try await ServerProcess(["proxy", "--intercept", "--record", cassette.path, "--upstream-ca", upstreamCA], environment: scratch.environment)
        let live = try await client(through: proxy.url, ["hello", "push"])
        #expect(live.received == ["welcome", "echo: hello", "echo: push", "tick 1", "tick 2"])
        _ = await proxy.stop()
        upstream.stop()
        let recorded = try #require(try Cassette.load(from: cassette).interactions.first)
        #expect(recorded.request.url.absoluteString == "https://localhost:\(upstream.ports[0])/chat" && recorded.response.webSocket?.isEmpty == false)

        let serve = try await ServerProcess(["serve", cassette.path, "--intercept"], environment: scratch.environment)
        let replayed = try await client(through: serve.url, ["hello", "push"])
        #expect(replayed.received == live.received)
        _ = await serve.stop()
    }

    @Test("an upstream whose certificate the proxy does not trust is logged with the flag to use, and nothing is recorded")
    func untrustedSecureUpstream() async throws {
        let scratch = try HTTPSTests.Scratch()
        defer { Proc.cleanUp(scratch.directory) }
        let upstream = try Self.secureUpstream(in: scratch.directory)
        defer { upstream.stop() }
        let cassette = scratch.directory.appendingPathComponent("wss.cassette.json")
        let proxy = try await ServerProcess(["proxy", "--intercept", "--record", cassette.path], environment: scratch.environment)
        let result = try await Proc.run(Proc.python, [Proc.packageRoot.appendingPathComponent("Tests/Support/Python/ws_client.py").path,
                                                      "wss://localhost:\(upstream.ports[0])/chat", "hello"],
                                        environment: scratch.environment.merging(["WS_PROXY": proxy.url.absoluteString, "WS_CA": scratch.tapedeckCA]) { $1 })
        #expect(result.status != 0 || !result.text.contains("echo: hello"))
        let stopped = await proxy.stop()
        #expect(stopped.stderr.contains("failed before the upstream answered") && stopped.stderr.contains("--upstream-ca"), "\(stopped.stderr)")
        let kept = FileManager.default.fileExists(atPath: cassette.path) ? try Cassette.load(from: cassette).interactions.count : 0
        #expect(kept == 0)
    }

    @Test("an upgrade sent to the forward proxy for a host that decodes to a line break is refused, not written upstream")
    func upgradeWithBrokenHost() async throws {
        let directory = try Proc.temporaryDirectory()
        defer { Proc.cleanUp(directory) }
        let cassette = directory.appendingPathComponent("ws.cassette.json")
        let server = try await CassetteServer.proxy(to: URL(string: "http://127.0.0.1:9")!, recordingTo: cassette, mode: .all)
        // No Host: the proxy names the target's host in the one it sends, decoded (`a\r\nX-Evil: 1.example`).
        let script = """
            import socket, sys
            s = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
            s.sendall(b"GET http://a%0D%0AX-Evil%3A%201.example/ws HTTP/1.1\\r\\nUpgrade: websocket\\r\\nConnection: Upgrade\\r\\n"
                      b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\\r\\nSec-WebSocket-Version: 13\\r\\n\\r\\n")
            s.settimeout(10)
            print(s.recv(4096).decode("latin-1"))
            """
        let result = try await Proc.run(Proc.python, ["-c", script, String(server.url.port ?? 0)])
        await server.stop()
        #expect(result.text.hasPrefix("HTTP/1.1 400"), "\(result.text) \(result.stderr)")
        #expect(result.text.contains("Host"), "the answer names the field")
    }

    @Test("a client frame holding a secret matches its redacted recording, and a mismatch report never quotes the secret")
    func secretsInFrames() async throws {
        let directory = try Proc.temporaryDirectory()
        defer { Proc.cleanUp(directory) }
        let login = #"{"password": "hunter2hunter2", "user": "ada"}"#
        let recorded = try Self.session([(0, .server, "welcome"), (0.01, .client, login), (0.02, .server, "ok")], in: directory)
        let redacted = Redactor.standard.redact(try Cassette.load(from: recorded))
        try redacted.write(to: recorded)
        #expect(!(try String(contentsOf: recorded, encoding: .utf8)).contains("hunter2"))
        var lines: [String] = []
        let log = Mutex<[String]>([])
        var options = DeckOptions(allowRepeats: true)
        options.log = { line in log.withLock { $0.append(line) } }
        let server = try await CassetteServer.serve([recorded], options: options)
        let matched = try await Self.client(server.webSocketURL.absoluteString + "/room", [login])
        #expect(matched.received == ["welcome", "ok"], "the redacted recording matches the real frame")
        let other = try await Self.client(server.webSocketURL.absoluteString + "/room", [#"{"password": "s3cret-other-pw", "user": "bob"}"#])
        #expect(other.close?.first == .code(1008))
        _ = await server.stop()
        lines = log.withLock { $0 }
        #expect(lines.contains { $0.contains("does not match") }, "\(lines)")
        #expect(!lines.joined().contains("s3cret-other-pw") && !lines.joined().contains("hunter2"), "\(lines)")
        // The same JSON sent as a binary frame is redacted as JSON when recorded, and matches so.
        var binary = try Cassette.load(from: recorded)
        binary.interactions[0].response.webSocket?[1] = WebSocketMessage(offset: 0.01, sender: .client, kind: .binary, data: Data(login.utf8))
        try Redactor.standard.redact(binary).write(to: recorded)
        #expect(!(try String(contentsOf: recorded, encoding: .utf8)).contains("hunter2"))
        let binaryServer = try await CassetteServer.serve([recorded], options: DeckOptions(allowRepeats: true))
        let hex = Data(login.utf8).map { String(format: "%02x", $0) }.joined()
        let sent = try await Self.client(binaryServer.webSocketURL.absoluteString + "/room", ["b:" + hex])
        #expect(sent.received == ["welcome", "ok"], "\(sent)")
        _ = await binaryServer.stop()
    }
}
