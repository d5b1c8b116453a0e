import Foundation
import OpenAPIKit

/// A documented path template (`/status/{code}`) and its path item.
struct OpenAPIRoute: Sendable {
    let path: String
    let item: OpenAPI.PathItem
    private let segments: [Segment]
    /// Literal segments win over templated ones (`/users/me` before `/users/{id}`).
    let literalCount: Int

    /// One segment of the template: literal text, one parameter (`{id}`), or parameters
    /// among literal text (`{name}.json`, `v{major}.{minor}`).
    private enum Segment: @unchecked Sendable {
        case literal(String)
        case parameter(String)
        case pattern(NSRegularExpression, names: [String])
    }

    init(path: String, item: OpenAPI.PathItem) {
        self.path = path
        self.item = item
        segments = path.split(separator: "/", omittingEmptySubsequences: false).map(OpenAPIRoute.segment)
        literalCount = segments.filter { if case .literal = $0 { true } else { false } }.count
    }

    private static func segment(_ text: Substring) -> Segment {
        guard text.contains("{") else { return .literal(String(text)) }
        if text.hasPrefix("{"), text.hasSuffix("}"), text.dropFirst().firstIndex(of: "{") == nil { return .parameter(String(text.dropFirst().dropLast())) }
        var pattern = "^", names: [String] = []
        var rest = text[...]
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            pattern += NSRegularExpression.escapedPattern(for: String(rest[..<open])) + "(.+?)"
            names.append(String(rest[rest.index(after: open)..<close]))
            rest = rest[rest.index(after: close)...]
        }
        pattern += NSRegularExpression.escapedPattern(for: String(rest)) + "$"
        guard let regex = try? NSRegularExpression(pattern: pattern, options: [.dotMatchesLineSeparators]) else { return .literal(String(text)) }
        return .pattern(regex, names: names)
    }

    /// The path parameters' values if `requestPath` (percent-encoded, as sent) matches this
    /// template. A segment is split on the slashes sent, then decoded once: `a%2Fb` is one
    /// value, `a/b`, and `%2535` is `%35`.
    func match(_ requestPath: String) -> [String: String]? {
        let parts = requestPath.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == segments.count else { return nil }
        var values: [String: String] = [:]
        for (segment, part) in zip(segments, parts) {
            let decoded = part.removingPercentEncoding ?? String(part)
            switch segment {
            case .literal(let text):
                guard text == decoded else { return nil }
            case .parameter(let name):
                guard !part.isEmpty else { return nil }
                values[name] = decoded
            case .pattern(let regex, let names):
                let range = NSRange(decoded.startIndex..., in: decoded)
                guard let found = regex.firstMatch(in: decoded, range: range), found.numberOfRanges == names.count + 1 else { return nil }
                for (offset, name) in names.enumerated() {
                    guard let capture = Range(found.range(at: offset + 1), in: decoded) else { return nil }
                    values[name] = String(decoded[capture])
                }
            }
        }
        return values
    }
}
