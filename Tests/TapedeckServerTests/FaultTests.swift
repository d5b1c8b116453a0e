import Foundation
import Tapedeck
import TapedeckServer
import TapedeckTesting
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Every fault rule and latency, observed from real clients: curl's exit codes and timings,
/// URLSession's errors (over a socket, and in-process through `URLSession.replaying`).
@Suite("Latency and faults")
struct FaultTests {
    static func withServer(_ rules: [String], latency: Latency = .none, seed: UInt64 = 0,
                           _ body: (CassetteServer) async throws -> Void) async throws {
        var options = DeckOptions(allowRepeats: true)
        options.conditions = NetworkConditions(latency: latency, faults: try rules.map { try FaultRule(parsing: $0) }, seed: seed)
        try await ServeClientsTests.withServer(options: options) { server, _ in try await body(server) }
    }

    static func curl(_ arguments: [String]) async throws -> Proc.Result {
        try await Proc.run(Proc.curl, ["-s", "-o", "/dev/null", "-w", "%{http_code} %{time_total} %{size_download}"] + arguments)
    }

    @Test("reset closes the connection: curl exits 56 and URLSession fails with a URLError")
    func reset() async throws {
        try await Self.withServer(["GET /users=reset"]) { server in
            let result = try await Self.curl([server.url.absoluteString + "/users"])
            #expect(result.status == 56, "\(result.stderr)")
            #expect(try await Self.curl([server.url.absoluteString + "/big"]).status == 0, "other paths are untouched")
            let session = URLSession(configuration: .ephemeral)
            defer { session.finishTasksAndInvalidate() }
            await #expect(throws: URLError.self) { _ = try await session.data(from: server.url.appendingPathComponent("users")) }
        }
    }

    @Test("a reset takes no interaction: a client that retries gets the recorded answer, once")
    func resetTakesNoInteraction() async throws {
        var options = DeckOptions()
        options.conditions = NetworkConditions(faults: [try FaultRule(parsing: "/users=reset@50%")], seed: 42)
        try await ServeClientsTests.withServer(options: options) { server, _ in
            var results: [String] = []
            for _ in 0..<12 {
                let result = try await Self.curl([server.url.absoluteString + "/users"])
                results.append(result.status == 0 ? String(result.text.prefix(3)) : "exit \(result.status)")
            }
            #expect(results.contains("exit 56"), "\(results)")
            let answered = results.filter { !$0.hasPrefix("exit") }
            #expect(answered.first == "200" && answered.dropFirst().allSatisfy { $0 == "404" }, "\(results)")
        }
    }

    @Test("a rule matches the path the client sends, a mount's prefix and all")
    func mountedPaths() async throws {
        let directory = try Proc.temporaryDirectory()
        defer { Proc.cleanUp(directory) }
        let v1 = try SampleCassettes.write(SampleCassettes.single(path: "/a", text: "from v1"), to: directory, name: "v1.cassette.json")
        let v2 = try SampleCassettes.write(SampleCassettes.single(path: "/a", text: "from v2"), to: directory, name: "v2.cassette.json")
        var options = DeckOptions(allowRepeats: true)
        options.conditions = NetworkConditions(faults: [try FaultRule(parsing: "/v1/a=status:418"), try FaultRule(parsing: "/a=status:419")])
        let server = try await CassetteServer.serve([], mounts: [(prefix: "/v1", cassette: v1), (prefix: "/v2", cassette: v2)], options: options)
        var codes: [String] = []
        for path in ["/v1/a", "/v2/a"] { codes.append(String(try await Self.curl([server.url.absoluteString + path]).text.prefix(3))) }
        await server.stop()
        #expect(codes == ["418", "200"])
    }

