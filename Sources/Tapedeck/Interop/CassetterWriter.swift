import Foundation

/// Writes cassetter's YAML dialect (`version: 1`), which cassetter's own loader replays.
///
/// What replay uses survives both ways: method, URL, header values (per name, in order),
/// status, body bytes and `recorded_at`. Bodies are `type: json` (structured) only when
/// Python's `json.dumps` gives back their exact bytes, else `text` (UTF-8) or `binary` (hex),
/// so cassetter serves the same bytes Tapedeck recorded. cassetter has no field for reason
/// phrases, durations, the response URL, header-name case or the order between different
/// header names: a reason that is not the standard one is named in a warning.
///
/// ```swift
/// let (yaml, warnings) = CassetterWriter.write(cassette)
/// ```
enum CassetterWriter {
    /// The YAML bytes and what the format could not hold.
    static func write(_ cassette: Cassette) -> (data: Data, warnings: [ConversionWarning]) {
        var out = "version: 1\n"
        out += cassette.interactions.isEmpty ? "interactions: []\n" : "interactions:\n"
        var warnings: [ConversionWarning] = []
        for (index, interaction) in cassette.interactions.enumerated() {
            let request = interaction.request, response = interaction.response
            out += "- request:\n"
            out += "    method: \(YAMLScalar.inline(request.method.rawValue))\n"
            out += "    uri: \(YAMLScalar.inline(request.urlText))\n"
            writeHeaders(request.headers, into: &out)
            writeBody(request.body, contentType: request.headers["Content-Type"], emptyIsNone: false, into: &out)
            out += "  response:\n"
            out += "    status: \(response.status)\n"
            writeHeaders(response.headers, into: &out)
            writeBody(response.body, contentType: response.headers["Content-Type"], emptyIsNone: true, into: &out)
            out += "  recorded_at: '\(RFC3339Date.format(interaction.recordedAt, fractionDigits: 6))'\n"
            if response.reason != HTTPResponse(status: response.status).reason {
                warnings.append(ConversionWarning(interaction: index, field: "response.reason",
                                                  message: "cassetter has no reason phrase; \"\(response.reason)\" is replayed as the standard one"))
            }
        }
        return (Data(out.utf8), warnings)
    }

    /// `{name: [values]}` with lower-case names, each name once, in first-seen order.
    private static func writeHeaders(_ headers: HTTPHeaders, into out: inout String) {
        guard !headers.isEmpty else {
            out += "    headers: {}\n"
            return
        }
        var names: [String] = []
        var values: [String: [String]] = [:]
        for field in headers {
            let name = field.name.lowercased()
            if values[name] == nil { names.append(name) }
            values[name, default: []].append(field.value)
        }
        out += "    headers:\n"
        for name in names {
            out += "      \(YAMLScalar.inline(name)):\n"
            for value in values[name] ?? [] { out += "      - \(YAMLScalar.inline(value))\n" }
        }
    }

    private static func writeBody(_ body: Data?, contentType: String?, emptyIsNone: Bool, into out: inout String) {
        out += "    body:\n"
        guard let body, !body.isEmpty || !emptyIsNone else {
            out += "      type: none\n"
            return
        }
        if let contentType, MediaType.isJSON(contentType), let value = try? JSONParser.parse(body),
           Data(PythonJSON.dumps(value).utf8) == body {
            out += "      type: json\n      content:"
            writeJSON(value, indent: 8, into: &out)
            out += "\n"
        } else if let text = String(validating: body, as: UTF8.self), text.unicodeScalars.first != "\u{FEFF}" {
            out += "      type: text\n      content:" + YAMLScalar.block(text, parentIndent: 6) + "\n"
        } else {
            // Quoted: unquoted hex such as `12e4` reads as a number in YAML 1.2.
            out += "      type: binary\n      content: '" + body.map { String(format: "%02x", $0) }.joined() + "'\n"
        }
    }

    /// A JSON value after `key:` as block YAML indented by `indent`; scalars stay on the key's line.
    private static func writeJSON(_ value: JSONValue, indent: Int, into out: inout String) {
        let pad = String(repeating: " ", count: indent)
        switch value {
        case .null: out += " null"
        case .bool(let flag): out += flag ? " true" : " false"
        case .number(let literal): out += " " + PythonJSON.number(literal)
        case .string(let text): out += " " + YAMLScalar.doubleQuotedIfNeeded(text)
        case .array(let elements) where elements.isEmpty: out += " []"
        case .object(let members) where members.isEmpty: out += " {}"
        case .array(let elements):
            for element in elements {
                out += "\n" + pad + "-"
                writeJSON(element, indent: indent + 2, into: &out)
            }
        case .object(let members):
            for member in members {
                out += "\n" + pad + YAMLScalar.doubleQuotedIfNeeded(member.key) + ":"
                writeJSON(member.value, indent: indent + 2, into: &out)
            }
        }
    }
}
