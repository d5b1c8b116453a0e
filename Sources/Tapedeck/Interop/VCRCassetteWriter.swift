import Foundation

/// Writes vcrpy cassettes (YAML, version 1) that vcrpy itself replays.
///
/// Bodies are written decoded (UTF-8 text as strings, anything else as `!!binary`), as vcrpy
/// writes them. What vcrpy has no field for (`recordedAt`, `duration`, the response URL)
/// goes into the cassette's `metadata.tapedeck`, which vcrpy keeps and ignores, so a
/// Tapedeck → vcrpy → Tapedeck round trip loses nothing.
///
/// ```swift
/// let (yaml, warnings) = VCRCassetteWriter.write(cassette)
/// ```
package enum VCRCassetteWriter {
    /// The YAML bytes and what the format could not hold.
    package static func write(_ cassette: Cassette) -> (data: Data, warnings: [ConversionWarning]) {
        var out = ""
        out.reserveCapacity(cassette.interactions.count * 1024)
        var warnings: [ConversionWarning] = []
        out += cassette.interactions.isEmpty ? "interactions: []\n" : "interactions:\n"
        for (index, interaction) in cassette.interactions.enumerated() {
            writeRequest(interaction.request, into: &out)
            if let warning = writeResponse(interaction.response, into: &out) {
                warnings.append(ConversionWarning(interaction: index, field: "response.headers", message: warning))
            }
        }
        if !cassette.interactions.isEmpty || !cassette.metadata.isEmpty {
            out += "metadata:\n  tapedeck:\n"
            if !cassette.metadata.isEmpty {
                out += "    cassette:\n"
                for (key, value) in cassette.metadata.sorted(by: { $0.key < $1.key }) {
                    out += "      \(YAMLScalar.inline(key)): \(YAMLScalar.inline(value))\n"
                }
            }
            out += cassette.interactions.isEmpty ? "    interactions: []\n" : "    interactions:\n"
            for interaction in cassette.interactions {
                out += "    - duration: \(interaction.response.duration)\n"
                out += "      recordedAt: '\(RFC3339Date.format(interaction.recordedAt, fractionDigits: 6))'\n"
                if let url = interaction.response.url {
                    out += "      url: \(YAMLScalar.inline(url.absoluteString))\n"
                }
            }
        }
        out += "version: 1\n"
        return (Data(out.utf8), warnings)
    }

    private static func writeRequest(_ request: HTTPRequest, into out: inout String) {
        out += "- request:\n    body:"
        if let body = request.body {
            out += bodyScalar(body, parentIndent: 4)
        } else {
            out += " null"
        }
        out += "\n"
        _ = writeHeaders(request.headers, indent: 4, into: &out)
        out += "    method: \(YAMLScalar.inline(request.method.rawValue))\n"
        out += "    uri: \(YAMLScalar.inline(request.urlText))\n"
    }

    /// Writes the response; returns a warning when grouping repeated headers reordered them.
    private static func writeResponse(_ response: HTTPResponse, into out: inout String) -> String? {
        out += "  response:\n    body:\n      string:"
        out += bodyScalar(response.body, parentIndent: 6) + "\n"
        let reordered = writeHeaders(response.headers, indent: 4, into: &out)
        out += "    status:\n      code: \(response.status)\n"
        out += "      message: \(YAMLScalar.inline(response.reason))\n"
        return reordered
            ? "vcrpy groups repeated header names, so interleaved repeated headers are written grouped by name"
            : nil
    }

    private static func bodyScalar(_ body: Data, parentIndent: Int) -> String {
        // A leading U+FEFF would be dropped by Yams (and String(data:encoding:)) on reading, so
        // such bodies go out as !!binary, which vcrpy reads as the same bytes.
        if let text = String(validating: body, as: UTF8.self), text.unicodeScalars.first != "\u{FEFF}" {
            return YAMLScalar.block(text, parentIndent: parentIndent)
        }
        return YAMLScalar.binary(body, indent: parentIndent + 2)
    }

    /// Headers as vcrpy stores them: each name once, with its values as a list, in first-seen
    /// order. Returns whether that order differs from the fields' order.
    private static func writeHeaders(_ headers: HTTPHeaders, indent: Int, into out: inout String) -> Bool {
        let pad = String(repeating: " ", count: indent)
        guard !headers.isEmpty else {
            out += "\(pad)headers: {}\n"
            return false
        }
        var names: [String] = []
        var values: [String: [String]] = [:]
        for field in headers {
            if values[field.name] == nil { names.append(field.name) }
            values[field.name, default: []].append(field.value)
        }
        out += "\(pad)headers:\n"
        var grouped: [HTTPHeader] = []
        for name in names {
            out += "\(pad)  \(YAMLScalar.inline(name)):\n"
            for value in values[name] ?? [] {
                out += "\(pad)  - \(YAMLScalar.inline(value))\n"
                grouped.append(HTTPHeader(name: name, value: value))
            }
        }
        return grouped != headers.fields
    }
}
