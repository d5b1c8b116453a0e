import Foundation
import TapedeckCurl
import Testing
@testable import Tapedeck

@Suite("Header and method injection is refused at the library boundary")
struct HeaderInjectionTests {
    static let badValues = ["v\r\nX-Injected: 1", "v\nX-Injected: 1", "v\rx", "nul\u{0}"]
    static let badNames = ["X Bad", "X-Bad:", "X-Bad\r\nX-Injected", "", "Bär"]

    @Test("HTTPHeaders.add throws invalidHeaderValue naming the header for CR, LF or NUL", arguments: badValues)
    func addValue(value: String) {
        var headers = HTTPHeaders()
        #expect(throws: HTTPError.invalidHeaderValue(name: "X-Token", value: value)) { try headers.add(name: "X-Token", value: value) }
        #expect(headers.isEmpty)
    }

    @Test("HTTPHeaders.add throws invalidHeaderName for a name that is not a token", arguments: badNames)
    func addName(name: String) {
        var headers = HTTPHeaders()
        #expect(throws: HTTPError.invalidHeaderName(name)) { try headers.add(name: name, value: "v") }
    }

    @Test("APIClient.request(for:) refuses an endpoint's or a default header with a line break, naming it")
    func client() throws {
        let client = APIClient(baseURL: try #require(URL(string: "http://api.test")), transport: StubTransport { _ in HTTPResponse(status: 200) })
        let endpoint = Endpoint<Data>(path: "x", headers: ["X-User": "ada\r\nX-Admin: true"])
        #expect(throws: HTTPError.invalidHeaderValue(name: "X-User", value: "ada\r\nX-Admin: true")) { try endpoint.validate() }
        do {
            _ = try client.request(for: endpoint)
            Issue.record("an injected header was accepted")
        } catch {
            #expect(error == .invalidHeaderValue(name: "X-User", value: "ada\r\nX-Admin: true"))
            #expect(error.localizedDescription.contains("'X-User'"))
        }
        var defaults = client
        defaults.defaultHeaders = ["X Bad": "1"]
        #expect(throws: HTTPError.invalidHeaderName("X Bad")) { try defaults.request(for: Endpoint<Data>(path: "x")) }
    }

    @Test("HTTPMethod(rawValue:) is nil for anything but a token; decoding such a method fails")
    func methods() throws {
        #expect(HTTPMethod(rawValue: "PURGE")?.rawValue == "PURGE")
        for bad in ["", "GET /admin HTTP/1.1\r\nX: y", "GE T", "G\nET", "PÖST"] {
            #expect(HTTPMethod(rawValue: bad) == nil, "\(bad.debugDescription) was accepted")
        }
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(HTTPMethod.self, from: Data(#""GET / HTTP/1.1\r\n""#.utf8)) }
    }

    @Test("both live transports refuse a request whose header was set with a line break, before connecting")
    func transports() async throws {
        var request = HTTPRequest(url: try #require(URL(string: "http://127.0.0.1:9/")))
        request.headers["X-Note"] = "a\r\nX-Injected: 1"
        for transport in [CurlTransport() as any HTTPTransport, URLSessionTransport()] {
            await #expect(throws: HTTPError.invalidHeaderValue(name: "X-Note", value: "a\r\nX-Injected: 1")) {
                try await transport.send(request)
            }
        }
    }
}
