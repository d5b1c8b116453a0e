import Foundation
import Testing
@testable import Tapedeck
import TapedeckCurl
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("Connectivity failures as HTTPError cases")
struct ConnectivityErrorTests {
    static let request = HTTPRequest(url: URL(string: "https://dogs.test:8443/dogs")!)
    static let url = "https://dogs.test:8443/dogs"

    static let cases: [(URLError.Code, HTTPError)] = [
        (.notConnectedToInternet, .notConnected(url: url)),
        (.internationalRoamingOff, .notConnected(url: url)),
        (.dataNotAllowed, .notConnected(url: url)),
        (.callIsActive, .notConnected(url: url)),
        (.networkConnectionLost, .connectionLost(url: url)),
        (.cannotConnectToHost, .cannotConnect(host: "dogs.test", port: 8443)),
        (.cannotFindHost, .hostNotFound("dogs.test")),
        (.dnsLookupFailed, .hostNotFound("dogs.test")),
        (.timedOut, .timedOut(url: url, seconds: 7)),
        (.cancelled, .cancelled(url: url)),
    ]

    @Test("each URLSession connectivity code becomes the case app code switches on")
    func mapping() {
        for (code, expected) in Self.cases {
            let mapped = URLSessionTransport.map(URLError(code), request: Self.request, timeout: 7) as? HTTPError
            #expect(mapped == expected, "\(code)")
        }
        let tls = URLSessionTransport.map(URLError(.secureConnectionFailed), request: Self.request, timeout: 7) as? HTTPError
        guard case .tlsFailure(let host, _)? = tls else {
            Issue.record("secureConnectionFailed became \(String(describing: tls))")
            return
        }
        #expect(host == "dogs.test")
    }

    @Test("the connectivity cases say so, and a bad status or body does not")
    func isConnectivityFailure() {
        let connectivity = Self.cases.map(\.1).filter { $0 != .cancelled(url: Self.url) }
        #expect(connectivity.allSatisfy { $0.isConnectivityFailure })
        #expect(!HTTPError.cancelled(url: Self.url).isConnectivityFailure)
        #expect(!HTTPError.unacceptableStatus(status: 500, reason: "", url: Self.url, body: Data()).isConnectivityFailure)
        #expect(!HTTPError.decodingFailed(type: "Dog", codingPath: "", detail: "").isConnectivityFailure)
    }

    @Test("the messages name the URL and what to do")
    func messages() {
        #expect(HTTPError.notConnected(url: Self.url).localizedDescription
                == "request to https://dogs.test:8443/dogs failed: the device is not connected to a network; connect and retry")
        #expect(HTTPError.connectionLost(url: Self.url).localizedDescription
                == "the connection to https://dogs.test:8443/dogs was lost before the response arrived; retry the request")
    }
}

@Suite("Connectivity failures from a real socket")
struct ConnectivityFromSocketTests {
    @Test("a connection reset in the middle of a response is .connectionLost through URLSessionTransport")
    func resetMidResponse() async throws {
        let server = try ResettingServer()
        let request = HTTPRequest(url: URL(string: "http://127.0.0.1:\(server.port)/dogs")!)
        await #expect(throws: HTTPError.connectionLost(url: "http://127.0.0.1:\(server.port)/dogs")) {
            try await URLSessionTransport(options: .init(timeout: 30)).send(request)
        }
        withExtendedLifetime(server) {}
    }

    @Test("a server that does not answer in HTTP is named so through CurlTransport, not as a URL of another scheme")
    func notHTTP() async throws {
        let server = try ResettingServer(answer: "garbage\r\n")
        let request = HTTPRequest(url: URL(string: "http://127.0.0.1:\(server.port)/x")!)
        do {
            _ = try await CurlTransport(options: .init(timeout: 30)).send(request)
            Issue.record("an answer that is not HTTP was taken")
        } catch {
            let message = error.localizedDescription
            #expect(message.contains("does not begin with an HTTP status line") && !message.contains("only http and https"), "\(message)")
        }
        withExtendedLifetime(server) {}
    }
}
