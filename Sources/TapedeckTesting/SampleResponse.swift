import Foundation
import Tapedeck
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A canned answer for ``Foundation/URLSession/stubbing(configuration:_:)``: status, headers
/// and body, Moya `sampleData`-style, or a network failure.
///
/// ```swift
/// .json(#"{"id": 1}"#)                       // 200, application/json
/// .text("teapot", status: 418)
/// .status(204)
/// .failure(.notConnectedToInternet)
/// SampleResponse(httpResponse, data)         // MockURLProtocol's (HTTPURLResponse, Data)
/// ```
public struct SampleResponse: Sendable {
    /// The status code.
    public var status: Int
    /// Header fields, in order.
    public var headers: HTTPHeaders
    /// The body.
    public var body: Data
    /// When set, the request fails with this `URLError` code instead.
    public var failure: URLError.Code?

    /// Creates a response; `Content-Length` is added.
    public init(status: Int = 200, headers: HTTPHeaders = [:], body: Data = Data()) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// Wraps a MockURLProtocol-style pair; headers are sorted by name (Foundation keeps no order).
    public init(_ response: HTTPURLResponse, _ data: Data) {
        self.init(status: response.statusCode, headers: HTTPHeaders(foundationFields: response.allHeaderFields), body: data)
    }

    /// 200 (or `status`) with a JSON body.
    public static func json(_ text: String, status: Int = 200) -> SampleResponse {
        SampleResponse(status: status, headers: ["Content-Type": "application/json"], body: Data(text.utf8))
    }

    /// 200 (or `status`) with a plain-text body.
    public static func text(_ text: String, status: Int = 200) -> SampleResponse {
        SampleResponse(status: status, headers: ["Content-Type": "text/plain; charset=utf-8"], body: Data(text.utf8))
    }

    /// A bodiless response with `status`.
    public static func status(_ status: Int) -> SampleResponse {
        SampleResponse(status: status)
    }

    /// A transport failure such as `.notConnectedToInternet` or `.timedOut`.
    public static func failure(_ code: URLError.Code) -> SampleResponse {
        var sample = SampleResponse(status: 0)
        sample.failure = code
        return sample
    }

    func response(for url: URL) -> HTTPResponse {
        var headers = self.headers
        headers["Content-Length"] = String(body.count)
        return HTTPResponse(status: status, headers: headers, body: body, url: url)
    }
}
