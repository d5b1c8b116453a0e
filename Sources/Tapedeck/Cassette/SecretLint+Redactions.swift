import Foundation

extension SecretLint {
    /// What would redact a lint's findings, grouped by how: header names, query item names and
    /// JSON Pointers into bodies a ``Redactor`` can take, and fields it cannot name.
    package struct Redactions: Sendable, Hashable {
        /// Header names (lowercased), in finding order.
        package var headers: [String] = []
        /// Query item names, in finding order.
        package var queryItems: [String] = []
        /// JSON Pointers into bodies (`/grant`).
        package var jsonPaths: [String] = []
        /// Fields a redactor cannot name (`response body`, a form field).
        package var unredactable: [String] = []

        /// Groups `findings`. A redacted header's value is also scrubbed where a response echoes it
        /// (httpbin's `/headers`), so a finding with the same value as a header finding needs nothing more.
        package init(_ findings: [Finding]) {
            let headerValues = Set(findings.filter { $0.field.contains(" header ") }.map(\.excerpt))
            for finding in findings where finding.field.contains(" header ") || !headerValues.contains(finding.excerpt) {
                let words = finding.field.split(separator: " ", maxSplits: 2).map(String.init)
                let name = words.count == 3 ? words[2] : ""
                switch words.count == 3 ? words[1] : "" {
                case "header": Self.append(name.lowercased(), to: &headers)
                case "query": Self.append(name, to: &queryItems)
                case "body" where name.hasPrefix("/"): Self.append(name, to: &jsonPaths)
                default: Self.append(finding.field, to: &unredactable)
                }
            }
        }

        /// Every name a redactor can take, in the order headers, query items, JSON Pointers.
        package var names: [String] { headers + queryItems + jsonPaths }

        /// `Redactor(headers: Redactor.defaultHeaders.union(["x-session"]), …)`, or nil when nothing can be named.
        package var redactorExpression: String? {
            var arguments: [String] = []
            if !headers.isEmpty { arguments.append("headers: Redactor.defaultHeaders.union(\(Self.swiftArray(headers)))") }
            if !queryItems.isEmpty { arguments.append("queryItems: Redactor.defaultQueryItems.union(\(Self.swiftArray(queryItems)))") }
            if !jsonPaths.isEmpty { arguments.append("jsonPaths: \(Self.swiftArray(jsonPaths))") }
            return arguments.isEmpty ? nil : "Redactor(\(arguments.joined(separator: ", ")))"
        }

        private static func append(_ value: String, to list: inout [String]) {
            if !list.contains(value) { list.append(value) }
        }

        private static func swiftArray(_ values: [String]) -> String {
            "[" + values.map { "\"\($0)\"" }.joined(separator: ", ") + "]"
        }
    }
}
