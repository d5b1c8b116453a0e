import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension HTTPRequest {
    /// The request as a `URLRequest`: the method, every header field added in order (repeats
    /// joined by Foundation), the body as `httpBody`; `timeout` when given.
    ///
    /// ```swift
    /// let (data, response) = try await URLSession.shared.data(for: request.urlRequest(timeout: 5))
    /// ```
    public func urlRequest(timeout: TimeInterval? = nil) -> URLRequest {
        var urlRequest = timeout.map { URLRequest(url: url, timeoutInterval: $0) } ?? URLRequest(url: url)
        urlRequest.httpMethod = method.rawValue
        for field in headers { urlRequest.addValue(field.value, forHTTPHeaderField: field.name) }
        urlRequest.httpBody = body
        return urlRequest
    }

    /// The request a `URLRequest` describes: headers sorted by name (Foundation keeps no order),
    /// the body from `httpBody` or, failing that, the whole `httpBodyStream`.
    public init(_ request: URLRequest) {
        var body = request.httpBody
        if body == nil, let stream = request.httpBodyStream { body = Self.body(reading: stream) }
        self.init(method: request.httpMethod.flatMap(HTTPMethod.init(rawValue:)) ?? .get, url: request.url ?? URL(fileURLWithPath: "/"),
                  headers: HTTPHeaders(foundationFields: request.allHTTPHeaderFields ?? [:]), body: body)
    }

    /// The whole of a request body stream (`httpBodyStream`, an upload task's stream), read to its end.
    package static func body(reading stream: InputStream) -> Data {
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

extension HTTPHeaders {
    /// Headers from Foundation's dictionary (`allHTTPHeaderFields`, `allHeaderFields`): sorted by
    /// name, since Foundation keeps no order; a `Set-Cookie` that corelibs joined with ", " is
    /// split back into one field per cookie. Non-string entries are skipped.
    public init(foundationFields: [AnyHashable: Any]) {
        let pairs = foundationFields.compactMap { key, value -> (String, String)? in
            guard let name = key as? String, let value = value as? String else { return nil }
            return (name, value)
        }.sorted { ($0.0.lowercased(), $0.0) < ($1.0.lowercased(), $1.0) }
        self.init()
        for (name, value) in pairs {
            if name.caseInsensitiveEquals("Set-Cookie") {
                for cookie in SetCookieSplitter.split(value) { append(name: name, value: cookie) }
            } else {
                append(name: name, value: value)
            }
        }
    }

    /// The fields as Foundation's dictionary (for `HTTPURLResponse`): repeated names joined with
    /// ", " under the first spelling, as corelibs does.
    public var foundationFields: [String: String] {
        var fields: [String: String] = [:]
        var names: [String: String] = [:]
        for field in self {
            let key = names[field.name.lowercased()] ?? field.name
            names[field.name.lowercased()] = key
            fields[key] = fields[key].map { $0 + ", " + field.value } ?? field.value
        }
        return fields
    }
}
