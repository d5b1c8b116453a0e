import Foundation
import Tapedeck
import TapedeckCurl
import TapedeckTestSupport
import TapedeckTooling
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Streams through the proxy and the server: each chunk relayed as it arrives, recorded with
/// its boundaries and time, and replayed with the same chunks (instantly, or paced as recorded).
@Suite("Streams: recorded and replayed with their boundaries and timing", .enabled(if: Proc.tapedeck != nil && Proc.hasVenv))
struct StreamTests {
    /// What a client saw: the status, and each piece with its arrival time (this machine's clock).
    struct Reading: Decodable {
        var status: Int
        var pieces: [[Piece]]

        enum Piece: Decodable {
            case time(Double)
            case bytes(String)
            init(from decoder: any Decoder) throws {
                let container = try decoder.singleValueContainer()
                if let time = try? container.decode(Double.self) { self = .time(time) } else { self = .bytes(try container.decode(String.self)) }
            }
        }

        /// (arrival, bytes) for each piece.
        var chunks: [(time: Double, data: Data)] {
            pieces.compactMap { pair in
                guard pair.count == 2, case .time(let time) = pair[0], case .bytes(let text) = pair[1], let data = Data(base64Encoded: text) else { return nil }
                return (time, data)
            }
        }
        var body: Data { chunks.reduce(into: Data()) { $0.append($1.data) } }
    }

    /// The streaming upstream (`stream_server.py`) and its base URL.
    static func upstream() throws -> (TapedeckTestSupport.ServerProcess, String) {
        let script = Proc.packageRoot.appendingPathComponent("Tests/Support/Python/stream_server.py").path
        let server = try TapedeckTestSupport.ServerProcess(Proc.python, arguments: [script], expecting: 1)
        return (server, "http://127.0.0.1:\(server.ports[0])")
    }

    /// Reads `url` with `client` (curl or requests), through `proxy` when given.
    static func read(_ client: String, _ url: String, proxy: URL? = nil, seconds: Double = 10) async throws -> Reading {
        let script = Proc.packageRoot.appendingPathComponent("Tests/Support/Python/stream_client.py").path
        var environment = ["NO_PROXY": "", "no_proxy": ""]
        if let proxy { environment["HTTP_PROXY"] = proxy.absoluteString; environment["http_proxy"] = proxy.absoluteString }
        let result = try await Proc.run(Proc.python, [script, client, url, String(seconds)], environment: environment)
        #expect(result.status == 0, "\(result.stderr)")
        return try JSONDecoder().decode(Reading.self, from: result.stdout)
    }

    /// The `sent` time inside each event or JSON line of `data`, in order.
    static func sentTimes(_ data: Data) -> [Double] {
        String(decoding: data, as: UTF8.self).split(separator: "\n").compactMap { line in
            guard let start = line.range(of: "\"sent\":") else { return nil }
            return Double(line[start.upperBound...].prefix { $0.isNumber || $0 == "." })
        }
    }

    /// `tapedeck proxy BASE --record CASSETTE --mode all`, recording every stream it relays.
    static func recordingProxy(_ base: String, into cassette: URL, in directory: URL) async throws -> ServerProcess {
        try await ServerProcess(["proxy", base, "--record", cassette.path, "--mode", "all"], environment: environment(directory))
    }

    /// `stream_cases.py`, the upstream whose streams test what a recording keeps of them.
    static func streamCases() throws -> TapedeckTestSupport.ServerProcess {
        let script = Proc.packageRoot.appendingPathComponent("Tests/Support/Python/stream_cases.py").path
        return try TapedeckTestSupport.ServerProcess(Proc.python, arguments: [script], expecting: 1)
    }

    static func environment(_ directory: URL) -> [String: String] {
        ["TAPEDECK_RECORD_MODE": "", "CI": "", "TAPEDECK_USAGE_DIR": directory.path]
    }

