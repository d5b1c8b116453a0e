import Foundation
import Synchronization
import Tapedeck
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Lets ``TapedeckRoutes`` read a protocol class's route number.
protocol RoutedProtocol: AnyObject {
    static var routeID: Int { get }
}

/// The URLProtocol every TapedeckTesting session uses; `S` encodes the session's route.
///
/// Replays are answered synchronously inside `startLoading`; anything that needs a transport
/// (recording, stubs) hops to `DispatchQueue.global()` first, since starting an inner
/// URLSession task from `startLoading` deadlocks on Linux. Failures (a mismatch report, a
/// network error) reach the caller's `URLSession` call as the thrown error.
final class RoutedURLProtocol<S: RouteSlot>: URLProtocol, RoutedProtocol {
    static var routeID: Int { S.id }

    private let inFlight = Mutex<Task<Void, Never>?>(nil)

    override class func canInit(with request: URLRequest) -> Bool {
        let scheme = request.url?.scheme?.lowercased()
        return scheme == "http" || scheme == "https"
    }

    override class func canonicalRequest(for request: URLRequest) -> URLRequest { request }

    override func startLoading() {
        let request = URLRequestConversion.httpRequest(from: self.request)
        guard let handler = TapedeckRoutes.handler(for: S.id) else {
            client?.urlProtocol(self, didFailWithError: TapedeckTestingError.routeRemoved(url: request.url.absoluteString))
            return
        }
        switch handler {
        case .replay(let replay):
            do {
                deliver(try replay.serve(request))
            } catch {
                client?.urlProtocol(self, didFailWithError: error)
            }
        case .transport(let transport):
            let box = ProtocolBox(self)
            DispatchQueue.global().async {
                let task = Task {
                    do {
                        let response = try await transport.send(request)
                        box.value.deliver(response)
                    } catch {
                        box.value.client?.urlProtocol(box.value, didFailWithError: error)
                    }
                }
                box.value.inFlight.withLock { $0 = task }
            }
        }
    }

    override func stopLoading() {
        inFlight.withLock { $0?.cancel() }
    }

    private func deliver(_ response: HTTPResponse) {
        let url = response.url ?? request.url ?? URL(fileURLWithPath: "/")
        guard let http = HTTPURLResponse(url: url, statusCode: response.status, httpVersion: "HTTP/1.1",
                                         headerFields: URLRequestConversion.headerFields(response.headers)) else {
            client?.urlProtocol(self, didFailWithError: URLError(.badServerResponse))
            return
        }
        client?.urlProtocol(self, didReceive: http, cacheStoragePolicy: .notAllowed)
        if !response.body.isEmpty { client?.urlProtocol(self, didLoad: response.body) }
        client?.urlProtocolDidFinishLoading(self)
    }
}

/// Carries a URLProtocol (not Sendable) into `@Sendable` closures; it is only used to report back.
private struct ProtocolBox<P: URLProtocol>: @unchecked Sendable {
    let value: P
    init(_ value: P) { self.value = value }
}
