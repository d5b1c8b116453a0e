import Foundation
import TapedeckCurl
import TapedeckTooling
import Testing
@testable import Tapedeck

@Suite("One redirect rule")
struct RedirectFollowerTests {
    private func redirect(_ status: Int = 302, to location: String) -> HTTPResponse {
        HTTPResponse(status: status, headers: ["Location": location], body: Data())
    }

    private func request(_ url: String, method: HTTPMethod = .get) throws -> HTTPRequest {
        HTTPRequest(method: method, url: try #require(URL(string: url)),
                    headers: ["Authorization": "Bearer t0ken", "Cookie": "s=1", "Proxy-Authorization": "Basic eA==", "Accept": "*/*"])
    }

    @Test("credentials are dropped on any change of scheme, host or port, and kept when only the host's case differs",
          arguments: [
              ("https://api.test/next", false), ("http://other.test/next", false), ("http://api.test:8080/next", false),
              ("http://API.test/next", true), ("http://api.test:80/next", true), ("/relative", true),
          ])
    func credentials(location: String, kept: Bool) throws {
        let next = try #require(try RedirectFollower.nextRequest(after: redirect(to: location), for: request("http://api.test/start")))
        for name in RedirectFollower.credentialHeaders {
            #expect(next.headers.contains(name) == kept, "\(name) after a redirect to \(location)")
        }
        #expect(next.headers["Accept"] == "*/*")
    }

    @Test("the cookies a redirect sets go with the next request on the same origin, replacing their names; Max-Age=0 removes one; none go elsewhere")
    func cookiesFollow() throws {
        var login = redirect(to: "/home")
        login.headers.append(name: "Set-Cookie", value: "session=new; Path=/; HttpOnly")
        login.headers.append(name: "Set-Cookie", value: "s=; Max-Age=0")
        login.headers.append(name: "Set-Cookie", value: "theme=dark")
        let next = try #require(try RedirectFollower.nextRequest(after: login, for: request("http://api.test/login")))
        #expect(next.headers["Cookie"] == "session=new; theme=dark")
        var away = redirect(to: "http://other.test/home")
        away.headers.append(name: "Set-Cookie", value: "session=new")
        #expect(try RedirectFollower.nextRequest(after: away, for: request("http://api.test/login"))?.headers["Cookie"] == nil)
    }

    @Test("a Location with any scheme but http or https is an error naming the scheme",
          arguments: ["gopher://127.0.0.1:70/_x", "dict://127.0.0.1/d", "telnet://127.0.0.1", "ldap://127.0.0.1/",
                      "smtp://127.0.0.1", "ftp://127.0.0.1/f", "tftp://127.0.0.1/f", "file:///etc/passwd"])
    func otherSchemes(location: String) throws {
        let scheme = try #require(location.split(separator: ":").first).description
        #expect(throws: HTTPError.redirectScheme(from: "http://api.test/start", location: location, scheme: scheme)) {
            try RedirectFollower.nextRequest(after: redirect(to: location), for: request("http://api.test/start"))
        }
        let message = HTTPError.redirectScheme(from: "http://api.test/start", location: location, scheme: scheme).localizedDescription
        #expect(message.contains("the scheme '\(scheme)'") && message.contains("only http and https"))
    }

    @Test("303 and a POST's 301/302 become a body-less GET; 307 and 308 keep method and body")
    func methods() throws {
        var post = try request("http://api.test/start", method: .post)
        post.body = Data("x".utf8)
        post.headers["Content-Type"] = "text/plain"
        for status in [301, 302, 303] {
            let next = try #require(try RedirectFollower.nextRequest(after: redirect(status, to: "/n"), for: post))
            #expect(next.method == .get && next.body == nil && !next.headers.contains("Content-Type"))
        }
        for status in [307, 308] {
            let next = try #require(try RedirectFollower.nextRequest(after: redirect(status, to: "/n"), for: post))
            #expect(next.method == .post && next.body == Data("x".utf8))
        }
        #expect(try RedirectFollower.nextRequest(after: HTTPResponse(status: 200, body: Data()), for: post) == nil)
    }

    @Test("a loop throws after 30 hops with the chain of URLs")
    func loop() async throws {
        let start = try request("http://api.test/0")
        do {
            _ = try await RedirectFollower.follow(start) { (hop: HTTPRequest) async throws -> HTTPResponse in
                let n = Int(hop.url.lastPathComponent) ?? 0
                return HTTPResponse(status: 302, headers: ["Location": "/\(n + 1)"], body: Data())
            }
            Issue.record("a redirect loop was followed without end")
        } catch let HTTPError.tooManyRedirects(chain) {
            #expect(chain.count == RedirectFollower.maximumHops + 2)
            #expect(chain.first == "http://api.test/0" && chain.last == "http://api.test/31")
        }
    }
}

