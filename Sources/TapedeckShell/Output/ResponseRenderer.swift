import Foundation
import Tapedeck

/// Renders requests and responses the way HTTPie does, for the one-shot CLI and the REPL.
/// It returns text (or bytes); the caller writes them.
///
/// ```swift
/// let renderer = ResponseRenderer(options: .automatic(isTerminal: true, environment: [:]))
/// print(renderer.render(response), terminator: "")
/// // HTTP/1.1 200 OK  (12 ms, 429 B)
/// // Content-Type: application/json
/// //
/// // {
/// //     "id": 7
/// // }
/// ```
public struct ResponseRenderer: Sendable {
    /// The options in use.
    public var options: RenderOptions

    /// Creates a renderer.
    public init(options: RenderOptions = RenderOptions()) {
        self.options = options
    }

    // MARK: Response

    /// The response parts chosen by ``RenderOptions/parts`` as text; a binary body is always
    /// summarised in a note.
    public func render(_ response: HTTPResponse) -> String {
        String(decoding: renderData(response, binaryAsNote: true), as: UTF8.self)
    }

    /// The response parts as bytes: a binary body is summarised on a terminal and written
    /// as-is otherwise (so `tapedeck URL > file.png` saves the file).
    public func output(for response: HTTPResponse) -> Data {
        renderData(response, binaryAsNote: options.terminal)
    }

    private func renderData(_ response: HTTPResponse, binaryAsNote: Bool) -> Data {
        var out = Data()
        if options.parts.contains(.responseHeaders) {
            out.append(Data(statusLine(response).utf8))
            out.append(0x0A)
            out.append(Data(headerLines(response.headers).utf8))
            if options.parts.contains(.responseBody), !response.body.isEmpty { out.append(0x0A) }
        }
        if options.parts.contains(.responseBody), !response.body.isEmpty {
            out.append(body(response.body, contentType: response.headers["Content-Type"], binaryAsNote: binaryAsNote))
        }
        return out
    }

    /// `HTTP/1.1 200 OK  (12 ms, 429 B)`, coloured by status class.
    public func statusLine(_ response: HTTPResponse) -> String {
        let reason = shown(response.reason.isEmpty ? HTTPResponse.reasonPhrase(for: response.status) : response.reason, lineBreaks: false)
        let colors = options.colors
        var line = ANSIStyle.bold.apply("HTTP/1.1", enabled: colors) + " "
            + ANSIStyle.forStatus(response.status).apply("\(response.status) \(reason)".trimmingCharacters(in: .whitespaces), enabled: colors)
        if options.showTiming {
            let timing = "(\(Self.milliseconds(response.duration)), \(Self.byteCount(response.body.count)))"
            line += "  " + ANSIStyle.dim.apply(timing, enabled: colors)
        }
        return line
    }

    // MARK: Request

    /// The request parts chosen by ``RenderOptions/parts`` (`H`, `B`), ending with one blank
    /// line when anything was printed, as HTTPie separates the request from the response.
    public func render(_ request: HTTPRequest) -> String {
        var out = ""
        if options.parts.contains(.requestHeaders) {
            out += requestLine(request) + "\n"
            var headers = request.headers
            if !headers.contains("Host"), let host = request.url.host {
                // As the wire has it: an IPv6 address in brackets (`[::1]:8080`).
                let hostValue = request.url.port.map { "\(host.bracketedIfIPv6):\($0)" } ?? host.bracketedIfIPv6
                headers = HTTPHeaders([HTTPHeader(name: "Host", value: hostValue)] + headers.fields)
            }
            out += headerLines(headers)
            if options.parts.contains(.requestBody), let body = request.body, !body.isEmpty { out += "\n" }
        }
        if options.parts.contains(.requestBody), let body = request.body, !body.isEmpty {
            out += String(decoding: self.body(body, contentType: request.headers["Content-Type"], binaryAsNote: true), as: UTF8.self)
        }
        guard !out.isEmpty else { return out }
        return (out.hasSuffix("\n") ? out : out + "\n") + "\n"
    }

