import Foundation
import Testing
import TapedeckTesting
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("Stubbing URLSession")
struct StubbingSessionTests {
    @Test("answers from a handler with Moya-style sample responses")
    func samples() async throws {
        let session = URLSession.stubbing { request in
            switch request.url?.path {
            case "/json": .json(#"{"slideshow": {"title": "Stub", "author": "me", "slides": []}}"#)
            case "/status/418": .text("teapot", status: 418)
            default: .status(404)
            }
        }
        #expect(try await HTTPBinClient(session: session).slideshow().title == "Stub")
        let (_, response) = try await session.data(from: URL(string: "http://api.test/status/418")!)
        #expect((response as? HTTPURLResponse)?.statusCode == 418)
    }

    @Test("sees the method, headers and body of the request, MockURLProtocol-style")
    func seesRequest() async throws {
        let session = URLSession.stubbing { request in
            let body = String(decoding: request.httpBody ?? Data(), as: UTF8.self)
            let response = HTTPURLResponse(url: request.url!, statusCode: 201, httpVersion: nil, headerFields: ["X-Echo": body])!
            return SampleResponse(response, Data((request.httpMethod ?? "?").utf8))
        }
        var request = URLRequest(url: URL(string: "http://api.test/items")!)
        request.httpMethod = "POST"
        request.httpBody = Data("payload".utf8)
        let (data, response) = try await session.data(for: request)
        #expect(String(decoding: data, as: UTF8.self) == "POST")
        #expect((response as? HTTPURLResponse)?.value(forHTTPHeaderField: "X-Echo") == "payload")
    }

    @Test("a MockURLProtocol-style HTTPURLResponse keeps its headers in name order, whatever the dictionary's order")
    func wrappedHeaders() throws {
        let fields = ["X-Zeta": "z", "Content-Type": "text/plain", "x-alpha": "a", "ETag": "1"]
        let response = try #require(HTTPURLResponse(url: URL(string: "http://api.test/")!, statusCode: 200, httpVersion: nil, headerFields: fields))
        let sample = SampleResponse(response, Data("ok".utf8))
        #expect(sample.headers.map { $0.name.lowercased() } == ["content-type", "etag", "x-alpha", "x-zeta"])
        #expect(sample.headers["x-zeta"] == "z" && sample.body == Data("ok".utf8))
    }

    @Test("simulates a network failure")
    func failure() async throws {
        let session = URLSession.stubbing { _ in .failure(.notConnectedToInternet) }
        do {
            _ = try await session.data(from: URL(string: "http://api.test/")!)
            Issue.record("no failure")
        } catch let error as URLError {
            #expect(error.code == .notConnectedToInternet)
        }
    }
}
