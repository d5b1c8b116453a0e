import Foundation
import TapedeckCurl
import Testing
@testable import Tapedeck

@Suite("Resource limits against a hostile server", .serialized, .enabled(if: HostileServer.available, "needs /usr/bin/python3"))
struct HostileLimitTests {
    @Test("a body over the maximum size stops the transfer with bodyTooLarge naming the limit")
    func bodyTooLarge() async throws {
        let server = try HostileServer()
        defer { server.stop() }
        let transport = CurlTransport(options: .init(timeout: 30, limits: BodyLimits(maximumBodySize: 1024 * 1024)))
        let url = server.url("/big?bytes=\(8 * 1024 * 1024)")
        await #expect(throws: HTTPError.bodyTooLarge(url: url.absoluteString, limit: 1024 * 1024)) {
            try await transport.send(HTTPRequest(url: url))
        }
        #expect(try await transport.send(HTTPRequest(url: server.url("/big?bytes=1000"))).body.count == 1000)
        #expect(HTTPError.bodyTooLarge(url: "u", limit: 1024 * 1024).localizedDescription.contains("larger than the limit of 1 MiB"))
    }

    @Test("a gzip bomb stops at the expansion ratio, far below its decoded size")
    func gzipBomb() async throws {
        let server = try HostileServer()
        defer { server.stop() }
        let url = server.url("/gzip-bomb?mb=64")
        do {
            _ = try await CurlTransport(options: .init(timeout: 60)).send(HTTPRequest(url: url))
            Issue.record("a 64 MiB gzip bomb was decoded whole")
        } catch let HTTPError.decompressionLimit(failing, compressed, limit) {
            #expect(failing == url.absoluteString)
            #expect(limit < 64 * 1024 * 1024 && compressed < 1024 * 1024)
        }
    }

    @Test("a 10 MB response header is reported as too large, not as libcurl's 'Out of memory'")
    func headerTooLarge() async throws {
        let server = try HostileServer()
        defer { server.stop() }
        do {
            _ = try await CurlTransport(options: .init(timeout: 30)).send(HTTPRequest(url: server.url("/big-header?bytes=10485760")))
            Issue.record("a 10 MB header was accepted")
        } catch let error as HTTPError {
            guard case .headerTooLarge = error else { throw error }
            #expect(error.localizedDescription.contains("headers from http://127.0.0.1:\(server.port)/big-header?bytes=10485760 are too large"))
        }
    }
}

@Suite("URLSessionTransport body limit", .serialized, .enabled(if: HostileServer.available, "needs /usr/bin/python3"))
struct URLSessionLimitTests {
    @Test("its own session stops a body (or a decoded gzip bomb) over the maximum size with bodyTooLarge")
    func bodyTooLarge() async throws {
        let server = try HostileServer()
        defer { server.stop() }
        let transport = URLSessionTransport(options: .init(timeout: 30, limits: BodyLimits(maximumBodySize: 1024 * 1024)))
        for path in ["/big?bytes=\(8 * 1024 * 1024)", "/gzip-bomb?mb=64"] {
            let url = server.url(path)
            await #expect(throws: HTTPError.bodyTooLarge(url: url.absoluteString, limit: 1024 * 1024)) {
                try await transport.send(HTTPRequest(url: url))
            }
        }
        let small = try await transport.send(HTTPRequest(url: server.url("/big?bytes=1000")))
        #expect(small.status == 200 && small.body.count == 1000)
    }
}
