import Foundation
@testable import Tapedeck
import TapedeckTestSupport

extension Interaction {
    /// A small interaction with defaults for everything but what a test cares about.
    static func make(
        _ method: HTTPMethod = .get,
        _ url: String = "http://api.test/items",
        requestHeaders: HTTPHeaders = [:],
        requestBody: Data? = nil,
        status: Int = 200,
        headers: HTTPHeaders = ["Content-Type": "application/json"],
        body: String = #"{"ok":true}"#,
        at milliseconds: Int = 1_767_348_000_123
    ) -> Interaction {
        let requestURL = URL(string: url)!
        return Interaction(
            request: HTTPRequest(method: method, url: requestURL, headers: requestHeaders, body: requestBody),
            response: HTTPResponse(status: status, headers: headers, body: Data(body.utf8), url: requestURL, duration: 0.0125),
            recordedAt: Date(timeIntervalSince1970: Double(milliseconds) / 1000)
        )
    }
}

/// A temporary directory removed when the value goes away.
final class TemporaryDirectory {
    let url: URL
    init() {
        url = TestScratch.path("tapedeck-cassette")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }
    func file(_ name: String) -> URL { url.appendingPathComponent(name) }
    deinit { try? FileManager.default.removeItem(at: url) }
}