    @Test("events through proxy reach curl --no-buffer and requests within 50 ms of being sent, not when the stream ends; the cassette keeps each as a chunk")
    func relayedAsTheyArrive() async throws {
        let directory = try Proc.temporaryDirectory()
        defer { Proc.cleanUp(directory) }
        let (server, base) = try Self.upstream()
        defer { server.stop() }
        let cassette = directory.appendingPathComponent("events.cassette.json")
        let proxy = try await Self.recordingProxy(base, into: cassette, in: directory)
        for client in ["curl", "requests"] {
            let reading = try await Self.read(client, proxy.url.absoluteString + "/events?count=5&gap=300&client=\(client)")
            #expect(reading.status == 200)
            let lines = reading.chunks.filter { String(decoding: $0.data, as: UTF8.self).contains("\"sent\":") }
            #expect(lines.count == 5, "\(client): \(lines.count) pieces held events")
            for line in lines {
                guard let sent = Self.sentTimes(line.data).first else { continue }
                #expect(line.time - sent < 0.05, "\(client): an event arrived \(Int((line.time - sent) * 1000)) ms after it was sent")
            }
        }
        let stopped = await proxy.stop()
        #expect(stopped.status == 0, "\(stopped.stderr)")
        let text = try String(contentsOf: cassette, encoding: .utf8)
        #expect(text.contains("\"chunks\"") && text.contains("\"events\"") && text.contains("[\"event\", \"tick\"]"), "\(text.prefix(1500))")
        let loaded = try Cassette.load(from: cassette)
        #expect(loaded.interactions.count == 2)
        for interaction in loaded.interactions {
            let chunks = try #require(interaction.response.chunks)
            #expect(chunks.count == 5, "one chunk per event: \(chunks.map { $0.data.count })")
            let gaps = zip(chunks.dropFirst(), chunks).map { $0.offset - $1.offset }
            #expect(gaps.allSatisfy { $0 > 0.2 && $0 < 0.5 }, "recorded gaps \(gaps)")
        }
    }

    @Test("an endless stream flows through proxy until the client leaves; what arrived is recorded, and the proxy keeps serving")
    func endlessStream() async throws {
        let directory = try Proc.temporaryDirectory()
        defer { Proc.cleanUp(directory) }
        let (server, base) = try Self.upstream()
        defer { server.stop() }
        let cassette = directory.appendingPathComponent("endless.cassette.json")
        let proxy = try await Self.recordingProxy(base, into: cassette, in: directory)
        let reading = try await Self.read("curl", proxy.url.absoluteString + "/events?count=0&gap=200", seconds: 1.5)
        let events = ServerSentEvents.parse(reading.body)
        #expect(events.count >= 5, "an endless stream reached the client as it flowed: \(events.count) events in 1.5 s")
        // The client has gone: the proxy still answers.
        let after = try await Self.read("curl", proxy.url.absoluteString + "/events?count=2&gap=10")
        #expect(ServerSentEvents.parse(after.body).count == 2)
        let stopped = await proxy.stop()
        #expect(stopped.status == 0, "\(stopped.stderr)")
        let loaded = try Cassette.load(from: cassette)
        let endless = try #require(loaded.interactions.first { $0.request.url.query?.contains("count=0") == true })
        #expect(ServerSentEvents.parse(endless.response.body).count >= 5, "\(endless.response.chunks?.count ?? 0) chunks recorded")
    }

    @Test("kill -9 of the proxy in the middle of an endless stream leaves a cassette holding the chunks journaled so far")
    func killedMidStream() async throws {
        let directory = try Proc.temporaryDirectory()
        defer { Proc.cleanUp(directory) }
        let (server, base) = try Self.upstream()
        defer { server.stop() }
        let cassette = directory.appendingPathComponent("killed.cassette.json")
        let proxy = try await Self.recordingProxy(base, into: cassette, in: directory)
        let url = proxy.url.absoluteString + "/events?count=0&gap=100"
        let reader = Task { try await Self.read("curl", url, seconds: 3) }
        try await Task.sleep(for: .milliseconds(1800))
        _ = await proxy.stop(signal: SIGKILL)
        let reading = try await reader.value
        let seen = ServerSentEvents.parse(reading.body).count
        #expect(seen >= 4, "the client saw \(seen) events before the kill")
        let loaded = try Cassette.load(from: cassette)
        let stream = try #require(loaded.interactions.first, "the journal kept the stream's head")
        let kept = ServerSentEvents.parse(stream.response.body).count
        #expect(kept >= seen - 1 && kept >= 3, "the cassette kept \(kept) of the \(seen) events the client saw")
        #expect(stream.response.chunks?.count == kept)
    }

