import Foundation

/// How a recorded request body compares with an incoming one, for matching and for reports.
///
/// `multipart/form-data` bodies compare part by part (name, filename, content type, bytes),
/// whatever their boundaries: a client picks a new random boundary for every request. A
/// recorded field that was redacted matches any value.
enum BodyComparison {
    /// Whether both bodies are multipart and their parts match; nil when either is not multipart.
    static func multipartMatches(_ recorded: HTTPRequest, _ incoming: HTTPRequest) -> Bool? {
        guard let x = parts(recorded), let y = parts(incoming) else { return nil }
        guard x.count == y.count else { return false }
        return zip(x, y).allSatisfy { $0.matches($1) }
    }

    /// The parts of a multipart request body, or nil when it is not multipart or has no boundary.
    static func parts(_ request: HTTPRequest) -> [MultipartFields.Part]? {
        guard let contentType = request.headers["Content-Type"], contentType.lowercased().hasPrefix("multipart/"),
              let body = request.body else { return nil }
        return MultipartFields.parts(body, contentType: contentType)
    }

    /// Report lines for two multipart bodies that differ: one per differing part, naming the part
    /// and where its bytes first differ.
    static func multipartDifferences(_ recorded: [MultipartFields.Part], _ incoming: [MultipartFields.Part]) -> [String] {
        var lines: [String] = []
        if recorded.count != incoming.count { lines.append("body: \(recorded.count) multipart parts → \(incoming.count)") }
        for (position, (a, b)) in zip(recorded, incoming).enumerated() where !a.matches(b) {
            let label = "body part \(position + 1) (name \(a.name.map { "\"\($0)\"" } ?? "none"))"
            if a.name != b.name { lines.append("\(label): name \(show(a.name)) → \(show(b.name))") }
            if a.filename != b.filename { lines.append("\(label): filename \(show(a.filename)) → \(show(b.filename))") }
            if a.contentType != b.contentType { lines.append("\(label): content type \(show(a.contentType)) → \(show(b.contentType))") }
            if a.bytes != b.bytes { lines.append("\(label): " + firstDifference(a.bytes, b.bytes)) }
        }
        return lines
    }

    /// Where two byte strings first differ, with the bytes around that place from each side:
    /// `differs at byte 118 (of 412 → 415): …"token=abc"… → …"token=xyz"…`.
    static func firstDifference(_ x: Data, _ y: Data) -> String {
        let a = [UInt8](x), b = [UInt8](y)
        var offset = 0
        while offset < a.count, offset < b.count, a[offset] == b[offset] { offset += 1 }
        let start = max(0, offset - 16)
        func excerpt(_ bytes: [UInt8]) -> String {
            guard start < bytes.count else { return "(ends)" }
            let end = min(bytes.count, offset + 24)
            let slice = bytes[start..<end]
            let text = String(validating: slice, as: UTF8.self).map { TextVisibility.escaped($0) }
                ?? slice.map { String(format: "%02x", $0) }.joined(separator: " ")
            return (start > 0 ? "…" : "") + "\"" + text + "\"" + (end < bytes.count ? "…" : "")
        }
        return "differs at byte \(offset) (of \(a.count) → \(b.count)): \(excerpt(a)) → \(excerpt(b))"
    }

    private static func show(_ value: String?) -> String { value.map { "\"\($0)\"" } ?? "(absent)" }
}
