import Foundation
import Yams

// Why a cursor of Tapedeck's own beside Yams (Yams parses; this only walks its nodes):
// - Plain scalars stay the text written. Decoding vcrpy YAML through Codable or Yams' default
//   resolver types them: a header `yes` becomes true, `0123` an octal 83, `1.0` a float, `~`
//   null, and the bytes replayed would differ (VCRCassetteReaderTests: "plain scalars stay
//   the text written").
// - vcrpy's dialects differ by shape, not by type (headers as lists, strings or raw lines;
//   bodies as strings, `!!binary`, `{string: …}` or pickled objects), which a Codable model
//   cannot express without a custom decoder as long as this file.
// - Errors name the file, the path inside it (`interactions[2].response.status.code`) and the
//   line, as the JSON and HAR readers do.
// YAMLNesting guards Yams against deep nesting first; `make fuzz` runs a million mutated
// cassettes through both with no crash.

/// A YAML node with its path inside the document, for reading with errors that say where.
///
/// Documents are composed with Yams' basic resolver (no implicit typing), so every plain
/// scalar stays the text it was written as; nulls and integers are recognised here.
package struct YAMLCursor {
    let node: Node
    let path: String
    let file: String

    /// JSON `text` with each escaped surrogate pair (`\ud83c\udf89`) written as the one
    /// character it stands for; an escaped backslash before a `u` is left alone.
    static func joiningSurrogatePairs(_ text: String) -> String {
        guard text.range(of: #"\\u[dD][89abAB]"#, options: .regularExpression) != nil else { return text }
        let scalars = Array(text.unicodeScalars)
        var out = String.UnicodeScalarView()
        var index = 0
        var backslashes = 0
        func hex(_ start: Int) -> UInt32? {
            guard start + 4 <= scalars.count else { return nil }
            return UInt32(String(String.UnicodeScalarView(scalars[start..<(start + 4)])), radix: 16)
        }
        while index < scalars.count {
            let scalar = scalars[index]
            if scalar == "\\", backslashes % 2 == 0, index + 11 < scalars.count, scalars[index + 1] == "u",
               let high = hex(index + 2), (0xD800...0xDBFF).contains(high),
               scalars[index + 6] == "\\", scalars[index + 7] == "u",
               let low = hex(index + 8), (0xDC00...0xDFFF).contains(low),
               let joined = Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)) {
                out.append(joined)
                index += 12
                backslashes = 0
                continue
            }
            backslashes = scalar == "\\" ? backslashes + 1 : 0
            out.append(scalar)
            index += 1
        }
        return String(out)
    }

    /// `text` with a byte order mark escaped at the start of a double-quoted scalar
    /// (`"\uFEFF{…`, as PyYAML writes a body that begins with one) written twice: the YAML
    /// library reads a scalar's bytes through Foundation, which drops one leading BOM.
    static func keepingLeadingBOMs(_ text: String) -> String {
        guard text.range(of: #"\\u[fF][eE][fF][fF]"#, options: .regularExpression) != nil else { return text }
        // An opening quote is one not escaped: preceded by an even run of backslashes.
        return text.replacingOccurrences(of: #"(?<!\\)((?:\\\\)*)"(\\u[fF][eE][fF][fF])"#, with: "$1\"$2$2", options: .regularExpression)
    }

    /// Parses `data` into its root cursor.
    static func root(_ data: Data, file: String) throws(InteropError) -> YAMLCursor {
        guard var text = String(data: data, encoding: .utf8) else {
            throw .malformed(file: file, path: "(document)", problem: "not UTF-8 text; a vcrpy cassette is UTF-8 YAML")
        }
        // vcrpy's JSON serializer (Python's json.dumps) writes a character past U+FFFF as two
        // escaped halves, which JSON reads and YAML does not.
        if text.first(where: { !$0.isWhitespace }) == "{" { text = joiningSurrogatePairs(text) }
        text = keepingLeadingBOMs(text)
        if let problem = YAMLNesting.firstProblem(in: text) {
            throw .syntax(file: file, line: problem.line, column: problem.column, problem: problem.aliasKey
                ? "an alias is used as a mapping key; a cassette has no reason to, and reading one can take unbounded time, "
                    + "so this file is damaged or hostile"
                : "YAML nested deeper than \(YAMLNesting.maximumDepth) levels; a cassette nests a few "
                    + "levels, so this file is damaged or hostile")
        }
        do {
            guard let node = try YAMLExpansion.composeBounded(text, file: file) else {
                throw InteropError.malformed(file: file, path: "(document)", problem: "the file is empty")
            }
            return YAMLCursor(node: node, path: "", file: file)
        } catch let error as InteropError {
            throw error
        } catch let error as YamlError {
            throw syntaxError(error, file: file, text: text)
        } catch {
            throw .malformed(file: file, path: "(document)", problem: "\(error)")
        }
    }

    /// `error`, met reading `text` (the file `file`), as the error a reader of YAML throws: its
    /// place and problem, the file itself never quoted. OpenAPI documents are told the same way.
    package static func syntaxError(_ error: YamlError, file: String, text: String) -> InteropError {
        switch error {
        case let .scanner(context, problem, mark, _), let .parser(context, problem, mark, _),
             let .composer(context, problem, mark, _):
            var detail = context.map { "\($0.text) \(problem)" } ?? problem
            if startsWithTab(line: mark.line, of: text) {
                detail = "a tab indents this line, and YAML allows only spaces for indentation; replace it with spaces"
            }
            return .syntax(file: file, line: mark.line, column: mark.column, problem: "invalid YAML: \(detail)")
        case let .duplicatedKeysInMapping(keys, context):
            // Named by the first key's place; the file itself (all of it, in the error's own
            // text) is never quoted.
            // A key may itself be a token (a pasted secret): quoted redacted, as free text is.
            let names = keys.map { $0 == "<uncovertable>" ? "(a key that is not text)" : "'\(Excerpt.visible(Redactor.standard.redact(text: $0)))'" }
                .joined(separator: ", ")
            return .syntax(file: file, line: context.mark.line, column: context.mark.column,
                           problem: "invalid YAML: the key\(keys.count == 1 ? "" : "s") \(names) appear\(keys.count == 1 ? "s" : "") more than once in one mapping "
                               + "(first here; a merge may have left both copies); keep one")
        case let .reader(problem, offset, _, _):
            guard let offset else { return .malformed(file: file, path: "(document)", problem: "invalid YAML: \(problem)") }
            // The byte's line and column (1-based), as an editor shows them.
            let before = text.utf8.prefix(offset)
            let line = before.reduce(1) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }
            let column = before.count - (before.lastIndex(of: UInt8(ascii: "\n")).map { before.distance(from: before.startIndex, to: $0) + 1 } ?? 0) + 1
            return .syntax(file: file, line: line, column: column, problem: "invalid YAML: \(problem)")
        default:
            return .malformed(file: file, path: "(document)", problem: "invalid YAML: \(error)")
        }
    }

    /// Whether the 1-based `line` of `text` has a tab in its leading whitespace.
    private static func startsWithTab(line: Int, of text: String) -> Bool {
        var number = 1
        for content in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if number == line { return content.prefix { $0 == " " || $0 == "\t" }.contains("\t") }
            number += 1
        }
        return false
    }

    // MARK: - Errors

    /// A malformed-field error at this node, with its line when known.
    func failure(_ problem: String) -> InteropError {
        let place = node.mark.map { " (line \($0.line))" } ?? ""
        return .malformed(file: file, path: path.isEmpty ? "(document)" : path, problem: problem + place)
    }

    /// "a mapping", "a sequence", "null", or the quoted scalar.
    var kind: String {
        switch node {
        case .mapping: "a mapping"
        case .sequence: "a sequence"
        case let .scalar(scalar): isNull ? "null" : "\"\(Excerpt.visible(scalar.string.prefix(40)))\""
        // Yams resolves aliases while composing; an unresolved one is named, not read.
        case .alias: "an alias"
        }
    }

    // MARK: - Typed access

    /// The YAML tag, e.g. `tag:yaml.org,2002:binary`.
    var tag: String { node.tag.description }

    /// Whether this is a plain `null`, `~` or empty scalar.
    var isNull: Bool {
        guard case let .scalar(scalar) = node, scalar.style == .plain || scalar.style == .any else { return false }
        let explicitTag = scalar.tag.description
        return (explicitTag.isEmpty || explicitTag == "?" || explicitTag.hasSuffix(":null"))
            && ["", "~", "null", "Null", "NULL"].contains(scalar.string)
    }

    /// The mapping's entries as (key, cursor), in document order.
    func mapping() throws(InteropError) -> [(key: String, value: YAMLCursor)] {
        guard case let .mapping(mapping) = node else { throw failure("expected a mapping, found \(kind)") }
        return mapping.map { pair in
            let key = pair.key.scalar?.string ?? "\(pair.key)"
            return (key, YAMLCursor(node: pair.value, path: path.isEmpty ? key : "\(path).\(key)", file: file))
        }
    }

    /// The sequence's elements.
    func sequence() throws(InteropError) -> [YAMLCursor] {
        guard case let .sequence(sequence) = node else { throw failure("expected a sequence, found \(kind)") }
        return sequence.enumerated().map { YAMLCursor(node: $1, path: "\(path)[\($0)]", file: file) }
    }

    /// The value for `key` in a mapping, if present.
    func optional(_ key: String) throws(InteropError) -> YAMLCursor? {
        guard case let .mapping(mapping) = node else { throw failure("expected a mapping, found \(kind)") }
        guard let value = mapping[key] else { return nil }
        return YAMLCursor(node: value, path: path.isEmpty ? key : "\(path).\(key)", file: file)
    }

    /// The value for `key`, or a "missing field" error.
    func required(_ key: String) throws(InteropError) -> YAMLCursor {
        guard let value = try optional(key) else { throw failure("missing required field \"\(key)\"") }
        return value
    }

    /// The scalar's text.
    func string() throws(InteropError) -> String {
        guard case let .scalar(scalar) = node, !isNull else { throw failure("expected a string, found \(kind)") }
        return scalar.string
    }

    /// The scalar as an integer.
    func int() throws(InteropError) -> Int {
        guard case let .scalar(scalar) = node, let value = Int(scalar.string.trimmingCharacters(in: .whitespaces)) else {
            throw failure("expected an integer, found \(kind)")
        }
        return value
    }

    /// The scalar as a number.
    func double() throws(InteropError) -> Double {
        guard case let .scalar(scalar) = node, let value = Double(scalar.string) else {
            throw failure("expected a number, found \(kind)")
        }
        return value
    }

    /// Bytes: nil for null, base64-decoded for `!!binary`, UTF-8 for any other scalar.
    func bytes() throws(InteropError) -> Data? {
        guard case let .scalar(scalar) = node else { throw failure("expected a string or !!binary, found \(kind)") }
        if isNull { return nil }
        if tag.hasSuffix(":binary") {
            guard let data = Base64.decode(scalar.string) else {
                throw failure("!!binary value is not valid base64 (\"\(scalar.string.prefix(20))…\")")
            }
            return data
        }
        return Data(scalar.string.utf8)
    }
}