    @Test("serve replays the recorded chunks: requests' iter_content sees the same sequence, curl the same bytes; NDJSON and binary too, byte for byte")
    func replayedChunks() async throws {
        let directory = try Proc.temporaryDirectory()
        defer { Proc.cleanUp(directory) }
        let (server, base) = try Self.upstream()
        let cassette = directory.appendingPathComponent("streams.cassette.json")
        let paths = ["/events?count=4&gap=60", "/ndjson?count=4&gap=60", "/binary?count=4&gap=60"]
        let proxy = try await Self.recordingProxy(base, into: cassette, in: directory)
        var live: [String: Reading] = [:]
        for path in paths { live[path] = try await Self.read("requests", proxy.url.absoluteString + path) }
        _ = await proxy.stop()
        server.stop()

        let recorded = try Cassette.load(from: cassette)
        let serve = try await ServerProcess(["serve", cassette.path, "--repeat"], environment: Self.environment(directory))
        for path in paths {
            let interaction = try #require(recorded.interactions.first { $0.request.url.absoluteString.hasSuffix(path) })
            let chunks = try #require(interaction.response.chunks, "\(path) was recorded as chunks")
            #expect(chunks.count == 4, "\(path): \(chunks.map(\.data.count))")
            #expect(interaction.response.body == live[path]?.body, "\(path): the cassette holds what the client saw")
            let replayed = try await Self.read("requests", serve.url.absoluteString + path)
            #expect(replayed.chunks.map(\.data) == chunks.map(\.data), "\(path): requests saw \(replayed.chunks.map(\.data.count)) for \(chunks.map(\.data.count))")
            let curl = try await Proc.run(Proc.curl, ["-sS", "--no-buffer", serve.url.absoluteString + path])
            #expect(curl.stdout == interaction.response.body, "\(path): curl got the same bytes: \(curl.text.prefix(300))")
        }
        _ = await serve.stop()
    }

    @Test("--latency recorded replays each chunk at its recorded time, within 20%, measured by the client's clock; the default is instant")
    func recordedTiming() async throws {
        let directory = try Proc.temporaryDirectory()
        defer { Proc.cleanUp(directory) }
        let (server, base) = try Self.upstream()
        let cassette = directory.appendingPathComponent("timed.cassette.json")
        let proxy = try await Self.recordingProxy(base, into: cassette, in: directory)
        _ = try await Self.read("requests", proxy.url.absoluteString + "/events?count=5&gap=250")
        _ = await proxy.stop()
        server.stop()
        let chunks = try #require(try Cassette.load(from: cassette).interactions.first?.response.chunks)
        let recordedGaps = zip(chunks.dropFirst(), chunks).map { $0.offset - $1.offset }

        let paced = try await ServerProcess(["serve", cassette.path, "--latency", "recorded"], environment: Self.environment(directory))
        let timed = try await Self.read("requests", paced.url.absoluteString + "/events?count=5&gap=250")
        _ = await paced.stop()
        let replayedGaps = zip(timed.chunks.dropFirst(), timed.chunks).map { $0.time - $1.time }
        #expect(replayedGaps.count == recordedGaps.count)
        for (replayed, recorded) in zip(replayedGaps, recordedGaps) {
            #expect(abs(replayed - recorded) <= recorded * 0.2, "a gap of \(Int(recorded * 1000)) ms replayed as \(Int(replayed * 1000)) ms")
        }

        let instant = try await ServerProcess(["serve", cassette.path], environment: Self.environment(directory))
        let fast = try await Self.read("requests", instant.url.absoluteString + "/events?count=5&gap=250")
        _ = await instant.stop()
        let span = (fast.chunks.last?.time ?? 0) - (fast.chunks.first?.time ?? 0)
        #expect(span < 0.2, "without --latency the stream replays at once (\(Int(span * 1000)) ms)")
        #expect(fast.body == BodyChunk.joined(chunks))
    }

