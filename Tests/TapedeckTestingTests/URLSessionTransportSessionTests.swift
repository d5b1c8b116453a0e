import Foundation
import Tapedeck
import Testing
@testable import TapedeckTesting
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("URLSessionTransport over a caller's URLSession")
struct URLSessionTransportSessionTests {
    @Test("an APIClient sends through the session under test and sees the mismatch report as a CassetteError")
    func apiClientOverReplayingSession() async throws {
        let file = try cassetteFile("client", url: "http://api.test/who", body: #"{"name":"Ada"}"#)
        let session = try URLSession.replaying(file)
        struct Who: Decodable, Sendable { var name: String }
        let client = try APIClient(baseURL: "http://api.test", transport: URLSessionTransport(session: session))

        #expect(try await client.send(Endpoint<Who>(path: "who")).name == "Ada")
        do {
            _ = try await client.send(Endpoint<Who>(path: "whom"))
            Issue.record("an unmatched request was answered")
        } catch let CassetteError.noMatch(report) {
            #expect(report.cassettePath == file.path)
            #expect(report.description.contains("path: /who → /whom"))
        }
    }

    @Test("the caller's session stays usable after the transport is gone (it is not invalidated)")
    func sessionOutlivesTransport() async throws {
        let session = URLSession.stubbing { _ in .text("still here") }
        do {
            let transport = URLSessionTransport(session: session)
            let response = try await transport.send(HTTPRequest(url: URL(string: "http://api.test/a")!))
            #expect(String(decoding: response.body, as: UTF8.self) == "still here")
        }
        let (data, _) = try await session.data(from: URL(string: "http://api.test/b")!)
        #expect(String(decoding: data, as: UTF8.self) == "still here")
    }
}
