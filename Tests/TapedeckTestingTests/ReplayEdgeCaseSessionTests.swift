import Foundation
import Tapedeck
import TapedeckTestSupport
import Testing
@testable import TapedeckTesting
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What a VCR user's test meets through `URLSession.replaying`: big binary bodies, HEAD,
/// bodiless statuses, a redirect to another host and repeated Set-Cookie headers.
@Suite("Replaying edge cases through URLSession")
struct ReplayEdgeCaseSessionTests {
    static func interaction(_ method: HTTPMethod, _ url: String, status: Int = 200, headers: HTTPHeaders = [:],
                            body: Data = Data()) -> Interaction {
        Interaction(request: HTTPRequest(method: method, url: URL(string: url)!),
                    response: HTTPResponse(status: status, headers: headers, body: body, url: URL(string: url)!))
    }

    static func session(_ interactions: [Interaction]) throws -> URLSession {
        let file = TestScratch.path("edge").appendingPathComponent("e.cassette.json")
        try Cassette(interactions: interactions).write(to: file)
        return try URLSession.replaying(file)
    }

    @Test("an 8 MB binary body is served byte for byte after a round trip through the file")
    func largeBinary() async throws {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        var words = [UInt64](repeating: 0, count: 1024 * 1024)
        for index in words.indices {
            state ^= state << 13; state ^= state >> 7; state ^= state << 17
            words[index] = state
        }
        let body = words.withUnsafeBytes { Data($0) }
        let session = try Self.session([Self.interaction(.get, "http://api.test/blob", headers: ["Content-Type": "application/octet-stream"], body: body)])
        let (data, _) = try await session.data(from: URL(string: "http://api.test/blob")!)
        #expect(data == body)
    }

    @Test("HEAD, 204 and 304 come back with no body and their headers")
    func bodiless() async throws {
        let session = try Self.session([
            Self.interaction(.head, "http://api.test/file", headers: ["Content-Length": "5120", "ETag": "\"v1\""]),
            Self.interaction(.delete, "http://api.test/file", status: 204),
            Self.interaction(.get, "http://api.test/file", status: 304, headers: ["ETag": "\"v1\""]),
        ])
        var head = URLRequest(url: URL(string: "http://api.test/file")!)
        head.httpMethod = "HEAD"
        let (headBody, headResponse) = try await session.data(for: head)
        #expect(headBody.isEmpty)
        #expect((headResponse as? HTTPURLResponse)?.value(forHTTPHeaderField: "Content-Length") == "5120")
        var delete = URLRequest(url: URL(string: "http://api.test/file")!)
        delete.httpMethod = "DELETE"
        let (_, deleted) = try await session.data(for: delete)
        #expect((deleted as? HTTPURLResponse)?.statusCode == 204)
        let (cachedBody, cached) = try await session.data(from: URL(string: "http://api.test/file")!)
        #expect((cached as? HTTPURLResponse)?.statusCode == 304 && cachedBody.isEmpty)
    }

    @Test("a recorded redirect to another host is followed there, and Set-Cookie headers arrive as corelibs joins them")
    func crossHostRedirectAndCookies() async throws {
        let session = try Self.session([
            Self.interaction(.get, "http://api.test/login", status: 302, headers: ["Location": "https://auth.test/done"]),
            Self.interaction(.get, "https://auth.test/done", headers: ["Set-Cookie": "a=1; Path=/", "set-cookie": "b=2; HttpOnly"],
                             body: Data("welcome".utf8)),
        ])
        let (data, response) = try await session.data(from: URL(string: "http://api.test/login")!)
        #expect(String(decoding: data, as: UTF8.self) == "welcome")
        #expect(response.url?.absoluteString == "https://auth.test/done")
        #expect((response as? HTTPURLResponse)?.value(forHTTPHeaderField: "Set-Cookie") == "a=1; Path=/, b=2; HttpOnly")
    }
}
