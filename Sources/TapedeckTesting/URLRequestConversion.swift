import Foundation
import Tapedeck
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Converts between Foundation's request/response types and Tapedeck's values.
public enum URLRequestConversion {
    /// The request as a Tapedeck value: headers sorted by name (Foundation keeps no order),
    /// body from `httpBody` or, failing that, the whole `httpBodyStream`.
    public static func httpRequest(from request: URLRequest) -> HTTPRequest {
        let url = request.url ?? URL(fileURLWithPath: "/")
        let fields = (request.allHTTPHeaderFields ?? [:]).sorted { $0.key.lowercased() < $1.key.lowercased() }
        var body = request.httpBody
        if body == nil, let stream = request.httpBodyStream { body = read(stream) }
        return HTTPRequest(method: HTTPMethod(rawValue: request.httpMethod ?? "GET"), url: url,
                           headers: HTTPHeaders(fields.map { ($0.key, $0.value) }), body: body)
    }

    /// A `URLRequest` for a Tapedeck request (every header field added in order).
    public static func urlRequest(from request: HTTPRequest) -> URLRequest {
        var urlRequest = URLRequest(url: request.url)
        urlRequest.httpMethod = request.method.rawValue
        for field in request.headers { urlRequest.addValue(field.value, forHTTPHeaderField: field.name) }
        urlRequest.httpBody = request.body
        return urlRequest
    }

    /// Header fields for `HTTPURLResponse`: repeated names joined with ", " (as corelibs does).
    public static func headerFields(_ headers: HTTPHeaders) -> [String: String] {
        var fields: [String: String] = [:]
        var names: [String: String] = [:]
        for field in headers {
            let key = names[field.name.lowercased()] ?? field.name
            names[field.name.lowercased()] = key
            fields[key] = fields[key].map { $0 + ", " + field.value } ?? field.value
        }
        return fields
    }

    private static func read(_ stream: InputStream) -> Data {
        var data = Data()
        stream.open()
        defer { stream.close() }
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while stream.hasBytesAvailable {
            let count = stream.read(&buffer, maxLength: buffer.count)
            if count <= 0 { break }
            data.append(buffer, count: count)
        }
        return data
    }
}
