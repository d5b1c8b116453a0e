import Foundation
import Tapedeck

/// `tapedeck run --report-json FILE` and `--report-html DIR`: every file with its result and
/// duration, every request with its method, URL, status, timing, headers and body, and every
/// failure with what was expected and what came. Everything is redacted as cassettes are
/// (``ScriptResult/redactedExchange(_:)``, ``ScriptResult/redacted(_:)``), and the HTML is
/// one self-contained page per file plus an index: no script, no CDN, readable offline.
public enum RunReport {
    // MARK: - JSON

    /// The report as JSON, for tools.
    public static func json(for summary: RunSummary) -> Data {
        let files: [JSONValue] = summary.results.map { result in
            let requests: [JSONValue] = result.exchanges.indices.map { index in
                let (request, response) = result.redactedExchange(index)
                return .object([
                    ("location", .string(result.exchanges[index].location.description)),
                    ("method", .string(request.method.rawValue)),
                    ("url", .string(request.urlText)),
                    ("status", JSONValue(response.status)),
                    ("reason", .string(response.reason)),
                    ("duration", JSONValue(response.duration)),
                    ("request", message(request.headers, request.body ?? Data())),
                    ("response", message(response.headers, response.body)),
                ])
            }
            return .object([
                ("name", .string(result.name)),
                ("passed", .bool(result.passed)),
                ("duration", JSONValue(result.duration)),
                ("requests", .array(requests)),
                ("assertions", JSONValue(result.assertions)),
                ("failures", .array(failures(of: result).map { failure in
                    .object([
                        ("location", .string(failure.location)),
                        ("kind", .string(failure.kind)),
                        ("message", .string(failure.message)),
                        ("expected", failure.expected.map(JSONValue.string) ?? .null),
                        ("actual", failure.actual.map(JSONValue.string) ?? .null),
                    ])
                })),
            ])
        }
        let root: JSONValue = .object([
            ("summary", .object([
                ("files", JSONValue(summary.results.count)),
                ("passed", JSONValue(summary.passed)),
                ("failed", JSONValue(summary.failed)),
                ("requests", JSONValue(summary.requests)),
                ("duration", JSONValue(summary.elapsed)),
                ("requestsPerSecond", JSONValue(summary.elapsed > 0 ? Double(summary.requests) / summary.elapsed : 0)),
            ])),
            ("files", .array(files)),
        ])
        return JSONWriter.write(root, options: [.pretty])
    }

    /// Headers as `[name, value]` pairs and the body as text (`"encoding": "base64"` when it is not UTF-8).
    private static func message(_ headers: HTTPHeaders, _ body: Data) -> JSONValue {
        var members: [(key: String, value: JSONValue)] = [("headers", .array(headers.map { .array([.string($0.name), .string($0.value)]) }))]
        if let text = String(validating: body, as: UTF8.self) {
            members.append(("body", .string(text)))
        } else {
            members.append(("body", .string(body.base64EncodedString())))
            members.append(("encoding", .string("base64")))
        }
        return .object(members)
    }

    // MARK: - Failures

    /// A failure as reports show it, redacted.
    struct Failure {
        var location: String
        var kind: String
        var message: String
        var expected: String?
        var actual: String?
    }

    static func failures(of result: ScriptResult) -> [Failure] {
        result.failures.map { error in
            let kind = switch error.category { case .parse: "parse"; case .runtime: "runtime"; case .assertion: "assertion" }
            var failure = Failure(location: error.location.description, kind: kind, message: result.redactedMessage(error))
            if case .assertionFailed(let assertion) = error {
                (failure.expected, failure.actual) = result.redactedSides(assertion)
            }
            return failure
        }
    }

    // MARK: - HTML

    /// The HTML report: `index.html` and one page per file, by file name.
    public static func html(for summary: RunSummary, generated: Date = Date()) -> [String: Data] {
        var pages: [String: Data] = [:]
        var rows: [String] = []
        for (number, result) in summary.results.enumerated() {
            let page = "file-\(number + 1).html"
            pages[page] = Data(filePage(result, number: number + 1).utf8)
            let state = result.passed ? "passed" : "failed"
            rows.append("<tr class=\"\(state)\"><td><a href=\"\(page)\">\(escape(result.name))</a></td><td>\(state)</td>"
                + "<td class=\"num\">\(result.requests)</td><td class=\"num\">\(result.assertions)</td>"
                + "<td class=\"num\">\(escape(ScriptRunner.milliseconds(result.duration)))</td></tr>")
        }
        let rate = summary.elapsed > 0 ? String(format: "%.1f", Double(summary.requests) / summary.elapsed) : "0"
        let body = """
            <h1>Tapedeck run</h1>
            <p class="summary \(summary.failed == 0 ? "passed" : "failed")">\(summary.passed) passed, \(summary.failed) failed · \
            \(summary.requests) requests (\(rate)/s) · \(escape(ScriptRunner.milliseconds(summary.elapsed))) · \
            \(escape(RFC3339Date.format(generated, fractionDigits: 0)))</p>
            <table><thead><tr><th>File</th><th>Result</th><th class="num">Requests</th><th class="num">Expects</th><th class="num">Duration</th></tr></thead>
            <tbody>
            \(rows.joined(separator: "\n"))
            </tbody></table>
            """
        pages["index.html"] = Data(document(title: "Tapedeck run: \(summary.passed) passed, \(summary.failed) failed", body: body).utf8)
        return pages
    }

