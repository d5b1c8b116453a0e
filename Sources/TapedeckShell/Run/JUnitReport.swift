import Foundation
import Tapedeck

/// JUnit XML for CI systems: one `<testcase>` per script; assertion failures are
/// `<failure>`, parse and runtime errors are `<error>`. Everything written is redacted as
/// cassettes are (``ScriptResult/redacted(_:)``), since the report is a file.
public enum JUnitReport {
    /// The report document.
    public static func xml(for summary: RunSummary, timestamp: Date = Date()) -> String {
        let failures = summary.results.filter { $0.category == .assertion }.count
        let errors = summary.results.filter { $0.category == .parse || $0.category == .runtime }.count
        let total = summary.results.reduce(0) { $0 + $1.duration }
        let stamp = RFC3339Date.format(timestamp, fractionDigits: 0)
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
            // Reports are files: everything in them is redacted as cassettes are.
            let message = result.redacted(first.localizedDescription.split(separator: "\n").first.map(String.init) ?? "")
            let body = result.failures.map(result.redactedMessage).joined(separator: "\n\n")
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

    static func escape(_ text: String) -> String { XMLText.escape(text) }
}
