import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import Tapedeck

@Suite("Conversions to and from Foundation's request and header types")
struct FoundationConversionTests {
    @Test("a request survives URLRequest and back: method, URL, body, headers sorted by name")
    func requestRoundTrip() {
        let request = HTTPRequest(method: .patch, url: URL(string: "http://api.test/items/1?x=%2B")!,
                                  headers: ["X-B": "2", "Accept": "application/json"], body: Data("{}".utf8))
        let urlRequest = request.urlRequest(timeout: 7)
        #expect(urlRequest.timeoutInterval == 7)
        #expect(urlRequest.httpMethod == "PATCH")
        let back = HTTPRequest(urlRequest)
        #expect(back.method == .patch && back.url == request.url && back.body == request.body)
        #expect(back.headers.map(\.name) == ["Accept", "X-B"])
    }

    @Test("Foundation's header dictionary becomes ordered fields with joined Set-Cookie split back; repeats join going out")
    func headers() {
        let headers = HTTPHeaders(foundationFields: ["set-cookie": "a=1; Path=/, b=2; Expires=Wed, 21 Oct 2026 07:28:00 GMT",
                                                     "Content-Type": "text/plain", "X-Count": 3])
        #expect(headers.map(\.name) == ["Content-Type", "set-cookie", "set-cookie"])
        #expect(headers.values(for: "Set-Cookie") == ["a=1; Path=/", "b=2; Expires=Wed, 21 Oct 2026 07:28:00 GMT"])
        let out: HTTPHeaders = ["Vary": "Accept", "vary": "Origin", "ETag": "\"1\""]
        #expect(out.foundationFields == ["Vary": "Accept, Origin", "ETag": "\"1\""])
    }
}
