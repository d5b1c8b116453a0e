import Foundation
import Tapedeck

/// Plain-text views of requests and responses for `show` (colour rendering belongs to the
/// output module).
enum ResponseText {
    /// The status line and headers.
    static func head(of response: HTTPResponse) -> String {
        (["HTTP/1.1 \(response.status) \(response.reason)"] + response.headers.map { "\($0.name): \($0.value)" })
            .joined(separator: "\n")
    }

    /// The request line, headers and body.
    static func describe(_ request: HTTPRequest) -> String {
        var lines = ["\(request.method) \(request.url.absoluteString)"] + request.headers.map { "\($0.name): \($0.value)" }
        if let body = request.body, !body.isEmpty {
            lines.append("")
            lines.append(String(data: body, encoding: .utf8) ?? "(\(body.count) bytes of binary body)")
        }
        return lines.joined(separator: "\n")
    }

    /// Status line, headers and body as text.
    @Sendable static func render(_ response: HTTPResponse, colors: Bool) -> String {
        var text = head(of: response)
        if !response.body.isEmpty {
            text += "\n\n" + (response.text ?? "(\(response.body.count) bytes of binary body)")
        }
        return text
    }
}
