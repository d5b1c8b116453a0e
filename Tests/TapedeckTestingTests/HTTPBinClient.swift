import Foundation
import Tapedeck
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
        api = try APIClient(baseURL: baseURL, transport: URLSessionTransport(session: session))
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
