import Foundation
import Yams

/// A bound on how far a YAML document grows through its aliases. Yams shares an anchored node
/// wherever an alias (`*a`) names it, so the composed document stays small, but anything that
/// walks or decodes it meets every copy: 691 bytes of nested aliases expand to billions of
/// nodes. Every YAML reader (vcrpy, cassetter, OpenAPI) checks this before reading values.
package enum YAMLExpansion {
    /// More nodes than any cassette or API document holds: 2 million.
    package static let maximumNodes = 2_000_000
    /// More text than any cassette's values add up to once aliases are expanded: 256 MB
    /// (a large anchored body named by many aliases is read once per alias).
    package static let maximumBytes = 256 << 20

    /// Whether `node`, with its aliases expanded, has more than `limit` nodes or `byteLimit`
    /// bytes of scalar text (stops counting there).
    package static func exceeds(_ node: Node, limit: Int = maximumNodes, byteLimit: Int = maximumBytes) -> Bool {
        var count = 0
        var bytes = 0
        var stack: [Node] = [node]
        while let current = stack.popLast() {
            count += 1
            if count > limit { return true }
            switch current {
            case .scalar(let scalar):
                bytes += scalar.string.utf8.count
                if bytes > byteLimit { return true }
            case .mapping(let mapping):
                for pair in mapping {
                    stack.append(pair.key)
                    stack.append(pair.value)
                }
            case .sequence(let sequence):
                stack.append(contentsOf: sequence)
            default:
                break
            }
        }
        return false
    }

    /// The message for a document that expands past the bound: names the file and the first
    /// alias it uses (`*a8`, line 9), never its values.
    package static func problem(in text: String, file: String) -> String {
        var alias = "an alias"
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if let star = line.firstIndex(of: "*") {
                let name = line[line.index(after: star)...].prefix { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" }
                if !name.isEmpty {
                    alias = "*\(name) (line \(number + 1))"
                    break
                }
            }
        }
        return "\(file): its aliases expand it to more than \(maximumNodes) YAML nodes or \(maximumBytes >> 20) MB of text (first alias: \(alias)); "
            + "a cassette or an API document has no reason to, so this file is damaged or hostile: fix or replace it"
    }

    /// Where `text` uses an alias as a mapping key (`*a: x`), as a message naming the file, the
    /// line and the column; nil when it does not. Yams hashes mapping keys while composing, and
    /// hashing an alias walks all it expands to, so this is checked before Yams reads the text.
    package static func aliasKeyProblem(in text: String, file: String) -> String? {
        guard text.contains("*"), let problem = YAMLNesting.firstProblem(in: text), problem.aliasKey else { return nil }
        return "\(file):\(problem.line):\(problem.column): an alias is used as a mapping key; a cassette or an API document "
            + "has no reason to, and reading one can take unbounded time, so this file is damaged or hostile: fix or replace it"
    }

    /// Composes `text` (plain scalars untyped, as the cassette readers read them) and refuses
    /// a document that expands past the bound. Nil for an empty document.
    package static func composeBounded(_ text: String, file: String) throws -> Node? {
        if let problem = aliasKeyProblem(in: text, file: file) {
            throw InteropError.malformed(file: file, path: "(document)", problem: problem)
        }
        guard let node = try Yams.compose(yaml: text, .basic) else { return nil }
        if exceeds(node) { throw InteropError.malformed(file: file, path: "(document)", problem: problem(in: text, file: file)) }
        return node
    }
}
