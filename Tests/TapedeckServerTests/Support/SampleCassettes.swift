import Foundation
import Tapedeck

/// Cassettes written for the server tests.
enum SampleCassettes {
    static let origin = "http://api.example.test"

    /// A method outside the usual set (one the server's HTTP parser knows).
    static let purge: HTTPMethod = (try? HTTPMethod(validating: "PURGE")) ?? .get

    static func url(_ path: String) -> URL { URL(string: origin + path)! }

    /// JSON, repeated headers, a custom reason phrase, binary bytes, a redirect, a body that names the origin.
    static func api() -> Cassette {
        let binary = Data([0x00, 0x01, 0xFE, 0xFF, 0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A])
        return Cassette(interactions: [
            Interaction(request: HTTPRequest(url: url("/users")),
                        response: HTTPResponse(status: 200, headers: HTTPHeaders([
                            ("Content-Type", "application/json"), ("Set-Cookie", "a=1; Path=/"), ("X-Order", "first"),
                            ("Set-Cookie", "b=2"), ("X-Order", "second"),
                        ]), body: Data(#"{"users": [{"id": 1, "name": "Ada"}]}"#.utf8), duration: 0.2)),
            Interaction(request: HTTPRequest(method: Self.purge, url: url("/pot")),
                        response: HTTPResponse(status: 418, reason: "I'M A TEAPOT", headers: ["Content-Type": "text/plain"],
                                               body: Data("short and stout\n".utf8))),
            Interaction(request: HTTPRequest(url: url("/logo.png")),
                        response: HTTPResponse(status: 200, headers: ["Content-Type": "image/png"], body: binary)),
            Interaction(request: HTTPRequest(url: url("/old")),
                        response: HTTPResponse(status: 301, headers: ["Location": origin + "/users"], body: Data())),
            Interaction(request: HTTPRequest(method: .post, url: url("/users"), headers: ["Content-Type": "application/json"],
                                             body: Data(#"{"name":"Grace"}"#.utf8)),
                        response: HTTPResponse(status: 201, reason: "Created", headers: ["Content-Type": "application/json"],
                                               body: Data(#"{"id": 2, "href": "http://api.example.test/users/2"}"#.utf8))),
            Interaction(request: HTTPRequest(url: url("/big")),
                        response: HTTPResponse(status: 200, headers: ["Content-Type": "text/plain"],
                                               body: Data(String(repeating: "0123456789", count: 400).utf8), duration: 0.05)),
        ], metadata: [Cassette.MetadataKey.baseURL: origin])
    }

    /// One interaction answering `path` with `text`, for switching cassettes.
    static func single(path: String, text: String) -> Cassette {
        Cassette(interactions: [
            Interaction(request: HTTPRequest(url: url(path)),
                        response: HTTPResponse(status: 200, headers: ["Content-Type": "text/plain"], body: Data(text.utf8))),
        ], metadata: [Cassette.MetadataKey.baseURL: origin])
    }

    /// Writes `cassette` into `directory` as `name` and returns its URL.
    static func write(_ cassette: Cassette, to directory: URL, name: String = "api.cassette.json") throws -> URL {
        let file = directory.appendingPathComponent(name)
        try cassette.write(to: file)
        return file
    }
}
