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
/// Each request is added to the route's sent-request log first. Replays are answered
/// synchronously inside `startLoading` unless the session holds or delays responses; anything
/// that needs a transport (recording, stubs, a held reply) runs in a `Task`, never inside
/// `startLoading`, since starting an inner URLSession task from there deadlocks on Linux.
/// Failures (a mismatch report, a network error) reach the caller's `URLSession` call as the
/// thrown error.
///
/// Cancellation cannot be lost: `startLoading` and `stopLoading` meet in one `Mutex`-guarded
/// state, so a stop that comes first means the transport is never called, and a stop that
/// comes later cancels the running task.
///
/// Bodies given to `upload(for:from:)` and `upload(for:fromFile:)` are read from the task
/// (``UploadBody``): Foundation on Linux hides them from URL protocols.
final class RoutedURLProtocol<S: RouteSlot>: URLProtocol, RoutedProtocol {
    static var routeID: Int { S.id }

    /// Where this request's work is.
    private enum Loading {
        case idle
        case running(Task<Void, Never>)
        case stopped
    }

    private let loading = Mutex(Loading.idle)

    override class func canInit(with request: URLRequest) -> Bool {
        let scheme = request.url?.scheme?.lowercased()
        return scheme == "http" || scheme == "https"
    }

    override class func canonicalRequest(for request: URLRequest) -> URLRequest { request }

    override func startLoading() {
        var converted = URLRequestConversion.httpRequest(from: self.request)
        if converted.body == nil, let upload = UploadBody.read(from: task, request: self.request) {
            switch upload {
            case .success(let body): converted.body = body
            case .failure(let error):
                client?.urlProtocol(self, didFailWithError: error)
                return
            }
        }
        let request = converted
        guard let route = TapedeckRoutes.route(for: S.id), let handler = route.handler else {
            client?.urlProtocol(self, didFailWithError: TapedeckTestingError.routeRemoved(url: request.urlText))
            return
        }
        route.log.append(request)
        if case .replay(let replay) = handler, !route.gate.defersResponses {
            do {
                deliver(try replay.serve(request))
            } catch {
                client?.urlProtocol(self, didFailWithError: URLErrorMapping.mapped(error, url: request.url))
            }
            return
        }
        let box = ProtocolBox(self)
        loading.withLock { state in
            guard case .idle = state else { return }
            state = .running(Task { await box.value.respond(to: request, with: handler, gate: route.gate) })
        }
    }

    override func stopLoading() {
        loading.withLock { state in
            if case .running(let task) = state { task.cancel() }
            state = .stopped
        }
    }

    /// Sends or serves `request`, waits at the gate, and reports; after a stop it reports
    /// nothing (URLSession has already failed the task as cancelled).
    private func respond(to request: HTTPRequest, with handler: TapedeckRoutes.Handler, gate: ResponseGate) async {
        do {
            let response: HTTPResponse
            switch handler {
            case .replay(let replay): response = try replay.serve(request)
            case .transport(let transport): response = try await transport.send(request)
            }
            try await gate.pass()
            try Task.checkCancellation()
            // A streamed body is paced as the session's latency says (instant unless recorded or xFACTOR).
            let latency = ((handler.transport as? ConditionedTransport)?.plan.conditions.latency) ?? .none
            guard let chunks = response.chunks, latency.chunkOffset(chunks.last?.offset ?? 0) > 0, deliverHead(response) else {
                deliver(response)
                return
            }
            let start = ContinuousClock.now
            for chunk in chunks {
                try await Task.sleep(until: start + .nanoseconds(Int64(min(latency.chunkOffset(chunk.offset), 86_400) * 1_000_000_000)),
                                     clock: .continuous)
                if !chunk.data.isEmpty { client?.urlProtocol(self, didLoad: chunk.data) }
            }
            client?.urlProtocolDidFinishLoading(self)
        } catch {
            guard !Task.isCancelled else { return }
            client?.urlProtocol(self, didFailWithError: URLErrorMapping.mapped(error, url: request.url))
        }
    }

    /// Reports the whole response: the head, the body (one `didLoad` per recorded chunk of a
    /// streamed body, so delegate code sees each as it would live), the end.
    private func deliver(_ response: HTTPResponse) {
        guard deliverHead(response) else { return }
        for piece in response.chunks?.map(\.data) ?? [response.body] where !piece.isEmpty {
            client?.urlProtocol(self, didLoad: piece)
        }
        client?.urlProtocolDidFinishLoading(self)
    }

    /// Reports the status and headers; false (with the failure reported) when they cannot be.
    private func deliverHead(_ response: HTTPResponse) -> Bool {
        // A replayed response keeps its URL as text: the request's URL is used when it is the
        // same, and the text is parsed only for one that is not.
        let url = response.storedURL.flatMap { $0.text == request.url?.absoluteString ? request.url : $0.url }
            ?? request.url ?? URL(fileURLWithPath: "/")
        guard let http = HTTPURLResponse(url: url, statusCode: response.status, httpVersion: "HTTP/1.1",
                                         headerFields: URLRequestConversion.headerFields(response.headers)) else {
            client?.urlProtocol(self, didFailWithError: URLError(.badServerResponse))
            return false
        }
        client?.urlProtocol(self, didReceive: http, cacheStoragePolicy: .notAllowed)
        return true
    }
}

/// Carries a URLProtocol (not Sendable) into `@Sendable` closures; it is only used to report back.
private struct ProtocolBox<P: URLProtocol>: @unchecked Sendable {
    let value: P
    init(_ value: P) { self.value = value }
}
