import Foundation
import Testing

/// Splits a multipart/form-data body back into its parts, to check what a client uploaded.
struct MultipartParts {
    struct File: Equatable {
        var filename: String?
        var contentType: String?
        var data: Data
    }

    private var parts: [String: File] = [:]

    init(_ body: Data, contentType: String) throws {
        let boundary = try #require(contentType.components(separatedBy: "boundary=").last)
        let delimiter = Data("--\(boundary)".utf8)
        var sections: [Data] = []
        var rest = body[...]
        while let range = rest.range(of: delimiter) {
            sections.append(Data(rest[..<range.lowerBound]))
            rest = rest[range.upperBound...]
        }
        for section in sections.dropFirst() {
            let headerEnd = try #require(section.range(of: Data("\r\n\r\n".utf8)))
            let head = String(decoding: section[..<headerEnd.lowerBound], as: UTF8.self)
            var data = Data(section[headerEnd.upperBound...])
            if data.suffix(2) == Data("\r\n".utf8) { data.removeLast(2) }
            let name = try #require(Self.parameter("name", in: head))
            let type = head.components(separatedBy: "\r\n").first { $0.lowercased().hasPrefix("content-type:") }
                .map { String($0.dropFirst("content-type:".count)).trimmingCharacters(in: .whitespaces) }
            parts[name] = File(filename: Self.parameter("filename", in: head), contentType: type, data: data)
        }
    }

    func text(_ name: String) -> String? { parts[name].map { String(decoding: $0.data, as: UTF8.self) } }
    func file(_ name: String) -> File? { parts[name] }

    private static func parameter(_ name: String, in head: String) -> String? {
        guard let start = head.range(of: "; \(name)=\"") else { return nil }
        return head[start.upperBound...].split(separator: "\"", maxSplits: 1).first.map(String.init)
    }
}
