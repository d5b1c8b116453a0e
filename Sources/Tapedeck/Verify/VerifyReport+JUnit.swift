import Foundation

extension VerifyReport {
    /// A JUnit XML report: one test case per interaction, a `failure` for drift, an `error`
    /// for a failed request, `skipped` for methods not verified.
    public func junitXML(suiteName: String = "cassette verify") -> String {
        let failures = drifted.count, errors = failed.count
        let skipped = interactions.filter { if case .skipped = $0.outcome { true } else { false } }.count
        var lines = [#"<?xml version="1.0" encoding="UTF-8"?>"#,
                     #"<testsuites name="\#(Self.escape(suiteName))" tests="\#(interactions.count)" failures="\#(failures)" errors="\#(errors)">"#,
                     #"  <testsuite name="\#(Self.escape(path))" tests="\#(interactions.count)" failures="\#(failures)" errors="\#(errors)" skipped="\#(skipped)">"#]
        for entry in interactions {
            let name = Self.escape("#\(entry.index) \(entry.request.method) \(entry.request.urlText)")
            let open = #"    <testcase name="\#(name)" classname="\#(Self.escape(path))""#
            switch entry.outcome {
            case .unchanged:
                lines.append(open + "/>")
            case .drifted(let drifts, _):
                let body = drifts.map(\.description).joined(separator: "\n")
                lines.append(open + ">")
                lines.append(#"      <failure message="drifted (\#(drifts.count) change\#(drifts.count == 1 ? "" : "s"))" type="drift">\#(Self.escape(body))</failure>"#)
                lines.append("    </testcase>")
            case .failed(let message):
                lines.append(open + ">")
                lines.append(#"      <error message="\#(Self.escape(message))" type="transport"/>"#)
                lines.append("    </testcase>")
            case .skipped(let reason):
                lines.append(open + ">")
                lines.append(#"      <skipped message="\#(Self.escape(reason))"/>"#)
                lines.append("    </testcase>")
            }
        }
        lines += ["  </testsuite>", "</testsuites>", ""]
        return lines.joined(separator: "\n")
    }

    static func escape(_ text: String) -> String { XMLText.escape(text) }
}
