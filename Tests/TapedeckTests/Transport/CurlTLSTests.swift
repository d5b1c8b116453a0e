import Foundation
import TapedeckCurl
import TapedeckTestSupport
import Testing
@testable import Tapedeck

/// A local HTTPS server with a fresh self-signed certificate (openssl + python3).
final class SelfSignedServer: @unchecked Sendable {
    let port: Int
    private let server: ServerProcess
    private let directory: URL

    static var available: Bool {
        ["/usr/bin/openssl", "/usr/bin/python3"].allSatisfy { FileManager.default.isExecutableFile(atPath: $0) }
    }

    init() throws {
        directory = try TestScratch.directory("tapedeck-tls")
        let cert = directory.appendingPathComponent("cert.pem").path
        let key = directory.appendingPathComponent("key.pem").path
        try Self.run("/usr/bin/openssl", ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key,
                                          "-out", cert, "-days", "1", "-subj", "/CN=localhost"])
        let script = """
            import http.server, ssl, sys
            ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER); ctx.load_cert_chain(sys.argv[1], sys.argv[2])
            class H(http.server.BaseHTTPRequestHandler):
                def do_GET(self):
                    body = b'{"secure":true}'
                    self.send_response(200); self.send_header("Content-Length", str(len(body))); self.end_headers()
                    self.wfile.write(body)
                def log_message(self, *a): pass
            s = http.server.HTTPServer(("127.0.0.1", 0), H)
            s.socket = ctx.wrap_socket(s.socket, server_side=True)
            print(s.server_address[1], flush=True)
            s.serve_forever()
            """
        server = try ServerProcess(arguments: ["-c", script, cert, key], expecting: 1)
        port = server.ports[0]
    }

    /// Stops the server: SIGKILL, because children of the test process inherit its blocked
    /// SIGTERM and ignore `terminate()`.
    func stop() {
        server.stop()
        try? FileManager.default.removeItem(at: directory)
    }

    deinit { stop() }

    private static func run(_ tool: String, _ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
    }
}

@Suite("TLS verification", .enabled(if: SelfSignedServer.available, "needs /usr/bin/openssl and /usr/bin/python3"))
struct CurlTLSTests {
    @Test("a self-signed certificate fails verification with a TLS error, and passes with verification off")
    func selfSigned() async throws {
        let server = try SelfSignedServer()
        defer { server.stop() }
        let request = HTTPRequest(url: URL(string: "https://localhost:\(server.port)/")!)
        do {
            _ = try await CurlTransport(options: .init(timeout: 5)).send(request)
            Issue.record("a self-signed certificate was accepted")
        } catch let HTTPError.tlsFailure(host, detail) {
            #expect(host == "localhost")
            #expect(detail.contains("self-signed") || detail.contains("certificate"), "\(detail)")
        }
        let response = try await CurlTransport(options: .init(timeout: 5, verifyTLS: false)).send(request)
        #expect(response.status == 200)
        #expect(response.body == Data(#"{"secure":true}"#.utf8))
    }

    @Test("URLSession rejects the self-signed certificate as a TLS failure too")
    func urlSessionRejects() async throws {
        let server = try SelfSignedServer()
        defer { server.stop() }
        let request = HTTPRequest(url: URL(string: "https://localhost:\(server.port)/")!)
        await #expect(throws: HTTPError.self) { try await URLSessionTransport(options: .init(timeout: 5)).send(request) }
        do {
            _ = try await URLSessionTransport(options: .init(timeout: 5)).send(request)
        } catch let error as HTTPError {
            if case .tlsFailure = error {} else { Issue.record("expected tlsFailure, got \(error)") }
        }
    }
}