    /// `POST /post?x=1 HTTP/1.1`.
    public func requestLine(_ request: HTTPRequest) -> String {
        var target = URLComponents(url: request.url, resolvingAgainstBaseURL: false)?.percentEncodedPath ?? "/"
        if target.isEmpty { target = "/" }
        if let query = request.url.query(percentEncoded: true) { target += "?" + query }
        return ANSIStyle.bold.apply(request.method.rawValue, enabled: options.colors) + " "
            + ANSIStyle.cyan.apply(target, enabled: options.colors) + " HTTP/1.1"
    }

    // MARK: Parts

    /// `Name: value` lines, names coloured; on a terminal, control characters in names and
    /// values are shown as escapes (``TerminalText``).
    public func headerLines(_ headers: HTTPHeaders) -> String {
        headers.map {
            ANSIStyle.cyan.apply(shown($0.name, lineBreaks: false), enabled: options.colors) + ": " + shown($0.value, lineBreaks: false) + "\n"
        }.joined()
    }

    /// Server text as it may be shown: escaped on a terminal, as is when piped.
    private func shown(_ text: String, lineBreaks: Bool) -> String {
        options.terminal ? TerminalText.visible(text, keepLineBreaks: lineBreaks) : text
    }

    /// A body for display: JSON formatted (when asked and it parses), text as is (shown in
    /// UTF-8 when its `charset` is another), binary summarised or raw. Ends with a newline when
    /// it is text.
    func body(_ data: Data, contentType: String?, binaryAsNote: Bool) -> Data {
        // Written out raw (not to a terminal), a body keeps its own bytes.
        let data = binaryAsNote ? MediaType.utf8Text(data, contentType: contentType) ?? data : data
        if Self.isBinary(data) {
            guard binaryAsNote else { return data }
            return Data(binaryNote(contentType: contentType, size: data.count).utf8)
        }
        let looksJSON = contentType.map(MediaType.isJSON) ?? false
            || (contentType == nil && [UInt8(ascii: "{"), UInt8(ascii: "[")].contains(data.first { $0 > 0x20 } ?? 0))
        if (options.format || options.colors), looksJSON, let value = try? JSONParser.parse(data) {
            let highlighter = JSONHighlighter(colors: options.colors, indentWidth: options.format ? 4 : 0)
            let text = options.format ? highlighter.render(value) : String(decoding: data, as: UTF8.self)
            return Data((text + "\n").utf8)
        }
        var text = options.terminal ? Data(TerminalText.visible(String(decoding: data, as: UTF8.self)).utf8) : data
        if text.last != 0x0A, options.terminal { text.append(0x0A) }
        return text
    }

    /// The boxed note printed instead of binary data.
    public func binaryNote(contentType: String?, size: Int) -> String {
        let type = contentType.map(MediaType.essence) ?? "unknown type"
        let message = "NOTE: binary data not shown in terminal (\(type), \(Self.byteCount(size)))"
        let rule = "+" + String(repeating: "-", count: message.count + 2) + "+"
        let note = "\(rule)\n| \(message) |\n\(rule)"
        return ANSIStyle.dim.apply(note, enabled: options.colors) + "\n"
    }

    /// Whether bytes should not be dumped as text: a NUL byte or invalid UTF-8, as HTTPie checks.
    public static func isBinary(_ data: Data) -> Bool {
        data.contains(0) || String(data: data, encoding: .utf8) == nil
    }

    /// `429 B`, `12.3 KB`, `4.1 MB`.
    public static func byteCount(_ count: Int) -> String {
        switch count {
        case ..<1024: "\(count) B"
        case ..<(1024 * 1024): String(format: "%.1f KB", Double(count) / 1024)
        default: String(format: "%.1f MB", Double(count) / 1024 / 1024)
        }
    }

    /// `12 ms`, `0.4 ms`, `1.52 s`.
    public static func milliseconds(_ seconds: TimeInterval) -> String {
        let ms = seconds * 1000
        switch ms {
        case ..<1: return String(format: "%.1f ms", ms)
        case ..<1000: return "\(Int(ms.rounded())) ms"
        default: return String(format: "%.2f s", seconds)
        }
    }
}
