import Foundation
import Testing
@testable import Tapedeck

@Suite("APIClient's default query items")
struct APIClientDefaultQueryTests {
    @Test("go on every request after the endpoint's own, which win by name")
    func everyRequest() throws {
        let client = try APIClient(baseURL: "https://dogs.test/v1?lang=en", transport: StubTransport { _ in HTTPResponse(status: 200) },
                                   defaultQuery: [QueryItem(name: "api_key", value: "a b+c"), QueryItem(name: "page", value: "1")])
        #expect(try client.request(for: Endpoint<Data>(path: "dogs")).url.absoluteString
                == "https://dogs.test/v1/dogs?lang=en&api_key=a%20b%2Bc&page=1")
        #expect(try client.request(for: Endpoint<Data>(path: "dogs", query: [QueryItem(name: "page", value: "3")])).url.absoluteString
                == "https://dogs.test/v1/dogs?lang=en&page=3&api_key=a%20b%2Bc")
    }
}