    private static func filePage(_ result: ScriptResult, number: Int) -> String {
        var sections: [String] = []
        let failures = failures(of: result)
        if !failures.isEmpty {
            let items = failures.map { failure in
                var lines = ["<div class=\"failure\"><p><b>\(escape(failure.location))</b> \(escape(failure.kind)) failure</p>"]
                if let expected = failure.expected, let actual = failure.actual {
                    lines.append("<dl><dt>expected</dt><dd><code>\(escape(expected))</code></dd><dt>actual</dt><dd><code>\(escape(actual))</code></dd></dl>")
                }
                lines.append("<pre>\(escape(failure.message))</pre></div>")
                return lines.joined(separator: "\n")
            }
            sections.append("<h2>Failures</h2>\n" + items.joined(separator: "\n"))
        }
        var requests: [String] = []
        for index in result.exchanges.indices {
            let (request, response) = result.redactedExchange(index)
            let location = result.exchanges[index].location.description
            // A failing expect checks the response of the request before it.
            let line = result.exchanges[index].location.line
            let next = index + 1 < result.exchanges.count ? result.exchanges[index + 1].location.line : Int.max
            let failed = result.failures.contains { $0.category == .assertion && $0.location.line > line && $0.location.line < next }
            requests.append("""
                <details class="exchange\(failed ? " bad" : "")"\(failed ? " open" : "")><summary>\
                <span class="method">\(escape(request.method.rawValue))</span> <span class="url">\(escape(request.urlText))</span> \
                <span class="status">\(response.status) \(escape(response.reason))</span> \
                <span class="time">\(escape(ScriptRunner.milliseconds(response.duration)))</span> \
                <span class="where">\(escape(location))</span></summary>
                <h3>Request</h3>\(headers(request.headers))\(bodyBlock(request.body ?? Data(), contentType: request.headers["Content-Type"]))
                <h3>Response</h3>\(headers(response.headers))\(bodyBlock(response.body, contentType: response.headers["Content-Type"]))
                </details>
                """)
        }
        sections.append("<h2>Requests</h2>\n" + (requests.isEmpty ? "<p>No requests.</p>" : requests.joined(separator: "\n")))
        let state = result.passed ? "passed" : "failed"
        let body = """
            <p><a href="index.html">← all files</a></p>
            <h1>\(escape(result.name))</h1>
            <p class="summary \(state)">\(state) · \(result.requests) request\(result.requests == 1 ? "" : "s") · \
            \(result.assertions) expect\(result.assertions == 1 ? "" : "s") · \
            \(escape(ScriptRunner.milliseconds(result.duration)))</p>
            \(sections.joined(separator: "\n"))
            """
        return document(title: "\(result.name): \(state)", body: body)
    }

    private static func headers(_ headers: HTTPHeaders) -> String {
        guard !headers.isEmpty else { return "" }
        return "<table class=\"headers\">" + headers.map { "<tr><th>\(escape($0.name))</th><td>\(escape($0.value))</td></tr>" }.joined() + "</table>"
    }

    /// A body shown pretty: JSON indented, other text as it is, binary as its size.
    private static func bodyBlock(_ body: Data, contentType: String?) -> String {
        guard !body.isEmpty else { return "" }
        if let contentType, MediaType.isJSON(contentType), let value = try? JSONParser.parse(body) {
            return "<pre class=\"body\">\(escape(JSONWriter.write(value, options: [.pretty])))</pre>"
        }
        guard let text = String(validating: body, as: UTF8.self) else { return "<p class=\"body\">\(body.count) bytes of binary data</p>" }
        return "<pre class=\"body\">\(escape(text))</pre>"
    }

    private static func document(title: String, body: String) -> String {
        """
        <!doctype html>
        <html lang="en"><head><meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
        <title>\(escape(title))</title>
        <style>\(style)</style></head>
        <body>
        \(body)
        </body></html>

        """
    }

    private static let style = """
        body{font:14px/1.45 system-ui,sans-serif;margin:2em auto;max-width:72em;padding:0 1em;color:#1b1f24}\
        h1{font-size:1.5em}table{border-collapse:collapse;width:100%}th,td{text-align:left;padding:.3em .6em;border-bottom:1px solid #ddd}\
        td.num,th.num{text-align:right}tr.failed td{background:#fdecea}tr.passed td:nth-child(2){color:#1a7f37}tr.failed td:nth-child(2){color:#c62828;font-weight:600}\
        .summary{font-weight:600}.summary.passed{color:#1a7f37}.summary.failed{color:#c62828}\
        .failure{border-left:4px solid #c62828;background:#fdecea;padding:.4em 1em;margin:.8em 0}\
        .failure dl{display:grid;grid-template-columns:max-content 1fr;gap:.2em 1em}.failure dt{font-weight:600}\
        details.exchange{border:1px solid #ddd;border-radius:4px;margin:.5em 0;padding:.3em .8em}details.exchange.bad{border-color:#c62828}\
        summary{cursor:pointer}.method{font-weight:700}.status{font-weight:600}.time,.where{color:#57606a}\
        pre{background:#f6f8fa;padding:.6em;overflow:auto;white-space:pre-wrap;word-break:break-all}\
        table.headers th{width:14em;font-weight:600;color:#57606a}
        """

    /// `text` safe as HTML content and attribute values (XML's five markup characters,
    /// which HTML reads the same way).
    static func escape(_ text: String) -> String {
        XMLText.escape(text)
    }
}
