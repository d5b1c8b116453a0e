import Foundation
import Testing
@testable import Tapedeck

/// The httpbin server `make test` starts (TAPEDECK_HTTPBIN_URL).
enum HTTPBin {
    static let baseURL = ProcessInfo.processInfo.environment["TAPEDECK_HTTPBIN_URL"]
    static var isAvailable: Bool { baseURL != nil }

    static func url(_ path: String, query: [QueryItem] = []) throws -> URL {
        try URLComposer.compose(base: try URLComposer.parseBase(baseURL ?? "http://127.0.0.1:9"), path: path, query: query)
    }

    /// The JSON httpbin echoed.
    static func json(_ response: HTTPResponse) throws -> JSONValue {
        try JSONParser.parse(response.body)
    }
}