@Suite("Redirects from a hostile server", .serialized, .enabled(if: HostileServer.available, "needs /usr/bin/python3"))
struct HostileRedirectTests {
    enum Kind: String, CaseIterable { case curl, urlSession }

    private func transport(_ kind: Kind) -> any HTTPTransport {
        switch kind {
        case .curl: CurlTransport(options: .init(timeout: 10, followRedirects: true))
        case .urlSession: URLSessionTransport(options: .init(timeout: 10, followRedirects: true))
        }
    }

    @Test("live transports refuse redirects to other protocols and never touch the port they name", arguments: Kind.allCases)
    func otherProtocols(kind: Kind) async throws {
        let server = try HostileServer()
        defer { server.stop() }
        for scheme in ["gopher", "dict", "telnet", "ldap", "smtp", "ftp", "tftp"] {
            let target = "\(scheme)://127.0.0.1:\(server.trapPort)/_SECRET%0d%0aQUIT"
            let start = server.url("/redirect?to=" + (target.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""))
            do {
                _ = try await transport(kind).send(HTTPRequest(url: start))
                Issue.record("\(kind): a redirect to \(scheme) was followed")
            } catch let HTTPError.redirectScheme(_, location, named) {
                #expect(named == scheme && location == target)
            }
        }
        #expect(try await server.trapConnections() == 0)
    }

    @Test("live transports stop a redirect loop with the chain", arguments: Kind.allCases)
    func loop(kind: Kind) async throws {
        let server = try HostileServer()
        defer { server.stop() }
        await #expect(throws: HTTPError.tooManyRedirects(chain: (0...31).map { server.url("/loop/\($0)").absoluteString })) {
            try await transport(kind).send(HTTPRequest(url: server.url("/loop/0")))
        }
    }

    @Test("Authorization reaches the same origin but not another host", arguments: Kind.allCases)
    func credentials(kind: Kind) async throws {
        let server = try HostileServer()
        defer { server.stop() }
        let headers: HTTPHeaders = ["Authorization": "Bearer s3cret", "Proxy-Authorization": "Basic eA=="]
        let same = try await transport(kind).send(HTTPRequest(url: server.url("/cross?to=/echo"), headers: headers))
        #expect(String(decoding: same.body, as: UTF8.self).contains("s3cret"))
        let other = "http://localhost:\(server.port)/echo"
        let away = try await transport(kind).send(HTTPRequest(url: server.url("/cross?to=" + other), headers: headers))
        let echoed = String(decoding: away.body, as: UTF8.self)
        #expect(echoed.contains("Host") && !echoed.contains("s3cret") && !echoed.contains("Basic"))
    }
}

@Suite("A recorded redirect to another protocol")
struct RecordedOtherSchemeTests {
    private let cassette = Cassette(interactions: [
        .make(.get, "http://api.test/start", status: 302, headers: ["Location": "gopher://127.0.0.1:70/_x"], body: ""),
        .make(.get, "gopher://127.0.0.1:70/_x", status: 200, headers: [:], body: "hop"),
    ])

    @Test("keeps the cassette readable, is reported unreachable by the lint, and is never followed on replay")
    func readableNotFollowed() throws {
        let decoded = try CassetteCodec.decode(CassetteCodec.encode(cassette), source: "gopher.cassette.json")
        #expect(decoded.interactions.map(\.request.url.absoluteString) == ["http://api.test/start", "gopher://127.0.0.1:70/_x"])
        #expect(CassetteLint.findings(in: decoded).contains { $0.interaction == 1 && $0.kind == .unreachable })
        let start = HTTPRequest(url: try #require(URL(string: "http://api.test/start")))
        #expect(try ReplayTransport(cassette: decoded, configuration: .init(URL(fileURLWithPath: "<memory>"), followRedirects: false)).serve(start).status == 302)
        #expect(throws: HTTPError.redirectScheme(from: "http://api.test/start", location: "gopher://127.0.0.1:70/_x", scheme: "gopher")) {
            try ReplayTransport(cassette: decoded, configuration: .init(URL(fileURLWithPath: "<memory>"), followRedirects: true)).serve(start)
        }
    }
}
