import Foundation
@testable import TapedeckCurl
import TapedeckTestSupport
import Testing
@testable import Tapedeck
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("Transports without a server")
struct TransportTests {
    @Test("Set-Cookie values joined by URLSession split back, minding Expires commas")
    func setCookieSplit() {
        #expect(SetCookieSplitter.split("a=1, b=2") == ["a=1", "b=2"])
        #expect(SetCookieSplitter.split("a=1; Expires=Wed, 21 Oct 2026 07:28:00 GMT; Path=/, b=2")
                == ["a=1; Expires=Wed, 21 Oct 2026 07:28:00 GMT; Path=/", "b=2"])
        #expect(SetCookieSplitter.split("only=1") == ["only=1"])
    }

    @Test("a timeout that is not a positive finite number means no limit instead of a crash")
    func oddTimeouts() async throws {
        #expect(CurlTransfer.timeoutMilliseconds(2.5) == 2500)
        #expect(CurlTransfer.timeoutMilliseconds(0.0001) == 1)
        for seconds in [0, -1, .nan, .infinity, .greatestFiniteMagnitude, 1e300] as [TimeInterval] {
            #expect(CurlTransfer.timeoutMilliseconds(seconds) == 0, "\(seconds)")
        }
        let request = HTTPRequest(url: URL(string: "http://127.0.0.1:1/")!)
        for seconds in [.nan, .infinity, -5] as [TimeInterval] {
            await #expect(throws: HTTPError.cannotConnect(host: "127.0.0.1", port: 1)) {
                try await CurlTransport(options: .init(timeout: seconds)).send(request)
            }
            await #expect(throws: HTTPError.self) {
                try await URLSessionTransport(options: .init(timeout: seconds)).send(request)
            }
        }
    }

    @Test("URL errors map to errors naming the host, port or timeout")
    func urlErrorMapping() {
        let request = HTTPRequest(url: URL(string: "http://example.test:8080/x")!)
        func map(_ code: URLError.Code) -> HTTPError? {
            URLSessionTransport.map(URLError(code), request: request, timeout: 2) as? HTTPError
        }
        #expect(map(.cannotConnectToHost) == .cannotConnect(host: "example.test", port: 8080))
        #expect(map(.cannotFindHost) == .hostNotFound("example.test"))
        #expect(map(.timedOut) == .timedOut(url: "http://example.test:8080/x", seconds: 2))
        #expect(map(.cancelled) == .cancelled(url: "http://example.test:8080/x"))
        if case .tlsFailure? = map(.serverCertificateUntrusted) {} else { Issue.record("expected a TLS failure") }
    }

    @Test("a closed port is 'cannot connect' naming host and port, on both transports", arguments: TransportKind.allCases)
    func closedPort(_ kind: TransportKind) async throws {
        let port = try ClosedPort.find()
        let request = HTTPRequest(url: URL(string: "http://127.0.0.1:\(port)/")!)
        await #expect(throws: HTTPError.cannotConnect(host: "127.0.0.1", port: port)) {
            try await kind.make(timeout: 5).send(request)
        }
    }

    @Test("headers more than libcurl sends are named as the request's, with the longest, not as a response's")
    func requestHeadersTooLarge() async throws {
        let server = try SilentServer()
        let request = HTTPRequest(url: URL(string: "http://127.0.0.1:\(server.port)/x")!, headers: ["X-Big": String(repeating: "b", count: 1_100_000)])
        do {
            _ = try await CurlTransport(options: .init(timeout: 5)).send(request)
            Issue.record("1.1 MB of headers were sent")
        } catch let error as HTTPError {
            let text = error.localizedDescription
            #expect(text.contains("the request's headers come to 1.0 MiB (X-Big alone 1.0 MiB), more than libcurl sends"), "\(text)")
            #expect(!text.contains("response headers"), "\(text)")
        }
    }

    @Test("cancelling the task stops a request in flight: the server has the connection and never answers",
          .timeLimit(.minutes(1)), arguments: TransportKind.allCases)
    func cancelInFlight(_ kind: TransportKind) async throws {
        let server = try SilentServer()
        let url = URL(string: "http://127.0.0.1:\(server.port)/slow")!
        // No timeout: without cancellation the request would wait until the time limit fails the test.
        let transport = kind.make(timeout: 0)
        let connected = Task { await server.accepted() }
        let task = Task { try await transport.send(HTTPRequest(url: url)) }
        await connected.value
        task.cancel()
        await #expect(throws: HTTPError.cancelled(url: url.absoluteString)) { try await task.value }
    }

    @Test("curl ends a silent stream at its limit and a cancelled transfer at once, not at libcurl's once-a-second tick")
    func promptLimits() async throws {
        let server = try SilentServer()
        let url = URL(string: "http://127.0.0.1:\(server.port)/quiet")!
        let observer = ResponseObserver(head: { _ in true }, chunk: { _ in true })
        let clock = ContinuousClock()
        var start = clock.now
        await #expect(throws: HTTPError.timedOut(url: url.absoluteString, seconds: 0.2)) {
            try await ResponseObserver.$current.withValue(observer) { try await CurlTransport(options: .init(timeout: 0.2)).send(HTTPRequest(url: url)) }
        }
        #expect(clock.now - start < .milliseconds(800), "the 0.2 s limit took \(clock.now - start)")
        let task = Task { try await CurlTransport(options: .init(timeout: 0)).send(HTTPRequest(url: url)) }
        try await Task.sleep(for: .milliseconds(300))
        start = clock.now
        task.cancel()
        await #expect(throws: HTTPError.cancelled(url: url.absoluteString)) { try await task.value }
        #expect(clock.now - start < .milliseconds(600), "the cancel took \(clock.now - start)")
    }

    @Test("a task cancelled before it sends fails with 'cancelled'", arguments: TransportKind.allCases)
    func cancelledBeforeStart(_ kind: TransportKind) async throws {
        let server = try SilentServer()
        let url = URL(string: "http://127.0.0.1:\(server.port)/")!
        let transport = kind.make(timeout: 0)
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await transport.send(HTTPRequest(url: url))
        }
        await #expect(throws: HTTPError.cancelled(url: url.absoluteString)) { try await task.value }
    }

    @Test("StubTransport fills in the URL of its response")
    func stub() async throws {
        let stub = StubTransport { _ in HTTPResponse(status: 204) }
        let response = try await stub.send(HTTPRequest(url: URL(string: "http://h/x")!))
        #expect(response.url?.absoluteString == "http://h/x")
        #expect(response.reason == "No Content")
    }
}

/// The two live transports, so each behaviour is checked on both.
enum TransportKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case curl, urlSession

    var testDescription: String { rawValue }

    func make(timeout: TimeInterval = 10, follow: Bool = true) -> any HTTPTransport {
        switch self {
        case .curl: CurlTransport(options: .init(timeout: timeout, followRedirects: follow))
        case .urlSession: URLSessionTransport(options: .init(timeout: timeout, followRedirects: follow))
        }
    }
}

/// A loopback port nothing listens on.
enum ClosedPort {
    static func find() throws -> Int {
        guard let probe = LoopbackSocket.make(listening: nil) else {
            throw HTTPError.transport(url: "", detail: "cannot bind a probe socket")
        }
        close(probe.fd)
        return probe.port
    }
}
