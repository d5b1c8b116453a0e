import Foundation
import Synchronization
import Tapedeck
import TapedeckCurl
@testable import TapedeckServer
import TapedeckTesting
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
#if canImport(Glibc)
import Glibc
#endif

/// A refused connection or a timeout met while recording is stored (when asked) and replayed
/// as the same failure: URLError in URLSession, exit 3 in scripts, a reset or silence from serve.
@Suite("Recorded transport failures")
struct RecordedFailureTests {
    /// A loopback port nothing listens on: bound, read, closed.
    static func closedPort() -> Int {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(descriptor, pointer, length)
                return getsockname(descriptor, pointer, &length)
            }
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    static func recordingOptions(timeout: Double = 5) -> DeckOptions {
        var options = DeckOptions(live: CurlTransport(options: .init(timeout: timeout, followRedirects: false)))
        options.recordFailures = true
        return options
    }

    @Test("a refused connection recorded through the proxy replays as cannotConnectToHost, a reset from serve and exit 3 from a script")
    func refusedConnection() async throws {
        let directory = try Proc.temporaryDirectory()
        defer { Proc.cleanUp(directory) }
        let cassette = directory.appendingPathComponent("offline.cassette.json")
        let upstream = URL(string: "http://127.0.0.1:\(Self.closedPort())")!
        let proxy = try await CassetteServer.proxy(to: upstream, recordingTo: cassette, mode: .all, options: Self.recordingOptions())
        let through = try await Proc.run(Proc.curl, ["-s", "-o", "/dev/null", "-w", "%{http_code}", proxy.url.absoluteString + "/status"])
        await proxy.stop()
        #expect(through.text == "502", "the client of the proxy gets Bad Gateway")
        let stored = try Cassette.load(from: cassette)
        #expect(stored.interactions.first?.failure?.kind == .cannotConnect)
        #expect(try String(contentsOf: cassette, encoding: .utf8).contains(#""kind": "cannotConnect""#))

        let session = try URLSession.replaying(cassette)
        do {
            _ = try await session.data(from: upstream.appendingPathComponent("status"))
            Issue.record("a recorded refusal was answered")
        } catch let error as URLError {
            #expect(error.code == .cannotConnectToHost)
        }

        let server = try await CassetteServer.serve([cassette])
        let served = try await Proc.run(Proc.curl, ["-s", server.url.absoluteString + "/status"])
        await server.stop()
        #expect(served.status == 56, "serve resets the connection: \(served.stderr)")

        if let binary = Proc.tapedeck {
            let script = directory.appendingPathComponent("status.tape")
            try "get \(upstream.absoluteString)/status\nexpect 200\n".write(to: script, atomically: true, encoding: .utf8)
            let run = try await Proc.run(binary, ["run", script.path, "--replay", cassette.path], environment: ["TAPEDECK_USAGE_DIR": directory.path])
            #expect(run.status == 3, "\(run.stderr)")
            #expect(run.text.contains("cannot connect to 127.0.0.1") || run.stderr.contains("cannot connect to 127.0.0.1"), "\(run.text)\(run.stderr)")
        }
    }

    @Test("a timeout recorded through the proxy replays as URLError.timedOut")
    func timeout() async throws {
        let directory = try Proc.temporaryDirectory()
        defer { Proc.cleanUp(directory) }
        var silent = DeckOptions()
        silent.conditions = NetworkConditions(faults: [try FaultRule(parsing: "*=timeout")])
        try await ServeClientsTests.withServer(options: silent) { upstream, _ in
            let cassette = directory.appendingPathComponent("slow.cassette.json")
            let proxy = try await CassetteServer.proxy(to: upstream.url, recordingTo: cassette, mode: .all, options: Self.recordingOptions(timeout: 0.5))
            let through = try await Proc.run(Proc.curl, ["-s", "-w", "\n%{http_code}", proxy.url.absoluteString + "/users"])
            await proxy.stop()
            #expect(through.text.hasSuffix("\n504"), "\(through.text)")
            // The fix named is the server's own flag.
            #expect(through.text.contains("raise the limit with --timeout SECONDS"), "\(through.text)")
            #expect(try Cassette.load(from: cassette).interactions.first?.failure?.kind == .timedOut)
            let session = try URLSession.replaying(cassette)
            do {
                _ = try await session.data(from: URL(string: upstream.url.absoluteString + "/users")!)
                Issue.record("a recorded timeout was answered")
            } catch let error as URLError {
                #expect(error.code == .timedOut)
            }
        }
    }

    @Test("a replayed failure's log line and answer show the request's URL with its credential redacted")
    func replayedFailureRedacted() throws {
        let url = "http://127.0.0.1:9/users?password=PW0339"
        let request = HTTPRequest(url: try #require(URL(string: url)))
        let lines = Mutex<[String]>([])
        let reply = ServerReply.replayedFailure(.noResponse(url: url, detail: "the upstream reset the connection"), request: request,
                                                log: { line in lines.withLock { $0.append(line) } })
        let logged = lines.withLock { $0.joined(separator: "\n") }
        #expect(logged.contains("password=%3CREDACTED%3E"), "\(logged)")
        #expect(!logged.contains("PW0339") && !String(decoding: reply.response.body, as: UTF8.self).contains("PW0339"), "\(logged)")
    }

    @Test("without --record-failures nothing is stored for a refused connection")
    func notAsked() async throws {
        let directory = try Proc.temporaryDirectory()
        defer { Proc.cleanUp(directory) }
        let cassette = directory.appendingPathComponent("none.cassette.json")
        let proxy = try await CassetteServer.proxy(to: URL(string: "http://127.0.0.1:\(Self.closedPort())")!, recordingTo: cassette, mode: .all,
                                                   options: DeckOptions(live: CurlTransport(options: .init(followRedirects: false))))
        _ = try await Proc.run(Proc.curl, ["-s", proxy.url.absoluteString + "/x"])
        await proxy.stop()
        #expect(!FileManager.default.fileExists(atPath: cassette.path))
    }
}
