import Foundation
import Tapedeck
import TapedeckCurl
import TapedeckServer
import TapedeckTestSupport
import Testing

/// The control endpoints under /__tapedeck/ let one server serve many test cases.
@Suite("Control endpoints", .serialized)
struct ControlEndpointTests {
    /// One server kept across the test cases below, as a UI-test host keeps it.
    final class Shared: Sendable {
        let server: CassetteServer
        let directory: URL
        let first: URL
        let second: URL

        init() async throws {
            directory = try Proc.temporaryDirectory()
            first = try SampleCassettes.write(SampleCassettes.single(path: "/greeting", text: "hello from the first"), to: directory, name: "first.cassette.json")
            second = try SampleCassettes.write(SampleCassettes.single(path: "/greeting", text: "hello from the second"), to: directory, name: "second.cassette.json")
            server = try await CassetteServer.serve([first], options: ControlEndpointTests.scratchOptions())
        }
    }

    /// Options whose control endpoints may name cassettes in the test scratch folder.
    static func scratchOptions(_ base: DeckOptions = DeckOptions()) -> DeckOptions {
        var options = base
        options.cassetteDirectory = TestScratch.root
        return options
    }

    /// A control request with the server's token (and `extra` curl arguments, which may replace it).
    static func control(_ server: CassetteServer, _ method: String, _ path: String, token: String? = nil,
                        extra: [String] = []) async throws -> (status: Int, body: Data) {
        let header = "X-Tapedeck-Token: \(token ?? server.deck.options.controlToken)"
        let result = try await Proc.run(Proc.curl, ["-s", "-X", method, "-H", header, "-w", "\n%{http_code}"] + extra
                                                    + [server.url.absoluteString + "/__tapedeck/" + path])
        let text = result.text
        let split = text.range(of: "\n", options: .backwards)
        let status = Int(text[(split?.upperBound ?? text.endIndex)...]) ?? 0
        return (status, Data(text[..<(split?.lowerBound ?? text.endIndex)].utf8))
    }

    static func status(_ server: CassetteServer) async throws -> DeckStatus {
        try JSONDecoder().decode(DeckStatus.self, from: try await control(server, "GET", "status").body)
    }

    @Test("status, load and reset change what one server answers")
    func switchBetweenTestCases() async throws {
        let shared = try await Shared()
        defer { Proc.cleanUp(shared.directory) }
        let greeting = shared.server.url.absoluteString + "/greeting"

        // Test case 1: the first cassette.
        #expect(try await Proc.run(Proc.curl, ["-s", greeting]).text == "hello from the first")
        var status = try await Self.status(shared.server)
        #expect(status.cassettes.map(\.path) == [shared.first.path])
        #expect(status.cassettes.first?.played == 1 && status.cassettes.first?.unused == 0)
        #expect(try await Proc.run(Proc.curl, ["-s", "-o", "/dev/null", "-w", "%{http_code}", greeting]).text == "404", "played once only")
        #expect(try await Self.status(shared.server).lastMismatches == ["GET /greeting"])

        // Test case 2: switch cassettes.
        let loaded = try await Self.control(shared.server, "POST", "load?cassette=" + shared.second.path)
        #expect(loaded.status == 200)
        #expect(try await Proc.run(Proc.curl, ["-s", greeting]).text == "hello from the second")

        // Reset: positions start over.
        #expect(try await Self.control(shared.server, "POST", "reset").status == 200)
        status = try await Self.status(shared.server)
        #expect(status.cassettes.first?.played == 0)
        #expect(try await Proc.run(Proc.curl, ["-s", greeting]).text == "hello from the second")
        await shared.server.stop()
    }

