import Foundation
import Synchronization
import Testing
@testable import Tapedeck

@Suite("Endpoint and APIClient")
struct APIClientTests {
    struct Joke: Decodable, Equatable { var id: Int; var setup: String }
    struct NewJoke: Encodable { var setup: String }

    /// A client in the shape app code would write: about ten lines.
    struct JokesAPI {
        let client: APIClient
        init(transport: any HTTPTransport) throws {
            client = try APIClient(baseURL: "http://jokes.test/api/", transport: transport)
        }
        func joke(id: Int) async throws -> Joke { try await client.send(Endpoint(path: "jokes/\(id)")) }
        func search(_ text: String) async throws -> [Joke] {
            try await client.send(Endpoint(path: "jokes", query: [QueryItem(name: "q", value: text)]))
        }
        func add(_ joke: NewJoke) async throws -> NoContent {
            try await client.send(try Endpoint<NoContent>(method: .post, path: "jokes", acceptedStatus: 201..<202).withJSONBody(joke))
        }
    }

    @Test("requests compose base, path, query, default headers and body")
    func requests() async throws {
        let seen = Captured()
        let api = try JokesAPI(transport: StubTransport { request in
            await seen.append(request)
            switch request.url.path {
            case "/api/jokes/7": return HTTPResponse(status: 200, body: Data(#"{"id":7,"setup":"Why?"}"#.utf8))
            case "/api/jokes" where request.method == .post: return HTTPResponse(status: 201)
            default: return HTTPResponse(status: 200, body: Data(#"[{"id":1,"setup":"a b"}]"#.utf8))
            }
        })
        #expect(try await api.joke(id: 7) == Joke(id: 7, setup: "Why?"))
        #expect(try await api.search("a b&c") == [Joke(id: 1, setup: "a b")])
        _ = try await api.add(NewJoke(setup: "x"))
        let requests = await seen.requests
        #expect(requests.map(\.url.absoluteString) == [
            "http://jokes.test/api/jokes/7", "http://jokes.test/api/jokes?q=a%20b%26c", "http://jokes.test/api/jokes",
        ])
        #expect(requests[0].headers["Accept"] == "application/json")
        #expect(requests[2].headers["Content-Type"] == "application/json")
        #expect(requests[2].body == Data(#"{"setup":"x"}"#.utf8))
    }

    @Test("a status outside the accepted range throws with the body")
    func unacceptable() async throws {
        let client = try APIClient(baseURL: "http://h", transport: StubTransport { _ in
            HTTPResponse(status: 404, body: Data(#"{"error":"no joke"}"#.utf8))
        })
        await #expect(throws: HTTPError.unacceptableStatus(status: 404, reason: "Not Found", url: "http://h/jokes/9",
                                                           body: Data(#"{"error":"no joke"}"#.utf8))) {
            let _: Joke = try await client.send(Endpoint(path: "jokes/9"))
        }
    }

    @Test("decoding failures name the type and the coding path")
    func decodingFailure() async throws {
        let client = try APIClient(baseURL: "http://h", transport: StubTransport { _ in
            HTTPResponse(status: 200, body: Data(#"[{"id":1,"setup":"a"},{"id":"two","setup":"b"}]"#.utf8))
        })
        do {
            let _: [Joke] = try await client.send(Endpoint(path: "jokes"))
            Issue.record("expected a decoding failure")
        } catch let HTTPError.decodingFailed(type, codingPath, _) {
            #expect(type == "Array<Joke>")
            #expect(codingPath == "[1].id")
        }
    }

    @Test("a raw Data endpoint returns the body's bytes")
    func rawData() async throws {
        let client = try APIClient(baseURL: "http://h", transport: StubTransport { _ in HTTPResponse(status: 200, body: Data([1, 2])) })
        let data: Data = try await client.send(Endpoint<Data>(path: "blob"))
        #expect(data == Data([1, 2]))
    }

    @Test("a NoContent DELETE sends DELETE to the path, accepts a bodiless 204 and still rejects an error status")
    func noContentDelete() async throws {
        let seen = Captured()
        let status = Mutex(204)
        let client = try APIClient(baseURL: "http://h/api", transport: StubTransport { request in
            await seen.append(request)
            return HTTPResponse(status: status.withLock { $0 })
        })
        let done: NoContent = try await client.send(Endpoint<NoContent>(method: .delete, path: "blob/7"))
        #expect(done == NoContent())
        let sent = try #require(await seen.requests.first)
        #expect(sent.method == .delete)
        #expect(sent.url.absoluteString == "http://h/api/blob/7")
        #expect(sent.body == nil)
        status.withLock { $0 = 409 }
        await #expect(throws: HTTPError.unacceptableStatus(status: 409, reason: "Conflict", url: "http://h/api/blob/7", body: Data())) {
            try await client.send(Endpoint<NoContent>(method: .delete, path: "blob/7"))
        }
    }

    @Test("an endpoint header replaces the client default of the same name")
    func headerMerge() throws {
        let client = try APIClient(baseURL: "http://h", transport: StubTransport { _ in HTTPResponse(status: 200) })
        let request = try client.request(for: Endpoint<Data>(path: "x", headers: ["accept": "text/csv"]))
        #expect(request.headers.values(for: "Accept") == ["text/csv"])
    }
}

/// Requests seen by a stub, in order.
actor Captured {
    var requests: [HTTPRequest] = []
    func append(_ request: HTTPRequest) { requests.append(request) }
}
