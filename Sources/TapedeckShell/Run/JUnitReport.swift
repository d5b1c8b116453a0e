import Foundation

/// JUnit XML for CI systems: one `<testcase>` per script; assertion failures are
/// `<failure>`, parse and runtime errors are `<error>`.
public enum JUnitReport {
    /// The report document.
    public static func xml(for summary: RunSummary, timestamp: Date = Date()) -> String {
        let failures = summary.results.filter { $0.category == .assertion }.count
        let errors = summary.results.filter { $0.category == .parse || $0.category == .runtime }.count
        let total = summary.results.reduce(0) { $0 + $1.duration }
        let stamp = ISO8601DateFormatter().string(from: timestamp)
        var lines = [
            #"<?xml version="1.0" encoding="UTF-8"?>"#,
            #"<testsuites name="tapedeck" tests="\#(summary.results.count)" failures="\#(failures)" errors="\#(errors)" time="\#(seconds(total))">"#,
            #"  <testsuite name="tapedeck" tests="\#(summary.results.count)" failures="\#(failures)" errors="\#(errors)" skipped="0" time="\#(seconds(total))" timestamp="\#(stamp)">"#,
        ]
        for result in summary.results {
            let open = #"    <testcase name="\#(escape(result.name))" classname="tapedeck" file="\#(escape(result.name))" assertions="\#(result.assertions)" time="\#(seconds(result.duration))""#
            guard let first = result.failures.first else {
                lines.append(open + "/>")
                continue
            }
            let line = first.location.line > 0 ? #" line="\#(first.location.line)""# : ""
            lines.append(open + line + ">")
            let element = first.category == .assertion ? "failure" : "error"
            let type = first.category == .parse ? "parse" : (first.category == .runtime ? "runtime" : "assertion")
            let message = first.localizedDescription.split(separator: "\n").first.map(String.init) ?? ""
            let body = result.failures.map(\.localizedDescription).joined(separator: "\n\n")
            lines.append(#"      <\#(element) message="\#(escape(message))" type="\#(type)">\#(escape(body))</\#(element)>"#)
            lines.append("    </testcase>")
        }
        lines.append("  </testsuite>")
        lines.append("</testsuites>")
        return lines.joined(separator: "\n") + "\n"
    }

    private static func seconds(_ value: TimeInterval) -> String {
        String(format: "%.3f", value)
    }

    /// Escapes text for XML attributes and content; drops characters XML 1.0 forbids.
    static func escape(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case "\n": out += "&#10;"
            case "\t", "\r": out += "&#\(scalar.value);"
            default:
                if scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF { continue }
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}

/// TAP version 13: `ok N - name` / `not ok N - name` with a YAML block for failures.
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
            let message = result.failures.map(\.localizedDescription).joined(separator: "\n")
            lines.append("  message: |")
            lines += message.split(separator: "\n", omittingEmptySubsequences: false).map { "    " + $0 }
            lines.append("  severity: \(first.category == .assertion ? "fail" : "error")")
            lines.append("  at: \(yamlString(first.location.description))")
            lines.append("  file: \(yamlString(first.location.file))")
            lines.append("  line: \(first.location.line)")
            lines.append("  column: \(first.location.column)")
            if case .assertionFailed(let failure) = first {
                lines.append("  query: \(yamlString(failure.query))")
                lines.append("  expected: \(yamlString(failure.expected))")
                lines.append("  actual: \(yamlString(failure.actual))")
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