    @Test("a .tape script asserts on a replayed stream: the number of events, an event's fields, and JSON inside its data")
    func scriptAssertions() async throws {
        let directory = try Proc.temporaryDirectory()
        defer { Proc.cleanUp(directory) }
        let chunks = (0..<3).map { i in
            BodyChunk(offset: Double(i) * 0.1, data: Data("id: \(i)\nevent: \(i == 2 ? "done" : "tick")\ndata: {\"i\":\(i)}\n\n".utf8))
        }
        let cassette = directory.appendingPathComponent("sse.cassette.json")
        let response = HTTPResponse(status: 200, headers: ["Content-Type": "text/event-stream"], chunks: chunks)
        try Cassette(interactions: [Interaction(request: HTTPRequest(url: URL(string: "http://api.test/events")!), response: response,
                                                recordedAt: Date())]).write(to: cassette)
        let script = directory.appendingPathComponent("stream.tape")
        try Data("""
            get http://api.test/events
            expect 200
            expect events count == 3
            expect chunks count == 3
            expect event 0 event == "tick"
            expect event 1 id == "1"
            expect event 0 json $.i == 0
            expect event -1 event == "done"
            expect event -1 data contains "2"

            """.utf8).write(to: script)
        let passed = try await Proc.run(try #require(Proc.tapedeck), ["run", "--replay", cassette.path, script.path],
                                        environment: Self.environment(directory))
        #expect(passed.status == 0, "\(passed.text)\(passed.stderr)")

        try Data("get http://api.test/events\nexpect event 1 json $.i == 7\n".utf8).write(to: script)
        let failed = try await Proc.run(try #require(Proc.tapedeck), ["run", "--replay", cassette.path, script.path],
                                        environment: Self.environment(directory))
        #expect(failed.status != 0)
        #expect((failed.text + failed.stderr).contains("event 1 json $.i"), "\(failed.text)\(failed.stderr)")
        #expect((failed.text + failed.stderr).contains("7") && (failed.text + failed.stderr).contains("1"))

        try Data("get http://api.test/events\nexpect event 9 data exists\n".utf8).write(to: script)
        let missing = try await Proc.run(try #require(Proc.tapedeck), ["run", "--replay", cassette.path, script.path],
                                         environment: Self.environment(directory))
        #expect((missing.text + missing.stderr).contains("3 server-sent events"), "\(missing.text)\(missing.stderr)")
    }

    @Test("the live transports keep a stream's chunks as they arrive: curl's write callback and URLSession's delegate")
    func liveTransportsKeepChunks() async throws {
        let (server, base) = try Self.upstream()
        defer { server.stop() }
        let request = HTTPRequest(url: URL(string: base + "/events?count=3&gap=150")!)
        for (name, transport) in [("URLSession", URLSessionTransport() as any HTTPTransport), ("curl", CurlTransport() as any HTTPTransport)] {
            let response = try await transport.send(request)
            let chunks = try #require(response.chunks, "\(name) kept no chunks")
            #expect(chunks.count == 3, "\(name): \(chunks.map(\.data.count))")
            #expect(response.body == BodyChunk.joined(chunks))
            let gaps = zip(chunks.dropFirst(), chunks).map { $0.offset - $1.offset }
            #expect(gaps.allSatisfy { $0 > 0.1 && $0 < 0.3 }, "\(name): gaps \(gaps)")
        }
    }