    @Test("unknown endpoints, wrong methods and missing parameters answer with the list of endpoints")
    func badControlRequests() async throws {
        let shared = try await Shared()
        defer { Proc.cleanUp(shared.directory) }
        let unknown = try await Self.control(shared.server, "GET", "nope")
        #expect(unknown.status == 404)
        #expect(String(decoding: unknown.body, as: UTF8.self).contains("/__tapedeck/status"))
        #expect(try await Self.control(shared.server, "GET", "reset").status == 405)
        let missing = try await Self.control(shared.server, "POST", "load")
        #expect(missing.status == 400)
        #expect(String(decoding: missing.body, as: UTF8.self).contains("missing query parameter 'cassette'"))
        let absent = try await Self.control(shared.server, "POST", "load?cassette=" + shared.directory.appendingPathComponent("absent.cassette.json").path)
        #expect(absent.status == 400, "a missing cassette inside the served folder is a bad request")
        #expect(try await Self.control(shared.server, "POST", "load?cassette=/no/such.cassette.json").status == 403, "outside it, refused")
        await shared.server.stop()
    }

    @Test("record/start records through to the upstream, record/stop replays the recording", .enabled(if: Proc.httpbin != nil))
    func startAndStopRecording() async throws {
        let upstream = try #require(Proc.httpbin)
        let directory = try Proc.temporaryDirectory()
        defer { Proc.cleanUp(directory) }
        let file = try SampleCassettes.write(SampleCassettes.single(path: "/greeting", text: "hi"), to: directory)
        let server = try await CassetteServer.serve([file], options: Self.scratchOptions(DeckOptions(live: CurlTransport(options: .init(followRedirects: false)))))
        let recording = directory.appendingPathComponent("recorded.cassette.json")
        let started = try await Self.control(server, "POST", "record/start?mode=all&cassette=\(recording.path)&upstream=\(upstream.absoluteString)")
        #expect(started.status == 200, "\(String(decoding: started.body, as: UTF8.self))")
        let live = try await Proc.run(Proc.curl, ["-s", server.url.absoluteString + "/uuid"])
        #expect(try await Self.status(server).cassettes.first?.recorded == 1)
        #expect(try await Self.control(server, "POST", "record/stop").status == 200)
        #expect(try Cassette.load(from: recording).interactions.count == 1)
        let replayed = try await Proc.run(Proc.curl, ["-s", server.url.absoluteString + "/uuid"])
        #expect(replayed.stdout == live.stdout)
        #expect(try await Self.status(server).cassettes.first?.recording == false)
        await server.stop()
    }
}

/// One server kept across test cases, as a UI-test host keeps it: each test case switches it
/// to its own cassette through `POST /__tapedeck/load` and sees that cassette's answers.
@Suite("One server across test cases", .serialized)
struct OneServerAcrossTestCases {
    /// Started once for the suite; it lives until the test process ends.
    static let server = Task { try await CassetteServer.serve([], options: ControlEndpointTests.scratchOptions()) }

    /// Writes `text` as the answer to `/greeting`, switches the shared server to it (the file is
    /// read whole, then removed) and returns what curl gets for `/greeting`, twice.
    static func switchAndAsk(_ text: String) async throws -> [String] {
        let server = try await server.value
        let directory = try Proc.temporaryDirectory()
        defer { Proc.cleanUp(directory) }
        let file = try SampleCassettes.write(SampleCassettes.single(path: "/greeting", text: text), to: directory)
        let loaded = try await ControlEndpointTests.control(server, "POST", "load?cassette=" + file.path)
        #expect(loaded.status == 200)
        var answers: [String] = []
        for _ in 0..<2 { answers.append(try await Proc.run(Proc.curl, ["-s", server.url.absoluteString + "/greeting"]).text) }
        return answers
    }

    @Test("test case one switches to its cassette and gets its answer, once")
    func testCaseOne() async throws {
        let answers = try await Self.switchAndAsk("hello from test case one")
        #expect(answers.first == "hello from test case one")
        #expect(answers.last?.contains("no recorded interaction matches GET") == true, "played once, then the report")
    }

    @Test("test case two switches the same server to its own cassette and sees the new answer")
    func testCaseTwo() async throws {
        let answers = try await Self.switchAndAsk("hello from test case two")
        #expect(answers.first == "hello from test case two")
        let status = try await ControlEndpointTests.status(try await Self.server.value)
        #expect(status.cassettes.count == 1, "load replaced the earlier cassette")
    }
}
