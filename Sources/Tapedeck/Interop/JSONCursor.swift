import Foundation

/// A JSON value with its path inside the document (`log.entries[3].response.status`), for
/// reading with errors that say where.
package struct JSONCursor {
    let value: JSONValue
    let path: String
    let file: String

    /// Parses `data` into its root cursor (a UTF-8 byte order mark is allowed).
    package static func root(_ data: Data, file: String) throws(InteropError) -> JSONCursor {
        if data.allSatisfy({ [0x20, 0x09, 0x0A, 0x0D].contains($0) }) {
            throw .malformed(file: file, path: "(document)", problem: "the file is empty")
        }
        do {
            return JSONCursor(value: try JSONParser.parse(data), path: "", file: file)
        } catch {
            throw .syntax(file: file, line: error.line, column: error.column, problem: "invalid JSON: \(error.reason)")
        }
    }

    /// A malformed-field error at this value.
    package func failure(_ problem: String) -> InteropError {
        .malformed(file: file, path: path.isEmpty ? "(document)" : path, problem: problem)
    }

    /// "an object", "a string (\"…\")", …, for messages.
    package var kind: String {
        switch value {
        case .null: "null"
        case let .bool(flag): "a boolean (\(flag))"
        case let .number(literal): "a number (\(literal))"
        case let .string(text): "a string (\"\(Excerpt.visible(text.prefix(40)))\")"
        case .array: "an array"
        case .object: "an object"
        }
    }

    private func child(_ key: String, _ value: JSONValue) -> JSONCursor {
        JSONCursor(value: value, path: path.isEmpty ? key : "\(path).\(key)", file: file)
    }

    /// The member `key`, if present and not null; with duplicate keys the last one (``JSONValue``'s rule).
    package func optional(_ key: String) throws(InteropError) -> JSONCursor? {
        guard case .object = value else { throw failure("expected an object, found \(kind)") }
        guard let member = value[key], member != .null else { return nil }
        return child(key, member)
    }

    /// The member `key`, or a "missing required field" error.
    package func required(_ key: String) throws(InteropError) -> JSONCursor {
        guard let member = try optional(key) else { throw failure("missing required field \"\(key)\"") }
        return member
    }

    /// The elements of an array.
    package func array() throws(InteropError) -> [JSONCursor] {
        guard case let .array(elements) = value else { throw failure("expected an array, found \(kind)") }
        return elements.enumerated().map { JSONCursor(value: $1, path: "\(path)[\($0)]", file: file) }
    }

    /// The elements of an optional array member; missing or null is empty.
    package func list(_ key: String) throws(InteropError) -> [JSONCursor] {
        try optional(key)?.array() ?? []
    }

    /// A string value.
    package func string() throws(InteropError) -> String {
        guard case let .string(text) = value else { throw failure("expected a string, found \(kind)") }
        return text
    }

    /// A number value.
    package func double() throws(InteropError) -> Double {
        guard case let .number(literal) = value, let number = Double(literal) else {
            throw failure("expected a number, found \(kind)")
        }
        return number
    }

    /// An integer value (`200`, also `200.0`).
    package func int() throws(InteropError) -> Int {
        guard case let .number(literal) = value, let number = Double(literal), number == number.rounded(),
              abs(number) < 1e15 else {
            throw failure("expected an integer, found \(kind)")
        }
        return Int(number)
    }

    /// A `[{name, value}]` array (HAR headers, query strings, cookies' names).
    func nameValuePairs() throws(InteropError) -> [(name: String, value: String)] {
        var pairs: [(String, String)] = []
        for item in try array() {
            pairs.append((try item.required("name").string(), try item.optional("value")?.string() ?? ""))
        }
        return pairs
    }
}