    @Test("an upstream that breaks off mid-stream cuts the client's connection too, so curl reports it, and the log says why")
    func brokenUpstream() async throws {
        let directory = try Proc.temporaryDirectory()
        defer { Proc.cleanUp(directory) }
        let (server, base) = try Self.upstream()
        defer { server.stop() }
        let proxy = try await Self.recordingProxy(base, into: directory.appendingPathComponent("b.json"), in: directory)
        let direct = try await Proc.run(Proc.curl, ["-sS", "--no-buffer", base + "/broken?count=2&gap=50"])
        // A credential in the query is redacted wherever the log line names the URL: the
        // client's request and the upstream's, quoted by the error.
        let relayed = try await Proc.run(Proc.curl, ["-sS", "--no-buffer", proxy.url.absoluteString + "/broken?count=2&gap=50&password=LEAKPW57"])
        #expect(direct.status != 0, "curl itself sees the upstream break off")
        #expect(relayed.status != 0 && ServerSentEvents.parse(relayed.stdout).count == 2, "\(relayed.status) \(relayed.stderr)")
        let stopped = await proxy.stop()
        #expect(stopped.stderr.contains("broke off after its head"), "\(stopped.stderr)")
        #expect(!stopped.stderr.contains("LEAKPW57"), "\(stopped.stderr)")
    }

