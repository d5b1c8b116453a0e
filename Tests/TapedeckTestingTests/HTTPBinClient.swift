import Foundation
import TapedeckTesting
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The app code under test: a typed httpbin client on `Endpoint` + `APIClient`, given a `URLSession`.
struct HTTPBinClient {
    struct Slideshow: Decodable, Equatable { var title: String; var author: String; var slides: [Slide] }
    struct Slide: Decodable, Equatable { var title: String; var type: String }
    struct Echo: Decodable { var json: [String: String]?; var headers: [String: String]; var url: String }

    let api: APIClient

    init(session: URLSession, baseURL: String = "http://httpbin.local") throws {
        api = try APIClient(baseURL: baseURL, transport: SessionTransport(session: session))
    }

    func slideshow() async throws -> Slideshow {
        struct Wrapper: Decodable { var slideshow: Slideshow }
        return try await api.send(Endpoint<Wrapper>(path: "json")).slideshow
    }
    func uuid() async throws -> String {
        struct UUIDBody: Decodable { var uuid: String }
        return try await api.send(Endpoint<UUIDBody>(path: "uuid")).uuid
    }
    func echo(_ fields: [String: String]) async throws -> Echo {
        try await api.send(Endpoint<Echo>(method: .post, path: "post").withJSONBody(fields))
    }
    func teapot() async throws -> NoContent { try await api.send(Endpoint<NoContent>(path: "status/418")) }
}

/// Sends through a caller's `URLSession`, so the session from `URLSession.replaying` drives the client.
struct SessionTransport: HTTPTransport {
    let session: URLSession

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        let (data, response) = try await session.data(for: URLRequestConversion.urlRequest(from: request))
        guard let http = response as? HTTPURLResponse else { throw HTTPError.noResponse(url: request.url.absoluteString, detail: "not HTTP") }
        var headers = HTTPHeaders()
        for (name, value) in http.allHeaderFields { if let name = name as? String, let value = value as? String { headers.add(name: name, value: value) } }
        return HTTPResponse(status: http.statusCode, headers: headers, body: data, url: http.url)
    }
}
