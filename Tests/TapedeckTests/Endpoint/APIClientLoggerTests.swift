import Foundation
import Synchronization
import Testing
@testable import Tapedeck

/// Collects what a logger was handed.
final class LoggedEntries: Sendable {
    private let entries = Mutex<[APIClientLogger.Entry]>([])
    var all: [APIClientLogger.Entry] { entries.withLock { $0 } }
    var logger: APIClientLogger { APIClientLogger { entry in self.entries.withLock { $0.append(entry) } } }
}

@Suite("APIClient's logger")
struct APIClientLoggerTests {
    struct Session: Decodable, Sendable { var token: String }

    @Test("sees each request and response, with credentials in headers, query and body redacted")
    func requestAndResponse() async throws {
        let log = LoggedEntries()
        let client = try APIClient(baseURL: "https://dogs.test", transport: StubTransport { _ in
            HTTPResponse(status: 200, headers: ["Content-Type": "application/json", "Set-Cookie": "sid=abcdef123456"],
                         body: Data(#"{"token":"tok-0123456789"}"#.utf8), duration: 0.012)
        }, defaultHeaders: ["Authorization": "Bearer s3cr3t-bearer"], defaultQuery: [QueryItem(name: "api_key", value: "k3y-5ecret")],
           logger: log.logger)

        let session: Session = try await client.send(Endpoint(path: "login"))

        #expect(session.token == "tok-0123456789")   // the app still gets the real values
        let entries = log.all
        #expect(entries.map(\.description) == [
            "→ GET https://dogs.test/login?api_key=%3CREDACTED%3E",
            "← 200 OK https://dogs.test/login?api_key=%3CREDACTED%3E (12 ms, 22 bytes)",   // the redacted body: {"token":"<REDACTED>"}
        ])
        guard case .request(let request) = entries.first, case .response(let response, _) = entries.last else {
            Issue.record("unexpected entries \(entries)")
            return
        }
        #expect(request.headers["Authorization"] == "Bearer <REDACTED>")
        #expect(response.headers["Set-Cookie"] == "sid=<REDACTED>")
        #expect(!String(decoding: response.body, as: UTF8.self).contains("tok-0123456789"))
        #expect(entries.allSatisfy { !"\($0)".contains("k3y-5ecret") && !"\($0)".contains("s3cr3t-bearer") })
    }

    @Test("sees a failure with its message, the credentials it quotes scrubbed")
    func failure() async throws {
        let log = LoggedEntries()
        let client = try APIClient(baseURL: "https://dogs.test", transport: StubTransport { request in
            HTTPResponse(status: 403, body: Data("key k3y-5ecret is not allowed on \(request.url.path)".utf8))
        }, defaultQuery: [QueryItem(name: "api_key", value: "k3y-5ecret")], logger: log.logger)

        await #expect(throws: HTTPError.self) { try await client.send(Endpoint<Data>(path: "dogs")) }

        let last = try #require(log.all.last)
        guard case .failure(let message, let request) = last else {
            Issue.record("expected a failure entry, got \(last)")
            return
        }
        #expect(request.url.absoluteString == "https://dogs.test/dogs?api_key=%3CREDACTED%3E")
        #expect(message.hasPrefix("https://dogs.test/dogs?api_key=<REDACTED> answered 403 Forbidden"), "\(message)")
        #expect(message.contains("key <REDACTED> is not allowed on /dogs"), "\(message)")
        #expect(last.description.hasPrefix("✗ GET https://dogs.test/dogs?api_key=%3CREDACTED%3E: "))
    }

    @Test("a failure to decode is logged after the response it came from")
    func decodingFailure() async throws {
        let log = LoggedEntries()
        let client = try APIClient(baseURL: "https://dogs.test", transport: StubTransport { _ in
            HTTPResponse(status: 200, body: Data("{}".utf8))
        }, logger: log.logger)
        await #expect(throws: HTTPError.self) { let _: Session = try await client.send(Endpoint(path: "login")) }
        #expect(log.all.map { "\($0)".prefix(1) } == ["→", "←", "✗"])
    }
}