    @Test("a recorded stream keeps no secret: NDJSON redacted line by line, CRLF events keep their ends, a refused stream reaches its client whole and is not kept, a compressed one keeps its Content-Encoding")
    func streamsKeepNoSecret() async throws {
        let directory = try Proc.temporaryDirectory()
        defer { Proc.cleanUp(directory) }
        let server = try Self.streamCases()
        defer { server.stop() }
        let cassette = directory.appendingPathComponent("cases.cassette.json")
        let proxy = try await Self.recordingProxy("http://127.0.0.1:\(server.ports[0])", into: cassette, in: directory)
        let base = proxy.url.absoluteString
        let ndjson = try await Proc.run(Proc.curl, ["-sS", "--no-buffer", base + "/ndjson-secret"])
        #expect(ndjson.text == "{\"n\":1}\n{\"n\":2,\"password\":\"nd-secret-2\"}\n", "the client gets what the server sent")
        // An HTTP/1.0 client gets the stream ended by the close, not chunked framing it cannot read.
        let old = try await Proc.run(Proc.curl, ["-sS", "-0", "-D", "-", "--no-buffer", base + "/ndjson-secret"])
        #expect(old.status == 0 && old.text.hasSuffix("{\"n\":1}\n{\"n\":2,\"password\":\"nd-secret-2\"}\n"), "\(old.status) \(old.stderr) \(old.text)")
        #expect(!old.text.lowercased().contains("transfer-encoding"), "\(old.text)")
        let crlf = try await Proc.run(Proc.curl, ["-sS", "--no-buffer", base + "/crlf-secret"])
        #expect(crlf.text == "data: {\"password\":\"crlf-secret-3\"}\r\n\r\ndata: next\r\n\r\n")
        let cr = try await Proc.run(Proc.curl, ["-sS", "--no-buffer", base + "/cr-secret"])
        #expect(cr.text == "id: 1\rdata: {\"password\":\"cr-secret-5\"}\r\rdata: next\r\r")
        let jwt = try await Proc.run(Proc.curl, ["-sS", "--no-buffer", base + "/jwt"])
        #expect(jwt.status == 0 && ServerSentEvents.parse(jwt.stdout).count == 2, "a refused recording does not cut the client: \(jwt.status) \(jwt.stderr)")
        let head = try await Proc.run(Proc.curl, ["-sS", "-D", "-", "-o", "/dev/null", base + "/gzip-ndjson"])
        #expect(head.text.lowercased().contains("content-encoding: gzip"), "compressed bytes are labelled so: \(head.text)")
        let decoded = try await Proc.run(Proc.curl, ["-sS", "--compressed", base + "/gzip-ndjson"])
        #expect(decoded.text == "{\"n\":1}\n{\"n\":2}\n", "\(decoded.text)")
        // A compressed stream cannot be redacted as it is kept; the lint reads it decoded.
        let compressed = try await Proc.run(Proc.curl, ["-sS", "--compressed", base + "/gzip-events-secret"])
        #expect(compressed.text.contains("gz-secret-4"), "the client still gets it: \(compressed.text)")
        let stopped = await proxy.stop()
        #expect(stopped.stderr.contains("the stream from GET /jwt reached the client whole, and is not recorded"), "\(stopped.stderr)")
        #expect(stopped.stderr.contains("the stream from GET /gzip-events-secret reached the client whole, and is not recorded"), "\(stopped.stderr)")
        let text = try String(contentsOf: cassette, encoding: .utf8)
        for secret in ["nd-secret-2", "crlf-secret-3", "cr-secret-5", "eyJhbGci"] { #expect(!text.contains(secret), "\(secret) in \(text)") }
        let loaded = try Cassette.load(from: cassette)
        let events = try #require(loaded.interactions.first { $0.request.url.path == "/crlf-secret" }?.response.chunks)
        #expect(events.first.map { String(decoding: $0.data, as: UTF8.self) } == "data: {\"password\":\"<REDACTED>\"}\r\n\r\n")
        let crEvents = try #require(loaded.interactions.first { $0.request.url.path == "/cr-secret" }?.response.chunks)
        #expect(crEvents.first.map { String(decoding: $0.data, as: UTF8.self) } == "id: 1\rdata: {\"password\":\"<REDACTED>\"}\r\r")
        #expect(!loaded.interactions.contains { ["/jwt", "/gzip-events-secret"].contains($0.request.url.path) })
        #expect(CassetteLint.findings(in: loaded).isEmpty, "\(CassetteLint.findings(in: loaded))")
        // curl (tapedeck run's transport) decodes a compressed stream as it comes: it is kept
        // decoded, without the header, and replays as text.
        let tape = directory.appendingPathComponent("gz.tape")
        try Data("get http://127.0.0.1:\(server.ports[0])/gzip-ndjson\nexpect 200\n".utf8).write(to: tape)
        let runCassette = directory.appendingPathComponent("run.cassette.json")
        let run = try await Proc.run(try #require(Proc.tapedeck), ["run", tape.path, "--record", runCassette.path, "--mode", "all"],
                                     environment: Self.environment(directory))
        #expect(run.status == 0, "\(run.stderr)")
        let kept = try #require(try Cassette.load(from: runCassette).interactions.first?.response)
        #expect(kept.headers["Content-Encoding"] == nil && kept.body == Data("{\"n\":1}\n{\"n\":2}\n".utf8), "\(kept.headers) \(String(decoding: kept.body, as: UTF8.self))")
    }

    @Test("a compressed stream keeps its chunks and their times, and is journaled only whole: kill -9 in its middle leaves none of its bytes on disk")
    func compressedStreamJournaledWhole() async throws {
        let directory = try Proc.temporaryDirectory()
        defer { Proc.cleanUp(directory) }
        let server = try Self.streamCases()
        defer { server.stop() }
        let cassette = directory.appendingPathComponent("gz.cassette.json")
        let proxy = try await Self.recordingProxy("http://127.0.0.1:\(server.ports[0])", into: cassette, in: directory)
        let flushed = try await Proc.run(Proc.curl, ["-sS", "--compressed", "--no-buffer", proxy.url.absoluteString + "/gzip-flushed"])
        #expect(ServerSentEvents.parse(flushed.stdout).count == 3, "\(flushed.text)")
        // Cut short by its client, a compressed stream is read as far as it goes: a secret in it
        // keeps it out. One whose coding Tapedeck cannot read is not kept either.
        let cut = try await Proc.run(Proc.curl, ["-sS", "--compressed", "--no-buffer", "-m", "1.5", proxy.url.absoluteString + "/gzip-cut-secret"])
        #expect(cut.text.contains("cut-secret-7"), "the client got it: \(cut.text)")
        let brotli = try await Proc.run(Proc.curl, ["-sS", "-o", "/dev/null", "-w", "%{http_code}", proxy.url.absoluteString + "/br-events"])
        #expect(brotli.text == "200", "relayed as it came: \(brotli.text)")
        let reader = Task { try await Proc.run(Proc.curl, ["-sS", "--compressed", "--no-buffer", "-m", "3", proxy.url.absoluteString + "/gzip-held-secret"]) }
        try await Task.sleep(for: .milliseconds(1200))
        _ = await proxy.stop(signal: SIGKILL)
        _ = try await reader.value
        let files = try FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)
        for file in files where file.lastPathComponent.hasPrefix("gz.cassette") {
            let bytes = try Data(contentsOf: file)
            // Neither its head nor its compressed chunks, which no lint could read.
            #expect(!String(decoding: bytes, as: UTF8.self).contains("/gzip-held-secret"), "\(file.lastPathComponent) holds the unfinished stream")
        }
        let loaded = try Cassette.load(from: cassette)
        #expect(!loaded.interactions.contains { ["/gzip-cut-secret", "/br-events"].contains($0.request.url.path) },
                "\(loaded.interactions.map(\.request.url.path))")
        #expect(CassetteLint.findings(in: loaded).isEmpty, "a stream kept compressed is no lint finding: \(CassetteLint.findings(in: loaded))")
        let stream = try #require(loaded.interactions.first { $0.request.url.path == "/gzip-flushed" })
        let chunks = try #require(stream.response.chunks)
        #expect(chunks.count >= 3, "each flushed piece is a chunk of its own: \(chunks.count)")
        #expect((chunks.last?.offset ?? 0) - (chunks.first?.offset ?? 0) >= 0.15, "\(chunks.map(\.offset))")
        // Replayed piece by piece, with its Content-Encoding, it decodes as it came.
        let serve = try await ServerProcess(["serve", cassette.path], environment: Self.environment(directory))
        let replayed = try await Proc.run(Proc.curl, ["-sS", "--compressed", serve.url.absoluteString + "/gzip-flushed"])
        _ = await serve.stop()
        #expect(replayed.text == flushed.text, "\(replayed.text)")
    }

    @Test("a client that stops reading holds the upstream back: the proxy's memory stays bounded while a 64 MB stream waits")
    func slowClientBackpressure() async throws {
        let directory = try Proc.temporaryDirectory()
        defer { Proc.cleanUp(directory) }
        let (server, base) = try Self.upstream()
        defer { server.stop() }
        let proxy = try await Self.recordingProxy(base, into: directory.appendingPathComponent("big.json"), in: directory)
        func residentMB() -> Int {
            let status = (try? String(contentsOfFile: "/proc/\(proxy.process.processIdentifier)/status", encoding: .utf8)) ?? ""
            let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
            return (Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0) / 1024
        }
        let before = residentMB()
        // Reads 100 bytes, then nothing for 3 s, with a small receive buffer.
        let script = """
            import socket, sys, time
            s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            s.connect(("127.0.0.1", int(sys.argv[1])))
            s.sendall(b"GET /binary?count=1024&gap=0&size=65536 HTTP/1.1\\r\\nHost: x\\r\\n\\r\\n")
            s.recv(100); time.sleep(3); s.close()
            """
        let stalled = Task { try await Proc.run(Proc.python, ["-c", script, String(proxy.url.port ?? 0)]) }
        try await Task.sleep(for: .seconds(2))
        let during = residentMB()
        _ = try await stalled.value
        _ = await proxy.stop()
        #expect(during - before < 48, "the proxy grew by \(during - before) MB while the client did not read a 64 MB stream")
    }

    @Test("Ctrl-C of the proxy while a client still reads an endless stream records it once, with what arrived")
    func stopMidStream() async throws {
        let directory = try Proc.temporaryDirectory()
        defer { Proc.cleanUp(directory) }
        let (server, base) = try Self.upstream()
        defer { server.stop() }
        let cassette = directory.appendingPathComponent("stopped.cassette.json")
        let proxy = try await Self.recordingProxy(base, into: cassette, in: directory)
        let reader = Task { try await Self.read("curl", proxy.url.absoluteString + "/events?count=0&gap=100", seconds: 5) }
        try await Task.sleep(for: .milliseconds(1200))
        let stopped = await proxy.stop()
        _ = try await reader.value
        #expect(stopped.status == 0, "\(stopped.stderr)")
        let interactions = try Cassette.load(from: cassette).interactions
        #expect(interactions.count == 1, "one stream, one interaction: \(interactions.count)")
        #expect(ServerSentEvents.parse(interactions.first?.response.body ?? Data()).count >= 5)
    }
}
