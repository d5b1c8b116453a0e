import OpenAPIKit

/// A documented path template (`/status/{code}`) and its path item.
struct OpenAPIRoute: Sendable {
    let path: String
    let item: OpenAPI.PathItem
    private let segments: [Substring]
    /// Literal segments win over templated ones (`/users/me` before `/users/{id}`).
    let literalCount: Int

    init(path: String, item: OpenAPI.PathItem) {
        self.path = path
        self.item = item
        segments = path.split(separator: "/", omittingEmptySubsequences: false)
        literalCount = segments.filter { !$0.hasPrefix("{") }.count
    }

    /// The path parameters' values if `requestPath` matches this template.
    func match(_ requestPath: String) -> [String: String]? {
        let parts = requestPath.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == segments.count else { return nil }
        var values: [String: String] = [:]
        for (segment, part) in zip(segments, parts) {
            if segment.hasPrefix("{") && segment.hasSuffix("}") {
                guard !part.isEmpty else { return nil }
                values[String(segment.dropFirst().dropLast())] = String(part).removingPercentEncoding ?? String(part)
            } else if segment != part {
                return nil
            }
        }
        return values
    }
}
