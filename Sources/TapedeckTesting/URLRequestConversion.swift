import Foundation
import Tapedeck
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Converts between Foundation's request/response types and Tapedeck's values (the core's
/// conversions: ``Tapedeck/HTTPRequest/init(_:)``, ``Tapedeck/HTTPRequest/urlRequest(timeout:)``,
/// ``Tapedeck/HTTPHeaders/foundationFields``).
enum URLRequestConversion {
    /// The request as a Tapedeck value: headers sorted by name (Foundation keeps no order),
    /// body from `httpBody` or, failing that, the whole `httpBodyStream`.
    static func httpRequest(from request: URLRequest) -> HTTPRequest {
        HTTPRequest(request)
    }

    /// A `URLRequest` for a Tapedeck request (every header field added in order).
    static func urlRequest(from request: HTTPRequest) -> URLRequest {
        request.urlRequest()
    }

    /// Header fields for `HTTPURLResponse`: repeated names joined with ", " (as corelibs does).
    static func headerFields(_ headers: HTTPHeaders) -> [String: String] {
        headers.foundationFields
    }
}
