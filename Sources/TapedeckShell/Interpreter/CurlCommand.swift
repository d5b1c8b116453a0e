import Foundation
import Tapedeck
import TapedeckTooling

/// An equivalent `curl` command line for a request, safe to paste into a POSIX shell.
public enum CurlCommand {
    /// `curl -X POST 'http://…' -H 'Name: value' --data-binary '…'`; headers curl computes
    /// itself (`Content-Length`) are left out. `-L`, `--max-time` and `-k` say how it was
    /// sent when `options` followed redirects, set a deadline other than 30 s, or `insecure`.
    public static func render(_ request: HTTPRequest, options: SendOptions = SendOptions(), insecure: Bool = false) -> String {
        var parts = ["curl"]
        if options.followRedirects { parts.append("-L") }
        if options.timeout > 0, options.timeout.isFinite, options.timeout != SendOptions().timeout {
            parts += ["--max-time", String(format: "%g", options.timeout)]
        }
        if insecure { parts.append("-k") }
        if request.method == .head {
            parts.append("--head")
        } else if request.method != .get || request.body != nil {
            parts += ["-X", request.method.rawValue]
        }
        parts.append(quote(request.urlText))
        for field in request.headers where !field.name.caseInsensitiveEqual("Content-Length") {
            // curl removes a header given as `Name:`; it sends one empty as `Name;`.
            parts += ["-H", quote(field.value.isEmpty ? "\(field.name);" : "\(field.name): \(field.value)")]
        }
        if let body = request.body, !body.isEmpty {
            if let text = String(data: body, encoding: .utf8) {
                parts += ["--data-binary", quote(text)]
            } else {
                parts += ["--data-binary", "@-", "# binary body of \(body.count) bytes: pipe it in"]
            }
        }
        return parts.joined(separator: " ")
    }

    /// Single-quotes `text` for a POSIX shell (`'` becomes `'\''`): ``ShellWord/quote(_:)``.
    public static func quote(_ text: String) -> String {
        ShellWord.quote(text)
    }
}

extension String {
    func caseInsensitiveEqual(_ other: String) -> Bool {
        lowercased() == other.lowercased()
    }
}
