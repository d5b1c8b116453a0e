import Foundation

/// Reads `.env` files for `--env-file`: `KEY=value` lines, `#` comments, optional `export `,
/// values optionally quoted.
public enum EnvFile {
    /// A line that is not `KEY=value`.
    public struct Error: Swift.Error, LocalizedError, Sendable {
        /// The file.
        public var path: String
        /// The 1-based line.
        public var line: Int
        /// The text.
        public var text: String

        public var errorDescription: String? {
            "\(path):\(line):1: '\(text)' is not KEY=value; write one variable per line (comments start with #)"
        }
    }

    /// The variables in `text`, in order; later duplicates win when turned into a dictionary.
    public static func parse(_ text: String, path: String) throws(EnvFile.Error) -> [(String, String)] {
        var pairs: [(String, String)] = []
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            var line = raw.trimmingCharacters(in: .whitespacesAndNewlines)
            if line.isEmpty || line.hasPrefix("#") { continue }
            if line.hasPrefix("export ") { line = String(line.dropFirst(7)).trimmingCharacters(in: .whitespaces) }
            guard let equals = line.firstIndex(of: "="), equals != line.startIndex else {
                throw Error(path: path, line: index + 1, text: line)
            }
            let key = line[..<equals].trimmingCharacters(in: .whitespaces)
            var value = line[line.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            if value.count >= 2, let first = value.first, first == "\"" || first == "'", value.last == first {
                value = String(value.dropFirst().dropLast())
            }
            pairs.append((key, value))
        }
        return pairs
    }
}
