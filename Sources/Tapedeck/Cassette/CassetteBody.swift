import Foundation

/// How a body looks inside a native cassette.
///
/// - `{"json": …, "layout": "pretty-newline"}`: a JSON body (by `Content-Type`) whose bytes
///   the layout regenerates exactly; `layout` is `compact` (omitted), `compact-newline`,
///   `pretty` or `pretty-newline` (two-space indentation).
/// - `{"text": "…"}`: any other UTF-8 body without NUL bytes, byte for byte.
/// - `{"base64": "…"}`: everything else (images, gzip, invalid UTF-8), padded base64.
enum CassetteBody {
    /// The layouts a structured JSON body can be regenerated with.
    enum Layout: String, CaseIterable {
        case compact
        case compactNewline = "compact-newline"
        case pretty
        case prettyNewline = "pretty-newline"

        func render(_ value: JSONValue) -> Data {
            var data: Data = JSONWriter.write(value, options: isPretty ? .pretty : [])
            if hasNewline { data.append(UInt8(ascii: "\n")) }
            return data
        }

        var isPretty: Bool { self == .pretty || self == .prettyNewline }
        var hasNewline: Bool { self == .compactNewline || self == .prettyNewline }
    }

    /// The cassette form of `data`, given the message's `Content-Type`.
    static func encode(_ data: Data, contentType: String?) -> JSONValue {
        if let contentType, MediaType.isJSON(contentType), let (value, layout) = structuredJSON(data) {
            var members: [(key: String, value: JSONValue)] = [("json", value)]
            if layout != .compact { members.append(("layout", .string(layout.rawValue))) }
            return .object(members)
        }
        if !containsByte(0, in: data), let text = String(validating: data, as: UTF8.self) {
            return ["text": .string(text)]
        }
        return ["base64": .string(data.base64EncodedString())]
    }

    /// The parsed value and the layout that reproduces `data` exactly, or nil.
    ///
    /// The bytes name the one layout that may: a newline before the last byte means pretty, a
    /// newline last means a newline layout. A compact document has no spacing outside its
    /// strings, so one that has (`{"id": 1}`, as many servers write) is kept as text without
    /// being parsed, which would cost more than the rest of recording it.
    static func structuredJSON(_ data: Data) -> (JSONValue, Layout)? {
        guard let first = data.first, first == UInt8(ascii: "{") || first == UInt8(ascii: "[") else { return nil }
        let pretty = containsByte(UInt8(ascii: "\n"), in: data.dropLast())
        let newline = data.last == UInt8(ascii: "\n")
        if !pretty, hasSpacingOutsideStrings(data.dropLast(newline ? 1 : 0)) { return nil }
        guard let value = try? JSONParser.parse(data) else { return nil }
        let layout: Layout = pretty ? (newline ? .prettyNewline : .pretty) : (newline ? .compactNewline : .compact)
        return layout.render(value) == data ? (value, layout) : nil
    }

    /// Whether `data` has a space, tab, CR or LF outside its JSON strings.
    static func hasSpacingOutsideStrings(_ data: Data) -> Bool {
        data.withUnsafeBytes { raw in
            var inString = false
            var escaped = false
            for byte in raw {
                if inString {
                    if escaped {
                        escaped = false
                    } else if byte == UInt8(ascii: "\\") {
                        escaped = true
                    } else if byte == UInt8(ascii: "\"") {
                        inString = false
                    }
                } else if byte == UInt8(ascii: "\"") {
                    inString = true
                } else if byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D {
                    return true
                }
            }
            return false
        }
    }

    /// Whether `byte` occurs in `data` (memchr; `Data.contains` iterates byte by byte).
    static func containsByte(_ byte: UInt8, in data: Data) -> Bool {
        data.withUnsafeBytes { raw in
            guard let base = raw.baseAddress, raw.count > 0 else { return false }
            return memchr(base, Int32(byte), raw.count) != nil
        }
    }

    /// The bytes a cassette body object stands for; `pointer` is spelled out only for an error.
    static func decode(_ value: JSONValue, at pointer: @autoclosure () -> String, in source: String) throws(CassetteError) -> Data {
        guard case .object(let members) = value, let first = members.first else {
            throw .invalidField(path: source, pointer: pointer(),
                                problem: "expected a body object such as {\"text\": \"…\"}, {\"json\": …} or {\"base64\": \"…\"}, found \(describe(value))")
        }
        switch first.key {
        case "json":
            var layout = Layout.compact
            if let name = value["layout"] {
                guard let string = name.stringValue, let known = Layout(rawValue: string) else {
                    throw .invalidField(path: source, pointer: pointer() + "/layout",
                                        problem: "unknown JSON layout \(describe(name)); use one of: "
                                            + Layout.allCases.map(\.rawValue).joined(separator: ", "))
                }
                layout = known
            }
            return layout.render(first.value)
        case "text":
            guard let text = first.value.stringValue else {
                throw .invalidField(path: source, pointer: pointer() + "/text", problem: "expected a string, found \(describe(first.value))")
            }
            return Data(text.utf8)
        case "base64":
            guard let text = first.value.stringValue else {
                throw .invalidField(path: source, pointer: pointer() + "/base64", problem: "expected a string, found \(describe(first.value))")
            }
            guard let data = Data(base64Encoded: text) else {
                throw .invalidField(path: source, pointer: pointer() + "/base64",
                                    problem: "invalid base64 (\(preview(text))); it must be padded standard base64 (A–Z a–z 0–9 + / =)")
            }
            return data
        default:
            throw .invalidField(path: source, pointer: pointer() + "/" + JSONValue.escapePointerToken(first.key),
                                problem: "unknown body kind '\(first.key)'; use \"text\", \"json\" or \"base64\"")
        }
    }

    /// "a string \"abc\"", "a number 3", "an object" — for error messages.
    static func describe(_ value: JSONValue) -> String {
        switch value {
        case .null: return "null"
        case .bool(let bool): return "a boolean \(bool)"
        case .number(let literal): return "a number \(literal)"
        case .string(let string): return "a string \(preview(string))"
        case .array: return "an array"
        case .object: return "an object"
        }
    }

    static func preview(_ text: String) -> String {
        let short = text.count > 40 ? String(text.prefix(40)) + "…" : text
        return "\"" + short + "\""
    }
}
