import Foundation

/// Reads `.env` files for `--env-file` the way dotenv and Docker Compose do: `KEY=value`
/// lines, `#` comment lines, an optional `export `, and values that are
///
/// - unquoted: trimmed, and ` #` starts a comment (`PORT=8080  # local`);
/// - single-quoted: literal (`'a # b'`);
/// - double-quoted: `\n`, `\t`, `\"` and `\\` are escapes, `#` is text (`"line\nnext"`).
///
/// CRLF line endings and a UTF-8 byte-order mark are accepted.
public enum EnvFile {
    /// A line that is not `KEY=value`.
    public struct Error: Swift.Error, LocalizedError, Sendable {
        /// The file.
        public var path: String
        /// The 1-based line.
        public var line: Int
        /// The text.
        public var text: String
        /// What is wrong with it, and the fix.
        public var reason = "is not KEY=value; write one variable per line (comments start with #)"

        public var errorDescription: String? {
            "\(path):\(line):1: '\(text)' \(reason)"
        }
    }

    /// The variables in `text`, in order; later duplicates win when turned into a dictionary.
    public static func parse(_ text: String, path: String) throws(EnvFile.Error) -> [(String, String)] {
        var pairs: [(String, String)] = []
        for (index, raw) in Parser.lines(of: text).enumerated() {
            var line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") { continue }
            if line.hasPrefix("export ") { line = String(line.dropFirst(7)).trimmingCharacters(in: .whitespaces) }
            guard let equals = line.firstIndex(of: "="), equals != line.startIndex else {
                throw Error(path: path, line: index + 1, text: line)
            }
            let key = line[..<equals].trimmingCharacters(in: .whitespaces)
            guard Template.isValidName(key) else {
                throw Error(path: path, line: index + 1, text: line,
                            reason: "has a bad name '\(key)'; names are letters, digits, '_', '-' and '.'")
            }
            let rest = line[line.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            guard let value = self.value(rest) else {
                throw Error(path: path, line: index + 1, text: line,
                            reason: "has an unclosed \(rest.first.map(String.init) ?? "") quote; close it on the same line")
            }
            pairs.append((key, value))
        }
        return pairs
    }

    /// The value after `=`; nil when a quote is not closed.
    private static func value(_ text: String) -> String? {
        guard let quote = text.first, quote == "\"" || quote == "'" else {
            // Unquoted: a `#` after whitespace starts a comment.
            var value = ""
            var previous: Character = " "
            for character in text {
                if character == "#", previous == " " || previous == "\t" { break }
                value.append(character)
                previous = character
            }
            return value.trimmingCharacters(in: .whitespaces)
        }
        var value = ""
        var iterator = text.dropFirst().makeIterator()
        while let character = iterator.next() {
            if character == quote { return value }
            guard quote == "\"", character == "\\", let escaped = iterator.next() else {
                value.append(character)
                continue
            }
            switch escaped {
            case "n": value.append("\n")
            case "t": value.append("\t")
            case "r": value.append("\r")
            case "\"", "\\", "$": value.append(escaped)
            default: value += "\\" + String(escaped)
            }
        }
        return nil
    }
}
