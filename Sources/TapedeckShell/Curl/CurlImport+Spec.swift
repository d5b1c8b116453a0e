import Foundation
import Tapedeck

extension CurlImport {
    /// A piece of `-d`-style data.
    enum Data: Hashable {
        /// `-d`/`--data-binary`: `@file` reads a file; `-d` drops CR and LF.
        case text(String, stripNewlines: Bool)
        /// `--data-raw`: as typed.
        case raw(String)
        /// `--data-urlencode`: `name=value` with the value percent-encoded.
        case urlencode(String)
    }

    /// What the curl options say about the request.
    struct Spec {
        var method: String?
        var url: String?
        var headers: [String] = []
        var data: [Data] = []
        var form: [String] = []
        var user: String?
        var get = false
        var head = false
        var follow = false
        var notes: [String] = []

        mutating func setURL(_ text: String) throws(CurlImportError) {
            // An empty argument (curl '') names no URL.
            guard !text.isEmpty else { return }
            if let url { throw .severalURLs(url, text) }
            url = text.contains("://") ? text : "http://" + text
        }

        /// The data pieces joined with `&`, as curl sends them.
        func body() throws(CurlImportError) -> String? {
            guard !data.isEmpty else { return nil }
            var pieces: [String] = []
            for piece in data {
                switch piece {
                case .raw(let text): pieces.append(text)
                case let .text(text, strip):
                    if text.hasPrefix("@") {
                        throw .unsupported("-d @\(text.dropFirst())", hint: "bodies from files are written as '< FILE' in Tapedeck: post URL < \(text.dropFirst())")
                    }
                    pieces.append(strip ? text.replacingOccurrences(of: "\r", with: "").replacingOccurrences(of: "\n", with: "") : text)
                case .urlencode(let text):
                    if let equals = text.firstIndex(of: "=") {
                        pieces.append(text[..<equals] + "=" + PercentEncoding.encodeQueryComponent(String(text[text.index(after: equals)...])))
                    } else {
                        pieces.append(PercentEncoding.encodeQueryComponent(text))
                    }
                }
            }
            return pieces.joined(separator: "&")
        }

        func render() throws(CurlImportError) -> Result {
            guard var url else { throw .missingURL }
            var body = try body()
            if get, let query = body {
                url += (url.contains("?") ? "&" : "?") + query
                body = nil
            }
            let defaultMethod = head ? "HEAD" : (body != nil || !form.isEmpty ? "POST" : "GET")
            let method = (method ?? defaultMethod).uppercased()
            guard Parser.methodNames.contains(method.lowercased()) else {
                throw .unsupported("-X \(method)", hint: "Tapedeck sends " + Parser.methodNames.map { $0.uppercased() }.joined(separator: ", "))
            }
            func control(_ text: some StringProtocol) -> UInt8? { text.utf8.first { $0 < 0x20 || $0 == 0x7F } }
            if let code = control(url) { throw .controlCharacter(place: "URL", code: code) }
            var words = [method.lowercased(), CurlImport.quote(url)]
            var items: [String] = []
            for header in headers {
                guard let colon = header.firstIndex(of: ":") else {
                    throw .unsupported("-H '\(header)'", hint: "write headers as 'Name: value'")
                }
                let name = header[..<colon].trimmingCharacters(in: .whitespaces)
                let value = header[header.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                if let code = control(name + value) {
                    let shown = name.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? "?" : String($0) }.joined()
                    throw .controlCharacter(place: "header \(Excerpt.of(shown))", code: code)
                }
                items.append(CurlImport.quote(name + ":" + value))
            }
            if let user {
                let credentials = user.contains(":") ? user : user + ":"
                items.append(CurlImport.quote("Authorization:Basic " + Foundation.Data(credentials.utf8).base64EncodedString()))
            }
            let hasContentType = headers.contains { $0.lowercased().hasPrefix("content-type:") }
            if !form.isEmpty {
                if body != nil { throw .unsupported("-F with -d", hint: "curl refuses to mix them too; use one") }
                words.append("--multipart")
                for field in form {
                    guard let equals = field.firstIndex(of: "=") else { throw .unsupported("-F '\(field)'", hint: "write form fields as name=value or name=@file") }
                    let name = String(field[..<equals]), value = String(field[field.index(after: equals)...])
                    if value.contains(";type=") || value.contains(";filename=") {
                        throw .unsupported("-F '\(field)'", hint: ";type= and ;filename= are not translated; Tapedeck picks the type from the file's extension")
                    }
                    if value.hasPrefix("@") {
                        items.append(CurlImport.quote(name + "@" + value.dropFirst()))
                    } else if value.hasPrefix("<") {
                        items.append(CurlImport.quote(name + "=@" + value.dropFirst()))
                    } else {
                        items.append(CurlImport.quote(name + "=" + value))
                    }
                }
            } else if body != nil, !hasContentType {
                items.append(CurlImport.quote("Content-Type:application/x-www-form-urlencoded"))
            }
            words += items
            if follow { words.append("--follow") }
            guard let body else { return Result(command: words.joined(separator: " "), notes: notes) }
            guard body.contains("\n") || body.contains("\r") else {
                return Result(command: (words + ["--raw", CurlImport.quote(body)]).joined(separator: " "), notes: notes)
            }
            // A body of several lines goes in a heredoc (the lines are joined with \n again).
            var delimiter = "CURL"
            while body.contains(delimiter) { delimiter += "_" }
            let lines = body.replacingOccurrences(of: "\r\n", with: "\n")
            return Result(command: (words + ["<<" + delimiter]).joined(separator: " ") + "\n" + lines + "\n" + delimiter, notes: notes)
        }
    }

    /// One word of the command language: bare when safe, else in `'…'`, else in `"…"` with escapes.
    static func quote(_ text: String) -> String {
        let special: Set<Character> = [" ", "\t", "'", "\"", "#", "\\", "<", "\n", "\r"]
        if !text.isEmpty, !text.contains(where: { special.contains($0) }), !text.hasPrefix("-") { return text }
        if !text.contains("'"), !text.contains("\n"), !text.contains("\r") { return "'" + text + "'" }
        let escaped = text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
        return "\"" + escaped + "\""
    }
}
