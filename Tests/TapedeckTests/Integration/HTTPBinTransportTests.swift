import Foundation
import TapedeckCurl
import Testing
@testable import Tapedeck

@Suite("Transports against httpbin", .enabled(if: HTTPBin.isAvailable, "needs httpbin (make test starts it)"))
struct HTTPBinTransportTests {
    static let allMethods: [HTTPMethod] = [.get, .post, .put, .patch, .delete]

    @Test("every method reaches the server as sent", arguments: TransportKind.allCases, allMethods)
    func methods(_ kind: TransportKind, _ method: HTTPMethod) async throws {
        let response = try await kind.make().send(HTTPRequest(method: method, url: try HTTPBin.url("anything")))
        #expect(response.status == 200)
        #expect(try HTTPBin.json(response)["method"] == .string(method.rawValue))
    }

    @Test("HEAD and OPTIONS answer without a body", arguments: TransportKind.allCases)
    func headAndOptions(_ kind: TransportKind) async throws {
        let transport = kind.make()
        let head = try await transport.send(HTTPRequest(method: .head, url: try HTTPBin.url("get")))
        #expect(head.status == 200 && head.body.isEmpty)
        let options = try await transport.send(HTTPRequest(method: .options, url: try HTTPBin.url("get")))
        #expect(options.status == 200)
        #expect(options.headers["Allow"]?.contains("GET") == true)
    }

    @Test("query items are read back exactly, tricky characters included", arguments: TransportKind.allCases)
    func query(_ kind: TransportKind) async throws {
        let values = ["a b", "1+1", "a&b=c", "/?#%", "é日本", "🎉", "~-._"]
        let items = values.enumerated().map { QueryItem(name: "k\($0.offset)", value: $0.element) }
            + [QueryItem(name: "ключ", value: "значение")]
        let response = try await kind.make().send(HTTPRequest(url: try HTTPBin.url("get", query: items)))
        let args = try HTTPBin.json(response)["args"]
        for item in items { #expect(args?[item.name] == .string(item.value ?? ""), "\(item.name)") }
    }

    @Test("a JSON body is echoed, non-ASCII included", arguments: TransportKind.allCases)
    func json(_ kind: TransportKind) async throws {
        var request = HTTPRequest(method: .post, url: try HTTPBin.url("post"))
        let sent: JSONValue = .object([("name", "Zoë 🎉"), ("n", .number("1.5")), ("tags", ["a", "b"])])
        try request.setBody(.json(sent))
        let echoed = try HTTPBin.json(try await kind.make().send(request))
        #expect(echoed["json"]?.semanticallyEquals(sent) == true)
        #expect(echoed["headers"]?["Content-Type"] == "application/json")
    }

    @Test("a form body is echoed field by field", arguments: TransportKind.allCases)
    func form(_ kind: TransportKind) async throws {
        var request = HTTPRequest(method: .post, url: try HTTPBin.url("post"))
        try request.setBody(.form([("q", "a b&c=d+e"), ("city", "Zürich")]))
        let form = try HTTPBin.json(try await kind.make().send(request))["form"]
        #expect(form?["q"] == "a b&c=d+e")
        #expect(form?["city"] == "Zürich")
    }

    @Test("a multipart body with a file is echoed part by part", arguments: TransportKind.allCases)
    func multipart(_ kind: TransportKind) async throws {
        var request = HTTPRequest(method: .post, url: try HTTPBin.url("post"))
        try request.setBody(.multipart([
            .field(name: "title", value: "Grüße"),
            MultipartPart(name: "doc", filename: "note.txt", contentType: "text/plain", data: Data("hello file".utf8)),
        ]))
        let echoed = try HTTPBin.json(try await kind.make().send(request))
        #expect(echoed["form"]?["title"] == "Grüße")
        #expect(echoed["files"]?["doc"] == "hello file")
    }

    @Test("redirects are followed when asked, and returned when not", arguments: TransportKind.allCases)
    func redirects(_ kind: TransportKind) async throws {
        let followed = try await kind.make(follow: true).send(HTTPRequest(url: try HTTPBin.url("redirect/2")))
        #expect(followed.status == 200)
        #expect(followed.url?.path == "/get")
        let stopped = try await kind.make(follow: false).send(HTTPRequest(url: try HTTPBin.url("redirect/2")))
        #expect(stopped.status == 302)
        #expect(stopped.headers["Location"] == "/relative-redirect/1")
        let to = try HTTPBin.url("redirect-to", query: [QueryItem(name: "url", value: "/anything/x"), QueryItem(name: "status_code", value: "307")])
        let temporary = try await kind.make(follow: false).send(HTTPRequest(url: to))
        #expect(temporary.status == 307)
        let landed = try await kind.make(follow: true).send(HTTPRequest(url: to))
        #expect(landed.url?.path == "/anything/x")
    }

    @Test("status codes and reason phrases come through", arguments: TransportKind.allCases)
    func status(_ kind: TransportKind) async throws {
        let teapot = try await kind.make().send(HTTPRequest(url: try HTTPBin.url("status/418")))
        #expect(teapot.status == 418)
        #expect(teapot.reason.lowercased() == "i'm a teapot")
        #expect(try await kind.make().send(HTTPRequest(url: try HTTPBin.url("status/503"))).status == 503)
    }

    @Test("gzip bodies arrive decoded", arguments: TransportKind.allCases)
    func gzip(_ kind: TransportKind) async throws {
        let response = try await kind.make().send(HTTPRequest(url: try HTTPBin.url("gzip")))
        #expect(try HTTPBin.json(response)["gzipped"] == true)
    }

    @Test("repeated Set-Cookie headers stay separate fields", arguments: TransportKind.allCases)
    func cookies(_ kind: TransportKind) async throws {
        let url = try HTTPBin.url("response-headers", query: [QueryItem(name: "Set-Cookie", value: "a=1"),
                                                               QueryItem(name: "Set-Cookie", value: "b=2; Path=/")])
        let response = try await kind.make().send(HTTPRequest(url: url))
        #expect(response.headers.values(for: "set-cookie") == ["a=1", "b=2; Path=/"])
    }

    @Test("a slow response times out with the limit in the message", arguments: TransportKind.allCases)
    func timeout(_ kind: TransportKind) async throws {
        let url = try HTTPBin.url("delay/3")
        // The error kind is the proof (the server would answer 200 after 3 s); wall-clock bounds
        // are flaky while the whole suite runs in parallel on two cores.
        await #expect(throws: HTTPError.timedOut(url: url.absoluteString, seconds: 1)) {
            try await kind.make(timeout: 1).send(HTTPRequest(url: url))
        }
    }

    @Test("the response keeps timing and final URL")
    func timing() async throws {
        let response = try await CurlTransport().send(HTTPRequest(url: try HTTPBin.url("get")))
        #expect(response.duration > 0 && response.duration < 5)
        #expect(response.url == (try HTTPBin.url("get")))
    }
}
