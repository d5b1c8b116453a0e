import Foundation
@_spi(Tooling) import Tapedeck

/// TAP version 13: `ok N - name` / `not ok N - name` with a YAML block for failures;
/// everything written is redacted as cassettes are (``ScriptResult/redacted(_:)``).
public enum TAPReport {
    /// The report text.
    public static func text(for summary: RunSummary) -> String {
        var lines = ["TAP version 13", "1..\(summary.results.count)"]
        for (index, result) in summary.results.enumerated() {
            // One line each: a control character in a file's name (a line break) would start a
            // test line of its own.
            let name = TerminalText.visible(result.name, keepLineBreaks: false).replacingOccurrences(of: "#", with: "\\#")
            guard let first = result.failures.first else {
                lines.append("ok \(index + 1) - \(name)")
                continue
            }
            lines.append("not ok \(index + 1) - \(name)")
            lines.append("  ---")
            // Reports are files: everything in them is redacted as cassettes are.
            let message = result.failures.map(result.redactedMessage).joined(separator: "\n")
            lines.append("  message: |")
            lines += message.split(separator: "\n", omittingEmptySubsequences: false).map { "    " + $0 }
            lines.append("  severity: \(first.category == .assertion ? "fail" : "error")")
            lines.append("  at: \(yamlString(first.location.description))")
            lines.append("  file: \(yamlString(first.location.file))")
            lines.append("  line: \(first.location.line)")
            lines.append("  column: \(first.location.column)")
            if case .assertionFailed(let failure) = first {
                lines.append("  query: \(yamlString(result.redacted(failure.query)))")
                let sides = result.redactedSides(failure)
                lines.append("  expected: \(yamlString(sides.expected))")
                lines.append("  actual: \(yamlString(sides.actual))")
            }
            lines.append("  ...")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// A double-quoted YAML scalar: the cassette writer's, so every non-printable character is escaped.
    static func yamlString(_ text: String) -> String {
        YAMLScalar.doubleQuoted(text)
    }
}