    @Test("timeout never answers: curl --max-time gives up with exit 28, URLSession with timedOut")
    func timeout() async throws {
        try await Self.withServer(["/users=timeout"]) { server in
            let result = try await Self.curl(["--max-time", "1", server.url.absoluteString + "/users"])
            #expect(result.status == 28)
            let configuration = URLSessionConfiguration.ephemeral
            configuration.timeoutIntervalForRequest = 1
            let session = URLSession(configuration: configuration)
            defer { session.finishTasksAndInvalidate() }
            do {
                _ = try await session.data(from: server.url.appendingPathComponent("users"))
                Issue.record("a request under the timeout rule got an answer")
            } catch let error as URLError {
                #expect(error.code == .timedOut)
            }
        }
    }

    @Test("status:503 answers 503 with the fault header")
    func status() async throws {
        try await Self.withServer(["POST *=status:503"]) { server in
            let raw = try #require(RawResponse(try await Proc.run(Proc.curl, ["-s", "-i", "-X", "POST", "-d", "{}", server.url.absoluteString + "/users"]).stdout))
            #expect(raw.status == 503)
            #expect(raw.values(FaultPlan.faultHeader) == ["status:503"])
            #expect(try await Self.curl([server.url.absoluteString + "/users"]).text.hasPrefix("200 "), "GET is not caught by a POST rule")
        }
    }

    @Test("truncate closes mid-body: curl exits 18 (partial file)")
    func truncate() async throws {
        try await Self.withServer(["/big=truncate"]) { server in
            let result = try await Self.curl([server.url.absoluteString + "/big"])
            #expect(result.status == 18)
            #expect(result.text.hasSuffix(" 2000"), "half the 4000-byte body arrived: \(result.text)")
        }
    }

    @Test("slow:BYTES_PER_S delivers the whole body no faster than the rate")
    func slow() async throws {
        try await Self.withServer(["/big=slow:8000"]) { server in
            let parts = try await Self.curl([server.url.absoluteString + "/big"]).text.split(separator: " ")
            #expect(parts.first == "200")
            #expect(parts.last == "4000")
            #expect(Double(parts[1]) ?? 0 >= 0.39, "4000 bytes at 8000 B/s come in five tenths of a second, the first at once: 0.4 s at least")
        }
    }

    @Test("a fixed latency delays every answer at least that long")
    func fixedLatency() async throws {
        try await Self.withServer([], latency: try Latency(parsing: "300")) { server in
            let parts = try await Self.curl([server.url.absoluteString + "/users"]).text.split(separator: " ")
            #expect(parts.first == "200")
            #expect(Double(parts[1]) ?? 0 >= 0.3)
        }
    }

    @Test("a rate with a seed injects the same faults in the same places on every run")
    func seededRate() async throws {
        func pattern() async throws -> [Int32] {
            var codes: [Int32] = []
            try await Self.withServer(["/users=reset@50%"], seed: 42) { server in
                for _ in 0..<12 { codes.append(try await Self.curl([server.url.absoluteString + "/users"]).status) }
            }
            return codes
        }
        let first = try await pattern()
        #expect(first.contains(56) && first.contains(0), "about half are reset: \(first)")
        #expect(try await pattern() == first)
    }

    @Test("in-process, URLSession.replaying with conditions fails as a real network would")
    func inProcessConditions() async throws {
        let directory = try Proc.temporaryDirectory()
        defer { Proc.cleanUp(directory) }
        let file = try SampleCassettes.write(SampleCassettes.api(), to: directory)
        let replay = try ReplayTransport(contentsOf: file, configuration: .init(URL(fileURLWithPath: "<memory>"), allowRepeats: true))
        let conditions = NetworkConditions(faults: [try FaultRule(parsing: "/users=reset"), try FaultRule(parsing: "/big=timeout"),
                                                    try FaultRule(parsing: "/logo.png=status:503")])
        let session = URLSession.replaying(replay, conditions: conditions)
        for (path, code) in [("/users", URLError.Code.networkConnectionLost), ("/big", .timedOut)] {
            do {
                _ = try await session.data(from: SampleCassettes.url(path))
                Issue.record("\(path) got an answer")
            } catch let error as URLError {
                #expect(error.code == code)
            }
        }
        let (_, response) = try await session.data(from: SampleCassettes.url("/logo.png"))
        #expect((response as? HTTPURLResponse)?.statusCode == 503)
    }
}
