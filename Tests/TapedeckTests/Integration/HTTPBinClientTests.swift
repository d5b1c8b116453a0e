import Foundation
import TapedeckCurl
import Testing
@testable import Tapedeck

@Suite("APIClient against httpbin", .enabled(if: HTTPBin.isAvailable, "needs httpbin (make test starts it)"))
struct HTTPBinClientTests {
    struct Echo: Decodable { var args: [String: String]; var url: String }
    struct Wrong: Decodable { var headers: Headers; struct Headers: Decodable { var missing: Int } }

    private func client() throws -> APIClient {
        try APIClient(baseURL: HTTPBin.baseURL ?? "", transport: CurlTransport())
    }

    @Test("a typed endpoint decodes httpbin's JSON")
    func typed() async throws {
        let echo: Echo = try await client().send(Endpoint(path: "get", query: [QueryItem(name: "q", value: "a+b c")]))
        #expect(echo.args == ["q": "a+b c"])
    }

    @Test("an unacceptable status carries the body")
    func unacceptable() async throws {
        do {
            let _: Echo = try await client().send(Endpoint(path: "status/404"))
            Issue.record("expected a 404")
        } catch let HTTPError.unacceptableStatus(status, _, url, _) {
            #expect(status == 404)
            #expect(url.hasSuffix("/status/404"))
        }
        let body: Data = try await client().send(Endpoint<Data>(path: "status/418", acceptedStatus: 418..<419))
        #expect(String(decoding: body, as: UTF8.self).contains("teapot"))
    }

    @Test("a decoding failure names the coding path")
    func decodingFailure() async throws {
        do {
            let _: Wrong = try await client().send(Endpoint(path: "get"))
            Issue.record("expected a decoding failure")
        } catch let HTTPError.decodingFailed(type, codingPath, detail) {
            #expect(type == "Wrong")
            #expect(codingPath == "headers.missing")
            #expect(detail.contains("missing"))
        }
    }
}
