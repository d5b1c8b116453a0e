import Foundation

/// TAP version 13: `ok N - name` / `not ok N - name` with a YAML block for failures;
/// credentials in failure texts are redacted (``CommandRedaction``).
public enum TAPReport {
    /// The report text.
    public static func text(for summary: RunSummary) -> String {
        var lines = ["TAP version 13", "1..\(summary.results.count)"]
        for (index, result) in summary.results.enumerated() {
            let name = result.name.replacingOccurrences(of: "#", with: "\\#")
            guard let first = result.failures.first else {
                lines.append("ok \(index + 1) - \(name)")
                continue
            }
            lines.append("not ok \(index + 1) - \(name)")
            lines.append("  ---")
            // Reports are files: credentials in failure texts (URLs, header values) are redacted.
            let message = CommandRedaction.redact(result.failures.map(\.localizedDescription).joined(separator: "\n")).text
            lines.append("  message: |")
            lines += message.split(separator: "\n", omittingEmptySubsequences: false).map { "    " + $0 }
            lines.append("  severity: \(first.category == .assertion ? "fail" : "error")")
            lines.append("  at: \(yamlString(first.location.description))")
            lines.append("  file: \(yamlString(first.location.file))")
            lines.append("  line: \(first.location.line)")
            lines.append("  column: \(first.location.column)")
            if case .assertionFailed(let failure) = first {
                lines.append("  query: \(yamlString(failure.query))")
                lines.append("  expected: \(yamlString(CommandRedaction.redact(failure.expected).text))")
                lines.append("  actual: \(yamlString(CommandRedaction.redact(failure.actual).text))")
            }
            lines.append("  ...")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// A double-quoted YAML scalar (`"`, `\\` and control characters escaped).
    static func yamlString(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            default:
                if scalar.value < 0x20 { out += String(format: "\\x%02X", scalar.value) } else { out.unicodeScalars.append(scalar) }
            }
        }
        return out + "\""
    }
}
