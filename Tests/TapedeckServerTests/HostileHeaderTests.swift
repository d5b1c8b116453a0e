import Foundation
import Tapedeck
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
}
